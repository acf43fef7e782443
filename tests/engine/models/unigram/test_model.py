"""The Unigram model: Viterbi, unknown handling, n-best, sampling, lattice, slider, bad input."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ConfigError, SubwordError
from core.models.unigram.model import Unigram

PIECES = [
    ("<unk>", 0.0),
    ("▁", -1.0),
    ("a", -2.0),
    ("b", -2.0),
    ("ab", -2.5),
    ("먹", -3.0),
    ("고", -3.0),
    ("먹고", -3.5),
    ("▁먹", -4.0),
    ("▁먹고", -4.2),
    ("abab", -3.0),
    ("ba", -2.2),
]


@pytest.fixture
def model():
    return Unigram(PIECES)


def _hf_model(pieces, byte_fallback=False):
    tokenizers = pytest.importorskip("tokenizers")
    return tokenizers.Tokenizer(tokenizers.models.Unigram(pieces, unk_id=0, byte_fallback=byte_fallback))


def test_viterbi_picks_the_best_path(model):
    # ▁ab: ▁+ab = -3.5 beats ▁+a+b = -5.0; ▁먹고 alone (-4.2) beats ▁먹+고 (-7.0) and ▁+먹고 (-4.5).
    assert [t.value for t in model.tokenize("▁ab")] == ["▁", "ab"]
    assert [t.value for t in model.tokenize("▁먹고")] == ["▁먹고"]
    toks = model.tokenize("▁abab")
    assert [(t.value, t.start, t.end) for t in toks] == [("▁", 0, 1), ("abab", 1, 5)]


def test_unknown_characters_are_fused_and_keep_their_text(model):
    toks = model.tokenize("▁a!!b€")
    assert [(t.id, t.value) for t in toks] == [(1, "▁"), (2, "a"), (0, "!!"), (3, "b"), (0, "€")]
    assert model.unk_score == pytest.approx(-4.2 - 10)


def test_byte_fallback_uses_byte_pieces_when_all_exist():
    m = Unigram([("<unk>", 0.0), ("a", -1.0), ("<0x21>", -5.0)], byte_fallback=True)
    assert [t.value for t in m.tokenize("a!!")] == ["a", "<0x21>", "<0x21>"]
    assert [(t.id, t.value) for t in m.tokenize("!€")] == [(0, "!€")]  # € has no byte pieces -> unknown


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="▁ab먹고!€ \U0001f600", max_size=12))
def test_encode_never_raises_and_pieces_rejoin(text):
    m = Unigram(PIECES)
    toks = m.tokenize(text)
    assert "".join(text[t.start : t.end] for t in toks) == text
    for t in toks:
        if t.id != 0:
            assert t.value == text[t.start : t.end]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="▁ab먹고!", min_size=1, max_size=10), st.integers(0, 10_000))
def test_viterbi_is_never_worse_than_nbest_or_samples(text, seed):
    m = Unigram(PIECES)
    lat = m.lattice(text)
    best = lat.path_score(lat.best_path())
    nbest = lat.nbest(5)
    assert nbest[0][1] == pytest.approx(best)
    assert [n.piece for n in nbest[0][0]] == [n.piece for n in lat.best_path()]
    scores = [s for _, s in nbest]
    assert scores == sorted(scores, reverse=True)
    assert len({tuple((n.start, n.end) for n in p) for p, _ in nbest}) == len(nbest)  # distinct paths
    rng = random.Random(seed)
    for _ in range(5):
        path = lat.sample(0.5, rng)
        assert lat.path_score(path) <= best + 1e-9
        assert [n.end for n in path][-1] == len(text)


def test_nbest_first_equals_tokenize(model):
    for word in ["▁abab", "▁먹고", "abba", "▁a!b"]:
        assert model.nbest(word, 3)[0][0] == [t.value for t in model.tokenize(word)]


def test_nbest_counts_all_paths_by_hand():
    m = Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5), ("ba", -1.5), ("abab", -2.0)])
    got = m.nbest("abab", 100)
    assert sorted(" ".join(t) for t, _ in got) == sorted(
        ["abab", "ab ab", "ab a b", "a b ab", "a ba b", "a b a b"]
    )
    assert got[0] == (["abab"], -2.0) and got[-1] == (["a", "b", "a", "b"], -4.0)


def test_lattice_nodes_are_consistent(model):
    text = "▁먹고!ab"
    lat = model.lattice(text)
    for node in lat.nodes:
        assert 0 <= node.start < node.end <= len(text)
        if node.id == model.unk_id:
            assert node.end - node.start == 1 and node.score == model.unk_score
        else:
            assert node.piece == text[node.start : node.end] == model.id_to_token(node.id)
            assert node.score == model.score(node.id)
    assert sum(1 for n in lat.nodes if n.id == 0) == 1  # only '!' is unknown
    marg = dict(((n.start, n.end), p) for n, p in lat.marginals())
    # every position is covered by exactly one node of each path: marginals over a cut sum to 1
    assert sum(p for (s, e), p in marg.items() if s <= 1 < e) == pytest.approx(1.0)


def test_sampling_follows_the_scores():
    m = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.0)])
    rng = random.Random(0)
    counts = {}
    for _ in range(4000):
        key = " ".join(t.value for t in m.sample("aa", alpha=1.0, rng=rng))
        counts[key] = counts.get(key, 0) + 1
    # P(aa) = e^-1 / (e^-1 + e^-2) = 0.731
    assert counts["aa"] / 4000 == pytest.approx(math.exp(-1) / (math.exp(-1) + math.exp(-2)), abs=0.03)


def test_same_encoding_as_tokenizers_unigram():
    rng = random.Random(1)
    hf = _hf_model(PIECES)
    ours = Unigram(PIECES)
    for _ in range(300):
        word = "".join(rng.choice("▁ab먹고!x") for _ in range(rng.randint(1, 12)))
        enc = hf.encode(word)
        assert [t.value for t in ours.tokenize(word)] == enc.tokens, word
        assert [t.id for t in ours.tokenize(word)] == enc.ids, word


def test_dict_round_trip_and_hf_shape(model):
    d = model.to_dict()
    assert d["type"] == "Unigram" and d["unk_id"] == 0 and d["vocab"][1] == ["▁", -1.0]
    again = Unigram.from_dict(d)
    assert again.pieces == model.pieces and again.unk_id == 0 and not again.byte_fallback


@pytest.mark.parametrize(
    "pieces, unk_id",
    [
        ([], 0),
        ([("<unk>", 0.0), ("a", -1.0), ("a", -2.0)], 0),
        ([("<unk>", 0.0), ("", -1.0)], 0),
        ([("<unk>", 0.0), ("a", float("nan"))], 0),
        ([("<unk>", 0.0), ("a", -1.0)], 5),
        ([("<unk>", 0.0), ("a",)], 0),
    ],
)
def test_bad_vocabularies_are_refused(pieces, unk_id):
    with pytest.raises(ConfigError):
        Unigram(pieces, unk_id=unk_id)


def test_no_unknown_token_gives_a_clear_error():
    m = Unigram([("a", -1.0)], unk_id=None)
    assert [t.value for t in m.tokenize("aa")] == ["a", "a"]
    with pytest.raises(SubwordError):
        m.tokenize("ab")


def test_piece_longer_than_the_word(model):
    # 'abab' (4 chars) cannot match inside 'ab'; the word still encodes.
    assert [t.value for t in model.tokenize("ab")] == ["ab"]
    assert [t.value for t in model.tokenize("")] == []
    assert model.nbest("", 3) == []
    with pytest.raises(ConfigError):
        model.nbest("ab", 0)


def test_truncated_cuts_the_lowest_multichar_pieces(model):
    model.special_tokens = ["<unk>"]
    assert model.min_vocab_size == 1 + 5  # <unk> + ▁ a b 먹 고
    small = model.truncated(8)
    assert small.vocab_size == 8
    kept = {p for p, _ in small.pieces}
    # the two best multi-character pieces are ba (-2.2) and ab (-2.5)
    assert kept == {"<unk>", "▁", "a", "b", "먹", "고", "ba", "ab"}
    assert small.token_to_id("<unk>") == small.unk_id == 0
    with pytest.raises(ConfigError):
        model.truncated(3)


def test_truncated_prefers_the_smallest_snapshot_that_is_big_enough():
    m = Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.2)])
    m.special_tokens = ["<unk>"]
    m.snapshots = [
        (5, [("a", -1.0), ("b", -1.0), ("ab", -1.5), ("ba", -3.0), ("aab", -2.0)]),
        (4, [("a", -1.0), ("b", -1.0), ("ab", -1.5), ("aab", -2.0)]),
    ]
    # asking 5 = 1 special + 4 pieces: the 4-piece snapshot is the smallest that fits, as is
    assert sorted(p for p, _ in m.truncated(5).pieces) == sorted(["<unk>", "a", "b", "ab", "aab"])
    # asking 6: the 5-piece snapshot
    assert "ba" in {p for p, _ in m.truncated(6).pieces}
