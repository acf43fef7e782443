"""Golden tests: the seed's (003) printed figures from its Unigram teaching code.

Every expected value below is copied from the seed's printed output, not from our code.
"""

from __future__ import annotations

import pytest

from core.errors import ConfigError
from core.events import TrainingStopped, UnigramRound, drain
from core.models.unigram import reference as tb
from core.options import TrainOptions, pre_tokenize_lines
from core.pre_tokenizers import Metaspace


@pytest.fixture(scope="module")
def word_counts():
    return pre_tokenize_lines(tb.TEXTBOOK_CORPUS, TrainOptions("unigram"))


@pytest.fixture(scope="module")
def seed_losses(word_counts):
    return tb.losses_from_counts(tb.seed_counts(word_counts, 300))


@pytest.fixture(scope="module")
def trained(word_counts):
    events = []
    model = drain(
        tb.train_unigram_textbook(word_counts, TrainOptions("unigram", vocab_size=100)), events.append
    )
    return model, events


def test_word_counts_match_the_seed(word_counts):
    # The seed's xlnet pre-tokenizer output: 28 words, '▁This' x3, '▁is' x2.
    assert len(word_counts) == 28
    assert word_counts["▁This"] == 3 and word_counts["▁is"] == 2 and word_counts["▁Hopefully,"] == 1
    assert sum(word_counts.values()) == 31


def test_seed_vocabulary(word_counts):
    counts = tb.seed_counts(word_counts, 300)
    assert len(counts) == 300
    # The seed prints the characters with their counts and the 10 most frequent substrings.
    assert list(counts.items())[:6] == [("▁", 31), ("T", 3), ("h", 9), ("i", 13), ("s", 13), ("t", 14)]
    subs = [(p, c) for p, c in counts.items() if len(p) > 1][:10]
    assert subs == [
        ("▁t", 7),
        ("is", 5),
        ("er", 5),
        ("▁a", 5),
        ("▁to", 4),
        ("to", 4),
        ("en", 4),
        ("▁T", 3),
        ("▁Th", 3),
        ("▁Thi", 3),
    ]


def test_initial_scores(seed_losses):
    # Printed: 'F': 6.386879319362645 ... '▁': 2.952892114877499, 'e': 3.342356881639222
    assert seed_losses["F"] == pytest.approx(6.386879319362645, abs=1e-12)
    assert seed_losses["▁"] == pytest.approx(2.952892114877499, abs=1e-12)
    assert seed_losses["e"] == pytest.approx(3.342356881639222, abs=1e-12)


def test_initial_loss_includes_the_seeds_start_at_one(word_counts, seed_losses):
    # 413.10377642940875 as printed. The seed's Viterbi starts every word at 1, not 0,
    # so the figure includes +1 per word occurrence (31): the "true" NLL is 31 lower.
    assert tb.corpus_loss(word_counts, seed_losses) == pytest.approx(413.10377642940875, abs=1e-9)


def test_removal_scores(word_counts, seed_losses):
    scores = tb.removal_scores(word_counts, seed_losses)
    top = sorted(scores.items(), key=lambda x: x[1], reverse=True)[:5]
    expected = [
        ("▁This", 8.858676344632443),
        ("ll", 6.376412403623874),
        ("s.", 6.2575655626822595),
        ("▁the", 5.905784229754943),
        ("and", 4.915591745409358),
    ]
    assert [p for p, _ in top] == [p for p, _ in expected]
    for (_, got), (_, want) in zip(top, expected):
        assert got == pytest.approx(want, abs=1e-6)
    assert scores["his"] == 0.0
    for piece in ("several", "severa", "sever", "seve", "sev"):
        assert scores[piece] == 0.0


def test_final_model_and_tokenization(trained):
    model, events = trained
    losses = model.textbook_losses
    # Printed after training: 'F' 5.752572638825633 (highest loss), '▁' 2.318585434340487 (lowest).
    assert losses["F"] == pytest.approx(5.752572638825633, abs=1e-12)
    assert losses["▁"] == pytest.approx(2.318585434340487, abs=1e-12)
    assert losses["e"] == pytest.approx(2.70805020110221, abs=1e-12)
    assert losses["t"] == pytest.approx(3.1135153092103742, abs=1e-12)
    words = Metaspace().split_words("This is the Hugging Face course !")
    assert tb.tokenize(words, losses) == [
        "▁This",
        "▁is",
        "▁the",
        "▁Hugging",
        "▁Face",
        "▁",
        "c",
        "ou",
        "r",
        "s",
        "e",
        "<unk>",
    ]
    # Our model cuts the same, except that it keeps the '▁' of '▁!' and makes only '!' unknown
    # (as SentencePiece and `tokenizers` do), where the seed turns the whole word into <unk>.
    got = [t.value if t.id != model.unk_id else "<unk>" for w in words for t in model.tokenize(w)]
    assert got == ["▁This", "▁is", "▁the", "▁Hugging", "▁Face", "▁", "c", "ou", "r", "s", "e", "▁", "<unk>"]


def test_events_shrink_by_ten_percent(trained):
    model, events = trained
    rounds = [e for e in events if isinstance(e, UnigramRound)]
    assert rounds[0].phase == "seed" and rounds[0].vocab_size == 301
    assert rounds[0].loss == pytest.approx(413.10377642940875, abs=1e-9)
    sizes = [r.vocab_size - 1 for r in rounds]
    # 300 -> 270 -> 243 -> ... each round drops int(10 %) of the vocabulary, down to <= 100 pieces.
    for before, after in zip(sizes, sizes[1:]):
        assert after == before - int(before * 0.1)
    assert sizes[-1] <= 100 < sizes[-2]
    first_prune = rounds[1]
    assert len(first_prune.removed) == 30 and all(score == 0.0 for _, score in first_prune.removed[:5])
    assert isinstance(events[-1], TrainingStopped)
    assert model.vocab_size == sizes[-1] + 1 and model.id_to_token(0) == "<unk>"


def test_textbook_refuses_a_target_below_the_alphabet(word_counts):
    with pytest.raises(ConfigError):
        drain(tb.train_unigram_textbook(word_counts, TrainOptions("unigram", vocab_size=10)))
    with pytest.raises(ConfigError):
        drain(tb.train_unigram_textbook({}, TrainOptions("unigram", vocab_size=100)))
