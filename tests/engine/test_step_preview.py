"""A stepped run's preview reads words as the trainer's model at that size would (core.step_preview)."""

from types import SimpleNamespace

import pytest

from core.corpus import count_lines
from core.events import MergeEvent, drain
from core.options import TrainOptions
from core.step_preview import step_preview
from core.training import train_from_counts

KO = ["토크나이저", "영화", "정말", "재미있었어요", "배우", "연기", "좋았어요", "먹고", "있다"]
EN = ["the", "tokenizer", "cuts", "text", "into", "pieces", "lower", "newest", "widest", "hugs", "bun"]


def mixed_lines(n: int) -> list[str]:
    """``n`` deterministic lines of Korean and English words."""
    return [
        " ".join(
            [KO[(i * 7 + j * 3) % len(KO)] for j in range(1 + i % 5)]
            + [EN[(i * 5 + j * 11) % len(EN)] for j in range(1 + (i // 3) % 4)]
        )
        for i in range(n)
    ]


def merges_of(counts: dict, options: TrainOptions) -> list[MergeEvent]:
    events: list = []
    drain(train_from_counts(counts, options), events.append)
    return [e for e in events if isinstance(e, MergeEvent)]


@pytest.mark.parametrize("algorithm", ["wordpiece", "bpe", "bytelevel-bpe"])
@pytest.mark.parametrize("k", [1, 5, 40])
def test_a_step_preview_reads_words_as_the_model_trained_that_far(algorithm, k):
    counts = count_lines(mixed_lines(120), TrainOptions(algorithm))
    merges = merges_of(counts.words, TrainOptions(algorithm, vocab_size=2000))
    assert len(merges) > k
    that_far = drain(
        train_from_counts(counts.words, TrainOptions(algorithm, vocab_size=merges[k - 1].vocab_size))
    )
    preview = step_preview(counts, TrainOptions(algorithm, vocab_size=2000), merges[:k])
    words = sorted(count_lines(mixed_lines(120)).words) + ["aaaa", "x", "토크나이저를"]
    assert [preview.encode(w).tokens for w in words] == [that_far.encode(w).tokens for w in words]
    assert preview.vocab_size == that_far.vocab_size  # what the status bar and the slider read


def test_the_alphabet_trained_on_is_the_previews_not_the_whole_corpus():
    # the corpus has held-out lines the trainer never saw: their characters are no tokens yet
    counts = count_lines(["hug pug", "zebra"])
    trained_on = SimpleNamespace(starts=frozenset("hp"), inner=frozenset("ug"))
    ug = MergeEvent(1, "u", "g", "ug", count=2, vocab_size=6, score=2.0)
    preview = step_preview(counts, TrainOptions("bpe", 6), [ug], trained_on)
    assert preview.vocab_size == 1 + 4 + 1  # <unk>, g h p u, ug
    assert preview.encode("hug").tokens == ["h", "ug"]
    assert step_preview(counts, TrainOptions("bpe", 6), [ug]).vocab_size > preview.vocab_size


def test_wordpiece_reads_a_word_greedily_with_its_prefix():
    hu = MergeEvent(1, "h", "##u", "hu", count=2, vocab_size=9, score=0.5)
    preview = step_preview(count_lines(["hug hu"]), TrainOptions("wordpiece", 9), [hu])
    assert preview.encode("hug").tokens == ["hu", "##g"]


def test_no_preview_without_a_corpus_or_for_unigram():
    assert step_preview(None, TrainOptions("bpe", 9), []) is None
    assert step_preview(count_lines(["hug"]), TrainOptions("unigram", 9), []) is None
