"""The Unigram trainer's compiled sweeps (``core.models.unigram.train_kernels``) on awkward strings.

Each case is checked against the per-string reference lattice (``core.models.unigram.lattice``): log Z,
expected piece counts and the best path, on ties, repeated symbols, one-character
strings, mixed scripts with emoji, an unreachable end, and a string thousands of
characters long; and the sweeps report progress inside one long string.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.events import Progress, UnigramRound, drain
from core.models.unigram import trainer as tr
from core.models.unigram.lattice import Lattice, Node
from core.options import TrainOptions

CASES = {
    "repeated": ["aaaa", "aaaaaaaaa", "ab"],
    "one character": ["a", "b", "ab"],
    "ties": ["abab", "baba", "ab", "ba"],
    "mixed scripts": ["▁먹고👋🏽", "▁먹는👋", "▁a먹"],
    "very long": ["ab" * 2500 + "a" * 1000, "ba"],
}


def _pieces_and_scores(words, rng, max_len=4):
    """Every substring up to ``max_len`` characters as a piece, with random scores."""
    pieces = sorted(
        {w[i:j] for w in words for i in range(len(w)) for j in range(i + 1, min(len(w), i + max_len) + 1)}
    )
    score = np.log(rng.uniform(0.05, 1.0, len(pieces)))
    return pieces, score


def _tie_scores(pieces):
    """Scores where every piece costs the same: all segmentations into n pieces tie."""
    return np.full(len(pieces), -1.0)


def _lattices(words, pieces, max_len=4):
    """The trainer's flat lattices of ``words`` (laid end to end, one separator slot each)."""
    corpus = tr._Corpus(list(words), np.ones(len(words)))
    ids = {p: i for i, p in enumerate(pieces)}
    src, lens, pid = [], [], []
    for w, word in enumerate(words):
        for i in range(len(word)):
            for j in range(i + 1, min(len(word), i + max_len) + 1):
                if word[i:j] in ids:
                    src.append(int(corpus.off[w]) + i)
                    lens.append(j - i)
                    pid.append(ids[word[i:j]])
    return corpus, tr._corpus_lattices(corpus, np.array(src), np.array(lens), np.array(pid))


def _reference(word, pieces, score, max_len=4):
    ids = {p: i for i, p in enumerate(pieces)}
    nodes = [
        Node(s, e, word[s:e], ids[word[s:e]], float(score[ids[word[s:e]]]))
        for s in range(len(word))
        for e in range(s + 1, min(len(word), s + max_len) + 1)
        if word[s:e] in ids
    ]
    return Lattice(word, nodes)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("tied", [False, True])
def test_sweeps_equal_the_reference_lattice(case, tied):
    rng = np.random.default_rng(11)
    words = CASES[case]
    pieces, score = _pieces_and_scores(words, rng)
    if tied:
        score = _tie_scores(pieces)
    corpus, lat = _lattices(words, pieces)
    weights = np.arange(1, len(words) + 1, dtype=float)
    expected, log_z = lat.expected_counts(score, weights, len(pieces))
    best, tok_word, tok_pid = lat.viterbi(score)
    want = np.zeros(len(pieces))
    for w, word in enumerate(words):
        ref = _reference(word, pieces, score)
        assert log_z[w] == pytest.approx(ref.log_z(), rel=1e-12, abs=1e-9)
        for node, p in ref.marginals():
            want[node.id] += p * weights[w]
        ref_path = ref.best_path()
        assert best[w] == pytest.approx(ref.path_score(ref_path), rel=1e-12, abs=1e-9)
        ours = [pieces[i] for i in tok_pid[tok_word == w][::-1]]
        assert "".join(ours) == word
        if not tied:  # with ties, any best path is right; the score check above covers it
            assert ours == [n.piece for n in ref_path]
    assert np.allclose(expected, want, rtol=1e-9, atol=1e-9)


def test_ties_go_to_the_longest_last_piece():
    """Equal scores: the path whose last piece starts earliest wins (documented in the kernel)."""
    pieces = ["a", "aa"]
    corpus, lat = _lattices(["aaa"], pieces)
    _, _, tok_pid = lat.viterbi(np.array([-1.0, -1.0]))
    assert [pieces[i] for i in tok_pid[::-1]] == ["a", "aa"]


def test_unreachable_end_gives_no_tokens_and_minus_infinity():
    pieces = ["a"]  # "b" has no piece
    corpus, lat = _lattices(["ab", "a"], pieces)
    expected, log_z = lat.expected_counts(np.array([0.0]), np.ones(2), 1)
    best, tok_word, tok_pid = lat.viterbi(np.array([0.0]))
    assert log_z[0] == -math.inf and best[0] == -math.inf
    assert tok_word.tolist() == [1] and expected.tolist() == [1.0]


def test_sweeps_report_progress_inside_one_long_string(monkeypatch):
    monkeypatch.setattr(tr, "_SLICE", 1000)
    word = "abcab" * 2000
    pieces, score = _pieces_and_scores([word], np.random.default_rng(3))
    corpus, lat = _lattices([word], pieces)
    events = []
    drain(lat.expected_counts_steps(score, np.ones(1), len(pieces)), events.append)
    done = [e.done for e in events if isinstance(e, Progress)]
    assert len(done) >= 3 * len(lat.src) // 1000
    assert done == sorted(done) and done[-1] == 3 * len(lat.src)


def test_training_on_one_long_line_never_goes_quiet(monkeypatch):
    """Every phase of training on one unspaced line yields progress as it goes."""
    monkeypatch.setattr(tr, "_SLICE", 5000)
    rng = np.random.default_rng(5)
    line = "".join(rng.choice(list("abcdefghij"), 20_000))
    events = []
    drain(tr.train_unigram({line: 1}, TrainOptions("unigram", vocab_size=200)), events.append)
    phases = {e.phase for e in events if isinstance(e, Progress)}
    assert {"seed", "expected counts", "prune"} <= phases
    # between two round events, the E-step of the one line reported several slices
    rounds = [i for i, e in enumerate(events) if isinstance(e, UnigramRound)]
    assert any(b - a > 3 for a, b in zip(rounds, rounds[1:]))


@pytest.mark.parametrize("case", list(CASES))
def test_best_path_counts_equal_counting_the_tokens(case):
    rng = np.random.default_rng(13)
    words = CASES[case]
    pieces, score = _pieces_and_scores(words, rng)
    corpus, lat = _lattices(words, pieces)
    weights = rng.integers(1, 9, len(words)).astype(float)
    freq, used_by = drain(lat.best_path_counts_steps(score, weights, len(pieces)))
    _, tok_word, tok_pid = lat.viterbi(score)
    want_freq = np.zeros(len(pieces))
    want_used = np.zeros(len(pieces))
    for w in range(len(words)):
        mine = tok_pid[tok_word == w]
        np.add.at(want_freq, mine, weights[w])
        want_used[np.unique(mine)] += weights[w]
    assert freq.tolist() == want_freq.tolist() and used_by.tolist() == want_used.tolist()


def test_dropping_pieces_equals_building_without_them():
    rng = np.random.default_rng(17)
    words = CASES["mixed scripts"] + CASES["repeated"]
    pieces, score = _pieces_and_scores(words, rng)
    alive = np.array([len(p) == 1 or rng.random() < 0.5 for p in pieces])
    _, full = _lattices(words, pieces)
    dropped = full.without(alive)
    _, rebuilt = _lattices(words, [p if a else "\x00gone" for p, a in zip(pieces, alive)])
    for name in ("src", "lens"):
        assert getattr(dropped, name).tolist() == getattr(rebuilt, name).tolist()
    assert dropped.piece_ids().tolist() == rebuilt.piece_ids().tolist()
    # the kept pieces are numbered densely, in the order of their ids
    assert dropped.ids.tolist() == np.flatnonzero(alive).tolist()
    assert set(dropped.pid.tolist()) <= set(range(int(alive.sum())))
    # and the sweeps answer over the caller's ids, as on the rebuilt lattices
    score = np.where(alive, score, -np.inf)
    weights = np.ones(len(words))
    for got, want in zip(
        dropped.expected_counts(score, weights, len(pieces)),
        rebuilt.expected_counts(score, weights, len(pieces)),
    ):
        assert got.tolist() == want.tolist()
    assert [x.tolist() for x in dropped.viterbi(score)] == [x.tolist() for x in rebuilt.viterbi(score)]


def test_pieces_without_probability_add_nothing():
    """A piece scored -inf (no probability) on an edge changes no sum (no NaN from -inf - -inf)."""
    rng = np.random.default_rng(19)
    words = CASES["repeated"]
    pieces, score = _pieces_and_scores(words, rng)
    score[pieces.index("aa")] = -np.inf
    corpus, lat = _lattices(words, pieces)
    expected, log_z = lat.expected_counts(score, np.ones(len(words)), len(pieces))
    for w, word in enumerate(words):
        assert log_z[w] == pytest.approx(_reference(word, pieces, score).log_z(), rel=1e-12)
    assert expected[pieces.index("aa")] == 0.0 and np.isfinite(expected).all()


@pytest.mark.parametrize("n, n_values", [(0, 3), (1, 1), (7, 2), (5000, 40), (5000, 6000)])
def test_group_pairs_numbers_groups_as_sorting_the_pairs_would(n, n_values):
    """The seeding's linear-time grouping against numpy's sort-based ``unique``."""
    from core.models.unigram.train_kernels import group_pairs

    rng = np.random.default_rng(n + n_values)
    hi = rng.integers(0, n_values, n).astype(np.int32)
    lo = rng.integers(0, n_values + 1, n).astype(np.int32)
    groups, first, inv = group_pairs(hi, lo, n_values, n_values + 1)
    keys = hi.astype(np.int64) * (n_values + 1) + lo
    want_keys, want_first, want_inv = np.unique(keys, return_index=True, return_inverse=True)
    assert groups == len(want_keys)
    assert inv.tolist() == want_inv.ravel().tolist()
    assert first.tolist() == want_first.tolist()  # the first member of each group


def test_no_two_passes_over_a_long_line_without_progress_between(monkeypatch):
    """The bar never stalls: between two events, at most one compiled pass over the line's
    positions (a grouping of the seeding) or over a slice of its edges (a sweep) runs, so the
    longest wait is one such pass, whatever the phase (seeding, each EM round, pruning)."""
    from core.models.unigram.signatures import sweep_kernels

    kernels = sweep_kernels()  # the ahead-of-time build or the JIT module: the trainer's
    trace = []
    passes = ["group_pairs", "forward_slice", "backward_slice", "marginals_slice", "viterbi_slice"]
    for name in passes:
        kernel = getattr(kernels, name)

        def traced(*args, _kernel=kernel, _name=name):
            trace.append(_name)
            return _kernel(*args)

        monkeypatch.setattr(kernels, name, traced)
    monkeypatch.setattr(tr, "_SLICE", 5000)
    rng = np.random.default_rng(5)
    line = "".join(rng.choice(list("abcdefghij"), 20_000))
    options = TrainOptions("unigram", vocab_size=200)
    drain(tr.train_unigram({line: 1}, options), lambda event: trace.append(type(event).__name__))
    assert set(passes) <= set(trace)  # every kind of pass ran
    quiet = 0
    for step in trace:
        quiet = quiet + 1 if step in passes else 0
        assert quiet <= 1


AOT_AND_JIT_MODELS = """
import sys
from core.events import drain
from core.models.unigram.trainer import train_unigram
from core.options import TrainOptions
counts = {"▁먹고": 10, "▁먹는": 4, "▁있다": 7, "▁abcab" * 3: 2, "a" * 300: 1}
model = drain(train_unigram(counts, TrainOptions("unigram", vocab_size=30, special_tokens=["<unk>"])))
print(repr(model.pieces), "numba" in sys.modules)
"""


def test_the_ahead_of_time_build_trains_the_jit_model_without_numba():
    """The extension ``python -m core.build`` builds gives the JIT's model, bit for bit, and spares
    a training numba and LLVM (its seeding's peak memory)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from core.jit import JIT_ONLY_VARIABLE, load_ahead_of_time

    if load_ahead_of_time("core.models.unigram.train_kernels") is None:
        pytest.skip("Unigram kernels not compiled ahead of time here (python -m core.build builds them)")

    def run(jit_only: str) -> str:
        env = {k: v for k, v in os.environ.items() if k != JIT_ONLY_VARIABLE} | {JIT_ONLY_VARIABLE: jit_only}
        root = Path(__file__).resolve().parents[4]
        done = subprocess.run(
            [sys.executable, "-c", AOT_AND_JIT_MODELS], cwd=root, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    ahead, jit = run("0"), run("1")
    assert ahead.endswith(" False") and jit.endswith(" True")
    assert ahead.removesuffix(" False") == jit.removesuffix(" True")
