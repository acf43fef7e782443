"""BPE.truncated(k), the explorer slider's cut, sliced from prebuilt tables, must equal the
model built from scratch with the first merges (the slow, validating way) at every size."""

from __future__ import annotations

import pytest

from core.events import drain
from core.models.bpe.model import BPE
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

LINES = [
    "토크나이저는 문장을 작은 조각으로 나눕니다",
    "the tokenizer cuts the text into pieces",
    "영화가 정말 재미있었어요 배우들의 연기가 좋았어요",
    "hug pug pun bun hugs lower newest widest",
] * 3


def slow_cut(model: BPE, vocab_size: int) -> BPE:
    """The cut rebuilt through BPE.__init__ (every table validated and recomputed)."""
    if vocab_size >= len(model.vocab):
        return model
    prefix_len = len(model.continuing_subword_prefix or "")
    budget = max(vocab_size - model.min_vocab_size, 0)
    k = created = 0
    for rank, (a, b) in enumerate(model.merges):
        if created == budget:
            break
        k = rank + 1
        if model.merge_rank(a + b[prefix_len:]) == rank:  # this merge creates a new token
            created += 1
    merges = model.merges[:k]
    made = {a + b[prefix_len:] for a, b in merges}
    built = {a + b[prefix_len:] for a, b in model.merges}
    vocab = {t: i for t, i in model.vocab.items() if t not in built or t in made}
    return BPE(
        vocab,
        merges,
        model.unk_token,
        model.continuing_subword_prefix,
        model.end_of_word_suffix,
        model.byte_fallback,
        model.fuse_unk,
        model.ignore_merges,
        model.dropout,
    )


@pytest.mark.parametrize(
    "options",
    [
        TrainOptions("bpe", vocab_size=140),
        TrainOptions("bpe", vocab_size=140, continuing_subword_prefix="##"),
        TrainOptions("bpe", vocab_size=140, end_of_word_suffix="</w>"),
    ],
)
def test_every_cut_equals_the_model_rebuilt_from_its_first_merges(options):
    tok = drain(train_from_counts(pre_tokenize_lines(LINES, options), options))
    model = tok.model
    words = sorted({w for line in LINES for w in line.split()} | {"mug", "철수는"})
    for size in range(model.min_vocab_size - 1, len(model.vocab) + 2):
        fast, slow = model.truncated(size), slow_cut(model, size)
        assert fast.vocab == slow.vocab and fast.merges == slow.merges, size
        assert fast._ranks == slow._ranks and fast._made_by == slow._made_by, size
        assert all(fast.id_to_token(i) == slow.id_to_token(i) for i in range(len(model.vocab) + 1)), size
        assert [[t.value for t in fast.tokenize(w)] for w in words] == [
            [t.value for t in slow.tokenize(w)] for w in words
        ], size
        # cutting a cut is the same as cutting the full model
        assert fast.truncated(max(size - 5, 0)).vocab == model.truncated(max(size - 5, 0)).vocab
    # the full model's encodings are untouched by the cuts
    assert [t.value for t in model.tokenize("tokenizer")] == [
        t.value for t in slow_cut(model, 10**6).tokenize("tokenizer")
    ]


def test_cuts_in_any_order_equal_a_first_cut_order_included():
    """A cut starts from the tables of the last cut made (a drag moves a few tokens): in any
    order of sizes, each cut's tables are the ones a first cut builds, in the same order."""
    import random

    options = TrainOptions("bpe", vocab_size=140)
    model = drain(train_from_counts(pre_tokenize_lines(LINES, options), options)).model
    sizes = list(range(model.min_vocab_size - 1, len(model.vocab) + 2)) * 2
    random.Random(7).shuffle(sizes)
    for size in sizes:
        fast = model.truncated(size)
        first = object.__new__(BPE)
        first.__dict__.update(model.__dict__)
        first.__dict__.pop("_last_cut", None)  # a model that has made no cut yet
        fresh = first.truncated(size)
        for table in ("vocab", "_id_to_token", "_ranks", "_made_by"):
            assert list(getattr(fast, table).items()) == list(getattr(fresh, table).items()), (size, table)
        assert fast.merges == fresh.merges == slow_cut(model, size).merges


def test_a_pair_listed_twice_cuts_by_its_earlier_rank():
    vocab = {"a": 0, "b": 1, "ab": 2, "c": 3, "abc": 4}
    model = BPE(vocab, [("a", "b"), ("ab", "c"), ("a", "b")])
    cut = model.truncated(4)  # the first merge only
    assert [t.value for t in cut.tokenize("ab")] == ["ab"] and cut.merges == [("a", "b")]
    assert cut._ranks == BPE({"a": 0, "b": 1, "ab": 2, "c": 3}, [("a", "b")])._ranks


def test_a_pickled_model_leaves_its_cache_and_cut_tables_behind():
    import pickle

    from core.events import drain
    from core.options import TrainOptions
    from core.training import train_from_counts

    options = TrainOptions("bpe", vocab_size=40)
    tok = drain(train_from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5, "mug": 3}, options))
    model = tok.model
    model.tokenize("hugs")
    model.truncated(model.min_vocab_size + 1)
    assert model._cache and "_cut_tables" in model.__dict__
    copy = pickle.loads(pickle.dumps(model))
    assert copy._cache == {} and "_cut_tables" not in copy.__dict__ and "_last_cut" not in copy.__dict__
    assert [t.value for t in copy.tokenize("hugs")] == [t.value for t in model.tokenize("hugs")]
    assert copy.truncated(model.min_vocab_size + 2).merges == model.merges[:2]


def spans(tokens) -> list[tuple[int, str, int, int]]:
    return [(t.id, t.value, t.start, t.end) for t in tokens]


@pytest.mark.parametrize(
    "options",
    [
        TrainOptions("bpe", vocab_size=140),
        TrainOptions("bytelevel-bpe", vocab_size=400),
        TrainOptions("bpe", vocab_size=140, continuing_subword_prefix="##"),
    ],
)
def test_a_cut_that_reuses_the_full_models_encodings_segments_as_the_cut_built_from_scratch(options):
    """The slider's cut takes a word's tokens from the full model's cache when every one was
    made below the cut: at every size, with the full model's cache filled first, the cut's
    tokens (ids, values, spans) equal those of the cut rebuilt from its merges."""
    tok = drain(train_from_counts(pre_tokenize_lines(LINES, options), options))
    model = tok.model
    pieces = sorted(pre_tokenize_lines(LINES + ["mug 철수는 hugging tokenizers"], options))
    model.tokenize_batch(pieces)  # the full model's cache, as after showing a text
    assert model._reusable_rank_of_id() is not None
    reused_somewhere = False
    for size in range(model.min_vocab_size, len(model.vocab) + 1, 7):
        fast, slow = model.truncated(size), slow_cut(model, size)
        expected = [spans(slow.tokenize(p)) for p in pieces]
        assert [spans(ts) for ts in fast.tokenize_batch(pieces)] == expected, size
        reused_somewhere |= any(fast._cache.get(p) is model._cache.get(p) for p in pieces)
        again = model.truncated(size)
        assert [spans(again.tokenize(p)) for p in pieces] == expected, size
    assert reused_somewhere  # the cuts did take words from the full model's cache


def test_a_model_that_remakes_a_token_is_never_reused_by_its_cuts():
    # the last merge makes "abc" again, from other parts: a word the full model ends as
    # "abc" through it must not be handed to a cut that lacks that merge
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4, "bc": 5}
    model = BPE(vocab, [("a", "b"), ("ab", "c"), ("b", "c"), ("a", "bc")])
    assert model._reusable_rank_of_id() is None
    model.tokenize("abc")
    assert "_reuse" not in model.truncated(5).__dict__


def test_a_pickled_cut_leaves_the_full_models_cache_behind():
    import pickle

    options = TrainOptions("bpe", vocab_size=140)
    model = drain(train_from_counts(pre_tokenize_lines(LINES, options), options)).model
    model.tokenize_batch(sorted(pre_tokenize_lines(LINES, options)))
    cut = model.truncated(model.min_vocab_size + 10)
    assert "_reuse" in cut.__dict__
    assert "_reuse" not in pickle.loads(pickle.dumps(cut)).__dict__
