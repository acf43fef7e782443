"""The Korean study: syllable, jamo and morpheme-aware BPE on one corpus, at one vocab size.

Three pipelines, the same trainer (BPE, ``<unk>`` the one special token) and the
same vocab size, so the only difference is what BPE learns its merges over:

- **syllable BPE**: ``metaspace`` pieces, ~thousands of syllables as the alphabet;
- **jamo BPE**: the ``jamo`` normalizer first, so the alphabet is ~70 letters and
  a token may end inside a syllable;
- **morpheme-aware BPE**: ``ko-morph`` pieces (kiwipiepy), so no token crosses a
  morpheme boundary (Park et al. 2020, "An Empirical Study of Tokenization
  Strategies for Various Korean NLP Tasks").

Each is measured on held-out lines: tokens per word, characters per token,
unknown rate and vocabulary use, tokens per word at several vocab sizes
(the trained model cut to each size, as the explorer's slider cuts it), and the
morphological alignment of its token boundaries inside words with kiwipiepy's
morpheme boundaries (precision, recall and F1, :func:`core.measures.boundary_scores`;
Park et al. 2020 ask this question, MorphScore scores it).

    >>> train_lines = ["철수는 치킨을 먹고 영희는 밥을 먹었다", "나는 밥을 먹고 학교에 갔다"] * 3
    >>> rows = drain(korean_study(train_lines, ["영희는 치킨을 먹었다"], vocab_size=60))
    >>> [(r.name, round(r.stats.tokens_per_word, 2)) for r in rows]
    [('syllable BPE', 1.0), ('jamo BPE', 3.33), ('morpheme-aware BPE', 2.33)]

subtle: a *word* here is a whitespace-separated word (어절) for all three, not a
pre-token: ko-morph's pre-tokens are morphemes, and tokens per morpheme would
flatter it. Characters are the original text's (spaces included), so jamo BPE's
characters per token count syllables, not jamo.

Leaves out: WordPiece and Unigram variants, and downstream tasks (Park et al.
measure those; this measures segmentation only).
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from core.events import MergeEvent, Progress, drain
from core.measures import BoundaryScores, boundary_scores, morpheme_boundaries, word_inner_boundaries
from core.options import TrainOptions, pre_tokenize_lines
from core.stats import EncodingStats, unknown_id
from core.tokenizer import Tokenizer
from core.training import train_from_counts

# Held-out lines whose morphemes are compared with the token boundaries (evenly spaced): the
# analyser takes ~2 ms a line, and a few hundred lines hold thousands of morpheme boundaries.
ALIGNMENT_LINES = 500

# name -> (normalizer, pre-tokenizer)
PIPELINES: dict[str, tuple[str | None, str]] = {
    "syllable BPE": (None, "metaspace"),
    "jamo BPE": ("jamo", "metaspace"),
    "morpheme-aware BPE": (None, "ko-morph"),
}


@dataclass
class StudyRow:
    """One pipeline of the study: its options, trained tokenizer and figures."""

    name: str
    options: TrainOptions
    tokenizer: Tokenizer
    stats: EncodingStats
    curve: list[tuple[int, float]] = field(default_factory=list)  # (vocab size, tokens per word)
    merges: list[MergeEvent] = field(default_factory=list)  # its merge log
    alignment: BoundaryScores | None = None  # token vs morpheme boundaries on held-out lines


def study_options(name: str, vocab_size: int) -> TrainOptions:
    normalizer, pre = PIPELINES[name]
    return TrainOptions(
        "bpe", vocab_size=vocab_size, normalizer=normalizer, pre_tokenizer=pre, special_tokens=["<unk>"]
    )


def curve_sizes(low: int, high: int, n: int = 8) -> list[int]:
    """``n`` vocab sizes from ``low`` to ``high``, evenly spaced on a log scale.

    ``curve_sizes(100, 1000, 3) == [100, 316, 1000]``
    """
    if high <= low:
        return [high]
    a, b = math.log(max(low, 1)), math.log(high)
    inner = {int(round(math.exp(a + (b - a) * i / (n - 1)))) for i in range(n)}
    return sorted(inner | {low, high})


def measure(tokenizer: Tokenizer, pieces: list[list[str]], words: int, characters: int) -> EncodingStats:
    """Figures of ``tokenizer``'s model over pre-tokenized held-out lines (``pieces`` per line)."""
    model = tokenizer.model
    unk = unknown_id(tokenizer)
    tokens = unknown = 0
    distinct: set[int] = set()
    for line in pieces:
        for piece in line:
            for t in model.tokenize(piece):
                tokens += 1
                distinct.add(t.id)
                unknown += t.id == unk
    return EncodingStats(len(pieces), tokens, words, characters, unknown, len(distinct), tokenizer.vocab_size)


def study_one(
    name: str,
    word_counts: dict[str, int],
    held_out: list[str],
    vocab_size: int,
    sizes: list[int] | None = None,
    gold: tuple[list[str], list[set[int]]] | None = None,
) -> StudyRow:
    """Train pipeline ``name`` on pre-token counts and measure it on ``held_out`` lines.

    ``gold``: lines and their morpheme boundaries (:func:`alignment_gold`), analysed once for
    the three pipelines; None analyses ``held_out`` here."""
    options = study_options(name, vocab_size)
    events: list = []
    tok = drain(train_from_counts(word_counts, options), events.append)
    # subtle: pre-tokenize once (ko-morph runs the analyser here), then only the model
    # changes with the vocab size; re-encoding would re-analyse every line per size
    pieces = [[p.normalized for p in tok.pieces(line)] for line in held_out]
    words = sum(len(line.split()) for line in held_out)
    characters = sum(len(line) for line in held_out)
    row = StudyRow(name, options, tok, measure(tok, pieces, words, characters))
    row.merges = [e for e in events if isinstance(e, MergeEvent)]
    model: Any = tok.model  # BPE here: the study trains BPE three ways
    low = int(model.min_vocab_size or 0) + 1
    for k in sizes or curve_sizes(min(low, tok.vocab_size), tok.vocab_size):
        cut = Tokenizer(model.truncated(k), tok.normalizer, tok.pre_tokenizer, tok.decoder, tok.added_tokens)
        row.curve.append((cut.vocab_size, measure(cut, pieces, words, characters).tokens_per_word))
    row.alignment = alignment(tok, *(gold or alignment_gold(held_out)))
    return row


def alignment_gold(held_out: list[str], limit: int = ALIGNMENT_LINES) -> tuple[list[str], list[set[int]]]:
    """Up to ``limit`` held-out lines spread evenly, and each one's morpheme boundaries inside
    words (kiwipiepy, as ``ko-morph``)."""
    step = max(1, math.ceil(len(held_out) / limit)) if limit > 0 else 0
    lines = held_out[::step][:limit] if step else []
    return lines, morpheme_boundaries(lines, "ko")


def alignment(tokenizer: Tokenizer, lines: list[str], gold: list[set[int]]) -> BoundaryScores:
    """Token boundaries inside words against the morpheme boundaries ``gold``, pooled over lines.

    Offsets are in the original text, so a jamo token that ends inside a syllable cuts no
    boundary there (:func:`core.measures.word_inner_boundaries`).
    """
    scores = BoundaryScores(0, 0, 0)
    for text, enc, morphs in zip(lines, tokenizer.encode_batch(lines), gold):
        scores = scores + boundary_scores(word_inner_boundaries(enc.offsets, text, "ko"), morphs)
    return scores


def korean_study(
    train_lines: list[str], held_out: list[str], vocab_size: int, names: list[str] | None = None
) -> Generator[Progress, None, list[StudyRow]]:
    """The three pipelines on in-memory lines; yields a Progress per pipeline (a cancellation point)."""
    names = names or list(PIPELINES)
    rows = []
    gold = alignment_gold(held_out)  # the analyser runs once, for the three pipelines
    for i, name in enumerate(names):
        yield Progress("study", i, len(names))
        counts = pre_tokenize_lines(train_lines, study_options(name, vocab_size))
        rows.append(study_one(name, counts, held_out, vocab_size, gold=gold))
    yield Progress("study", len(names), len(names))
    return rows


def split_held_out(lines: list[str], every: int = 20) -> tuple[list[str], list[str]]:
    """Every ``every``-th non-blank line held out: ``(training lines, held-out lines)``."""
    lines = [line for line in lines if line.strip()]
    held = [line for i, line in enumerate(lines) if i % every == every - 1]
    train = [line for i, line in enumerate(lines) if i % every != every - 1]
    return train, held


def markdown_table(rows: list[StudyRow]) -> str:
    """The Korean study's table (docs/korean-japanese.md): one row per pipeline."""
    out = [
        "| pipeline | vocab | tokens per word | characters per token | unknown rate | vocabulary used "
        "| morpheme boundary F1 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        s = r.stats
        f1 = "–" if r.alignment is None else f"{r.alignment.f1:.3f}"
        out.append(
            f"| {r.name} | {s.vocab_size:,} | {s.tokens_per_word:.3f} | {s.chars_per_token:.3f} | "
            f"{s.unk_rate:.4%} | {s.vocab_used:.1%} | {f1} |"
        )
    return "\n".join(out)
