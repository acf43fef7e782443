"""Unigram trained as ``spm_train --model_type=unigram`` trains it, saved as a SentencePiece model.

The algorithm is :func:`core.models.unigram.trainer.train_unigram` (SentencePiece's recipe:
seeds from repeated substrings scored count x length, EM with the digamma update,
``num_sub_iterations`` 2, pruning by ``shrinking_factor`` 0.75 down to 1.1 x the vocabulary),
with what ``spm_train`` adds around it (``unigram_model_trainer.cc``, ``trainer_interface.cc``):

1. the same words as SentencePiece BPE (:class:`core.pre_tokenizers.SentencePieceWords`);
   characters outside ``character_coverage`` become ``▅``, which no piece holds: the word
   keeps it, and its lattice has spm_train's unknown node there;
2. seeds must be valid pieces (one script, ``▁`` only first, ``split_digits``, at most
   ``max_sentencepiece_length`` characters), and two followers of a seed must differ in their
   first UTF-8 byte (sentencepiece 0.2.x finds its seeds in a suffix array over bytes: 24,308
   seeds on ja-wagahaiwa in its log, 48,869 by characters);
3. a pruning round after every EM round, down to 1.1 x the WHOLE vocabulary (meta pieces
   included); training stops once pruning reaches it, without EM on what is left;
4. characters are pieces like any other: one expected fewer than 0.5 times, or on no best
   path when pruning, is dropped, and spm_train's unknown node (10 below the lowest score,
   counted on piece 0) stands in for it; equal pruning losses keep spm_train's list order,
   and EM computes in float32 as spm_train does, over its words in its order;
5. the final pieces: every required character (one the model dropped scores just below the
   lowest score, 0.0001 apart), then the best scores until the vocabulary is full, sorted
   by score (ties: by text), after the meta pieces.

Identical to spm_train on ja-wagahaiwa (8k), en-botchan (4k) and 3 MB of Korean reviews (8k):
pieces, order, scores (``benchmarks/history.md``). Like
spm_train, seeding counts the suffixes of its last sentence twice (``core.corpus`` marks that
sentence's last word; ``core.models.unigram.trainer`` explains why). A benchmark
(``benchmarks/bench_sentencepiece_train.py``) measures the piece overlap and the length of the
encodings against spm_train on the shared corpora.
"""

from __future__ import annotations

from collections.abc import Generator

from core.errors import ConfigError
from core.sentencepiece_pieces import NORMAL, Piece, f32
from core.sentencepiece_training import (
    LINE_END,
    UNK_CHAR,
    SentencePieceSettings,
    mask_rare_chars,
    required_chars,
    sorted_chars,
)

_MIN_SCORE_PENALTY_DELTA = 0.0001  # spm_train's kMinScorePenaltyDelta
_DESIRED_SIZE_FACTOR = 1.1


def train_sentencepiece_unigram(word_counts: dict[str, int], options) -> Generator[object, None, object]:
    """Learn a SentencePiece Unigram model from ``{word: count}``; yields the Unigram trainer's
    events, returns a ``SentencePieceUnigram`` model."""
    from core.models.bpe.sentencepiece_trainer import _specials
    from core.models.unigram.sentencepiece import SentencePieceUnigram
    from core.models.unigram.trainer import train_unigram
    from core.options import TrainOptions

    settings = SentencePieceSettings.from_extra(options.extra)
    # words that ended a line come marked (SentencePieceWords(mark_line_end=True)): unmark them
    line_final: dict[str, int] = {}
    last_word = None  # the last word of spm_train's last sentence (core.corpus marks it twice)
    if any(w.endswith(LINE_END) for w in word_counts):
        plain: dict[str, int] = {}
        for word, n in word_counts.items():
            if word.endswith(LINE_END + LINE_END):
                word = word[:-1]
                last_word = word[:-1]
            if word.endswith(LINE_END):
                word = word[:-1]
                line_final[word] = line_final.get(word, 0) + n
            plain[word] = plain.get(word, 0) + n
        word_counts = plain
    meta = settings.meta_pieces(*_specials(options))
    chars = required_chars(word_counts, settings.character_coverage)
    size = options.vocab_size - len(meta)
    if size < len(chars):
        raise ConfigError(
            f"vocab size {options.vocab_size:,} is smaller than the {len(meta) + len(chars):,} meta pieces "
            "and required characters: raise it or lower the character coverage"
        )
    # subtle: a word keeps its unknown characters ("▅"): spm_train's lattice holds an unknown
    # node there, and its float32 sums run through it (cutting words there gave other roundings)
    words = mask_rare_chars(word_counts, chars)
    finals = mask_rare_chars(line_final, chars) if line_final else {}
    if last_word is not None:
        last_word = next(iter(mask_rare_chars({last_word: 1}, chars)))
    # spm_train's EM walks its words most frequent first (ties: by text), adding float32 counts
    words = dict(sorted(words.items(), key=lambda kv: (-kv[1], kv[0])))
    inner = TrainOptions(
        "unigram",
        vocab_size=size,
        special_tokens=[],
        extra={"max_piece_length": min(settings.max_sentencepiece_length, 256)},
    )
    desired = int(options.vocab_size * _DESIRED_SIZE_FACTOR)
    # subtle: sentencepiece 0.2.x prunes after every EM round and stops once pruning reaches the
    # desired size, without EM on what is left (its log on botchan at 4,000: EM to 5,232 pieces,
    # then "PruneUnreachableSentencePieces ... out of 4400" and no EM round), and builds its
    # suffix array over UTF-8 bytes (utf8_followers: 24,308 seeds on ja-wagahaiwa, as its log)
    model = yield from train_unigram(
        words,
        inner,
        valid_piece=settings.is_valid_piece,
        valid_pieces=settings.valid_pieces,
        desired_size=desired,
        prune_last=True,
        line_final=finals if line_final and not settings.treat_whitespace_as_suffix else None,
        before_unknown={},
        utf8_followers=True,
        unknown_count=0.0,
        unknown_char=UNK_CHAR,
        last_word=last_word,
    )
    learned = dict(model.pieces)
    final: dict[str, float] = {}
    lowest = min(learned.values(), default=0.0)
    penalty = 0.0
    for c in sorted_chars(chars):
        if c in learned:
            final[c] = learned[c]
        else:
            final[c] = f32(lowest + penalty)  # (float32 sums, as spm_train's)
            penalty = f32(penalty + f32(_MIN_SCORE_PENALTY_DELTA))
    for piece, score in sorted(learned.items(), key=lambda kv: (-kv[1], kv[0])):
        if len(final) >= size:
            break
        final.setdefault(piece, score)
    ranked = sorted(final.items(), key=lambda kv: (-kv[1], kv[0]))
    pieces = list(meta) + [Piece(p, s, NORMAL) for p, s in ranked]
    return SentencePieceUnigram(pieces, byte_fallback=settings.byte_fallback)
