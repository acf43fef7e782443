"""The compiled Unigram Viterbi (``core.models.unigram.kernels``) finds exactly the path of the
readable Python Viterbi it replaces, on models full of exact ties, unknown characters, byte
fallback, user-defined and unused pieces, and on empty, one-character and very long texts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from unigram_pieces import TIED

from core.errors import SubwordError
from core.models.unigram.kernels import PieceTrie, best_ids
from core.models.unigram.model import Unigram
from core.models.unigram.sentencepiece import SentencePieceUnigram
from core.sentencepiece_pieces import UNKNOWN, UNUSED, USER_DEFINED, Piece, byte_piece, f32
from core.text import codepoints

ALPHABET = "▁ab먹고!€x\U0001f600"


def _readable_ids(model: Unigram, text: str) -> list[int]:
    return [t.id for t in model._to_tokens(text, model._viterbi(text))]


@pytest.mark.parametrize("byte_fallback", [False, True])
@settings(max_examples=150, deadline=None)
@given(texts=st.lists(st.text(alphabet=ALPHABET, max_size=40), max_size=6))
def test_kernel_equals_the_readable_viterbi(byte_fallback, texts):
    pieces = TIED + ([(byte_piece(b), -9.0) for b in b"!\xe2\x82"] if byte_fallback else [])
    model = Unigram(pieces, byte_fallback=byte_fallback)
    expected = [_readable_ids(model, t) for t in texts]
    assert model.tokenize_ids_batch(texts) == expected
    assert [model.tokenize_ids(t) for t in texts] == expected
    for t in texts:
        assert model._best_path(t) == model._viterbi(t)
        assert model.tokenize(t) == model._to_tokens(t, model._viterbi(t))
    fresh = Unigram(pieces, byte_fallback=byte_fallback)  # nothing kept yet: all through one call
    assert [list(ts) for ts in fresh.tokenize_batch(texts)] == [
        model._to_tokens(t, model._viterbi(t)) for t in texts
    ]
    assert [list(ts) for ts in fresh.tokenize_batch(texts)] == [fresh.tokenize(t) for t in texts]  # now kept


def test_ties_keep_the_path_found_first():
    model = Unigram(TIED)
    # "aaa" = -3 whichever way; the first path to reach the end with it is the single piece
    assert model.tokenize_ids("aaa") == [7] == _readable_ids(model, "aaa")
    # "aaaa": a|aaa, aa|aa, aaa|a ... all -4; the first found ends in the piece from position 1
    assert model.tokenize_ids("aaaa") == _readable_ids(model, "aaaa")
    assert model.tokenize_ids("") == [] and model.tokenize_ids_batch([]) == []
    assert model.tokenize_ids("a") == [2]


def test_unknown_runs_fuse_and_byte_fallback_needs_every_byte():
    model = Unigram(TIED + [(byte_piece(0x21), -9.0)], byte_fallback=True)
    assert model.tokenize_ids("a!!b") == [2, 12, 12, 3]  # "!" has its byte piece
    assert model.tokenize_ids("a!€b") == [2, 0, 3]  # "€" has not: the whole run is one unknown
    plain = Unigram(TIED)
    assert plain.tokenize_ids("x€x") == [0]


def test_no_unknown_token_is_the_same_clear_error():
    model = Unigram(TIED[1:], unk_id=None)
    assert model.tokenize_ids_batch(["ab", "aa"]) == [[5], [3]]
    with pytest.raises(SubwordError, match="no unknown token"):
        model.tokenize_ids_batch(["ab", "a!b"])


def test_very_long_words_are_linear_and_exact():
    model = Unigram(TIED)
    text = ("ab먹고" * 20_000) + "aaaa"
    assert model.tokenize_ids(text) == _readable_ids(model, text)
    assert model.tokenize_ids_batch([text, "a", text]) == [
        model.tokenize_ids(text),
        [2],
        model.tokenize_ids(text),
    ]


def test_the_trie_finds_every_piece_and_nothing_else():
    trie = PieceTrie.build([("ab", 5, -1.0, False), ("abc", 6, -1.0, False), ("b", 7, -0.5, False)])
    codes, bounds = codepoints(["abc", "b", "c"])
    ids, ends = best_ids(codes, bounds, trie, unk_id=0, unk_score=-20.0)
    assert [ids[ends[k] : ends[k + 1]].tolist() for k in range(3)] == [[6], [7], [0]]
    assert trie.max_piece_length == 3


SP_PIECES = [
    Piece("<unk>", 0.0, UNKNOWN),
    Piece("▁", -1.0),
    Piece("a", -1.0),
    Piece("b", -1.5),
    Piece("aa", -2.0),
    Piece("▁a", -2.0),
    Piece("ab", -2.5),
    Piece("aab", -3.5),
    Piece("<u>", 0.0, USER_DEFINED),
    Piece("ba", -0.1, UNUSED),
    Piece("먹", -0.3),
]


@pytest.mark.parametrize("byte_fallback", [False, True])
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="ab▁먹x€<u>", max_size=50))
def test_sentencepiece_kernel_equals_the_readable_float32_viterbi(byte_fallback, text):
    pieces = SP_PIECES + ([Piece(byte_piece(b), 0.0, 6) for b in range(256)] if byte_fallback else [])
    model = SentencePieceUnigram(pieces, byte_fallback=byte_fallback)
    segments = model._segment_readable(text)
    assert model._segment(text) == segments
    assert model.tokenize_ids(text) == list(model._ids(text, segments))
    assert [t.id for t in model.tokenize(text)] == list(model._ids(text, segments))


def test_sentencepiece_user_defined_pieces_win_and_unused_ones_never_appear():
    model = SentencePieceUnigram(SP_PIECES)
    assert model.tokenize_ids("a<u>ba") == [2, 8, 3, 2]


def test_batches_of_many_texts_fill_every_hole_in_order():
    from core.pre_tokenizers import Metaspace
    from core.tokenizer import _IDS_BATCH_TEXTS, AddedToken, Tokenizer

    tok = Tokenizer(Unigram(TIED), pre_tokenizer=Metaspace(), added_tokens=[AddedToken("<sep>", 99)])
    words = ["a", "ab", "먹고", "aab!", "b a", "aaaa"]
    texts = [
        " ".join(words[(k * 7 + j) % 6] for j in range(k % 9)) + " <sep> " + "ab" * (k % 5)
        for k in range(2500)
    ]
    assert len(texts) > 2 * _IDS_BATCH_TEXTS  # several batches, the last one short
    expected = [tok.encode(t).ids for t in texts]
    assert (
        Tokenizer(
            Unigram(TIED), pre_tokenizer=Metaspace(), added_tokens=[AddedToken("<sep>", 99)]
        ).encode_batch_ids(iter(texts))
        == expected
    )
    long_text = " ".join(f"a{'b' * (k % 40)}" for k in range(20_000))
    assert tok.encode_ids(long_text) == tok.encode(long_text).ids


@settings(max_examples=100, deadline=None)
@given(text=st.text(alphabet="ab▁먹x", min_size=30, max_size=120))
def test_sentencepiece_kernel_moves_scores_back_as_the_readable_viterbi_does(text):
    """Scores of thousands pass SentencePiece's 1e5 reset every few dozen pieces."""
    pieces = [Piece(p.piece, f32(p.score * 7919.377), p.type) for p in SP_PIECES]
    model = SentencePieceUnigram(pieces)
    segments = model._segment_readable(text)
    assert model._segment(text) == segments
    assert model.tokenize_ids(text) == list(model._ids(text, segments))
