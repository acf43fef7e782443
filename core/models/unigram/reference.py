"""Unigram training the textbook way (the Hugging Face course's Unigram chapter).

    >>> from core.events import drain
    >>> from core.options import TrainOptions, pre_tokenize_lines
    >>> counts = pre_tokenize_lines(TEXTBOOK_CORPUS, TrainOptions("unigram"))   # {"▁This": 3, ...}
    >>> model = drain(train_unigram_textbook(counts, TrainOptions("unigram", vocab_size=100)))
    >>> [t.value for t in model.tokenize("▁tokenization")]
    ['▁tokeniz', 'a', 't', 'i', 'o', 'n']

The recipe, step by step, exactly as the course's code runs it:

1. seed vocabulary: every character (in order of first appearance, with its
   count) plus the most frequent substrings of length >= 2 (sorted by count,
   ties in order of first appearance) up to ``seed_size`` = 300 pieces;
2. each piece's score is ``-log(count / total)`` (a loss: lower is better);
3. the loss of the corpus is ``sum(count(word) * loss(word))`` where a word's
   loss comes from the course's Viterbi -- subtle: the course starts every word
   at score 1 instead of 0, which adds the word count (31 here) to the total;
   we reproduce it so the printed figure 413.10377642940875 comes out;
4. a piece's removal score is the corpus loss without it minus the loss with
   it, found by re-encoding the whole corpus once per piece (fine for four
   sentences, far too slow for anything real: see ``core.models.unigram.trainer``);
   single characters are never removed;
5. drop the 10 % lowest-scoring pieces (``int(len(vocab) * 0.1)``, ties in
   vocabulary order), recompute scores from the kept counts, repeat while
   the vocabulary is larger than the target.

A word with no complete segmentation becomes ``<unk>`` as a whole
(:func:`encode_word`), as in the course; the returned :class:`Unigram` model
instead handles unknown characters one by one like the real libraries.
Leaves out: EM re-estimation (the course keeps raw substring counts).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator
from math import log

from core.errors import ConfigError
from core.events import Progress, TrainingStopped, UnigramRound
from core.models.unigram.model import Unigram

TEXTBOOK_CORPUS = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
TEXTBOOK_SEED_SIZE = 300
TEXTBOOK_PERCENT_TO_REMOVE = 0.1


def seed_counts(word_counts: dict[str, int], seed_size: int) -> dict[str, int]:
    """Characters first, then the most frequent substrings of length >= 2.

    >>> seed_counts({"▁ab": 2}, 5)
    {'▁': 2, 'a': 2, 'b': 2, '▁a': 2, '▁ab': 2}
    """
    char_counts: dict[str, int] = defaultdict(int)
    sub_counts: dict[str, int] = defaultdict(int)
    for word, count in word_counts.items():
        for i in range(len(word)):
            char_counts[word[i]] += count
            for j in range(i + 2, len(word) + 1):
                sub_counts[word[i:j]] += count
    # subtle: sorted() is stable, so equal counts keep the order substrings were first met.
    by_count = sorted(sub_counts.items(), key=lambda item: item[1], reverse=True)
    entries = list(char_counts.items()) + by_count[: max(0, seed_size - len(char_counts))]
    return {piece: count for piece, count in entries}


def losses_from_counts(counts: dict[str, int]) -> dict[str, float]:
    """``-log(count / total)`` per piece. ``losses_from_counts({"a": 1, "b": 1})["a"] == log(2)``."""
    total = sum(counts.values())
    return {piece: -log(count / total) for piece, count in counts.items()}


def encode_word(word: str, losses: dict[str, float]) -> tuple[list[str], float | None]:
    """The seed's Viterbi: lowest-loss segmentation and its loss (``(["<unk>"], None)`` if none).

    subtle: the path starts at loss 1, not 0 (the seed's quirk, kept on purpose).
    >>> encode_word("ab", {"a": 1.0, "b": 1.0, "ab": 1.5})
    (['ab'], 2.5)
    """
    best: list[tuple[int | None, float | None]] = [(0, 1)] + [(None, None)] * len(word)
    for start in range(len(word)):
        at_start = best[start][1]
        if at_start is None:
            continue
        for end in range(start + 1, len(word) + 1):
            token = word[start:end]
            if token in losses:
                score = losses[token] + at_start
                if best[end][1] is None or best[end][1] > score:
                    best[end] = (start, score)
    start, score = best[-1]
    if score is None:
        return ["<unk>"], None
    tokens = []
    end = len(word)
    while end > 0:
        tokens.append(word[start:end])
        end, start = start, best[start][0]
    tokens.reverse()
    return tokens, score


def corpus_loss(word_counts: dict[str, int], losses: dict[str, float]) -> float:
    """``sum(count * loss(word))``, accumulated in word order like the seed."""
    total = 0.0
    for word, count in word_counts.items():
        _, word_loss = encode_word(word, losses)
        if word_loss is None:
            raise ConfigError(f"the textbook vocabulary cannot segment {word!r}")
        total += count * word_loss
    return total


def removal_scores(word_counts: dict[str, int], losses: dict[str, float]) -> dict[str, float]:
    """For each piece longer than one character: corpus loss without it minus with it."""
    base = corpus_loss(word_counts, losses)
    scores = {}
    for piece in losses:
        if len(piece) == 1:
            continue
        without = dict(losses)
        del without[piece]
        scores[piece] = corpus_loss(word_counts, without) - base
    return scores


def tokenize(words: list[str], losses: dict[str, float]) -> list[str]:
    """Encode pre-tokens with the seed's ``encode_word`` (whole word -> ``<unk>`` if it cannot be cut)."""
    return [t for word in words for t in encode_word(word, losses)[0]]


def train_unigram_textbook(word_counts: dict[str, int], options) -> Generator[object, None, Unigram]:
    """Run the seed's recipe; yields a ``seed`` round, then one ``prune`` round per cut."""
    if not word_counts:
        raise ConfigError("cannot train on an empty corpus")
    specials = list(options.special_tokens or [])
    seed_size = int(options.extra.get("seed_size", TEXTBOOK_SEED_SIZE))
    share = float(options.extra.get("percent_to_remove", TEXTBOOK_PERCENT_TO_REMOVE))
    if not 0 < share < 1:
        raise ConfigError(f"the share of pieces to remove must be between 0 and 1, not {share}")
    target = options.vocab_size - len(specials)

    # 1. seed vocabulary and its scores.
    counts = seed_counts(word_counts, seed_size)
    n_chars = sum(1 for p in counts if len(p) == 1)
    if target < n_chars:
        raise ConfigError(
            f"vocab size {options.vocab_size:,} is below the {n_chars:,} characters + {len(specials)} specials"
        )
    losses = losses_from_counts(counts)
    yield UnigramRound("seed", 0, len(losses) + len(specials), corpus_loss(word_counts, losses))

    # 2. prune: drop the lowest removal scores, re-score from the kept counts, repeat.
    snapshots = []
    round_no = 0
    while len(losses) > target:
        round_no += 1
        scores = removal_scores(word_counts, losses)
        ranked = sorted(scores.items(), key=lambda item: item[1])  # stable: ties in vocab order
        n_remove = int(len(losses) * share)
        if n_remove == 0 or not ranked:
            break
        removed = tuple(ranked[:n_remove])
        for piece, _ in removed:
            del counts[piece]
        losses = losses_from_counts(counts)
        yield Progress("prune", round_no, round_no)
        yield UnigramRound(
            "prune", round_no, len(losses) + len(specials), corpus_loss(word_counts, losses), removed
        )
        snapshots.append((len(losses), [(p, -loss) for p, loss in losses.items()]))

    # 3. the model: specials first (score 0, like `tokenizers`), then pieces by log-probability.
    pieces = [(s, 0.0) for s in specials] + sorted(
        ((p, -loss) for p, loss in losses.items()), key=lambda e: -e[1]
    )
    unk = specials.index(options.unk_token) if options.unk_token in specials else None
    model = Unigram(pieces, unk_id=unk)
    model.special_tokens = specials
    model.snapshots = snapshots
    model.textbook_losses = losses  # the seed's own ``model`` dict, for ``tokenize`` above
    yield TrainingStopped(
        "reached vocab size" if len(losses) <= target else "nothing left to remove",
        model.vocab_size,
        options.vocab_size,
    )
    return model
