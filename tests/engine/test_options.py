"""core.options names the algorithms; core.training has a trainer for each, and nothing else."""

import pytest

from core.errors import ConfigError
from core.models.factory import TRAINERS
from core.options import ALGORITHMS, DEFAULT_PRE_TOKENIZER, DEFAULT_SPECIAL_TOKENS, TrainOptions
from core.training import trainer_for


def test_every_algorithm_has_a_trainer_and_its_defaults():
    assert set(TRAINERS) == set(ALGORITHMS) == set(DEFAULT_PRE_TOKENIZER) == set(DEFAULT_SPECIAL_TOKENS)
    for algorithm in ALGORITHMS:
        assert callable(trainer_for(algorithm))
        assert TrainOptions(algorithm).pre_tokenizer == DEFAULT_PRE_TOKENIZER[algorithm]


def test_an_unknown_algorithm_is_one_clear_line():
    with pytest.raises(ConfigError, match=r"unknown algorithm 'bpee'; choose from bpe, bytelevel-bpe"):
        TrainOptions("bpee")
