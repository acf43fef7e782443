"""A SentencePiece unigram ``.model`` on one very long word gives sentencepiece's ids, every one.

SentencePiece 0.2.3 keeps its Viterbi scores in ``float`` and, once they pass 1e5 in size,
moves them back to 0; far into a long word a float step is large (0.06 near 1e6), so the
near-ties between two segmentations come out as its arithmetic decides them. A model trained
the usual way (``tests/peer_training.py``) on corpus lines meets a word of a few hundred
thousand characters built from those lines' letters: the first differing id is reported.
"""

from __future__ import annotations

import pytest
import regex
from conftest import CORPORA

spm = pytest.importorskip("sentencepiece", minversion="0.2.3")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from peer_training import train_sentencepiece_unigram  # noqa: E402
from sentencepiece_files import both_processors, model_bytes  # noqa: E402

from core.formats.sentencepiece_model import load_sentencepiece  # noqa: E402


def _first_difference(want: list[int], got: list[int]):
    first = next((k for k, (a, b) in enumerate(zip(want, got)) if a != b), None)
    if first is None and len(want) != len(got):
        first = min(len(want), len(got))
    return first


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """(sentencepiece, ours, the letters of the training lines) for one model trained once."""
    directory = tmp_path_factory.mktemp("long-word")
    lines = (CORPORA / "ko-movie-reviews.txt").read_text(encoding="utf-8").splitlines()[:20_000]
    sp = train_sentencepiece_unigram(lines, directory, 8000)
    letters = "".join(regex.findall(r"\p{L}+", "".join(lines)))
    return sp, load_sentencepiece(directory / "spm.model"), letters


@pytest.mark.parametrize("characters", [1_000, 400_000])
def test_long_word_ids_equal_sentencepiece(trained, characters):
    sp, ours, letters = trained
    word = letters[:characters]
    want = sp.encode(word)
    got = ours.encode_ids(word)
    assert _first_difference(want, got) is None, f"of {len(want)} ids"


# scores of thousands with fractions: the sums pass 1e5 every few dozen pieces, where a float
# step is 0.008 or more, and the pieces tie (a + a == aa, ▁ + a == ▁a) up to that rounding
_A = -7919.377
LARGE_SCORES = [
    ("<unk>", 0.0, 2),
    ("▁", _A, 1),
    ("a", _A, 1),
    ("b", 1.5 * _A, 1),
    ("aa", 2 * _A, 1),
    ("▁a", 2 * _A, 1),
    ("ab", 2.5 * _A, 1),
    ("aab", 3.5 * _A, 1),
    ("먹", 0.3 * _A, 1),
]


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="ab▁먹x", min_size=20, max_size=200))
def test_scores_moved_back_as_sentencepiece_moves_them(tmp_path_factory, text):
    sp, ours = both_processors(tmp_path_factory.mktemp("large"), model_bytes(LARGE_SCORES))
    assert ours.encode_ids(text) == sp.encode(text)
