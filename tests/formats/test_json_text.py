"""core.formats.json_text writes exactly what json.dumps(obj, ensure_ascii=False, indent=2) writes."""

from __future__ import annotations

import json
from collections import namedtuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import drain
from core.formats.hf_json import save_tokenizer_json, tokenizer_to_dict
from core.formats.json_text import dumps_indented
from core.options import TrainOptions
from core.training import train_from_counts


def _reference(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),  # any code point, lone surrogates and the characters JSON escapes included
)
# The shapes the fast paths take: a column of one scalar type, and rows of one width whose columns
# are each of one type (a merge list, Unigram's [piece, score] rows); mixed ones fall back.
COLUMN = st.one_of(
    st.lists(st.integers()), st.lists(st.floats()), st.lists(st.text()), st.lists(st.booleans())
)
ROWS = st.integers(0, 3).flatmap(
    lambda width: st.lists(
        st.tuples(*[st.one_of(st.text(max_size=3), st.integers(), st.floats())] * width).map(list), max_size=6
    )
)
ROWS_TYPED = st.lists(st.tuples(st.text(max_size=4), st.floats()).map(list), max_size=8)
JSON = st.recursive(
    st.one_of(SCALARS, COLUMN, ROWS, ROWS_TYPED),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(st.text(max_size=5), inner, max_size=5),
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_any_plain_data_is_written_as_json_writes_it(obj):
    assert dumps_indented(obj) == _reference(obj)


@pytest.mark.parametrize(
    "obj",
    [
        {},
        [],
        [[]],
        [[], []],
        {"a": {}, "b": [], "c": [[]]},
        [["u", "g"], ["h", "ug"]],
        [["▁the", -3.25], ["<unk>", 0.0]],
        [[1, "x"], [2, "y"], [3, 4]],  # a column of two types
        [["a", "b"], ["c"]],  # rows of two widths
        [[True, False], [False, True]],
        [0.1, float("nan"), float("inf"), -float("inf"), -0.0, 1e300],
        {"vocab": {'"\\\n\t\u2028\x00é한': 1, "b": 2}},
        ["\ud800", "a\udfffb"],
    ],
)
def test_the_fast_shapes_and_their_edges(obj):
    assert dumps_indented(obj) == _reference(obj)


Pair = namedtuple("Pair", "left right")


class Word(str):
    pass


@pytest.mark.parametrize(
    "obj",
    [
        {1: "a", 2.5: "b", None: "c", False: "d"},  # keys json turns into strings
        [Pair("u", "g")],
        {"w": Word("x")},
        [Word("a"), Word("b")],
        {"n": [1, True]},
    ],
)
def test_what_is_not_plain_goes_to_json_dumps(obj):
    assert dumps_indented(obj) == _reference(obj)


def test_what_json_refuses_is_refused_alike():
    with pytest.raises(TypeError):
        dumps_indented({"a": [object()]})
    circular: list = []
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular"):
        dumps_indented({"a": circular})


HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5, "한국어": 3, "naïve": 2}


@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe", "wordpiece", "unigram"])
def test_a_trained_tokenizer_json_is_byte_for_byte_the_same(algorithm, tmp_path):
    counts = HUG
    if algorithm == "bytelevel-bpe":
        from core.bytelevel import bytes_to_chars

        counts = {bytes_to_chars(w.encode()): n for w, n in HUG.items()}
    options = TrainOptions(algorithm, vocab_size=40 if algorithm != "bytelevel-bpe" else 270)
    tok = drain(train_from_counts(counts, options))
    save_tokenizer_json(tok, tmp_path / "tokenizer.json")
    written = (tmp_path / "tokenizer.json").read_text(encoding="utf-8")
    assert written == _reference(tokenizer_to_dict(tok))
