"""Rényi and Shannon efficiency are tokenization-scorer's (Zouhar et al. 2023) to 1e-9 on the same tokens."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from measures_files import abc_bpe

tokenization_scorer = pytest.importorskip("tokenization_scorer")

from core.events import drain
from core.measures import DEFAULT_ALPHA, renyi_efficiency, report, shannon_efficiency


def _token_lists(seed: int) -> list[list[str]]:
    """Lines of tokens with a Zipf-like spread (the scorer reads whitespace-separated tokens)."""
    rng = random.Random(seed)
    types = [f"t{n}" for n in range(rng.randint(2, 3000))]
    weights = [1 / (rank + 1) for rank in range(len(types))]
    return [rng.choices(types, weights, k=rng.randint(1, 40)) for _ in range(rng.randint(1, 400))]


def _scorer(lines: list[list[str]], metric: str, **extra) -> float:
    return float(tokenization_scorer.score([" ".join(line) for line in lines], metric=metric, **extra))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("alpha", [DEFAULT_ALPHA, 2.5, 2.0, 0.5])
def test_renyi_efficiency_is_tokenization_scorers(seed, alpha):
    lines = _token_lists(seed)
    counts = Counter(t for line in lines for t in line)
    assert renyi_efficiency(counts.values(), alpha) == pytest.approx(
        _scorer(lines, "renyi", power=alpha), abs=1e-9
    )


@pytest.mark.parametrize("seed", range(12))
def test_shannon_efficiency_is_tokenization_scorers(seed):
    lines = _token_lists(seed)
    counts = Counter(t for line in lines for t in line)
    assert shannon_efficiency(counts.values()) == pytest.approx(_scorer(lines, "shannon"), abs=1e-9)


def test_the_default_order_is_tokenization_scorers():
    lines = _token_lists(99)
    counts = Counter(t for line in lines for t in line)
    assert renyi_efficiency(counts.values()) == pytest.approx(_scorer(lines, "renyi"), abs=1e-9)


@pytest.mark.parametrize("vocab", [3000, 32000])
def test_a_given_vocabulary_size_is_tokenization_scorers_vocab_option(vocab):
    lines = _token_lists(7)
    counts = Counter(t for line in lines for t in line)
    assert renyi_efficiency(counts.values(), 2.5, vocab_size=vocab) == pytest.approx(
        _scorer(lines, "renyi", power=2.5, vocab=vocab), abs=1e-9
    )
    assert shannon_efficiency(counts.values(), vocab_size=vocab) == pytest.approx(
        _scorer(lines, "shannon", vocab=vocab), abs=1e-9
    )


def test_the_reports_efficiencies_are_the_scorers_on_its_encoding(tmp_path):
    tok = abc_bpe(tmp_path)
    corpus = ["ab c a", "abc ab b", "c c b a", "a b c ab"]
    card = drain(report([tok], corpus))
    encoded = [[f"id{i}" for i in tok.encode(line).ids] for line in corpus]
    (row,) = card.tokenizers
    assert row.renyi == pytest.approx(_scorer(encoded, "renyi"), abs=1e-9)
    assert row.shannon == pytest.approx(_scorer(encoded, "shannon"), abs=1e-9)
