"""The compiled Unigram Viterbi gives `tokenizers`' ids on the awkward cases: exact ties,
repeated symbols, unknown characters with and without byte fallback, empty, one character,
and one very long word; the batch call gives each text what it gives alone."""

from __future__ import annotations

import random

import pytest

tokenizers = pytest.importorskip("tokenizers")

from unigram_pieces import TIED as _TIED  # noqa: E402

from core.models.unigram.model import Unigram  # noqa: E402
from core.sentencepiece_pieces import byte_piece  # noqa: E402

# plus "ba", scored above b + a
TIED = _TIED + [("ba", -1.75)]
AWKWARD = [
    "",
    "a",
    "x",
    "aaaa",
    "aaaaaaa",
    "abab",
    "▁a▁a",
    "▁aab",
    "먹고먹",
    "a!!b",
    "!€",
    "a€x😀b",
    "▁" * 9,
    "ab" * 3000,
    "a" * 5000 + "!" + "b" * 5000,
]


def _peer(pieces, byte_fallback):
    return tokenizers.Tokenizer(tokenizers.models.Unigram(pieces, unk_id=0, byte_fallback=byte_fallback))


@pytest.mark.parametrize("byte_fallback", [False, True])
def test_awkward_words_get_the_peers_ids(byte_fallback):
    pieces = TIED + ([(byte_piece(b), -9.0) for b in b"!\xf0\x9f\x98\x80"] if byte_fallback else [])
    peer, ours = _peer(pieces, byte_fallback), Unigram(pieces, byte_fallback=byte_fallback)
    rng = random.Random(12)
    words = AWKWARD + [
        "".join(rng.choice("▁ab먹고!x€") for _ in range(rng.randint(1, 30))) for _ in range(500)
    ]
    expected = [peer.encode(w).ids if w else [] for w in words]
    assert ours.tokenize_ids_batch(words) == expected
    for word, ids in zip(words, expected):
        assert ours.tokenize_ids(word) == ids, word
        assert [t.id for t in ours.tokenize(word)] == ids, word
