"""BPE-dropout (Provilkov et al., 2020) on the BPE model: the semantics of `tokenizers`'
``BPE(dropout=p)`` (each candidate merge popped from the heap is skipped with probability p),
seeded draws, and no cache anywhere on the way (a word met twice is drawn twice).
The comparison with `tokenizers` itself is tests/parity/test_bpe_dropout_parity.py."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from core.errors import ConfigError
from core.events import drain
from core.models.bpe.model import BPE
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from tests.conftest import CORPORA

N = 4000


def chi_square_fits(counts: Counter, expected: dict, n: int, z: float = 3.72) -> bool:
    """Does ``counts`` (n draws) fit the probabilities ``expected``? Pearson's statistic against
    the chi-square quantile at 1e-4 (Wilson-Hilferty's approximation), cells below 5 expected pooled."""
    stat, pooled_obs, pooled_exp, cells = 0.0, 0, 0.0, 0
    for key, p in expected.items():
        e = p * n
        if e < 5:
            pooled_obs, pooled_exp = pooled_obs + counts.get(key, 0), pooled_exp + e
            continue
        stat += (counts.get(key, 0) - e) ** 2 / e
        cells += 1
    if pooled_exp > 0:
        stat += (pooled_obs - pooled_exp) ** 2 / max(pooled_exp, 1e-9)
        cells += 1
    assert sum(counts.values()) == n and set(counts) <= set(expected), counts
    k = max(cells - 1, 1)
    quantile = k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3
    return stat < quantile


def abc_model(dropout, seed=0) -> BPE:
    return BPE(
        {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4}, [("a", "b"), ("b", "c")], dropout=dropout, seed=seed
    )


@pytest.fixture
def botchan():
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:400]
    options = TrainOptions("bpe", vocab_size=400)
    return drain(train_from_counts(pre_tokenize_lines(lines, options), options)), lines


def test_dropout_zero_or_none_is_the_plain_model(botchan):
    tok, lines = botchan
    words = " ".join(lines).split()[:2000]
    plain = tok.model
    for p in (None, 0.0):
        model = plain.with_dropout(p, seed=1)
        assert model.deterministic
        assert [[t.value for t in model.tokenize(w)] for w in words] == [
            [t.value for t in plain.tokenize(w)] for w in words
        ]


def test_dropout_one_leaves_every_character(botchan):
    tok, lines = botchan
    model = tok.model.with_dropout(1.0, seed=1)
    assert not model.deterministic
    for w in " ".join(lines).split()[:2000]:
        assert [t.value for t in model.tokenize(w)] == [c if c in model.vocab else "<unk>" for c in w]


def test_one_candidate_is_skipped_with_probability_p():
    # "ab" has one candidate merge: skipped, the heap is empty and it is never applied
    for p in (0.1, 0.5, 0.9):
        model = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")], dropout=p, seed=7)
        unmerged = sum(len(model.tokenize("ab")) == 2 for _ in range(N))
        sigma = math.sqrt(N * p * (1 - p))
        assert abs(unmerged - N * p) < 4 * sigma, (p, unmerged)


@pytest.mark.parametrize("p", [0.1, 0.3, 0.7])
def test_a_skipped_candidate_returns_when_the_next_one_is_taken(p):
    """On "abc", merges a+b then b+c. a+b skipped (p), b+c taken (1-p): the skipped a+b goes back
    to the heap, finds 'a bc' and is stale: 'a bc'. Both skipped (p²): nothing merges. So
    ab|c with 1-p, a|bc with p(1-p), a|b|c with p²; a rule that dropped skipped candidates for
    good would give the same, one that re-drew them later would make ab|c likelier."""
    model = abc_model(p, seed=11)
    counts = Counter(" ".join(t.value for t in model.tokenize("abc")) for _ in range(N))
    assert chi_square_fits(counts, {"ab c": 1 - p, "a bc": p * (1 - p), "a b c": p * p}, N), counts


def test_the_same_seed_gives_the_same_samples():
    words = ["abcabc", "abc", "cab"] * 50

    def run(seed):
        model = abc_model(0.4, seed)
        return [" ".join(t.value for t in model.tokenize(w)) for w in words]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_no_cache_on_the_way(botchan):
    """Every way of encoding draws each occurrence afresh: the model's word cache, the
    tokenizer's chunk plan and its ids cache all stand aside."""
    tok, _ = botchan
    tok.model = tok.model.with_dropout(0.5, seed=3)
    text = " ".join(["something"] * 200)
    words_of = lambda tokens: " ".join(tokens).replace(" ", "|")  # noqa: E731
    assert len(set(map(tuple, _by_word(tok.encode(text))))) > 5
    assert len(set(map(tuple, _by_word(tok.encode_batch([text])[0])))) > 5
    assert len({tuple(tok.encode_ids("something")) for _ in range(100)}) > 5
    assert len({tuple(ids) for ids in tok.encode_batch_ids(["something"] * 100)}) > 5
    assert len({tuple(ids) for ids in tok.model.tokenize_ids_batch(["something"] * 100)}) > 5
    assert len({words_of(t.value for t in ts) for ts in tok.model.tokenize_batch(["something"] * 100)}) > 5
    assert tok.model.tokenize_ids_flat(["something"]) is None


def _by_word(enc) -> list[list[str]]:
    words: dict[int, list[str]] = {}
    for token, w in zip(enc.tokens, enc.word_ids):
        words.setdefault(w, []).append(token)
    return list(words.values())


def test_seeded_encodings_repeat(botchan):
    tok, lines = botchan
    text = " ".join(lines[:20])
    runs = []
    for _ in range(2):
        tok.model = tok.model.with_dropout(0.3, seed=42)
        runs.append([tok.encode(text).tokens for _ in range(3)])
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[0][1]  # successive draws differ


def test_dropout_outside_zero_to_one_is_refused():
    for p in (-0.1, 1.5, float("nan"), "0.5", True):
        with pytest.raises(ConfigError, match="dropout must be a probability"):
            BPE({"a": 0}, [], dropout=p)  # type: ignore[arg-type]


def test_tokenizer_json_keeps_dropout(tmp_path, botchan):
    from core.formats.hf_json import load_tokenizer_json, save_tokenizer_json

    tok, _ = botchan
    tok.model = tok.model.with_dropout(0.25, seed=1)
    save_tokenizer_json(tok, tmp_path / "tokenizer.json")
    again = load_tokenizer_json(tmp_path / "tokenizer.json")
    assert again.model.dropout == 0.25 and not again.model.deterministic
