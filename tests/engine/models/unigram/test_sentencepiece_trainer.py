"""The SentencePiece Unigram trainer's array versions of the shared helpers, held to the readable ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.models.unigram.sentencepiece_trainer import _renamed, _required_chars_masked
from core.sentencepiece_training import BOUNDARY, UNK_CHAR, mask_rare_chars, required_chars

# frequent and rare letters, the unknown mark itself, the boundary, a surrogate, an emoji, Hangul
_ALPHABET = ["▁", "a", "a", "a", "b", "c", "가", "😀", UNK_CHAR, BOUNDARY, "\ud800", "\x00"]


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.lists(st.sampled_from(_ALPHABET), min_size=0, max_size=8).map("".join),
        st.integers(1, 50),
        max_size=30,
    ),
    st.sampled_from([0.98, 0.9995, 1.0]),
)
def test_required_chars_and_masking_equal_the_readable_helpers(counts, coverage):
    chars, renamed = _required_chars_masked(counts, coverage)
    expected = required_chars(counts, coverage)
    assert chars == expected and list(chars) == list(expected)
    assert _renamed(counts, renamed) == mask_rare_chars(counts, expected)
    assert all(renamed.get(w, w) == next(iter(mask_rare_chars({w: 1}, expected))) for w in counts)
