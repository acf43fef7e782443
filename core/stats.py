"""How well a tokenizer compresses some text, and where two tokenizers cut it differently.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> tok = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=11)))
    >>> s = encoding_stats(tok, ["hug pug"])      # tokens: hug, pug
    >>> s.tokens, s.words, s.characters, s.chars_per_token
    (2, 2, 7, 3.5)

The explorer's segmentation counts, the Compare panel's table and plot, and the
"tokens per word against vocab size" curve all come from here. Characters are
characters of the *original* text (spaces included); words are its whitespace-separated
words (어절 in Korean), whatever the pre-tokenizer: a morpheme analyser, punctuation splitting
or a long word cut into chunks must not change what "tokens per word" is divided by, or two
tokenizers could not be compared. A special token typed as a word of its own (``<unk>``) is no
word. (Text without spaces, such as Japanese, is one word a line.)

Boundaries are positions of the original text where a token starts or ends.
Whitespace is not part of any token under most pre-tokenizers but belongs to
the next token under Metaspace or byte-level ones, so :func:`boundaries` with
``text`` moves every boundary that falls before a run of whitespace to its end:
``hug pug`` cut as ``hug|·pug`` and ``hug·|pug`` then agree.

Leaves out: anything that needs Qt, and corpus-sized statistics (the training
curve samples held-out lines and calls :func:`encoding_stats` on them).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from core.encoding import Encoding
from core.tokenizer import Tokenizer


@dataclass(frozen=True, slots=True)
class EncodingStats:
    """Counts over some lines encoded by one tokenizer, and the ratios built from them."""

    lines: int
    tokens: int
    words: int  # whitespace-separated words of the original text
    characters: int  # characters of the original lines
    unknown: int  # unknown tokens produced by the model (a literal "<unk>" typed is not one)
    distinct_ids: int
    vocab_size: int
    byte_tokens: int = 0  # byte pieces <0xNN> a byte-fallback model spelled unknown characters in
    byte_runs: int = 0  # runs of adjacent byte pieces: each would be one unknown token without them

    @property
    def tokens_per_word(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    @property
    def chars_per_token(self) -> float:
        return self.characters / self.tokens if self.tokens else 0.0

    @property
    def unk_rate(self) -> float:
        """Share of tokens that are unknown tokens."""
        return self.unknown / self.tokens if self.tokens else 0.0

    @property
    def unk_rate_without_bytes(self) -> float:
        """The unknown rate the same model would have without byte fallback: each run of byte
        pieces becomes one unknown token, as SentencePiece makes one of adjacent unknown characters.

        >>> EncodingStats(1, 10, 2, 8, 0, 5, 300, byte_tokens=6, byte_runs=2).unk_rate_without_bytes
        0.333...
        """
        tokens = self.tokens - self.byte_tokens + self.byte_runs
        return (self.unknown + self.byte_runs) / tokens if tokens else 0.0

    @property
    def vocab_used(self) -> float:
        """Share of the vocabulary these lines used (distinct ids / vocab size)."""
        return self.distinct_ids / self.vocab_size if self.vocab_size else 0.0


def unknown_id(tokenizer: Tokenizer) -> int | None:
    """The id of the model's unknown token, or None (byte-level models have none).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> wordpiece_tokenizer = drain(train_from_counts({"hug": 10}, TrainOptions("wordpiece", vocab_size=9)))
    >>> unknown_id(wordpiece_tokenizer)   # "[UNK]" at id 0
    0
    """
    unk = tokenizer.model.unk_token
    if unk is None:
        return None
    return tokenizer.model.token_to_id(unk)


def unknown_mask(encoding: Encoding, unk_id: int | None) -> list[bool]:
    """For each token, whether the model produced the unknown token there.

    >>> unknown_mask(Encoding(ids=[5, 0], special_tokens_mask=[0, 0]), 0)
    [False, True]
    """
    if unk_id is None:
        return [False] * len(encoding.ids)
    return [i == unk_id and not special for i, special in zip(encoding.ids, encoding.special_tokens_mask)]


def byte_fallback_ids(tokenizer: Tokenizer) -> frozenset[int]:
    """The ids of the byte pieces ``<0x00>``..``<0xFF>`` of a model with byte fallback (empty otherwise)."""
    model = tokenizer.model
    if not getattr(model, "byte_fallback", False):
        return frozenset()
    ids = (model.token_to_id(f"<0x{b:02X}>") for b in range(256))
    return frozenset(i for i in ids if i is not None)


def byte_counts(ids: Sequence[int], byte_ids: frozenset[int]) -> tuple[int, int]:
    """(byte pieces, runs of adjacent byte pieces) among ``ids``.

    >>> byte_counts([5, 1, 2, 7, 3], frozenset({1, 2, 3}))
    (3, 2)
    """
    if not byte_ids:
        return 0, 0
    n = runs = 0
    before = False
    for i in ids:
        is_byte = i in byte_ids
        n += is_byte
        runs += is_byte and not before
        before = is_byte
    return n, runs


def count_words_of(text: str, specials: Collection[str] = ()) -> int:
    """Whitespace-separated words of ``text``, leaving out special tokens typed as words.

    >>> count_words_of("철수는 치킨을  먹고"), count_words_of("<unk> mug", {"<unk>"})
    (3, 1)
    """
    return sum(1 for w in text.split() if w not in specials)


def encoding_stats(tokenizer: Tokenizer, lines: Iterable[str]) -> EncodingStats:
    """Encode each line on its own and count (see the module docstring)."""
    return stats_of_encodings(tokenizer, [(line, tokenizer.encode(line)) for line in lines])


def stats_of_encodings(tokenizer: Tokenizer, encoded: Sequence[tuple[str, Encoding]]) -> EncodingStats:
    """Like :func:`encoding_stats` for lines already encoded: ``[(text, encoding), ...]``."""
    unk_id = unknown_id(tokenizer)
    specials = {t.content for t in tokenizer.added_tokens}
    tokens = words = characters = unknown = byte_tokens = byte_runs = 0
    byte_ids = byte_fallback_ids(tokenizer)
    distinct: set[int] = set()
    for text, enc in encoded:
        characters += len(text)
        tokens += len(enc.ids)
        words += count_words_of(text, specials)
        unknown += sum(unknown_mask(enc, unk_id))
        distinct.update(enc.ids)
        n, runs = byte_counts(enc.ids, byte_ids)
        byte_tokens += n
        byte_runs += runs
    return EncodingStats(
        lines=len(encoded),
        tokens=tokens,
        words=words,
        characters=characters,
        unknown=unknown,
        distinct_ids=len(distinct),
        vocab_size=tokenizer.vocab_size,
        byte_tokens=byte_tokens,
        byte_runs=byte_runs,
    )


def word_count_stats(tokenizer: Tokenizer, word_counts: Iterable[tuple[str, int]]) -> EncodingStats:
    """Like :func:`encoding_stats` over a corpus given as ``(word, count)`` pairs: each
    distinct word is encoded once and its counts are weighted (``lines`` = distinct words).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> bpe = drain(train_from_counts({"hug": 10, "pug": 5, "hugs": 2}, TrainOptions("bpe", vocab_size=9)))
    >>> s = word_count_stats(bpe, [("hugs", 2), ("mug", 1)])   # hug s (x2), <unk> ug
    >>> s.tokens, s.words, s.characters, s.unknown
    (6, 3, 11, 1)
    """
    unk_id = unknown_id(tokenizer)
    specials = {t.content for t in tokenizer.added_tokens}
    n_words = tokens = words = characters = unknown = byte_tokens = byte_runs = 0
    byte_ids = byte_fallback_ids(tokenizer)
    distinct: set[int] = set()
    for word, count in word_counts:
        enc = tokenizer.encode(word)
        n_words += 1
        characters += count * len(word)
        tokens += count * len(enc.ids)
        words += count * count_words_of(word, specials)
        unknown += count * sum(unknown_mask(enc, unk_id))
        distinct.update(enc.ids)
        n, runs = byte_counts(enc.ids, byte_ids)
        byte_tokens += count * n
        byte_runs += count * runs
    return EncodingStats(
        n_words,
        tokens,
        words,
        characters,
        unknown,
        len(distinct),
        tokenizer.vocab_size,
        byte_tokens,
        byte_runs,
    )


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def boundaries(encoding: Encoding, text: str | None = None) -> set[int]:
    """Positions of the original text where a token starts or ends.

    Tokens with an empty span (e.g. a prepended ``▁``) and tokens that share a
    character with their neighbour (byte-level pieces of one Korean syllable)
    add no position inside that character. With ``text``, a boundary before
    whitespace moves past it (see the module docstring).

    >>> boundaries(Encoding(offsets=[(0, 3), (4, 7)]))
    {0, 3, 4, 7}
    >>> boundaries(Encoding(offsets=[(0, 3), (4, 7)]), "hug pug")
    {0, 4, 7}
    """
    out: set[int] = set()
    for start, end in encoding.offsets:
        if end <= start:
            continue
        out.add(start)
        out.add(end)
    if text is not None:
        out = {_skip_space(text, p) for p in out}
    return out


def differing_boundaries(a: Encoding, b: Encoding, text: str) -> tuple[set[int], set[int]]:
    """Boundaries only ``a`` has, and boundaries only ``b`` has (whitespace-canonical).

    >>> differing_boundaries(Encoding(offsets=[(0, 3)]), Encoding(offsets=[(0, 1), (1, 3)]), "hug")
    (set(), {1})
    """
    ba, bb = boundaries(a, text), boundaries(b, text)
    return ba - bb, bb - ba


def token_spans(encoding: Encoding, text: str) -> list[tuple[int, int]]:
    """Each token's span with its start moved past leading whitespace: the span a
    token covers in the text, comparable across pre-tokenizers.

    >>> token_spans(Encoding(offsets=[(0, 3), (3, 7)]), "hug pug")
    [(0, 3), (4, 7)]
    """
    out = []
    for start, end in encoding.offsets:
        s = _skip_space(text, start)
        out.append((min(s, end) if end > start else start, end))
    return out


def shared_token_mask(encoding: Encoding, others: Sequence[Encoding], text: str) -> list[bool]:
    """For each token of ``encoding``: is it shared, the only token over its span here and in
    every one of ``others``? (Token *strings* may differ: ``hug`` and ``▁hug`` cover the same
    text.) The definition is symmetric, so two columns share as many tokens: each column's
    differing tokens are its tokens less those (byte pieces of one character, all over its
    span, differ from one token over it, on both sides).

    >>> shared_token_mask(Encoding(offsets=[(0, 3), (4, 7)]), [Encoding(offsets=[(0, 3), (3, 5), (5, 7)])], "hug pug")
    [True, False]
    """
    spans = _piece_spans(token_spans(encoding, text))
    once = _spans_once(spans)
    others_once = [_spans_once(_piece_spans(token_spans(o, text))) for o in others]
    return [span in once and all(span in o for o in others_once) for span in spans]


def _piece_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` where the earlier pieces of a split character (byte-level pieces of 한: empty
    spans at its start, the last piece over it) take the span of the character they are part of.

    >>> _piece_spans([(0, 0), (0, 0), (0, 1), (2, 5)])
    [(0, 1), (0, 1), (0, 1), (2, 5)]
    """
    out = list(spans)
    following: tuple[int, int] | None = None
    for i in range(len(out) - 1, -1, -1):
        s, e = out[i]
        if e > s:
            following = (s, e)
        elif following is not None and following[0] == s:
            out[i] = following
    return out


def _spans_once(spans: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The spans that occur once in ``spans``."""
    seen: set[tuple[int, int]] = set()
    twice: set[tuple[int, int]] = set()
    for span in spans:
        (twice if span in seen else seen).add(span)
    return seen - twice
