"""A tokenizer's report card: the measures researchers compare tokenizers by, offline.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=12)))
    >>> wordpiece = drain(train_from_counts(counts, TrainOptions("wordpiece", vocab_size=16)))
    >>> card = drain(report({"bpe": bpe, "wordpiece": wordpiece}, ["hug pug hug", "pun bun hugs"], language=None))
    >>> [round(t.compression.tokens_per_word, 2) for t in card.tokenizers]
    [1.5, 1.17]

Each measure is a small pure function with its source and a worked example; :func:`report`
encodes the corpus **once** per tokenizer and derives every measure from that one encoding
(a few sampled lines keep their offsets, for morphological alignment; the rest are encoded to
ids only). It is a generator of :class:`~core.events.Progress` events, as every long engine
job (``drain`` runs it without a GUI); nothing here prints.

Choices where the papers leave room (each function says its own):

- *Sizes* are those of the original lines: characters and UTF-8 bytes include the spaces
  inside a line, not its line end; *words* are whitespace-separated units (어절 in Korean),
  the same for every tokenizer whatever its pre-tokenizer, so "tokens per word" always
  divides by the same number (a line of Japanese, without spaces, is one word).
- *Token counts* are what ``encode`` gives without a post-processor's ``[CLS]``/``[SEP]``.

Leaves out: anything needing model weights (Land & Bartolo's embedding-norm indicators),
downstream scores, and drawing (``core.report_export`` writes the table, JSON and HTML).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np
import regex

from core.errors import ConfigError, InputError
from core.events import Progress

# tokenization-scorer's default order for Rényi efficiency (its metrics.py sets "power" to 3.0
# when none is given).
DEFAULT_ALPHA = 3.0
# Lines whose morpheme boundaries are compared with the token boundaries (evenly spaced over
# the corpus): Kiwi took ~2 ms a line of ko-movie-reviews.txt (237,461 lines) on a loaded machine,
# and a thousand of its lines already hold ~10,700 morpheme boundaries inside words.
DEFAULT_ALIGNMENT_LINES = 1000
_BATCH_LINES = 1024  # lines per encode_batch_ids call (one progress event each)
_BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>\Z")  # SentencePiece's byte-fallback pieces
# control, format, private-use and unassigned characters, but for the tab and line ends text has
_CONTROL = regex.compile(r"(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cn}]")


# -- compression ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextSizes:
    """How big some lines are: characters and UTF-8 bytes (spaces in, line ends out), words.

    >>> text_sizes(["hug pug"])
    TextSizes(lines=1, characters=7, bytes=7, words=2, letters=6)
    """

    lines: int
    characters: int
    bytes: int
    words: int  # whitespace-separated units (어절)
    letters: int  # characters that are not whitespace: the character baseline's tokens


def text_sizes(lines: Iterable[str], word_counts: Counter[str] | None = None) -> TextSizes:
    """:class:`TextSizes` of ``lines`` (see the module docstring for what counts); with
    ``word_counts``, each word is counted into it on the way (one split per line)."""
    n = characters = nbytes = words = spaces = 0
    for line in lines:
        n += 1
        characters += len(line)
        nbytes += len(line.encode("utf-8", "surrogatepass"))
        parts = line.split()
        words += len(parts)
        spaces += len(line) - sum(map(len, parts))
        if word_counts is not None:
            word_counts.update(parts)
    return TextSizes(n, characters, nbytes, words, characters - spaces)


@dataclass(frozen=True, slots=True)
class Compression:
    """Tokens against the text they cover (Rust et al. 2021 call tokens per word *fertility*).

    >>> c = Compression(tokens=3, sizes=text_sizes(["hug pug"]))   # hug p ug
    >>> c.tokens_per_word, c.bytes_per_token
    (1.5, 2.3333333333333335)
    """

    tokens: int
    sizes: TextSizes

    @property
    def tokens_per_byte(self) -> float:
        return _ratio(self.tokens, self.sizes.bytes)

    @property
    def tokens_per_character(self) -> float:
        return _ratio(self.tokens, self.sizes.characters)

    @property
    def tokens_per_word(self) -> float:
        return _ratio(self.tokens, self.sizes.words)

    @property
    def bytes_per_token(self) -> float:
        return _ratio(self.sizes.bytes, self.tokens)


def character_baseline(sizes: TextSizes) -> Compression:
    """One token per character, the textbook's lower bound on compression.

    Choice: whitespace gives no token (as a character tokenizer behind a whitespace
    pre-tokenizer), so the tokens are the non-space characters.

    >>> character_baseline(text_sizes(["hug pug"])).tokens_per_word
    3.0
    """
    return Compression(sizes.letters, sizes)


class WordFrequencies:
    """The corpus's whitespace words by frequency, to ask what a word-level vocabulary of any
    size would leave unknown (sorted once; each question is then one look-up).

    >>> WordFrequencies(["a a a b b c"]).unknown_rate(3)   # vocabulary: a, b, <unk>
    0.16666666666666666
    """

    def __init__(self, lines: Iterable[str] = (), counts: Counter[str] | None = None) -> None:
        counts = Counter() if counts is None else counts
        for line in lines:
            counts.update(line.split())
        ordered = sorted(counts.values(), reverse=True)
        self.distinct = len(ordered)
        self._covered = np.cumsum(np.array([0, *ordered], dtype=np.int64))
        self.total = int(self._covered[-1])

    def covered(self, words: int) -> int:
        """Word occurrences that the ``words`` most frequent distinct words cover."""
        return int(self._covered[max(0, min(words, self.distinct))])

    def unknown_rate(self, vocab_size: int) -> float:
        """Share of word occurrences outside a word vocabulary of ``vocab_size`` entries.

        Choice: the unknown token takes one of the entries, so ``vocab_size - 1`` words are
        known (the same vocabulary size as the tokenizer it stands beside).
        """
        return _ratio(self.total - self.covered(vocab_size - 1), self.total)


@dataclass(frozen=True, slots=True)
class WordBaseline:
    """One token per whole word with the most frequent ``vocab_size - 1`` words and ``<unk>``:
    every word is one token, and ``unknown_rate`` of them are the unknown token.

    >>> b = word_baseline(WordFrequencies(["a a a b b c"]), 3, text_sizes(["a a a b b c"]))
    >>> b.compression.tokens_per_word, b.unknown_rate
    (1.0, 0.16666666666666666)
    """

    vocab_size: int
    compression: Compression
    unknown_rate: float


def word_baseline(frequencies: WordFrequencies, vocab_size: int, sizes: TextSizes) -> WordBaseline:
    """The word-level baseline at ``vocab_size`` (see :class:`WordBaseline`)."""
    return WordBaseline(vocab_size, Compression(sizes.words, sizes), frequencies.unknown_rate(vocab_size))


# -- Rényi and Shannon efficiency (Zouhar et al. 2023) ---------------------------------------------


def _probabilities(counts: Iterable[int]) -> np.ndarray:
    freqs = np.fromiter((c for c in counts if c > 0), dtype=np.float64)
    total = freqs.sum()
    return freqs / total if total else freqs


def _normaliser(observed: int, vocab_size: int | None) -> float:
    return math.log2(observed if vocab_size is None else vocab_size)


def renyi_efficiency(
    counts: Iterable[int], alpha: float = DEFAULT_ALPHA, vocab_size: int | None = None
) -> float:
    """Rényi entropy of the token distribution over log2 of the vocabulary size (Zouhar et al.
    2023, "Tokenization and the Noiseless Channel"); as ``tokenization-scorer``'s ``renyi``.

    ``counts``: how often each token type occurs. ``vocab_size``: the normaliser; None, as
    tokenization-scorer by default, takes the types observed. Rényi entropy of order α is
    ``log2(Σ p**α) / (1 - α)``; α = 1 is Shannon's (its limit). NaN when fewer than two types
    are seen (log2 1 = 0: the efficiency of a one-symbol code is undefined).

    >>> renyi_efficiency([2, 1, 1])   # p = .5 .25 .25: log2(.15625) / -2 / log2(3)
    0.8448376235696801
    """
    if not (alpha >= 0 and math.isfinite(alpha)):
        raise ConfigError(f"the Rényi order α must be a finite number of at least 0, not {alpha}")
    if alpha == 1.0:
        return shannon_efficiency(counts, vocab_size)
    p = _probabilities(counts)
    if len(p) == 0 or (len(p) < 2 and vocab_size is None):
        return math.nan
    entropy = float(np.log2(np.sum(p**alpha))) / (1 - alpha)
    return entropy / _normaliser(len(p), vocab_size)


def shannon_efficiency(counts: Iterable[int], vocab_size: int | None = None) -> float:
    """Shannon entropy of the token distribution over log2 of the vocabulary size (Zouhar et
    al. 2023; Gutierrez-Vasques et al. 2021); as ``tokenization-scorer``'s ``shannon``.

    >>> shannon_efficiency([2, 1, 1])   # H = 1.5 bits, over log2(3)
    0.9463946303571862
    """
    p = _probabilities(counts)
    if len(p) == 0 or (len(p) < 2 and vocab_size is None):
        return math.nan
    entropy = float(-np.sum(p * np.log2(p)))
    return entropy / _normaliser(len(p), vocab_size)


# -- parity across languages (Petrov et al. 2023) ---------------------------------------------------


def gini(values: Sequence[float]) -> float:
    """Gini coefficient: mean absolute difference over twice the mean; 0 when all are equal.

    Petrov et al. (2023, "Language Model Tokenizers Introduce Unfairness Between Languages")
    compare languages by their token premiums; the Gini coefficient sums the spread in one number.

    >>> gini([1, 1, 2, 4])   # Σ|xi - xj| over ordered pairs = 20; 20 / (2 · 4² · 2)
    0.3125
    """
    x = np.asarray(values, dtype=np.float64)
    if len(x) == 0 or x.sum() == 0:
        return 0.0
    x = np.sort(x)
    n = len(x)
    # Σ_i Σ_j |xi - xj| = 2 Σ_i (2i - n + 1) x_(i) for sorted x (i from 0)
    spread = 2.0 * float(np.sum((2 * np.arange(n) - n + 1) * x))
    return spread / (2 * n * n * float(x.mean()))


@dataclass(frozen=True, slots=True)
class Parity:
    """Tokens per language on parallel text, and each language's premium over the pivot.

    >>> p = parity({"ko": 30, "en": 20}, "en")
    >>> p.premiums, p.gini
    ({'ko': 1.5, 'en': 1.0}, 0.1)
    """

    pivot: str
    tokens: dict[str, int]
    premiums: dict[str, float]
    gini: float


def parity(tokens: Mapping[str, int], pivot: str) -> Parity:
    """Token premiums relative to ``pivot`` and their Gini coefficient (Petrov et al. 2023).

    Choice: a language's premium is its total token count on the parallel lines over the
    pivot's (the ratio of means, as the lines are the same in number), not the mean of
    per-line ratios, which a few very short lines would sway.
    """
    if pivot not in tokens:
        raise ConfigError(
            f"the pivot language {pivot!r} is not one of the parallel files ({', '.join(tokens)})"
        )
    base = tokens[pivot]
    premiums = {lang: _ratio(n, base) for lang, n in tokens.items()}
    return Parity(pivot, dict(tokens), premiums, gini(list(tokens.values())))


def check_parallel(parallel: Mapping[str, Sequence[str]]) -> None:
    """Refuse parallel files that are not: fewer than two, or different numbers of lines."""
    if len(parallel) < 2:
        raise ConfigError("parity needs parallel files in at least two languages")
    sizes = {lang: len(lines) for lang, lines in parallel.items()}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"{lang}: {n:,}" for lang, n in sizes.items())
        raise ConfigError(f"parallel files must have the same number of lines ({listed})")


# -- morphological alignment (MorphScore; Park et al. 2020 for Korean) -------------------------------


@dataclass(frozen=True, slots=True)
class BoundaryScores:
    """Token boundaries against morpheme boundaries, pooled over lines (micro-averaged): boundary
    precision, recall and F1 in the spirit of MorphScore (Arnett & Bergen 2024, "Why do language
    models perform worse for morphologically complex languages?", which scores recall on words
    with known segmentations), for Korean the question of Park et al. 2020.

    >>> s = boundary_scores({2, 4}, {2, 3})
    >>> s.precision, s.recall, s.f1
    (0.5, 0.5, 0.5)
    """

    matched: int  # boundaries both have
    predicted: int  # token boundaries
    gold: int  # morpheme boundaries

    @property
    def precision(self) -> float:
        return _ratio(self.matched, self.predicted)

    @property
    def recall(self) -> float:
        return _ratio(self.matched, self.gold)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: BoundaryScores) -> BoundaryScores:
        return BoundaryScores(
            self.matched + other.matched, self.predicted + other.predicted, self.gold + other.gold
        )


def boundary_scores(tokens: set[int], morphemes: set[int]) -> BoundaryScores:
    """Precision, recall and F1 of token boundaries (positions in the text) against morpheme ones."""
    return BoundaryScores(len(tokens & morphemes), len(tokens), len(morphemes))


def word_inner_boundaries(offsets: Iterable[tuple[int, int]], text: str, language: str) -> set[int]:
    """Where tokens cut a word of ``text``, counted only where a morpheme cut could be.

    Offsets are in the original text, so normalizers (NFKC, jamo) do not shift them; a
    position inside one character (byte pieces of a syllable) is no cut. Choice: word
    edges (spaces, line ends) are left out, as every tokenizer cuts there and counting them
    would lift every score alike; so are positions whose neighbours are both outside the
    analysed script (``hello,world``), which the analyser leaves uncut.

    >>> sorted(word_inner_boundaries([(0, 2), (2, 3), (4, 5)], "먹었고 a", "ko"))
    [2]
    """
    from core.morphemes import in_script

    out: set[int] = set()
    n = len(text)
    for start, end in offsets:
        if end <= start:
            continue
        for b in (start, end):
            if 0 < b < n and not text[b - 1].isspace() and not text[b].isspace():
                if in_script(language, text[b - 1]) or in_script(language, text[b]):
                    out.add(b)
    return out


def morpheme_boundaries(lines: Iterable[str], language: str) -> list[set[int]]:
    """Each line's morpheme boundaries inside words, from the analyser ``core.morphemes`` wraps
    (kiwipiepy for ``ko``, SudachiPy mode A for ``ja``): loaded once per process, each line
    analysed once, whatever the number of tokenizers compared on it.

    >>> morpheme_boundaries(["먹었고"], "ko")   # 먹|었|고
    [{1, 2}]
    """
    from core.morphemes import MorphemeSplit

    split = MorphemeSplit(language)
    return [set(split.morpheme_cuts(line)) for line in lines]


def guess_language(lines: Iterable[str]) -> str | None:
    """``"ko"`` or ``"ja"`` when the lines are mostly Hangul, or Japanese with kana; else None.

    >>> guess_language(["철수는 치킨을"]), guess_language(["吾輩は猫である"]), guess_language(["hug"])
    ('ko', 'ja', None)
    """
    from core.morphemes import in_script

    letters = hangul = japanese = kana = 0
    for line in lines:
        for c in line:
            if c.isspace():
                continue
            letters += 1
            if in_script("ko", c):
                hangul += 1
            elif in_script("ja", c):
                japanese += 1
                kana += 0x3040 <= ord(c) <= 0x30FF
    if letters and hangul >= 0.3 * letters:
        return "ko"
    if letters and japanese >= 0.3 * letters and kana:
        return "ja"
    return None


# -- vocabulary hygiene (Land & Bartolo 2024) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hygiene:
    """Tokens of a vocabulary that are odd without any model weights (ids, ascending).

    ``unused`` and ``intermediate_only`` need a corpus (None without one);
    ``intermediate_only`` needs a model that records merges (None for Unigram, WordPiece).
    """

    vocab_size: int
    special: tuple[int, ...]  # added tokens and the unknown token: left out of the other checks
    unreachable: tuple[int, ...]
    undecodable: tuple[int, ...]
    byte_pieces: tuple[int, ...]
    control_pieces: tuple[int, ...]
    unused: tuple[int, ...] | None = None
    intermediate_only: tuple[int, ...] | None = None


def vocabulary_hygiene(tokenizer: Any, used: Mapping[int, int] | None = None) -> Hygiene:
    """Vocabulary hygiene without model weights (Land & Bartolo 2024, "Fishing for Magikarp";
    intermediate-only tokens from Chizhov et al. 2024, PickyBPE).

    - *undecodable*: ``decode([id])`` holds U+FFFD: a part of a UTF-8 character (byte-level
      pieces of a syllable, ``<0xE3>``);
    - *byte pieces*: ``<0xNN>`` byte-fallback pieces, and single-character tokens that decode
      to a part of a character (byte-level BPE's byte alphabet beyond ASCII);
    - *control pieces*: decode to a control, format, private-use or unassigned character
      (tab and line ends are ordinary text);
    - *unreachable*: a decodable token that encoding its own text never gives alone.
      Choice: a token that only occurs inside a word (``##ug``, ``ug`` after Metaspace's
      ``▁ug``) is reachable when the model cuts its own string into exactly itself and the
      pre-tokenizer keeps its text in one piece; a token the corpus ``used`` is reachable;
    - *unused*: never produced on the corpus (``used``: id -> count);
    - *intermediate-only*: unused, and a part of some merge (a BPE step towards other tokens).

    Fast: one ``decode`` per token and one batched ``encode`` of the decoded texts of the
    tokens the corpus did not use (the hygiene of a 200,000-token vocabulary takes seconds).

    >>> from core.models.bpe.model import BPE
    >>> from core.tokenizer import Tokenizer
    >>> vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    >>> bpe_abc = Tokenizer(BPE(vocab, [("a", "b"), ("b", "c"), ("a", "bc")]))
    >>> h = vocabulary_hygiene(bpe_abc, {0: 1, 2: 1, 3: 1})  # a b c ab bc abc; merges a+b, b+c, a+bc
    >>> [bpe_abc.id_to_token(i) for i in h.unreachable]   # "abc" encodes as ab + c
    ['abc']
    >>> [bpe_abc.id_to_token(i) for i in h.intermediate_only]   # unused: b, bc, abc
    ['b', 'bc']
    """
    vocab = tokenizer.get_vocab()
    special_ids = {t.id for t in tokenizer.added_tokens}
    unk = _unknown_id(tokenizer)
    if unk is not None:  # produced for what the vocabulary lacks, never by its own text
        special_ids.add(unk)
    ids = sorted(i for i in set(vocab.values()) if i not in special_ids)
    token_of = {i: t for t, i in vocab.items() if i not in special_ids}
    undecodable: list[int] = []
    byte_pieces: list[int] = []
    control: list[int] = []
    to_check: list[int] = []
    texts: list[str] = []
    decoder = tokenizer.decoder
    for i in ids:
        token = token_of[i]
        # (the decoder itself: what Tokenizer.decode([i]) calls for an id that is no added token)
        text = decoder.decode([token]) if decoder is not None else token
        broken = "\ufffd" in text and "\ufffd" not in token
        if broken:
            undecodable.append(i)
        if _BYTE_PIECE.match(token) or (broken and len(token) == 1):
            byte_pieces.append(i)
        if _CONTROL.search(text):
            control.append(i)
        if not broken and not (used and used.get(i)):
            to_check.append(i)
            texts.append(text)
    unreachable = []
    for i, text, got in zip(to_check, texts, tokenizer.encode_batch_ids(texts)):
        if got != [i] and not _reachable_inside_word(tokenizer, token_of[i], text):
            unreachable.append(i)
    unused = intermediate = None
    if used is not None:
        unused = tuple(i for i in ids if not used.get(i))
        intermediate = _intermediate_only(tokenizer, unused, token_of)
    return Hygiene(
        vocab_size=len(vocab),
        special=tuple(sorted(special_ids & set(vocab.values()))),
        unreachable=tuple(unreachable),
        undecodable=tuple(undecodable),
        byte_pieces=tuple(byte_pieces),
        control_pieces=tuple(control),
        unused=unused,
        intermediate_only=intermediate,
    )


def _reachable_inside_word(tokenizer: Any, token: str, text: str) -> bool:
    """The second chance of :func:`vocabulary_hygiene`: a piece that only occurs after the start
    of a word. Its text without the model's continuation mark must stay one pre-token, and the
    model must give the token's own string back as exactly that token."""
    model = tokenizer.model
    prefix = model.continuing_subword_prefix
    inner = text[len(prefix) :] if prefix and text.startswith(prefix) else text
    if inner:
        # subtle: one pre-token covering the whole text; a space the pre-tokenizer drops is
        # no part of any pre-token ("a " gives the one pre-token "a")
        pieces = tokenizer.pieces(inner)
        if len(pieces) != 1 or pieces[0].offsets != (0, len(inner)):
            return False
    return [t.value for t in model.tokenize(token)] == [token]


def _intermediate_only(
    tokenizer: Any, unused: Sequence[int], token_of: Mapping[int, str]
) -> tuple[int, ...] | None:
    if not tokenizer.model.has_merges():
        return None
    merge_parts: Callable[[str], tuple[str, str] | None] = tokenizer.model.merge_parts
    parts: set[str] = set()
    for token in token_of.values():
        made = merge_parts(token)
        if made is not None:
            parts.update(made)
    return tuple(i for i in unused if token_of[i] in parts)


# -- the whole report ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TokenizerReport:
    """Every measure of one tokenizer on one corpus."""

    name: str
    vocab_size: int
    compression: Compression
    word_baseline: WordBaseline
    unknown: int  # the unknown token's id in the encoding (a literal "<unk>" typed in the text too)
    types_used: int  # distinct ids in the corpus encoding
    renyi: float
    shannon: float
    hygiene: Hygiene
    alignment: BoundaryScores | None = None
    parity: Parity | None = None

    @property
    def unknown_rate(self) -> float:
        return _ratio(self.unknown, self.compression.tokens)

    @property
    def vocab_used(self) -> float:
        return _ratio(self.types_used, self.vocab_size)


@dataclass(frozen=True, slots=True)
class Report:
    """The report card: the corpus, the character baseline, one row per tokenizer."""

    sizes: TextSizes
    character_baseline: Compression
    tokenizers: list[TokenizerReport]
    alpha: float
    language: str | None  # the analyser used for alignment
    alignment_lines: int  # lines the alignment was measured on (0: none)
    pivot: str | None = None
    parallel_lines: int = 0


def report(
    tokenizers: Mapping[str, Any] | Sequence[Any],
    corpus_lines: Sequence[str],
    parallel: Mapping[str, Sequence[str]] | None = None,
    *,
    pivot: str | None = None,
    alpha: float = DEFAULT_ALPHA,
    language: str | None = "auto",
    alignment_lines: int | None = DEFAULT_ALIGNMENT_LINES,
) -> Generator[Progress, None, Report]:
    """Every measure for every tokenizer, as a generator of Progress events returning a Report.

    ``tokenizers``: name -> tokenizer (a list is named 1, 2, ...). Each tokenizer encodes the
    corpus once: the ``alignment_lines`` lines spread evenly over it (None: all) with offsets,
    the rest to ids only, and every measure is derived from that (the corpus's words and
    morpheme boundaries are found once, for all tokenizers). ``language``: the analyser for
    alignment, ``"ko"``, ``"ja"``, None (no alignment) or ``"auto"`` (:func:`guess_language`
    on the sampled lines). ``parallel``: language -> lines of the same number, for parity
    against ``pivot`` (default: ``"en"`` if given, else the first language).

    Progress phases: ``words`` (lines), ``morphemes`` (lines), ``encode`` (bytes, once per
    tokenizer), ``hygiene`` (tokenizers done), ``parallel`` (tokenizers done).
    """
    named = (
        dict(tokenizers)
        if isinstance(tokenizers, Mapping)
        else {str(n + 1): t for n, t in enumerate(tokenizers)}
    )
    if not named:
        raise ConfigError("the report needs at least one tokenizer")
    renyi_efficiency([2, 1], alpha)  # a bad α fails now, not after encoding
    lines = list(corpus_lines)
    for n, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise InputError(f"corpus line {n} is {type(line).__name__}, not str")
    if parallel is not None:
        check_parallel(parallel)
        pivot = pivot or ("en" if "en" in parallel else next(iter(parallel)))
        if pivot not in parallel:
            raise ConfigError(
                f"the pivot language {pivot!r} is not one of the parallel files ({', '.join(parallel)})"
            )

    yield Progress("words", 0, len(lines))
    word_counts: Counter[str] = Counter()
    sizes = text_sizes(lines, word_counts)
    words = WordFrequencies(counts=word_counts)
    yield Progress("words", len(lines), len(lines))

    sample = _sample_indices(len(lines), alignment_lines)
    if language == "auto":
        language = guess_language(lines[i] for i in sample)
    elif language is not None and language not in ("ko", "ja"):
        raise ConfigError(f"morphological alignment is for ko or ja, not {language!r}")
    gold: list[set[int]] = []
    if language is not None and sample:
        for at in range(0, len(sample), 100):
            gold += morpheme_boundaries((lines[i] for i in sample[at : at + 100]), language)
            yield Progress("morphemes", min(at + 100, len(sample)), len(sample))
    else:
        sample = []
    in_sample = set(sample)
    rest = [line for n, line in enumerate(lines) if n not in in_sample] if in_sample else lines

    rows: list[TokenizerReport] = []
    for n, (name, tokenizer) in enumerate(named.items()):
        counts = _IdCounts()
        done = 0
        yield Progress("encode", 0, sizes.bytes)
        alignment = None
        if sample:
            alignment = BoundaryScores(0, 0, 0)
            for at in range(0, len(sample), _BATCH_LINES):
                texts = [lines[i] for i in sample[at : at + _BATCH_LINES]]
                for text, enc, morphs in zip(
                    texts, tokenizer.encode_batch(texts), gold[at : at + _BATCH_LINES]
                ):
                    counts.add(enc.ids)
                    cuts = word_inner_boundaries(enc.offsets, text, language)  # type: ignore[arg-type]
                    alignment = alignment + boundary_scores(cuts, morphs)
                done += sum(len(t.encode("utf-8", "surrogatepass")) for t in texts)
                yield Progress("encode", done, sizes.bytes)
        for at in range(0, len(rest), _BATCH_LINES):
            texts = rest[at : at + _BATCH_LINES]
            counts.add(chain.from_iterable(tokenizer.encode_batch_ids(texts)))
            done += sum(len(t.encode("utf-8", "surrogatepass")) for t in texts)
            yield Progress("encode", done, sizes.bytes)
        yield Progress("encode", sizes.bytes, sizes.bytes)
        used = counts.used()
        hygiene = vocabulary_hygiene(tokenizer, used)
        yield Progress("hygiene", n + 1, len(named))
        premium = None
        if parallel is not None:
            premium = parity(
                {lang: sum(map(len, tokenizer.encode_batch_ids(list(ls)))) for lang, ls in parallel.items()},
                pivot,  # type: ignore[arg-type]
            )
            yield Progress("parallel", n + 1, len(named))
        unk = _unknown_id(tokenizer)
        vocab_size = tokenizer.vocab_size
        rows.append(
            TokenizerReport(
                name=name,
                vocab_size=vocab_size,
                compression=Compression(sum(used.values()), sizes),
                word_baseline=word_baseline(words, vocab_size, sizes),
                unknown=used.get(unk, 0) if unk is not None else 0,
                types_used=len(used),
                renyi=renyi_efficiency(used.values(), alpha),
                shannon=shannon_efficiency(used.values()),
                hygiene=hygiene,
                alignment=alignment,
                parity=premium,
            )
        )
    return Report(
        sizes=sizes,
        character_baseline=character_baseline(sizes),
        tokenizers=rows,
        alpha=alpha,
        language=language,
        alignment_lines=len(sample),
        pivot=pivot if parallel is not None else None,
        parallel_lines=len(next(iter(parallel.values()))) if parallel else 0,
    )


class _IdCounts:
    """How often each id occurs, counted a batch at a time (np.bincount: ~3x a Counter's speed
    on the millions of ids of a large corpus)."""

    def __init__(self) -> None:
        self._counts = np.zeros(0, dtype=np.int64)

    def add(self, ids: Iterable[int]) -> None:
        found = np.bincount(np.fromiter(ids, dtype=np.int64))
        if len(found) > len(self._counts):
            self._counts = np.concatenate([self._counts, np.zeros(len(found) - len(self._counts), np.int64)])
        self._counts[: len(found)] += found

    def used(self) -> dict[int, int]:
        """id -> count of the ids seen, in id order."""
        (ids,) = np.nonzero(self._counts)
        return dict(zip(ids.tolist(), self._counts[ids].tolist()))


def _sample_indices(n: int, wanted: int | None) -> list[int]:
    """``wanted`` line numbers spread evenly over ``n`` lines (all of them when None or more).

    >>> _sample_indices(10, 3)
    [0, 3, 6]
    """
    if wanted is None or wanted >= n:
        return list(range(n))
    if wanted <= 0:
        return []
    step = n / wanted
    return sorted({int(k * step) for k in range(wanted)})


def _unknown_id(tokenizer: Any) -> int | None:
    from core.stats import unknown_id

    return unknown_id(tokenizer)


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0
