"""Library entry points refuse bad input with the engine's own errors, the same way for every model."""

from __future__ import annotations

import pytest

from core.errors import ConfigError, CorpusError, InputError, SubwordError
from core.events import drain
from core.options import TrainOptions
from core.training import train_from_counts

HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
ALGORITHMS = ["bpe", "bytelevel-bpe", "wordpiece", "unigram"]


@pytest.fixture(scope="module", params=ALGORITHMS)
def tokenizer(request):
    size = 300 if request.param == "bytelevel-bpe" else 20
    return drain(train_from_counts(HUG, TrainOptions(request.param, vocab_size=size)))


@pytest.mark.parametrize("text", [None, b"hug", 3, ["hug"]])
def test_encode_refuses_what_is_not_a_string(tokenizer, text):
    with pytest.raises(InputError, match="must be a string"):
        tokenizer.encode(text)


@pytest.mark.parametrize("text", ["a\ud800b", "\udfff", "hug \ud83d"])
def test_every_model_refuses_a_lone_surrogate_the_same_way(tokenizer, text):
    with pytest.raises(InputError, match="lone surrogate U\\+D[89A-F][0-9A-F]{2} at character"):
        tokenizer.encode(text)
    with pytest.raises(InputError):
        tokenizer.pieces(text)


def test_a_real_astral_character_is_not_a_surrogate(tokenizer):
    text = "hug 👋🏽 철수"
    enc = tokenizer.encode(text)
    assert all(0 <= s <= e <= len(text) for s, e in enc.offsets)


@pytest.mark.parametrize(
    "counts, words",
    [
        ({"hug": -3, "pug": 5}, "'hug' must be a positive whole number, not -3"),
        ({"hug": 0}, "not 0"),
        ({"hug": 2.5}, "not 2.5"),
        ({"hug": True}, "not True"),
        ({1: 3, "pug": 5}, "the word 1 is of type int"),
        ({b"hug": 3}, "of type bytes"),
        ({"a\ud800": 3}, "lone surrogate"),
        ([("hug", 3)], "must be a dict"),
    ],
)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_train_from_counts_refuses_bad_counts(counts, words, algorithm):
    with pytest.raises(CorpusError, match=words.replace("(", r"\(").replace(")", r"\)")):
        drain(train_from_counts(counts, TrainOptions(algorithm, vocab_size=300)))


@pytest.mark.parametrize(
    "algorithm, extra",
    [
        ("bpe", {"shrinking_factor": 0.5}),
        ("wordpiece", {"textbook": True}),
        ("unigram", {"score": "frequency"}),
        ("bytelevel-bpe", {"max_piece_length": 4}),
    ],
)
def test_options_of_another_algorithm_are_refused(algorithm, extra):
    with pytest.raises(ConfigError, match="option; the .* trainer does not use it"):
        TrainOptions(algorithm, vocab_size=100, extra=extra)


@pytest.mark.parametrize(
    "extra",
    [
        {"shrinking_factor": 5},
        {"shrinking_factor": 0},
        {"shrinking_factor": float("nan")},
        {"max_piece_length": 0},
        {"max_piece_length": 2.5},
    ],
)
def test_unigram_settings_out_of_range_fail_before_training(extra):
    with pytest.raises(ConfigError):
        TrainOptions("unigram", vocab_size=100, extra=extra)


@pytest.mark.parametrize("alpha", [0, -1, float("inf"), float("nan")])
def test_unigram_sampling_needs_a_finite_positive_alpha(alpha):
    tok = drain(train_from_counts(HUG, TrainOptions("unigram", vocab_size=20)))
    with pytest.raises(SubwordError, match="finite alpha"):
        tok.model.sample("▁hug", alpha)
