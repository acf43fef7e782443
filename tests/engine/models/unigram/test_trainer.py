"""The SentencePiece-style Unigram trainer: its vectorized parts checked against plain per-word code."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ConfigError
from core.events import Progress, TrainingStopped, UnigramRound, drain
from core.models.unigram import trainer as tr
from core.models.unigram.lattice import Lattice, Node
from core.models.unigram.model import Unigram
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

KOREAN = [
    "나는 밥을 먹고 있다",
    "너는 밥을 먹는다",
    "우리는 밥을 먹었다",
    "먹고 싶은 밥",
    "밥을 먹고 잤다",
    "the cat sat on the mat",
    "the cats sat",
    "a cat and a hat",
] * 3


def _random_words(rng, n=40, alphabet="▁abc가나"):
    return {
        "▁" + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9))): rng.randint(1, 5)
        for _ in range(n)
    }


@pytest.fixture(scope="module")
def counts():
    return pre_tokenize_lines(KOREAN, TrainOptions("unigram"))


@pytest.fixture(scope="module")
def run(counts):
    events = []
    model = drain(tr.train_unigram(counts, TrainOptions("unigram", vocab_size=40)), events.append)
    return model, events


def test_events_and_result(run, counts):
    model, events = run
    assert isinstance(events[-1], TrainingStopped)
    rounds = [e for e in events if isinstance(e, UnigramRound)]
    phases = [r.phase for r in rounds]
    assert phases[0] == "seed" and phases[-1] == "final" and "em" in phases
    assert any(isinstance(e, Progress) and e.phase == "seed" for e in events)
    for r in rounds:
        if r.phase == "prune":
            assert r.removed and all(math.isfinite(x) for _, x in r.removed)
    # vocab: specials first (unk id 0), every character kept, exact size reached
    assert model.vocab_size == 40 and model.id_to_token(0) == "<unk>" and model.unk_id == 0
    chars = {c for w in counts for c in w}
    assert chars <= set(model.get_vocab())
    scores = [s for _, s in model.pieces[1:]]
    assert scores == sorted(scores, reverse=True)
    # the EM lowers the loss within a round (sub-iterations of the same vocabulary)
    ems = [r for r in rounds if r.phase == "em"]
    assert ems[1].loss <= ems[0].loss + 1e-6
    # the seed's loss is the first E-step's (both score the corpus with the seed scores)
    assert math.isfinite(rounds[0].loss) and rounds[0].loss == pytest.approx(ems[0].loss)


def test_frequent_words_become_pieces(run):
    model, _ = run
    for piece in ["▁밥을", "▁the", "▁먹고"]:
        assert piece in model.get_vocab(), piece


def test_training_is_deterministic(counts, run):
    again = drain(tr.train_unigram(counts, TrainOptions("unigram", vocab_size=40)))
    assert again.pieces == run[0].pieces


def test_train_from_counts_wraps_a_tokenizer(counts):
    tok = drain(train_from_counts(counts, TrainOptions("unigram", vocab_size=40)))
    enc = tok.encode("나는 밥을 먹고 싶다!")
    assert "".join(enc.tokens).replace("▁", " ").strip().startswith("나는 밥을 먹고")
    assert tok.decode(enc.ids).startswith("나는 밥을 먹고")


def test_vectorized_forward_backward_equals_per_word_lattices():
    rng = random.Random(3)
    words = _random_words(rng)
    corpus = tr._Corpus(list(words), np.array(list(words.values()), dtype=float))
    pieces, values, rep, src, lens, pid, _ = drain(tr._seed_pieces(corpus, 4, 10_000))
    score = np.log(values) - np.log(values.sum())
    lat = tr._corpus_lattices(corpus, src, lens, pid)
    expected, log_z = lat.expected_counts(score, corpus.counts, len(pieces))
    # the same with core.models.unigram.lattice, one word at a time
    ids = {p: i for i, p in enumerate(pieces)}
    want = np.zeros(len(pieces))
    best, _, _ = lat.viterbi(score)
    for w, (word, count) in enumerate(words.items()):
        nodes = [
            Node(s, e, word[s:e], ids[word[s:e]], float(score[ids[word[s:e]]]))
            for s in range(len(word))
            for e in range(s + 1, min(len(word), s + 4) + 1)
            if word[s:e] in ids
        ]
        ref = Lattice(word, nodes)
        assert log_z[w] == pytest.approx(ref.log_z(), abs=1e-9)
        for node, p in ref.marginals():
            want[node.id] += p * count
        assert best[w] == pytest.approx(ref.path_score(ref.best_path()), abs=1e-9)
    assert np.allclose(expected, want, atol=1e-9)


def test_seed_substrings_match_brute_force():
    rng = random.Random(5)
    words = _random_words(rng, n=60, alphabet="▁abca")
    corpus = tr._Corpus(list(words), np.array(list(words.values()), dtype=float))
    pieces, values, *_ = drain(tr._seed_pieces(corpus, 5, 10_000))
    # brute force: substrings of length 2..5 seen >= 2 times (weighted), with two different
    # followers, where the end of a word counts as one follower (two if it ends words twice)
    freq, follow, ends = Counter(), {}, Counter()
    for word, c in words.items():
        for i in range(len(word)):
            for j in range(i + 2, min(len(word), i + 5) + 1):
                s = word[i:j]
                freq[s] += c
                follow.setdefault(s, set())
                if j < len(word):
                    follow[s].add(word[j])
                else:
                    ends[s] += c
    want = {s for s, f in freq.items() if f >= 2 and (len(follow[s]) + (ends[s] > 0) >= 2 or ends[s] >= 2)}
    got = {p for p in pieces if len(p) > 1}
    assert got == want
    got_values = {p: v for p, v in zip(pieces, values)}
    for s in want:
        assert got_values[s] == freq[s] * len(s)  # SentencePiece's seed score: count x length
    assert {p for p in pieces if len(p) == 1} == {c for w in words for c in w}


def test_piece_alternatives_equal_second_best():
    rng = random.Random(7)
    words = _random_words(rng, n=50, alphabet="▁ab가")
    corpus = tr._Corpus(list(words), np.array(list(words.values()), dtype=float))
    pieces, values, rep, src, lens, pid, _ = drain(tr._seed_pieces(corpus, 6, 10_000))
    src, lens, pid = tr._by_start(src, lens, pid)
    score = np.log(values) - np.log(values.sum()) + np.array([rng.uniform(-1, 1) for _ in values])
    multi = np.flatnonzero(np.array([len(p) > 1 for p in pieces]))
    piece_len = np.array([len(p) for p in pieces])
    plat = tr._piece_lattices(corpus, tr.Lattices(src, lens, pid, [], [], 0), multi, rep, piece_len)
    alt_score, owner, alt_pid = plat.viterbi(score)
    model = Unigram([("<unk>", 0.0)] + [(p, float(s)) for p, s in zip(pieces, score)])
    for j, i in enumerate(multi):
        paths = model.lattice(pieces[i]).nbest(50)
        others = [s for path, s in paths if len(path) > 1 or path[0].piece != pieces[i]]
        assert alt_score[j] == pytest.approx(max(others), abs=1e-9)


def test_digamma():
    x = np.array([0.5, 1.0, 3.0, 10.0, 1000.0])
    got = tr.digamma(x)
    assert got[1] == pytest.approx(-0.5772156649, abs=1e-7)  # -Euler's constant
    assert got[0] == pytest.approx(-0.5772156649 - 2 * math.log(2), abs=1e-7)
    assert np.allclose(tr.digamma(x + 1) - got, 1 / x, atol=1e-7)  # psi(x+1) = psi(x) + 1/x


def test_snapshots_and_truncated(counts):
    model = drain(
        tr.train_unigram(counts, TrainOptions("unigram", vocab_size=30, extra={"shrinking_factor": 0.8}))
    )
    assert model.snapshots, "pruning rounds keep snapshots for the slider"
    small = model.truncated(model.min_vocab_size + 2)
    assert small.vocab_size == model.min_vocab_size + 2
    assert small.id_to_token(0) == "<unk>"
    with pytest.raises(ConfigError):
        model.truncated(model.min_vocab_size - 1)


def test_textbook_flag_dispatches(counts):
    model = drain(tr.train_unigram(counts, TrainOptions("unigram", vocab_size=60, extra={"textbook": True})))
    assert hasattr(model, "textbook_losses")


@pytest.mark.parametrize(
    "settings",
    [
        {"vocab_size": 5},  # below the alphabet
        {"vocab_size": 100, "extra": {"shrinking_factor": 1.5}},
        {"vocab_size": 100, "extra": {"max_piece_length": 0}},
    ],
)
def test_bad_options_are_refused(counts, settings):
    # settings out of range are refused when the options are made, the rest by the trainer
    with pytest.raises(ConfigError):
        drain(tr.train_unigram(counts, TrainOptions("unigram", **settings)))


def test_a_vocabulary_below_the_alphabet_is_refused_with_readable_numbers():
    """The refusal read "vocab size 1000 is below the 1200 distinct characters" beside the
    explorer's "1,200 distinct characters": its numbers now carry thousands separators."""
    counts = {chr(0x4E00 + i) * 2: 3 for i in range(1200)}  # 1,200 distinct CJK characters
    for textbook in (False, True):
        with pytest.raises(ConfigError, match=r"vocab size 1,000 is below the 1,200 (distinct )?characters"):
            drain(
                tr.train_unigram(
                    counts, TrainOptions("unigram", vocab_size=1000, extra={"textbook": textbook})
                )
            )


def test_empty_corpus_is_refused():
    with pytest.raises(ConfigError):
        drain(tr.train_unigram({}, TrainOptions("unigram", vocab_size=100)))
    with pytest.raises(ConfigError):
        drain(tr.train_unigram({"": 3}, TrainOptions("unigram", vocab_size=100)))


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.text(alphabet="▁ab가\x00\U0001f600", min_size=1, max_size=12),
        st.integers(1, 6),
        min_size=1,
        max_size=25,
    ),
    st.integers(0, 30),
)
def test_training_never_crashes_and_covers_every_character(counts, extra_size):
    n_chars = len({c for w in counts for c in w})
    options = TrainOptions("unigram", vocab_size=1 + n_chars + extra_size, extra={"max_piece_length": 5})
    events = []
    model = drain(tr.train_unigram(counts, options), events.append)
    assert n_chars + 1 <= model.vocab_size <= options.vocab_size
    assert isinstance(events[-1], TrainingStopped)
    vocab = model.get_vocab()
    assert all(c in vocab for w in counts for c in w)
    assert all(len(p) <= 5 for p in vocab if p != "<unk>")
    for word in counts:
        toks = model.tokenize(word)
        assert "".join(t.value for t in toks) == word and all(t.id != 0 for t in toks)


def test_seeds_with_utf8_followers_are_spm_trains_byte_suffix_tree_nodes():
    """sentencepiece 0.2.x finds its seeds in a suffix array over the UTF-8 bytes of whole
    lines: a substring is a seed when it occurs twice and two of its followers differ in their
    first byte ("나" and "다" both start with 0xEB, the next word's "▁" with 0xE2, a line's end
    is 0x00). Brute force on the lines against the trainer's word-by-word levels."""
    rng = random.Random(11)
    lines = [
        " ".join(
            "".join(rng.choice("ab가나다é") for _ in range(rng.randint(1, 4)))
            for _ in range(rng.randint(1, 4))
        )
        for _ in range(60)
    ]
    lines = ["▁" + line.replace(" ", "▁") for line in lines]
    counts, finals = Counter(), Counter()
    for line in lines:
        words = ["▁" + w for w in line[1:].split("▁")]
        counts.update(words)
        finals[words[-1]] += 1
    words = list(counts)

    def corpus():  # (seeding frees the corpus's per-position arrays)
        c = tr._Corpus(words, np.array([counts[w] for w in words], dtype=float))
        c.pos_final_weight = np.repeat(np.array([finals[w] for w in words], dtype=float), c.lengths + 1)
        c.pos_unknown_weight = np.zeros(c.n)
        return c

    def valid(s):
        return "▁" not in s[1:]

    pieces, *_ = drain(tr._seed_pieces(corpus(), 5, 10_000, valid, utf8_followers=True))
    text = "\0".join(lines) + "\0"
    freq, follow = Counter(), {}
    for i in range(len(text)):
        for k in range(2, 6):
            s = text[i : i + k]
            if i + k >= len(text) or "\0" in s:
                break
            if valid(s):
                freq[s] += 1
                follow.setdefault(s, set()).add(text[i + k].encode()[0])
    want = {s for s, f in freq.items() if f >= 2 and len(follow[s]) >= 2}
    assert {p for p in pieces if len(p) > 1} == want
    by_character, *_ = drain(tr._seed_pieces(corpus(), 5, 10_000, valid, utf8_followers=False))
    assert set(by_character) > set(pieces)  # "▁가" before "나" and "다": a seed only by characters


def test_prune_last_ends_on_a_pruning_round():
    """sentencepiece 0.2.x prunes after every EM round and stops once pruning reaches the
    desired size, with no EM round after it (its log: EM to 5,232 pieces, pruned to 4,400)."""
    rng = random.Random(2)
    words = _random_words(rng, n=120, alphabet="▁abcde가나")
    options = TrainOptions("unigram", vocab_size=40, special_tokens=[])
    events = [
        e
        for e in tr.train_unigram(words, options, desired_size=44, prune_last=True)
        if isinstance(e, UnigramRound)
    ]
    phases = [e.phase for e in events]
    last_prune = len(phases) - 1 - phases[::-1].index("prune")
    assert phases[last_prune + 1 :] == ["final"]
    assert events[last_prune].vocab_size <= 44 < events[last_prune - 1].vocab_size
    plain = [
        e.phase for e in tr.train_unigram(words, options, desired_size=44) if isinstance(e, UnigramRound)
    ]
    assert plain[-2] == "em"  # the default: stop after the EM round that reaches the size
