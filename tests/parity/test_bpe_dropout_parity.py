"""BPE-dropout against `tokenizers`' ``BPE(dropout=p)``: the frequency of each segmentation of a
few words over many draws, ours (seeded) beside theirs (`tokenizers` draws from its thread's
generator, unseeded), two-sample chi-square at 1e-4 per word."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from tokenizers import Tokenizer as HfTokenizer

from core.events import drain
from core.formats.hf_json import tokenizer_to_dict
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from tests.conftest import CORPORA

N = 3000
WORDS = ["something", "thought", "teacher", "everybody", "the"]


def two_sample_fits(ours: Counter, theirs: Counter, z: float = 3.72) -> bool:
    """Do two samples of equal size come from one distribution? Pearson's two-sample statistic
    over the segmentations both saw at least 10 times in all (the rest pooled), against the
    chi-square quantile at 1e-4 (Wilson-Hilferty)."""
    keys = [k for k in set(ours) | set(theirs) if ours[k] + theirs[k] >= 10]
    rest_a = sum(v for k, v in ours.items() if k not in keys)
    rest_b = sum(v for k, v in theirs.items() if k not in keys)
    cells = [(ours[k], theirs[k]) for k in keys] + ([(rest_a, rest_b)] if rest_a + rest_b else [])
    stat = sum((a - b) ** 2 / (a + b) for a, b in cells if a + b)
    k = max(len(cells) - 1, 1)
    return stat < k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


@pytest.fixture(scope="module")
def trained():
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:1500]
    options = TrainOptions("bpe", vocab_size=1000)
    return drain(train_from_counts(pre_tokenize_lines(lines, options), options))


@pytest.mark.parametrize("p", [0.1, 0.4])
def test_segmentation_frequencies_match_tokenizers(trained, p):
    model = trained.model.with_dropout(p, seed=2024)
    d = tokenizer_to_dict(trained)
    d["model"]["dropout"] = p
    d["pre_tokenizer"] = None  # one word at a time, as the model sees it
    theirs_tok = HfTokenizer.from_str(json.dumps(d))
    for word in WORDS:
        assert len(trained.model.tokenize(word)) <= 2, word  # a word the merges mostly join
        ours = Counter(" ".join(t.value for t in model.tokenize(word)) for _ in range(N))
        theirs = Counter(" ".join(theirs_tok.encode(word).tokens) for _ in range(N))
        assert len(ours) > 3, ours  # dropout really varies the segmentation
        assert two_sample_fits(ours, theirs), (word, ours.most_common(6), theirs.most_common(6))


def test_zero_and_one_match_tokenizers_exactly(trained):
    d = tokenizer_to_dict(trained)
    d["pre_tokenizer"] = None
    for p in (0.0, 1.0):
        d["model"]["dropout"] = p
        theirs = HfTokenizer.from_str(json.dumps(d))
        model = trained.model.with_dropout(p, seed=1)
        for word in WORDS + ["unbelievable", "Hm!"]:
            assert [t.value for t in model.tokenize(word)] == theirs.encode(word).tokens
