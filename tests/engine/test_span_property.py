"""Property: token spans never overlap and always slice the original text, for every model type.

Every model is checked as trained and as loaded back from its saved files (the
folder ``subword train`` writes, and tokenizer.json alone), on any text: Korean,
emoji with modifiers, combining marks, control characters, spaces of all kinds.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli import _save_outputs
from core.events import drain
from core.formats.detect import open_tokenizer
from core.options import TrainOptions
from core.training import train_from_counts

CORPUS = {
    "hug": 10,
    "pug": 5,
    "pun": 12,
    "bun": 4,
    "hugs": 5,
    "철수는": 3,
    "치킨을": 2,
    "먹고": 4,
    "👋🏽": 2,
    "café": 3,
    "0": 1,
    "10": 2,
}
SIZES = {"bpe": 40, "bytelevel-bpe": 300, "wordpiece": 40, "unigram": 30}

# Any Unicode text but lone surrogates (refused by every entry point, see core.text.check_text),
# with the characters most likely to be cut into several tokens drawn often.
TEXT = st.text(
    st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from(list("철수는 치킨 👋🏽 é e\u0301 ﬁ ½ \t\n\u3000 0")),
    ),
    max_size=40,
)


def _tokenizers():
    out = {}
    for algorithm, size in SIZES.items():
        out[algorithm] = drain(train_from_counts(CORPUS, TrainOptions(algorithm, vocab_size=size)))
    return out


@pytest.fixture(scope="module")
def every_model(tmp_path_factory):
    """Each model as trained, from its saved folder, and from its tokenizer.json alone."""
    models = {}
    for algorithm, tok in _tokenizers().items():
        folder = tmp_path_factory.mktemp(algorithm)
        _save_outputs(tok, folder, io.StringIO())
        models[f"{algorithm}-trained"] = tok
        models[f"{algorithm}-folder"] = open_tokenizer(folder).tokenizer
        models[f"{algorithm}-tokenizer.json"] = open_tokenizer(folder / "tokenizer.json").tokenizer
        if algorithm == "bpe":
            models["bpe-vocab.json+merges.txt"] = open_tokenizer(folder / "vocab.json").tokenizer
        if algorithm == "wordpiece":
            models["wordpiece-vocab.txt"] = open_tokenizer(folder / "vocab.txt").tokenizer
    return models


def assert_disjoint_slices(text: str, offsets) -> None:
    end = 0
    for start, stop in offsets:
        assert 0 <= start <= stop <= len(text), (text, offsets)
        assert start >= end, f"span ({start}, {stop}) overlaps the one before it: {offsets} of {text!r}"
        end = stop


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_spans_never_overlap_and_slice_the_text(every_model, text):
    for name, tok in every_model.items():
        enc = tok.encode(text)
        assert len(enc.offsets) == len(enc.ids), name
        assert_disjoint_slices(text, enc.offsets)


@pytest.mark.parametrize(
    "text, algorithm",
    [("0", "unigram"), ("x0", "unigram"), ("한", "bytelevel-bpe"), ("\thug", "bytelevel-bpe"), ("가", "bpe")],
)
def test_the_audits_cases(every_model, text, algorithm):
    for name, tok in every_model.items():
        if name.startswith(algorithm):
            assert_disjoint_slices(text, tok.encode(text).offsets)


def test_a_lone_metaspace_gets_the_empty_span_as_in_sentencepiece(every_model):
    # the audit's case: a character c whose "▁c" is not a piece is cut as "▁" + "c";
    # `tokenizers` gives both (0, 1), SentencePiece gives the "▁" the empty span (0, 0)
    tok = every_model["unigram-trained"]
    cut = [c for c in "abcdefghijklmnopqrstuvwxyz" if tok.encode(c).tokens == ["▁", c]]
    assert cut, "no character of the alphabet lacks its ▁ piece: the case is not exercised"
    assert tok.encode(cut[0]).offsets == [(0, 0), (0, 1)]
