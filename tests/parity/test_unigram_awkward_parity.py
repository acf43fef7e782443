"""Unigram training on awkward corpora against SentencePiece: tokens needed, one-sided.

Same settings as ``test_unigram_quality`` (identity normalization, "▁" before each line,
pieces of at most 16 characters, shrinking factor 0.75, every character kept, ``<unk>``
only, SentencePiece's script and digit rules off), on small corpora that stress the
compiled lattice sweeps: one repeated symbol ("a" to "aaa…a"), one-character lines,
tied segmentations ("abab", "baba"), mixed scripts with emoji, one long unspaced line.
Both vocabularies are small (SentencePiece with ``hard_vocab_limit=False``, since such
corpora cannot fill a larger one). Our model must not need more tokens than
SentencePiece's to encode the corpus (1 % slack).

The long low-variety line is kept as a strict expected failure: on 20,000 random letters
from "abc" SentencePiece keeps short pieces ("acc", "bcb"...) and needs about 8,700 tokens
at vocab 20; we keep mostly single letters and need about 19,600 (the same before the
compiled sweeps). Random letters cannot be compressed, and the likelihood that Unigram
maximizes says so: our final loss is 21,786 nats, near 20,000 x ln 3 = 21,972 for letters
alone, where SentencePiece's last EM objective is 31,290 (the same quantity, -log Z of the
line). Fewer tokens is the better figure on real text (``test_unigram_quality``); here it
would mean a worse model.
"""

from __future__ import annotations

import random

import pytest

from core.events import drain
from core.models.unigram.trainer import train_unigram
from core.options import TrainOptions, pre_tokenize_lines

pytest.importorskip("sentencepiece")

from peer_training import train_sentencepiece_unigram  # noqa: E402

_rng = random.Random(1)
CORPORA = {
    "repeated symbol": ["a" * k for k in range(1, 60)],
    "one-character lines": list("abcdefghij") * 5,
    "ties": ["ab" * k for k in range(1, 30)] + ["ba" * k for k in range(1, 30)],
    "mixed scripts": ["안녕 👋🏽 naïve café", "안녕하세요 👋", "naïve naïve"] * 10,
    "long low-variety line": ["".join(_rng.choice("abc") for _ in range(20_000))],
}
KNOWN_GAP = {"long low-variety line"}


def _sentencepiece_tokens(lines, vocab, tmp_path) -> int:
    sp = train_sentencepiece_unigram(lines, tmp_path, vocab, hard_vocab_limit=False)
    return sum(len(sp.encode(line)) for line in lines)


def _our_tokens(lines, vocab) -> int:
    options = TrainOptions("unigram", vocab_size=vocab, special_tokens=["<unk>"])
    counts = pre_tokenize_lines(lines, options)
    model = drain(train_unigram(counts, options))
    return sum(c * len(model.tokenize(w)) for w, c in counts.items())


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="random text: see the module docstring"))
        if n in KNOWN_GAP
        else n
        for n in CORPORA
    ],
)
@pytest.mark.parametrize("vocab", [20, 60])
def test_no_more_tokens_than_sentencepiece(name, vocab, tmp_path):
    lines = CORPORA[name]
    ours = _our_tokens(lines, vocab)
    theirs = _sentencepiece_tokens(lines, vocab, tmp_path)
    assert ours <= theirs * 1.01, (ours, theirs)
