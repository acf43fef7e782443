"""The compiled merge (core.models.bpe.kernels) merges exactly as the rule says: lowest rank
first, the leftmost among equal ranks, on short pieces (scan) and long ones (heap)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from core.models.bpe.kernels import PairTable, merge_flat, merge_many
from core.models.bpe.model import BPE, merge_ids


def _by_the_rule(ids: list[int], ranks: dict) -> list[int]:
    """The rule written as plainly as possible: rescan all pairs after every merge."""
    ids = list(ids)
    while True:
        found = [(ranks[p][0], k) for k, p in enumerate(zip(ids, ids[1:])) if p in ranks]
        if not found:
            return ids
        _, at = min(found)
        ids[at : at + 2] = [ranks[(ids[at], ids[at + 1])][1]]


def test_the_textbook_example():
    # minbpe's "aaabdaaabac": a=0 b=1 c=2 d=3; merges aa->Z(4), Zb->Y(5), YZ... as learned there
    ranks = {(0, 0): (0, 4), (4, 0): (1, 5), (5, 1): (2, 6)}
    text = [0, 0, 0, 1, 3, 0, 0, 0, 1, 0, 2]
    assert merge_many([text], PairTable.build(ranks)) == [[6, 3, 6, 0, 2]]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 23, 24, 25, 26, 101, 5000])
def test_runs_of_one_symbol(n):
    # "aaaa…": every pair overlaps its neighbours; the leftmost must win each time
    ranks = {(0, 0): (0, 1), (1, 1): (1, 2), (1, 0): (2, 3)}
    table = PairTable.build(ranks)
    assert merge_many([[0] * n], table) == [_by_the_rule([0] * n, ranks)]


def test_random_tables_with_tied_ranks_short_and_long_pieces():
    rng = random.Random(12)
    for _ in range(200):
        alphabet = rng.randint(1, 6)
        ranks = {}
        new = alphabet
        for rank in range(rng.randint(0, 25)):
            pair = (rng.randrange(new), rng.randrange(new))
            # about a third of the merges share a rank (SentencePiece's equal scores)
            ranks[pair] = (rank if rng.random() < 0.65 else rng.randint(0, 4), new)
            new += 1
        pieces = [
            [rng.randrange(alphabet) for _ in range(rng.choice([0, 1, 2, 7, 24, 25, 80, 400]))]
            for _ in range(6)
        ]
        got = merge_many(pieces, PairTable.build(ranks))
        assert got == [_by_the_rule(p, ranks) for p in pieces]
        assert got == [merge_ids(p, ranks) for p in pieces]


def test_first_symbol_of_each_token_gives_its_span():
    table = PairTable.build({(1, 2): (0, 9)})
    ids, first, bounds = merge_flat(np.array([3, 1, 2, 1, 2, 2]), np.array([0, 1, 6]), table)
    assert ids.tolist() == [3, 9, 9, 2]
    assert first.tolist() == [0, 0, 2, 4]  # the second piece's tokens start at its symbols 0, 2, 4
    assert bounds.tolist() == [0, 1, 4]


def test_a_pair_listed_twice_keeps_its_later_rank():
    table = PairTable.build(dict([((1, 2), (0, 5)), ((2, 3), (1, 6)), ((1, 2), (2, 5))]))
    assert merge_many([[1, 2, 3]], table) == [[1, 6]]


def test_bpe_batch_long_words_and_offsets_agree_with_the_python_merge():
    rng = random.Random(3)
    vocab = {"<unk>": 0, "a": 1, "b": 2, "ab": 3, "aa": 4, "aab": 5, "ba": 6}
    merges = [("a", "b"), ("a", "a"), ("aa", "b"), ("b", "a")]
    bpe = BPE(vocab, merges, unk_token="<unk>")
    words = ["".join(rng.choice("abx") for _ in range(rng.choice([0, 1, 3, 30, 60, 700]))) for _ in range(40)]
    reference = []
    for w in words:
        symbols = bpe._initial_symbols(w)
        reference.append(merge_ids([s[0] for s in symbols], bpe._ranks))
    assert bpe.tokenize_ids_batch(words) == reference
    assert [bpe.tokenize_ids(w) for w in words] == reference
    for w in words:  # tokenize (with spans) of long words goes through the compiled merge too
        tokens = bpe.tokenize(w)
        assert [t.id for t in tokens] == reference[words.index(w)]
        kept = [t for t in tokens if t.id != 0]
        assert all(w[t.start : t.end] == bpe.id_to_token(t.id) for t in kept)


def test_tokenize_batch_gives_tokenize_tokens_and_spans():
    rng = random.Random(5)
    vocab = {"<unk>": 0, "a": 1, "b": 2, "ab": 3, "aa": 4, "aab": 5, "ba": 6}
    merges = [("a", "b"), ("a", "a"), ("aa", "b"), ("b", "a")]
    words = ["".join(rng.choice("abx") for _ in range(rng.choice([0, 1, 2, 5, 30, 300]))) for _ in range(60)]
    expected = [BPE(vocab, merges, unk_token="<unk>").tokenize(w) for w in words]
    batched = BPE(vocab, merges, unk_token="<unk>")
    assert batched.tokenize_batch(words) == expected
    assert batched.tokenize_batch(words) == expected  # now from the cache


def test_models_pickle_without_their_compiled_tables_and_encode_the_same_after():
    import pickle

    from core.models.bpe.sentencepiece import SentencePieceBPE
    from core.models.bpe.tiktoken import TiktokenBPE
    from core.sentencepiece_pieces import UNKNOWN, Piece

    bpe = BPE({"<unk>": 0, "a": 1, "b": 2, "ab": 3, "aa": 4}, [("a", "b"), ("a", "a")], unk_token="<unk>")
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"aa": 257}
    rank_file = TiktokenBPE(ranks)
    pieces = [Piece("<unk>", 0, UNKNOWN), Piece("ab", 0), Piece("aa", -1), Piece("a", -2), Piece("b", -3)]
    sentencepiece = SentencePieceBPE(pieces)
    words = ["ab" * 40, "aab", "a" * 100]
    for model in (bpe, rank_file, sentencepiece):
        before = model.tokenize_ids_batch(words)  # builds the compiled tables
        assert "PairTable" not in repr(model.__getstate__())  # rebuilt where unpickled
        again = pickle.loads(pickle.dumps(model))
        assert again.tokenize_ids_batch(words) == before == [model.tokenize_ids(w) for w in words]
