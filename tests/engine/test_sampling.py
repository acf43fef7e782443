"""core.sampling: seeded BPE-dropout and Unigram samples of a text, and their length inflation."""

from __future__ import annotations

import pytest

from core.errors import ConfigError
from core.events import drain
from core.models.wordpiece.model import WordPiece
from core.options import TrainOptions, pre_tokenize_lines
from core.sampling import sample_segmentations, sampling_method
from core.tokenizer import Tokenizer
from core.training import train_from_counts

LINES = ["the cat sat on the mat", "hugs and pugs 영화가 정말 재미있었어요"] * 20
TEXT = "the cat 영화가\nhugs and pugs"


def _train(algorithm: str, vocab_size: int):
    opts = TrainOptions(algorithm, vocab_size=vocab_size)
    return drain(train_from_counts(pre_tokenize_lines(LINES, opts), opts))


@pytest.fixture(scope="module")
def bpe():
    return _train("bpe", 120)


@pytest.fixture(scope="module")
def unigram():
    return _train("unigram", 120)


def test_dropout_samples_are_seeded_and_bounded_by_p(bpe):
    assert sampling_method(bpe.model) == "dropout"
    a = sample_segmentations(bpe, TEXT, 6, 0.5, seed=7)
    assert a == sample_segmentations(bpe, TEXT, 6, 0.5, seed=7)
    assert a != sample_segmentations(bpe, TEXT, 6, 0.5, seed=8)
    det = a.deterministic
    assert list(det.tokens) == [t for line in TEXT.split("\n") for t in bpe.encode(line).tokens]
    for seg in a.samples:  # another cut of the same text
        assert "".join(seg.tokens) == "".join(det.tokens)
    mean = sum(len(s) for s in a.samples) / 6
    assert a.inflation == pytest.approx(mean / len(det) - 1) and a.inflation > 0
    none = sample_segmentations(bpe, TEXT, 3, 0.0, seed=1)
    assert all(s.tokens == none.deterministic.tokens for s in none.samples) and none.inflation == 0
    # a model loaded with dropout on still shows its deterministic cut first
    loaded = Tokenizer(bpe.model.with_dropout(1.0, seed=0), pre_tokenizer=bpe.pre_tokenizer)
    assert sample_segmentations(loaded, TEXT, 2, 0.5, seed=7).deterministic == det
    chars = sample_segmentations(bpe, "hugs", 2, 1.0, seed=1)
    assert all(s.tokens == ("h", "u", "g", "s") for s in chars.samples)


def test_unigram_samples_are_seeded(unigram):
    assert sampling_method(unigram.model) == "unigram"
    a = sample_segmentations(unigram, TEXT, 20, 0.05, seed=3)
    assert a == sample_segmentations(unigram, TEXT, 20, 0.05, seed=3)
    assert len({s.tokens for s in a.samples}) > 1
    assert all("".join(s.tokens) == "".join(a.deterministic.tokens) for s in a.samples)


def test_a_model_that_cannot_sample_and_bad_strengths_say_so(bpe, unigram):
    wp = Tokenizer(WordPiece({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    assert sampling_method(wp.model) is None
    with pytest.raises(ConfigError, match="cannot sample"):
        sample_segmentations(wp, "a", 3, 0.1, seed=0)
    with pytest.raises(ConfigError, match="probability"):
        sample_segmentations(bpe, "a", 3, 1.5, seed=0)
    with pytest.raises(ConfigError, match="alpha"):
        sample_segmentations(unigram, "a", 3, 0.0, seed=0)
    with pytest.raises(ConfigError, match="samples"):
        sample_segmentations(bpe, "a", 0, 0.1, seed=0)
