"""Quality against SentencePiece: total tokens on a real corpus at vocab 8000, same settings.

Both trainers see the same text (UTF-8, LF line ends, no BOM), identity
normalization, "▁" for spaces and before each line, pieces of at most 16
characters, shrinking factor 0.75, every character kept, ``<unk>`` the one
special token; SentencePiece's Unicode-script and digit rules are off (we do
not have them) and its line-length limit is raised so it sees every line.

The Korean file is 237k lines; to stay within the CI budget the test uses its
first 30,000 lines (a deterministic subset; the benchmark uses the whole file).

The bound is one-sided on purpose: we must not need more than 1 % more tokens
than SentencePiece. With these settings we need *fewer* tokens than
SentencePiece 0.2.x, so a two-sided 1 % bound would fail for being better.
Measured when this test was written (vocab 8000): Japanese novel (lines of up
to 7,600 characters, no spaces) ours 178,864, SentencePiece 188,752 (-5.2 %),
`tokenizers` 177,049; Korean first 30,000 lines ours 553,664, SentencePiece
560,735 (-1.3 %), `tokenizers` 555,510; the whole Korean file (benchmark) ours
4,068,426, SentencePiece 4,081,045 (-0.3 %). The gap comes from the seed: we see
words, SentencePiece sees whole lines, so its suffix-tree seeds leave out
substrings that, in its lines, are always followed by the same character.
"""

from __future__ import annotations

import pytest

from core.events import drain
from core.models.unigram.trainer import train_unigram
from core.options import TrainOptions, pre_tokenize_lines

pytest.importorskip("sentencepiece")

from peer_training import train_sentencepiece_unigram  # noqa: E402

VOCAB = 8000
KOREAN_SUBSET_LINES = 30_000


def _lines(path, limit=None):
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    return lines[:limit] if limit else lines


def _sentencepiece_tokens(lines, tmp_path) -> int:
    sp = train_sentencepiece_unigram(lines, tmp_path, VOCAB)
    assert sp.get_piece_size() == VOCAB
    return sum(len(sp.encode(line)) for line in lines)


def _our_tokens(lines) -> int:
    options = TrainOptions("unigram", vocab_size=VOCAB, special_tokens=["<unk>"])
    counts = pre_tokenize_lines(lines, options)
    model = drain(train_unigram(counts, options))
    assert model.vocab_size == VOCAB
    return sum(c * len(model.tokenize(w)) for w, c in counts.items())


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, limit",
    [
        ("ja-wagahaiwa.txt", None),
        ("ko-movie-reviews.txt", KOREAN_SUBSET_LINES),
    ],
)
def test_total_tokens_not_above_sentencepiece(corpora_dir, tmp_path, name, limit):
    lines = _lines(corpora_dir / name, limit)
    theirs = _sentencepiece_tokens(lines, tmp_path)
    ours = _our_tokens(lines)
    ratio = ours / theirs
    assert ratio <= 1.01, f"ours {ours:,} tokens vs SentencePiece {theirs:,} ({100 * (ratio - 1):+.2f} %)"
