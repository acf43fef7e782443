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
from operator import itemgetter

from core.errors import ConfigError
from core.sentencepiece_pieces import NORMAL, Piece, f32
from core.sentencepiece_training import (
    LINE_END,
    UNK_CHAR,
    SentencePieceSettings,
    covering_chars,
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
    marked = [w for w in word_counts if w.endswith(LINE_END)]
    if marked:
        # (the unmarked words stay where they are; the trainer sorts the words anyway)
        plain = dict(word_counts)
        for word in marked:
            n = plain.pop(word)
            if word.endswith(LINE_END + LINE_END):
                word = word[:-1]
                last_word = word[:-1]
            word = word[:-1]
            line_final[word] = line_final.get(word, 0) + n
            plain[word] = plain.get(word, 0) + n
        word_counts = plain
    meta = settings.meta_pieces(*_specials(options))
    chars, renamed = _required_chars_masked(word_counts, settings.character_coverage)
    size = options.vocab_size - len(meta)
    if size < len(chars):
        raise ConfigError(
            f"vocab size {options.vocab_size:,} is smaller than the {len(meta) + len(chars):,} meta pieces "
            "and required characters: raise it or lower the character coverage"
        )
    # subtle: a word keeps its unknown characters ("▅"): spm_train's lattice holds an unknown
    # node there, and its float32 sums run through it (cutting words there gave other roundings)
    words = _renamed(word_counts, renamed)
    finals = _renamed(line_final, renamed) if line_final else {}
    if last_word is not None:
        last_word = renamed.get(last_word, last_word)
    # spm_train's EM walks its words most frequent first (ties: by text), adding float32 counts
    ordered = sorted(words.items())  # (by text, then a stable sort by count: no key per word)
    ordered.sort(key=itemgetter(1), reverse=True)
    words = dict(ordered)
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


def _required_chars_masked(
    word_counts: dict[str, int], coverage: float
) -> tuple[dict[str, int], dict[str, str]]:
    """``required_chars(word_counts, coverage)`` and what ``mask_rare_chars`` makes of each word
    holding a character outside them (``{word: masked word}``), over one array of the words'
    code points (``core.sentencepiece_training`` has the readable versions; a test holds these
    to them): a Python loop over every character was a tenth of a Japanese training.

        >>> _required_chars_masked({"▁ab": 3, "▁c": 1}, 0.9)
        ({'▁': 4, 'a': 3, 'b': 3}, {'▁c': '▁▅'})
    """
    import numpy as np

    words = [w for w in word_counts if w]  # (an empty word has no characters, and would spoil reduceat)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    codes = np.frombuffer("".join(words).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    times = np.fromiter(map(word_counts.__getitem__, words), dtype=np.float64, count=len(words))
    weights = np.repeat(times, lengths)
    per_code = np.bincount(codes, weights=weights)  # (whole counts, exact in float64 below 2**53)
    present = np.flatnonzero(per_code)
    counts = dict(zip(map(chr, present.tolist()), per_code[present].astype(np.int64).tolist()))
    chars = covering_chars(counts, coverage)
    keep = np.zeros(len(per_code), dtype=bool)
    keep[[ord(c) for c in chars]] = True
    unknown = ~keep[codes]
    if UNK_CHAR in counts:
        unknown[codes == ord(UNK_CHAR)] = False  # (masked or not, it stays itself)
    if not unknown.any():
        return chars, {}
    starts = np.zeros(len(words), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    held = np.flatnonzero(np.logical_or.reduceat(unknown, starts)).tolist()
    masked = np.where(unknown, np.uint32(ord(UNK_CHAR)), codes).astype(np.uint32)
    text = masked.tobytes().decode("utf-32-le", "surrogatepass")
    return chars, {
        words[k]: text[s : s + n] for k, s, n in zip(held, starts[held].tolist(), lengths[held].tolist())
    }


def _renamed(counts: dict[str, int], renamed: dict[str, str]) -> dict[str, int]:
    """``counts`` with each word of ``renamed`` replaced, the counts of words that became the
    same added (the order of the words may change: the trainer sorts them)."""
    out = dict(counts)
    for old, new in renamed.items():
        n = out.pop(old, None)
        if n is not None:
            out[new] = out.get(new, 0) + n
    return out
