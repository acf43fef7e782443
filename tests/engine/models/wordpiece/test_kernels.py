"""The compiled WordPiece match (``core.models.wordpiece.kernels``) gives the ids of the
readable greedy search (``WordPiece.explain``) on awkward vocabularies and words: a failure in
the middle, words longer than the limit, an empty prefix or a longer one, a word that itself
starts with ``##``, empty and one-character words, repeated symbols."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.models.wordpiece.model import WordPiece

VOCAB = {
    "[UNK]": 0,
    "a": 1,
    "b": 2,
    "ab": 3,
    "##a": 4,
    "##b": 5,
    "##ab": 6,
    "##aa": 7,
    "먹": 8,
    "##고": 9,
    "##": 10,
}


def _readable(model: WordPiece, word: str) -> list[int]:
    steps = model.explain(word)
    if steps and steps[-1][2] is None:
        return [model._unk_id]
    return [model.vocab[t] for _, _, t in steps]


@pytest.mark.parametrize("prefix", ["##", "", "@@@"])
@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.text(alphabet="ab#먹고x@", max_size=14), max_size=8))
def test_kernel_equals_the_readable_greedy_match(prefix, words):
    vocab = {(prefix + t[2:] if t.startswith("##") and len(t) > 2 else t): i for t, i in VOCAB.items()}
    model = WordPiece(vocab, continuing_subword_prefix=prefix, max_input_chars_per_word=10)
    assert model.tokenize_ids_batch(words) == [_readable(model, w) for w in words]


def test_awkward_words_by_hand():
    model = WordPiece(VOCAB, max_input_chars_per_word=6)
    assert model.tokenize_ids_batch(["", "a", "aaaa", "abx", "##a", "aaaaaaa", "먹고", "##b#"]) == [
        [],  # nothing to match
        [1],
        [1, 7, 4],  # a ##aa ##a: the longest continuing piece first
        [0],  # x matches nothing: the whole word is unknown
        [4],  # at the start of a word "##a" is looked up as it is, and it is in the vocabulary
        [0],  # 7 characters, over the limit of 6
        [8, 9],
        [0],  # "##b" (looked up as it is), then "###" is no piece: the whole word is unknown
    ]


def test_no_continuing_pieces_at_all():
    model = WordPiece({"[UNK]": 0, "a": 1, "ab": 2})
    assert model.tokenize_ids_batch(["ab", "aa", "a"]) == [[2], [0], [1]]
