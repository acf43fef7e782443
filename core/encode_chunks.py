"""Encoding with offsets, one cached chunk of the original text at a time.

``Tokenizer.encode`` gives every token its span in the original text, and most of the work
behind that (normalizer alignments, pre-token spans, the model, a ``Token`` per token)
depends only on a short stretch of the text; those stretches come back line after line.
A :class:`ChunkPlan` cuts the *original* text where the pipeline provably starts afresh,
runs each distinct chunk once through the ordinary stages, and keeps its tokens with
offsets relative to the chunk. A chunk seen before then costs one dict look-up, and its
tokens are shifted into place by iterator pipelines that never enter the interpreter per token.

    >>> from core.events import drain
    >>> from core.options import TrainOptions, pre_tokenize_lines
    >>> from core.training import train_from_counts
    >>> opts = TrainOptions("bpe", vocab_size=12)  # a BPE under Whitespace, trained on its text
    >>> tok = drain(train_from_counts(pre_tokenize_lines(["hug pug hug"], opts), opts))
    >>> enc = ChunkPlan.build(tok).encode("hug pug hug")
    >>> enc.offsets          # "hug" went through the pipeline once, and was shifted to 8
    [(0, 3), (4, 7), (8, 11)]

Where the cuts go; each is a promise that the tokens of the whole text are the tokens of its
chunks side by side (a property test checks it against the general path):

- ``Whitespace``, ``WhitespaceSplit``, ``BertPreTokenizer``: at each ASCII space, which is
  dropped (every normalizer allowed here leaves a space a space, and no pre-token holds one);
- ``Metaspace`` (``split=True``): before each ASCII space, which becomes the next chunk's ``▁``;
  only the first chunk can get the prepended ``▁``;
- ``ByteLevel`` with its regex and no normalizer: at the regex's matches (one pre-token per
  chunk); with ``add_prefix_space`` the first chunk carries the added space. The same for a
  rank file's ``TiktokenSplit``.

Chunks seen for the first time: a line's few and a batch's many go through the model together,
each token's span taken from its length (``_plain_fragments``); once numba is loaded this is one
or two kernel calls (``core/chunk_kernels.py``: a plain or byte-level BPE does pre-tokens, merges
and spans in one), else plain Python per chunk (``_plain_few``); what neither can take (text a
normalizer moves, an unknown character) goes through the stages one chunk at a time (``_slow``).
A line of a plain or byte-level BPE, or of a Unigram model under Metaspace, takes one kernel call
for all of it once numba is loaded: its new chunks made and written into the store, and the line
gathered from the store (``_line_compiled``, ``_lead_line``); a line of more than two chunks, all
seen, is gathered by one call too (``_assemble``).

The normalizers allowed are those that leave an ASCII space a space and change nothing across
it: the Unicode forms (U+0020 is a starter no character composes with) and the ones that work
character by character. Leaves out, for ``Tokenizer.encode``'s general path: every other stage
(Strip, Replace, Precompiled, Split, sequences of pre-tokenizers, ...), texts holding an added
token, tokenizers with ``normalized=True`` added tokens.
"""

from __future__ import annotations

import itertools
import sys
import threading
import unicodedata
from array import array
from collections.abc import Sequence
from itertools import chain, compress, repeat
from operator import is_, le
from typing import TYPE_CHECKING, Any

from core.bytelevel import BYTE_TRANSLATION, bytes_to_chars
from core.chunk_store import EMPTY_FRAGMENT, ChunkStore, Fragment
from core.encoding import Encoding, spans_without_overlaps
from core.jit import loaded
from core.line_encoders import NEED_CHARS, NEED_ROOM
from core.normalizers import (
    NFC,
    NFD,
    NFKC,
    NFKD,
    BertNormalizer,
    Jamo,
    Lowercase,
    Nmt,
    StripAccents,
)
from core.normalizers import Sequence as NormalizerSequence
from core.pre_tokenizers import (
    BertPreTokenizer,
    ByteLevel,
    Metaspace,
    TiktokenSplit,
    Whitespace,
    WhitespaceSplit,
)
from core.text import NormalizedString

if TYPE_CHECKING:
    from core.line_encoders import LineEncoder, LineKernels, TokenLengths

# new chunks; fewer go one by one (the all-at-once way's array work costs ~30 µs, what a few
# chunks cost one by one: measured on Korean lines encoded one at a time)
AT_ONCE_MIN = 12
CHUNK_CACHE_LIMIT = 100_000  # chunks; the cache is emptied when it gets this big
# tokens in the store; past it the caches start afresh. subtle: a chunk too long to keep (a
# pasted 100,000-character word, retyped on every keystroke) still leaves its tokens in the store
STORE_TOKEN_LIMIT = 1_000_000
CHUNK_CACHE_MAX = 256  # characters; longer chunks (a long word, a line without spaces) are not kept
# lines whose new chunks were made in plain Python before they go compiled (see
# ChunkPlan._few_kernels): ~25 ms of them, against ~0.4 s for importing numba
FEW_COMPILED_AFTER = 500
# characters; a longer text's new chunks take the earlier way (the one-call way makes room in the
# store for as many tokens as the text could have: 4 per character, in zeros, for a Unigram model)
LINE_COMPILED_MAX = 10_000
# chunks in a text above which it is assembled by a kernel call (~2 µs, what two chunks cost in Python)
ASSEMBLE_COMPILED_AFTER = 2

# Normalizers that leave an ASCII space a space and change nothing across one.
_SPACE_LOCAL_NORMALIZERS = (NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, BertNormalizer, Nmt, Jamo)
_UNICODE_FORMS = (NFC, NFD, NFKC, NFKD)
# BERT's normalizer of each character met, by its settings (a character's output depends on nothing else)
_BERT_CHARS: dict[tuple, dict[str, str]] = {}
_AT_START = [0]  # where the only pre-token of a chunk starts (shared, never changed)
# the way (core.models.base.LineEncoder) a model's kernels must take a plan's chunks, by its cut
_WAY_OF_KIND = {"drop": "words", "regex": "bytes", "lead": "lead"}
# Pre-tokenizers whose pieces never hold or cross an ASCII space (and drop it).
_SPACE_DROPPING = (Whitespace, WhitespaceSplit, BertPreTokenizer)

_UNSAFE = "\x00unsafe"  # a character BERT's normalizer cannot take on its own (see _bert_normalized)


def _space_local(normalizer) -> bool:
    if normalizer is None:
        return True
    if type(normalizer) is NormalizerSequence:
        return all(_space_local(n) for n in normalizer.normalizers)
    return type(normalizer) in _SPACE_LOCAL_NORMALIZERS


class ChunkPlan:
    """How one tokenizer's texts are cut into chunks, and the chunks' cached tokens.

    ``kind`` is ``"drop"`` (split at spaces, spaces dropped), ``"lead"`` (split before
    spaces, each chunk after the first is keyed by the text after its space) or ``"regex"``
    (the byte-level regex's pieces). ``first`` holds the chunks that start a text, where
    they differ from the same text further on (a prepended ``▁`` or prefix space). ``tok`` is
    the core.tokenizer.Tokenizer that owns the plan (typed Any: the tokenizer imports this
    module, never the other way).
    """

    def __init__(self, tok: Any, kind: str, prefix_space: bool = False):
        self.tok = tok
        self.kind = kind
        self.prefix_space = prefix_space
        self.cache: dict[str, int] = {}  # chunk -> its fragment's number in ``store``
        self.first: dict[str, int] = {}
        self.store = ChunkStore()
        if kind == "drop":
            self.cache[""] = self.store.add_fragment(EMPTY_FRAGMENT)  # between two spaces
        self._regex = tok.pre_tokenizer.word_pattern if kind == "regex" else None
        # subtle: one thread at a time. The one-call kernels grow the store's columns and write
        # into them with the interpreter lock released, and the store is numbered by its
        # length: a second thread in between raised BufferError or mixed two lines' rows. A
        # thread that finds the plan busy (the explorer's long-line helper beside its window)
        # takes the general path rather than wait.
        self._busy = threading.Lock()
        self._ready = False  # the kernels loaded for this plan (see _few_kernels)

    @classmethod
    def build(cls, tok: Any) -> ChunkPlan | None:
        """The plan for ``tok``'s stages, or None when they cannot be cut safely (see the module)."""
        pre, norm = tok.pre_tokenizer, tok.normalizer
        if tok._norm_re is not None:
            return None
        if not _space_local(norm):
            return None
        if type(pre) in _SPACE_DROPPING:
            return cls(tok, "drop")
        if type(pre) is Metaspace and pre.split and pre.replacement != " ":
            return cls(tok, "lead")
        if type(pre) is ByteLevel and pre.use_regex and norm is None:
            return cls(tok, "regex", prefix_space=pre.add_prefix_space)
        if type(pre) is TiktokenSplit and norm is None:  # a rank file: the same cut, no prefix space
            return cls(tok, "regex")
        return None

    # -- encoding ----------------------------------------------------------------------
    def encode(self, text: str) -> Encoding | None:
        """The encoding of ``text`` (no post-processor), or None if it must take the general path
        (also when another thread is encoding with this plan: see ``_busy``)."""
        if not self._busy.acquire(blocking=False):
            return None
        try:
            return self._encode(text)
        finally:
            self._busy.release()

    def _encode(self, text: str) -> Encoding | None:
        cut = self._cut(text)
        if cut is None:
            return None
        self._make_room()
        parts, start, has_first = cut
        if has_first:
            if self.kind == "lead":
                enc = self._lead_line(text, parts)
                if enc is not None:
                    return enc
            self.store.settle()  # (the one-call lines' room: see ChunkStore.room)
            return self._assemble(parts, self._numbers(parts, [0]), start)
        frags: list = list(map(self.cache.get, parts))
        if None in frags:
            if self.kind != "lead":
                enc = self._line_compiled(text, parts, frags)
                if enc is not None:
                    return enc
            self.store.settle()
            frags = self._numbers(parts, [], frags)
        return self._assemble(parts, frags, start)

    def _line_compiled(self, text: str, parts: list[str], frags: list) -> Encoding | None:
        """:meth:`encode` of a line with new chunks (``frags``: the cached ones' numbers, None
        for the others) for a plain BPE model under ``Whitespace`` or ``WhitespaceSplit`` or
        ``ByteLevel`` (a text without the added prefix space), in one kernel call
        (:func:`core.models.bpe.line_kernels.bpe_line`, :func:`~core.models.bpe.line_kernels.bytelevel_line`: the
        new chunks made as :meth:`_few_compiled` makes them, and the line gathered as
        :meth:`_assemble` does);
        None when the kernels are not loaded yet (:meth:`_few_kernels` decides when), the
        model or stages are others, or the normalizer would change the text.

        subtle: a fresh tokenizer meets new chunks on nine lines in ten; each line paid three
        kernel calls and ~40 Python steps between them (the chunks joined, their rows stored
        and cached, the line's numbers filled in, then gathered): more than `tokenizers` spends
        on the whole line."""
        found = self.__dict__.get("_line_args")
        if found is None:
            found = self._line_kernel()
            if found is None:
                return None
            self._line_args = found
        if not found:  # () for a tokenizer this way cannot take
            return None
        line_kernel, frombuffer, code_type, tables, names, form, byte_level = found
        if byte_level is None:  # WordPiece
            return self._normalized_line(text, parts, frags, found)
        # subtle: the text is normalized if and only if each chunk is (cut at ASCII spaces)
        if len(text) > LINE_COMPILED_MAX or (form is not None and not unicodedata.is_normalized(form, text)):
            return None
        missing = list(dict.fromkeys(compress(parts, map(is_, frags, repeat(None)))))
        n_new = len(missing)
        slots = array("q", map(dict(zip(missing, range(-1, -n_new - 1, -1))).get, parts, frags))
        store = self.store
        # room for a token per character (per UTF-8 byte, byte-level), a fragment per new chunk
        n_tokens, n_frags = store.room(
            4 * len(text) if byte_level and not text.isascii() else len(text), n_new
        )
        codes = frombuffer(text.encode("utf-32-le"), code_type)
        head = (codes, array("q", map(len, parts)), slots) if byte_level else (codes, slots)
        line, written, good = line_kernel(
            *head,
            n_new,
            *tables,
            n_tokens,
            n_frags,
            store.ids,
            store.starts,
            store.ends,
            store.words,
            store.at,
            store.count,
            store.word_count,
        )
        if good < n_new:  # a chunk the kernel cannot take (an unknown character): the other way
            return None
        return self._kept_line(line, written, missing, n_tokens, n_frags, names)

    def _kept_line(
        self, line, written: int, missing: list[str], n_tokens: int, n_frags: int, names
    ) -> Encoding:
        """Keep what a one-call line kernel wrote into the store's room (``written`` tokens, a
        fragment per ``missing`` chunk from ``n_frags`` on), cache the chunks, and return the
        line's encoding from its rows."""
        store = self.store
        n_new = len(missing)
        store.keep(written, n_new)
        store.tokens += map(names.__getitem__, store.ids[n_tokens : n_tokens + written])
        numbers = zip(missing, range(n_frags, n_frags + n_new))
        if sum(map(len, missing)) <= CHUNK_CACHE_MAX:  # every chunk short enough to keep
            self.cache.update(numbers)
        else:
            self.cache.update((key, n) for key, n in numbers if len(key) <= CHUNK_CACHE_MAX)
        return Encoding.from_rows(line, store.tokens)

    def _normalized_line(self, text: str, parts: list[str], frags: list, found: tuple) -> Encoding | None:
        """:meth:`_line_compiled` for a WordPiece model under ``BertPreTokenizer``,
        ``Whitespace`` or ``WhitespaceSplit``, with no normalizer, a Unicode form or
        ``BertNormalizer`` (lowercase, strip accents, Chinese characters and cleaning as
        :meth:`_plain_fragments` applies it, character by character), in one call of
        :func:`core.models.wordpiece.line_kernels.wordpiece_line`, which also normalizes and pre-tokenizes the
        new chunks from the character tables of :class:`_WordPieceChars` (filled here when the
        kernel meets a character they lack, and the kernel called again).

        None (the general path, :meth:`_numbers`) for a line longer than
        :data:`LINE_COMPILED_MAX`, a text a Unicode form would change, a character BERT's
        normalizer cannot take alone (its output holds a combining mark), a new chunk with
        nothing left to pre-tokenize (only dropped characters) or whose pre-tokens are not back
        to back, and a chunk the kernel leaves (not ``ok``).

        subtle: the chunks used to be normalized (``str.translate``), pre-tokenized (the
        pre-tokenizer's ``findall``) and measured (four small numpy arrays) here, ~20 µs of a
        fresh tokenizer's ~43 µs line against ~35 µs for `tokenizers`' whole line."""
        line_kernel, frombuffer, code_type, tables, names, normalizer, _ = found
        if len(text) > LINE_COMPILED_MAX:
            return None
        if type(normalizer) in _UNICODE_FORMS and not unicodedata.is_normalized(normalizer.form, text):
            return None
        missing = list(dict.fromkeys(compress(parts, map(is_, frags, repeat(None)))))
        n_new = len(missing)
        slots = array("q", map(dict(zip(missing, range(-1, -n_new - 1, -1))).get, parts, frags))
        chars = self._wordpiece_chars
        store = self.store
        codes = frombuffer(text.encode("utf-32-le"), code_type)
        need = len(text) + 1  # tokens: one per character, unless the normalizer expands some
        for _ in range(3):  # (at most: the tables filled, then more room)
            n_tokens, n_frags = store.room(need, n_new)
            line, written, good = line_kernel(
                codes,
                slots,
                n_new,
                chars.norm,
                chars.extra,
                chars.classes,
                *tables,
                store.spare_tokens,
                n_tokens,
                n_frags,
                store.ids,
                store.starts,
                store.ends,
                store.words,
                store.at,
                store.count,
                store.word_count,
            )
            if written == NEED_CHARS:
                chars.fill("".join(missing))
            elif written == NEED_ROOM:
                need = good
            else:
                break
        if written < 0 or good < n_new:  # a chunk the kernel cannot take: the other way
            return None
        return self._kept_line(line, written, missing, n_tokens, n_frags, names)

    def _lead_line(self, text: str, parts: list[str]) -> Encoding | None:
        """:meth:`_line_compiled` for a Unigram model under ``Metaspace`` (the ``"lead"`` cut:
        the first chunk looked up in ``first``), in one call of
        :func:`core.models.unigram.line_kernels.metaspace_line`; None when the line takes
        :meth:`_numbers` (a normalizer that would change it, a ``▁`` in it, an empty new
        first chunk, the kernels not loaded, another model)."""
        later: list = list(map(self.cache.get, parts[1:]))
        first = self.first.get(parts[0])
        if first is not None and None not in later:
            return self._assemble(parts, [first, *later], 0)
        found = self.__dict__.get("_line_args")
        if found is None:
            found = self._line_kernel()
            if found is None:
                return None
            self._line_args = found
        if not found:
            return None
        line_kernel, frombuffer, code_type, tables, names, form, _ = found
        if (
            len(text) > LINE_COMPILED_MAX
            or tables[1] in text  # the replacement (▁)
            or (first is None and not parts[0])
            or (form is not None and not unicodedata.is_normalized(form, text))
        ):
            return None
        missing = list(dict.fromkeys(compress(parts[1:], map(is_, later, repeat(None)))))
        n_first = 1 if first is None else 0
        n_new = n_first + len(missing)
        slots = array("q", [-1 if first is None else first])
        index: dict = dict(zip(missing, range(-1 - n_first, -1 - n_new, -1)))
        slots.extend(map(index.get, parts[1:], later))
        store = self.store
        n_tokens, n_frags = store.room(4 * (len(text) + n_new) + 1, n_new)  # byte pieces: 4 a character
        line, written, good = line_kernel(
            frombuffer(text.encode("utf-32-le"), code_type),
            slots,
            n_first,
            n_new,
            tables[0],
            ord(tables[1]),
            *tables[2:],
            n_tokens,
            n_frags,
            store.ids,
            store.starts,
            store.ends,
            store.words,
            store.at,
            store.count,
            store.word_count,
        )
        if written < 0 or good < n_new:  # an unknown token the model lacks, a chunk not ok
            return None
        store.keep(written, n_new)
        store.tokens += map(names.__getitem__, store.ids[n_tokens : n_tokens + written])
        if first is None and len(parts[0]) <= CHUNK_CACHE_MAX:
            self.first[parts[0]] = n_frags
        numbers = zip(missing, range(n_frags + n_first, n_frags + n_new))
        if sum(map(len, missing)) <= CHUNK_CACHE_MAX:  # every chunk short enough to keep
            self.cache.update(numbers)
        else:
            self.cache.update((key, n) for key, n in numbers if len(key) <= CHUNK_CACHE_MAX)
        return Encoding.from_rows(line, store.tokens)

    def _line_kernel(self) -> tuple | None:
        """What :meth:`_line_compiled` and :meth:`_lead_line` need, found once: ``(the kernel:
        the model's line kernel, numpy's frombuffer and the codes' type, the tables after the
        chunks, the token strings, the normalizer's Unicode form or None (the normalizer
        itself, ``"normalized"`` way), whether byte-level (None: the ``"normalized"`` way))``;
        ``()`` when the model has no line kernel for these stages (:meth:`Model.line_encoder
        <core.models.base.ModelBase.line_encoder>`); None while :mod:`core.chunk_kernels` is
        not loaded."""
        if not self._ready and not loaded("core.chunk_kernels"):
            return None
        encoder = self._line_encoder()
        table = self._length_table()
        normalizer = self.tok.normalizer
        if encoder is None or table is None:
            return ()
        import numpy as np

        way = encoder.way
        if way == "normalized":
            if self.kind != "drop" or (
                normalizer is not None and type(normalizer) not in (*_UNICODE_FORMS, BertNormalizer)
            ):
                return ()
            kernels = self._line_kernels()
            self._wordpiece_chars = _WordPieceChars.of(normalizer, self.tok.pre_tokenizer)
            return (
                kernels.line,
                np.frombuffer,
                np.dtype(np.int32),
                (*kernels.tables, table.lengths, table.prefix),
                table.names,
                normalizer,
                None,  # (not byte-level nor BPE: see _normalized_line)
            )
        if normalizer is not None and type(normalizer) not in _UNICODE_FORMS:
            return ()
        form = None if normalizer is None else normalizer.form
        if way != _WAY_OF_KIND[self.kind]:
            return ()
        kernels = self._line_kernels()
        if self.kind == "lead":
            pre = self.tok.pre_tokenizer
            prepend = pre.prepend_scheme in ("always", "first")
            tables = (prepend, pre.replacement, *kernels.tables, table.lengths)
        else:
            tables = (*kernels.tables, table.lengths)
        return (kernels.line, np.frombuffer, np.dtype(np.uint32), tables, table.names, form, way == "bytes")

    def _line_encoder(self) -> LineEncoder | None:
        """The model's :class:`~core.models.base.LineEncoder` under this plan's pre-tokenizer
        (or None), asked once."""
        found = self.__dict__.get("_encoder", False)
        if found is False:
            found = self._encoder = self.tok.model.line_encoder(self.tok.pre_tokenizer)
        return found

    def _line_kernels(self) -> LineKernels:
        """The kernels and tables of the model's :meth:`_line_encoder` (callers ask only when
        it has one), loaded once. subtle: imports numba's modules; only where
        :meth:`_few_kernels` allows it (or a batch does)."""
        found = self.__dict__.get("_kernels")
        if found is None:
            found = self._kernels = self._line_encoder().load()  # type: ignore[union-attr]
        return found

    def encode_many(self, texts: list[str]) -> list[Encoding | None]:
        """:meth:`encode` of each text; the chunks none of them has seen go through the
        pipeline together (one model call for all of them). All None (the general path) when
        another thread is encoding with this plan.

        subtle: the batch's chunks are one flat list from the cut on (looked up, filled and
        gathered with C-level maps and array operations), so the interpreter works per
        batch, not per text: a text costs its cut and its Encoding."""
        if not self._busy.acquire(blocking=False):
            return [None] * len(texts)
        try:
            return self._encode_many(texts)
        finally:
            self._busy.release()

    def _encode_many(self, texts: list[str]) -> list[Encoding | None]:
        raw_re = self.tok._raw_re
        # subtle: an added token in any text is in the texts joined (the other way round, a
        # match across two texts only sends the batch the longer way)
        if self.kind != "regex" and (raw_re is None or raw_re.search("\n".join(texts)) is None):
            cuts = None  # cut at spaces, every text
            chunks_of = list(map(str.split, texts, repeat(" ")))
            first_at: list[int] = [0] * len(texts)
            heads: Any = repeat(self.kind == "lead")
        else:
            cuts = [self._cut(text) for text in texts]
            kept = list(filter(None, cuts))
            chunks_of = [parts for parts, _, _ in kept]
            first_at = [start for _, start, _ in kept]
            heads = [has_first for _, _, has_first in kept]
        self._make_room()
        self.store.settle()  # (the one-call lines' room: see ChunkStore.room)
        per_text = list(map(len, chunks_of))
        parts = list(chain.from_iterable(chunks_of))
        text_starts = list(itertools.accumulate(per_text, initial=0))[:-1]
        frags = self._numbers(parts, list(compress(text_starts, heads)))
        encoded = self._assemble_many(parts, frags, per_text, first_at)
        if cuts is None:
            return encoded  # type: ignore[return-value]  # every text
        found = iter(encoded)
        return [None if cut is None else next(found) for cut in cuts]

    def _numbers(self, parts: list[str], firsts: list[int], frags: list | None = None) -> list[int]:
        """The fragment numbers of ``parts`` (the chunks of one text or of a batch, one after
        another), those at ``firsts`` (texts' first chunks) looked up in ``first``; the chunks
        not cached yet are made, all at once. subtle: C-level maps over the whole list
        (``compress`` picks the missing, ``made.get`` with the number already found as default
        fills them); ``frags``: the cache's numbers of ``parts`` when the caller has them."""
        if frags is None:
            frags = list(map(self.cache.get, parts))
        if not firsts and None not in frags:
            return frags  # all seen before: the commonest case, kept short
        # a text's first chunk is looked up apart (it may also be another's later chunk)
        first_frags: list = [self.first.get(parts[at]) for at in firsts]
        for at in firsts:
            frags[at] = -1  # not missing from the cache of later chunks
        missing_first = (
            list(dict.fromkeys(parts[at] for at, f in zip(firsts, first_frags) if f is None))
            if None in first_frags
            else []
        )
        missing_later = (
            list(dict.fromkeys(compress(parts, map(is_, frags, repeat(None))))) if None in frags else []
        )
        made_first = made = None
        if missing_first and missing_later and self.kind == "lead" and self._few_kernels():
            both = self._lead_fragments(missing_first, missing_later)  # a fresh tokenizer's line
            if both is not None:
                made_first, made = both
        if missing_first:
            if made_first is None:
                made_first = self._fragments(missing_first, True)
            first_frags = list(map(made_first.get, map(parts.__getitem__, firsts), first_frags))
        if missing_later:
            if made is None:
                made = self._fragments(missing_later, False)
            frags = list(map(made.get, parts, frags))
        for at, f in zip(firsts, first_frags):
            frags[at] = f
        return frags

    def _cut(self, text: str) -> tuple[list[str], int, int] | None:
        """``(chunks, where the first starts, 1 if the first is looked up in `first`)``; None if
        the text needs the general path. A text's first chunk is special for Metaspace (the
        prepended ``▁``) and for a byte-level prefix space; it is there even when empty."""
        raw_re = self.tok._raw_re
        if raw_re is not None and raw_re.search(text):
            return None  # an added token in the text: sections, as the general path cuts them
        kind = self.kind
        if kind == "drop":
            return text.split(" "), 0, 0
        if kind == "lead":
            return text.split(" "), 0, 1
        prefixed = self.prefix_space and text and not text.startswith(" ")
        if prefixed:
            text = " " + text
        parts = self._regex.findall(text)  # type: ignore[union-attr]  # set for the "regex" kind
        if sum(map(len, parts)) != len(text):
            return None  # the regex skipped something: leave the gaps to the general path
        if prefixed and len(parts[0]) == 1:
            # subtle: the added space is a piece of its own (" \r0"), spanning a character of
            # the next chunk; the general path then empties its span
            return None
        return parts, -1 if prefixed else 0, 1 if prefixed else 0

    def _assemble(self, parts: list[str], frags: list[int], start: int) -> Encoding:
        """Concatenate the chunks' tokens, each chunk's offsets shifted to where it starts.

        subtle: a plain loop, with one-token chunks (most of them) appended directly, beats
        chains of C iterators here: a text has a handful of chunks, and each iterator is an
        object to build. Once :mod:`core.chunk_kernels` is loaded, a text of more than a
        couple of chunks is gathered by one kernel call (:func:`core.chunk_kernels.assemble`:
        the loop cost ~2 µs a chunk, most of a line's encode when all its words were seen)."""
        store = self.store
        if len(parts) > ASSEMBLE_COMPILED_AFTER and (_KERNELS or loaded("core.chunk_kernels")):
            rows = _kernels().assemble(
                array("q", frags),
                array("q", map(len, parts)),
                0 if self.kind == "regex" else 1,
                start,
                store.ids,
                store.starts,
                store.ends,
                store.words,
                store.at,
                store.count,
                store.word_count,
            )
            return Encoding.from_rows(rows, store.tokens)  # each field made when first read
        s_ids, s_tokens, s_starts, s_ends, s_words = (
            store.ids,
            store.tokens,
            store.starts,
            store.ends,
            store.words,
        )
        s_at, s_count, s_word_count = store.at, store.count, store.word_count
        ids: list[int] = []
        tokens: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        words: list[int] = []
        gap = 0 if self.kind == "regex" else 1  # the space between two chunks
        pos, word = start, 0
        for part, f in zip(parts, frags):
            a, count = s_at[f], s_count[f]
            if count == 1:
                ids.append(s_ids[a])
                tokens.append(s_tokens[a])
                starts.append(s_starts[a] + pos)
                ends.append(s_ends[a] + pos)
                words.append(s_words[a] + word)
            elif count:
                b = a + count
                ids += s_ids[a:b]
                tokens += s_tokens[a:b]
                starts += map(pos.__add__, s_starts[a:b])
                ends += map(pos.__add__, s_ends[a:b])
                words += map(word.__add__, s_words[a:b])
            word += s_word_count[f]
            pos += len(part) + gap
        return Encoding.from_spans(tuple(ids), tuple(tokens), tuple(starts), tuple(ends), tuple(words))

    def _assemble_many(
        self, parts: list[str], frag_numbers: list[int], per_text: list[int], first_at: list[int]
    ) -> list[Encoding]:
        """:meth:`_assemble` of many texts: their chunks ``parts`` one after another, the
        chunks' fragment numbers, how many chunks each text has and where its first starts.

        Every token of the batch is gathered from the store by array indexing, each chunk's
        shift is one array operation, and each text takes its slices: the interpreter works per
        text, not per chunk or token. subtle: number columns the cyclic collector never walks;
        each encoding is a view of the batch's columns (:meth:`Encoding.from_batch`), so it
        meets two objects per text.
        """
        import numpy as np

        store = self.store
        arrays = store.arrays()
        frags = np.array(frag_numbers, np.int64)
        chunks_per_text = np.array(per_text, np.int64)
        counts = arrays["count"][frags]
        total = int(counts.sum())
        if not total:
            return [Encoding() for _ in per_text]
        # where each chunk starts in its text: the chunks' lengths (and the space between two),
        # summed from the text's first chunk on
        step = _ints(map(len, parts))
        step += 0 if self.kind == "regex" else 1
        before = np.cumsum(step) - step
        first_chunk = np.cumsum(chunks_per_text) - chunks_per_text
        has = chunks_per_text > 0
        base = np.zeros(len(per_text), np.int64)
        base[has] = before[first_chunk[has]] - np.array(first_at, np.int64)[has]
        shift = np.repeat(before - np.repeat(base, chunks_per_text), counts)
        # where each token is in the store: its fragment's first, and its place after that
        tokens_before = np.cumsum(counts) - counts
        source = np.repeat(arrays["at"][frags] - tokens_before, counts) + np.arange(total)
        starts = arrays["starts"][source] + shift
        ends = arrays["ends"][source] + shift
        # word indexes: each chunk's pre-tokens come after those of the text's earlier chunks
        word_counts = arrays["word_count"][frags]
        words_before = np.cumsum(word_counts) - word_counts
        word_base = np.zeros(len(per_text), np.int64)
        word_base[has] = words_before[first_chunk[has]]
        words = arrays["words"][source] + np.repeat(
            words_before - np.repeat(word_base, chunks_per_text), counts
        )
        # subtle: number columns the cyclic collector never walks (tuples of 1.1 million
        # numbers were walked once, 10-15 ms, before it untracked them); the token strings
        # are looked up in the store when an encoding's tokens are first read
        ids, at, starts_of, ends_of, words_of = (
            array("q", column.astype(np.int64, copy=False).tobytes())
            for column in (arrays["ids"][source], source, starts, ends, words)
        )
        # each text's tokens: those of the chunks before its first, to those before the next text's
        edges = np.concatenate(([0], np.cumsum(counts)))[np.concatenate(([0], np.cumsum(chunks_per_text)))]
        bounds = edges.tolist()
        columns = (ids, (store.tokens, at), starts_of, ends_of, words_of)
        from_batch = Encoding.from_batch
        return [from_batch(columns, a, b) for a, b in zip(bounds, bounds[1:])]

    # -- chunks seen for the first time ------------------------------------------------
    def _fragments(self, keys: list[str], first: bool) -> dict[str, int]:
        """Run each chunk through the stages (the general path's steps on plain strings),
        cache and return their fragments."""
        if not first or self.kind == "lead":
            table = self._length_table()
            if table is not None:
                # subtle: a batch's many new chunks are worth numba's import; a line's few only
                # once it is loaded (see _few_kernels)
                compiled = None
                kernels = len(keys) >= AT_ONCE_MIN or self._few_kernels()
                if kernels and not first and self.kind != "lead":
                    compiled = self._few_compiled(keys, table)  # the model's kernel for all
                elif kernels and self.kind == "lead":
                    both = self._lead_fragments(keys if first else [], [] if first else keys)
                    if both is not None:
                        return both[0] if first else both[1]
                if compiled is not None:
                    made, rest = compiled
                elif kernels:
                    made, rest = self._plain_fragments(keys, table, first)
                elif not first and self.kind != "regex":
                    made, rest = self._plain_few(keys, table)
                else:
                    return self._slow(keys, first)
                if rest:
                    made.update(self._slow(rest, first))
                return made
        return self._slow(keys, first)

    def _length_table(self) -> TokenLengths | None:
        """The model's :meth:`~core.models.base.ModelBase.token_lengths`, or None for a model
        without one. subtle: the model keeps its table too (a slider cut inherits it); this
        plan's copy also remembers None and spares a line's encode the call."""
        table = self.__dict__.get("_table", False)
        if table is False:
            table = self._table = self.tok.model.token_lengths()
        return table

    def _lead_fragments(
        self, first_keys: list[str], later_keys: list[str]
    ) -> tuple[dict[str, int], dict[str, int]] | None:
        """:meth:`_fragments` of Metaspace chunks, texts' first ones and later ones together, in
        one pass of :meth:`_lead_compiled`, the chunks it leaves one by one; None when it cannot
        take them (:meth:`_plain_fragments` then does). The caller has checked that the kernels
        may be loaded."""
        table = self._length_table()
        if table is None:
            return None
        found = self._lead_compiled(first_keys, later_keys, table)
        if found is None:
            return None
        made_first, made, rest_first, rest = found
        if rest_first:
            made_first.update(self._slow(rest_first, True))
        if rest:
            made.update(self._slow(rest, False))
        return made_first, made

    def _few_kernels(self) -> bool:
        """Whether a line's few new chunks go through :mod:`core.chunk_kernels`: once numba is
        loaded (the explorer loads it beside its window; a batch path loads it), or once this
        plan has made the new chunks of :data:`FEW_COMPILED_AFTER` lines in plain Python (a long
        run of lines encoded one at a time pays numba's ~0.4 s import back). subtle: never
        before: one line of a script must not wait for numba, nor the explorer's window for
        the import its start-up helper is in the middle of."""
        if self._ready:
            return True
        if not loaded("core.chunk_kernels"):
            made = self.__dict__.get("_made_few", 0)
            if not _numba_loaded() and made < FEW_COMPILED_AFTER:
                self._made_few = made + 1
                return False
        _kernels()
        if self._line_encoder() is not None:
            self._line_kernels()
        self._ready = True
        return True

    def _few_compiled(self, keys: list[str], table: TokenLengths) -> tuple[dict[str, int], list[str]] | None:
        """:meth:`_plain_few` of new chunks for a plain BPE model under ``Whitespace`` or
        ``WhitespaceSplit``, in one kernel call (:func:`core.models.bpe.line_kernels.bpe_fragments`: the
        chunks joined by spaces as a line has them, pre-tokenized, merged and given spans), or
        under ``ByteLevel`` (:func:`core.models.bpe.line_kernels.bytelevel_fragments`: each chunk's UTF-8
        bytes); the chunks it cannot take (a character training never saw, or one the
        pre-tokenizer drops) are left for :meth:`_slow`. None when the normalizer would change
        the text or the pre-tokenizer is another: :meth:`_plain_fragments` then does it."""
        import numpy as np

        encoder = self._line_encoder()
        if encoder is None or encoder.way != _WAY_OF_KIND[self.kind] or encoder.way not in ("words", "bytes"):
            return None
        kernels = self._line_kernels()
        fragments, tables = kernels.fragments, kernels.tables
        store = self.store
        if self.kind == "regex":  # byte-level: each chunk one pre-token, its UTF-8 bytes the symbols
            data = np.frombuffer("".join(keys).encode("utf-8", "surrogatepass"), np.uint8)
            out = np.empty((4, len(data) or 1), np.int64)
            frags = np.empty((4, len(keys)), np.int64)
            key_lengths = np.fromiter(map(len, keys), np.int64, len(keys))
            written, good_count = fragments(  # type: ignore[misc]  # ("words" and "bytes" have one)
                data, key_lengths, *tables, table.lengths, len(store.ids), out, frags
            )
            return self._kept_rows(keys, out, written, frags, good_count, table)
        normalizer = self.tok.normalizer
        joined = " ".join(keys)
        if normalizer is not None:
            if type(normalizer) not in _UNICODE_FORMS or not unicodedata.is_normalized(
                normalizer.form, joined
            ):
                return None
        codes = np.frombuffer(joined.encode("utf-32-le"), np.uint32)
        out = np.empty((4, len(codes) or 1), np.int64)
        frags = np.empty((4, len(keys)), np.int64)
        written, good_count = fragments(codes, *tables, table.lengths, len(store.ids), out, frags)  # type: ignore[misc]
        return self._kept_rows(keys, out, written, frags, good_count, table)

    def _lead_compiled(
        self, first_keys: list[str], later_keys: list[str], table: TokenLengths
    ) -> tuple | None:
        """:meth:`_plain_fragments` of Metaspace chunks, texts' first chunks and later ones
        together, for a model with a ``"lead"`` line encoder (Unigram), without its
        Python per chunk: each chunk is one pre-token, ``▁`` + its text, the ``▁`` spanning the
        space before it; a text's first chunk gets the ``▁`` only if the pre-tokenizer prepends
        one, spanning its first character. The model's ids and the spans in one kernel call
        (:func:`core.models.unigram.line_kernels.metaspace_fragments`).
        Returns ``(made first, made later, first left, later left)``, or None when a chunk holds
        a ``▁`` or the normalizer would change the text (or is not a Unicode form), or a first
        chunk is empty: :meth:`_plain_fragments` then does it."""
        import numpy as np

        encoder = self._line_encoder()
        pre = self.tok.pre_tokenizer
        r = pre.replacement
        normalizer = self.tok.normalizer
        form = normalizer.form if type(normalizer) in _UNICODE_FORMS else None
        if encoder is None or encoder.way != "lead" or (normalizer is not None and form is None):
            return None
        keys = first_keys + later_keys
        joined = " ".join(keys)
        if r in joined or "" in first_keys:
            return None
        normal_firsts, normal_laters, outs = first_keys, later_keys, np.zeros(0, np.int64)
        if form is not None and not (
            all(map(unicodedata.is_normalized, repeat(form), first_keys))
            and (not later_keys or unicodedata.is_normalized(form, " " + " ".join(later_keys)))
        ):
            # subtle: character by character when that is what the form does to these chunks
            # (Korean's ㅋㅋ under NFKC); checked on the chunks as the texts hold them
            forms = _form_chars(form, joined)
            normal = joined.translate(forms)
            if r in normal or unicodedata.normalize(form, " " + joined) != " " + normal:
                return None
            normal_firsts = [key.translate(forms) for key in first_keys]
            normal_laters = [key.translate(forms) for key in later_keys]
            if " " in "".join(normal_firsts) + "".join(normal_laters) or any(
                unicodedata.normalize(form, key) != normal for key, normal in zip(first_keys, normal_firsts)
            ):
                return None  # a space out of a character (NBSP under NFKC) is a cut of its own
            outs = _ints(map(len, map(forms.__getitem__, map(ord, "".join(keys)))))
        prepend = pre.prepend_scheme in ("always", "first")
        # later chunks: "▁" + text, the ▁ at -1 (the space before); first: prepended or not
        text = (r + r.join(normal_firsts) if prepend else "".join(normal_firsts)) if first_keys else ""
        if later_keys:
            text += r + r.join(normal_laters)
        codes = np.frombuffer(text.encode("utf-32-le"), np.int32)
        n, nf = len(keys), len(first_keys)
        out = np.empty((4, 4 * len(codes) + 1), np.int64)  # room for byte pieces: 4 per character
        frags = np.empty((4, n), np.int64)
        kernels = self._line_kernels()
        written, good_count = kernels.fragments(  # type: ignore[misc]  # (the "lead" way has one)
            codes,
            np.fromiter(map(len, keys), np.int64, n),
            outs,
            nf,
            prepend,
            *kernels.tables,
            table.lengths,
            len(self.store.ids),
            out,
            frags,
        )
        if written < 0:  # an unknown character and no unknown token: the general path says so
            return None
        numbers = self._stored(out, written, frags, good_count, table)
        made_first, rest_first = self._cached(first_keys, numbers[:nf], self.first)
        made, rest = self._cached(later_keys, numbers[nf:], self.cache)
        return made_first, made, rest_first, rest

    def _spans(self, ids, bounds, known, table: TokenLengths, pieces, chunks) -> tuple[Any, int, Any, int]:
        """:func:`core.chunk_kernels.chunk_spans` of the model's ids of the chunks' pre-tokens,
        into fresh rows: ``(out, written, frags, ok count)``. ``pieces`` is ``(their lengths,
        where each starts or None when back to back)``, ``chunks`` ``(how many pre-tokens each
        has, its length, the characters each of its characters became or empty)``."""
        import numpy as np

        piece_lengths, piece_at = pieces
        pieces_per_key, key_lengths, per_char = chunks
        out = np.empty((4, max(len(ids), 1)), np.int64)
        frags = np.empty((4, len(pieces_per_key)), np.int64)
        written, good_count = _kernels().chunk_spans(
            np.ascontiguousarray(ids, np.int64),
            np.ascontiguousarray(bounds, np.int64),
            np.ascontiguousarray(known, np.bool_),
            table.lengths,
            table.prefix,
            piece_lengths,
            pieces_per_key,
            np.zeros(0, np.int64) if piece_at is None else piece_at,
            piece_at is None,
            np.ascontiguousarray(per_char, np.int64),
            key_lengths,
            len(self.store.ids),
            out,
            frags,
        )
        return out, written, frags, good_count

    def _kept_rows(self, keys, out, written: int, frags, good_count: int, table: TokenLengths, first=False):
        """Store and cache (in ``first`` for a text's first chunks) the fragments a kernel wrote
        for the ``ok`` keys (see :func:`core.models.bpe.line_kernels.bpe_fragments`): ``(made, the keys
        left)``."""
        numbers = self._stored(out, written, frags, good_count, table)
        return self._cached(keys, numbers, self.first if first else self.cache)

    def _stored(self, out, written: int, frags, good_count: int, table: TokenLengths) -> list:
        """Store the fragments a kernel wrote: the number of each chunk's (None if not ``ok``)."""
        number = self.store.add_rows(out, written, frags, good_count, table.names)
        if good_count == frags.shape[1]:
            return list(range(number, number + good_count))
        numbers: list = []
        for ok in frags[3].tolist():
            numbers.append(number if ok else None)
            number += ok
        return numbers

    def _cached(
        self, keys: list[str], numbers: list, cache: dict[str, int]
    ) -> tuple[dict[str, int], list[str]]:
        """``(chunk -> its fragment's number, the chunks without one)``, the first kept in ``cache``."""
        if None in numbers:
            made = {key: n for key, n in zip(keys, numbers) if n is not None}
            rest = [key for key, n in zip(keys, numbers) if n is None]
        else:
            made, rest = dict(zip(keys, numbers)), []
        if sum(map(len, made)) <= CHUNK_CACHE_MAX:  # every chunk short enough to keep
            cache.update(made)
        else:
            cache.update((key, n) for key, n in made.items() if len(key) <= CHUNK_CACHE_MAX)
        return made, rest

    def _plain_few(self, keys: list[str], table: TokenLengths) -> tuple[dict[str, int], list[str]]:
        """:meth:`_plain_fragments` of a few chunks (one line's new words), in plain Python: a
        chunk whose pre-tokens are back to back and whose characters the normalizer leaves in
        place gets its ids from the model's ``tokenize_ids`` and its spans from the tokens'
        lengths; the others are left for :meth:`_slow`."""
        normalizer = self.tok.normalizer
        form = normalizer.form if type(normalizer) in _UNICODE_FORMS else None
        lead = self.kind == "lead"
        bert = None  # BERT's normalizer, character by character (each output spans its character)
        if type(normalizer) is BertNormalizer and not lead:
            bert = _bert_chars(normalizer, "".join(keys))
        elif normalizer is not None and form is None:
            return {}, keys
        lengths, names, prefix = table.length_list(), table.names, table.prefix
        is_normalized = unicodedata.is_normalized
        findall = None if lead else self.tok.pre_tokenizer.word_pattern.findall
        r = self.tok.pre_tokenizer.replacement if lead else ""
        rest: list[str] = []
        # (key, its pre-tokens, where each starts, the key's character each normalized one came
        # from: None when each stays in place)
        kept: list[tuple[str, list[str], list[int], list[int] | None]] = []
        for key in keys:
            if form is not None and not is_normalized(form, " " + key if lead else key):
                rest.append(key)
            elif lead:
                if r in key:
                    rest.append(key)
                else:
                    kept.append((key, [r + key], [-1], None))  # the ▁ spans the space before the chunk
            else:
                text, source = key, None
                if bert is not None:
                    outs = list(map(bert.__getitem__, key))
                    if _UNSAFE in outs:
                        rest.append(key)
                        continue
                    text = "".join(outs)
                    if len(text) != len(key) or "" in outs:
                        source = list(chain.from_iterable(map(repeat, range(len(key)), map(len, outs))))
                found = findall(text)  # type: ignore[misc]  # set unless lead
                if len(found) == 1 and found[0] == text:
                    kept.append((key, found, [0], source))
                elif found and sum(map(len, found)) == len(text):  # back to back: no space inside
                    found_at = list(itertools.accumulate(map(len, found[:-1]), initial=0))
                    kept.append((key, found, found_at, source))
                else:
                    rest.append(key)
        model: Any = self.tok.model
        pieces = [piece for _, found, _, _ in kept for piece in found]
        if table.per_piece:  # BPE: a few short pieces merge faster in Python than through the kernel
            ids_of = iter([model.tokenize_ids(piece) for piece in pieces])
        else:
            ids_of = iter(model.tokenize_ids_batch(pieces) if pieces else [])
        good: list[str] = []
        all_ids: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        words: list[int] = []
        counts: list[int] = []
        word_counts: list[int] = []
        for key, found, piece_at, source in kept:
            key_ids: list[int] = []
            edges_of: list[list[int]] = []
            plain = True
            for piece, at in zip(found, piece_at):
                ids = next(ids_of)
                widths = list(map(lengths.__getitem__, ids))
                if prefix and len(widths) > 1:  # WordPiece: "##" + the characters, after the first
                    widths[1:] = [w - prefix for w in widths[1:]]
                if not ids or min(widths) <= 0 or sum(widths) != len(piece):
                    plain = False  # the key's other pieces are still taken from the iterator
                    continue
                key_ids += ids
                edges_of.append(list(itertools.accumulate(widths, initial=at)))
            if not plain:
                rest.append(key)
                continue
            if source is None:
                for w, edges in enumerate(edges_of):
                    starts += edges[:-1]
                    ends += edges[1:]
                    words += [w] * (len(edges) - 1)
            else:  # back to the key's characters; one cut into several tokens belongs to the last
                offsets = [
                    (source[a], source[b - 1] + 1) for edges in edges_of for a, b in zip(edges, edges[1:])
                ]
                spans_without_overlaps(offsets)
                starts += (a for a, _ in offsets)
                ends += (b for _, b in offsets)
                for w, edges in enumerate(edges_of):
                    words += [w] * (len(edges) - 1)
            all_ids += key_ids
            counts.append(len(key_ids))
            word_counts.append(len(found))
            good.append(key)
        number = self.store.add(
            all_ids, list(map(names.__getitem__, all_ids)), starts, ends, words, counts, word_counts
        )
        made = dict(zip(good, range(number, number + len(good))))
        cache = self.cache
        cache.update((key, n) for key, n in made.items() if len(key) <= CHUNK_CACHE_MAX)
        return made, rest

    def _slow(self, keys: list[str], first: bool = False) -> dict[str, int]:
        """:meth:`_fragments` one chunk at a time, each through the model's tokens and spans."""
        if self.kind == "drop":
            pieces_of = self._drop_pieces(keys)
        else:
            pieces_of = [self._pieces(key, first) for key in keys]
        spans_of = iter(_model_spans(self.tok.model, [p for texts, _, _, _ in pieces_of for p in texts]))
        cache = self.first if first else self.cache
        add = self.store.add_fragment
        made = {}
        for key, (texts, starts, align, shift) in zip(keys, pieces_of):
            if align is None and len(texts) == 1:  # one pre-token in place (most chunks): its spans moved
                number = made[key] = add(_moved(next(spans_of), starts[0] + shift))
                if len(key) <= CHUNK_CACHE_MAX:
                    cache[key] = number
                continue
            ids: list[int] = []
            values: list[str] = []
            offsets: list[tuple[int, int]] = []
            words: list[int] = []
            for w, (text, at) in enumerate(zip(texts, starts)):
                p_ids, p_values, p_starts, p_ends = next(spans_of)
                ids += p_ids
                values += p_values
                words += [w] * len(p_ids)
                if align is None:  # each normalized character is the chunk's character there
                    offsets += zip(map((at + shift).__add__, p_starts), map((at + shift).__add__, p_ends))
                    continue
                last = at + len(text) - 1
                for s, e in zip(p_starts, p_ends):
                    if s < e:
                        offsets.append((align[at + s][0] + shift, align[at + e - 1][1] + shift))
                    else:  # an empty span sits where its position starts (NormalizedString.span)
                        pos = align[at + s][0] if at + s <= last else align[last][1]
                        offsets.append((pos + shift, pos + shift))
            if len(offsets) > 1:
                spans_without_overlaps(offsets)
            starts_of, ends_of = zip(*offsets) if offsets else ((), ())
            number = made[key] = add(
                (tuple(ids), tuple(values), starts_of, ends_of, tuple(words), len(ids), len(texts))
            )
            if len(key) <= CHUNK_CACHE_MAX:
                cache[key] = number
        return made

    def _make_room(self) -> None:
        """Empty the caches and the store once they hold :data:`CHUNK_CACHE_LIMIT` chunks (or the
        store :data:`STORE_TOKEN_LIMIT` tokens).
        subtle: only before a text's chunks are looked up, never while they are filled (the
        numbers found would then point into an emptied store); a batch may go past the limit."""
        if (
            len(self.cache) + len(self.first) < CHUNK_CACHE_LIMIT
            and len(self.store.tokens) < STORE_TOKEN_LIMIT
        ):
            return
        self.cache.clear()
        self.first.clear()
        self.store = ChunkStore()
        if self.kind == "drop":
            self.cache[""] = self.store.add_fragment(EMPTY_FRAGMENT)

    def _plain_fragments(
        self, keys: list[str], table: TokenLengths, first: bool = False
    ) -> tuple[dict[str, int], list[str]]:
        """The fragments of the chunks (not a text's first) whose characters the normalizer
        leaves in place, all at once: their pre-tokens' ids in one model call
        (``tokenize_ids_batch``), and each token's span from its length in characters
        (:meth:`~core.models.base.ModelBase.token_lengths`), summed in arrays. Returns the fragments made and the keys left
        for :meth:`_slow` (text to normalize, pre-tokens not back to back, an unknown token).

        The same fragments as :meth:`_slow` (a property test compares them): a token of these
        models covers exactly the characters its string holds (after a WordPiece prefix).
        """
        import numpy as np

        normalizer = self.tok.normalizer
        form = normalizer.form if type(normalizer) in _UNICODE_FORMS else None
        # BERT's normalizer, character by character (each output spans its character)
        bert = type(normalizer) is BertNormalizer and self.kind == "drop"
        if not bert and normalizer is not None and form is None:
            return {}, keys
        is_normalized = unicodedata.is_normalized
        rest: list[str] = []
        kept: list[str] = []
        pieces: list[str] = []
        pieces_per_key: list[int] = []
        piece_at: list[int] = []  # where each pre-token starts, from where its chunk starts
        back_to_back = False  # instead: every kept key's pre-tokens back to back from its start
        # each kept key's characters' output lengths under BERT's normalizer (None: one each)
        out_lengths: list[list[int] | None] = []
        if self.kind == "drop":
            # subtle: each step over every key is one C-level map; the loop below only sorts
            texts = keys
            odd: set[str] = set()  # characters BERT's normalizer drops, expands or cannot take alone
            unsafe: set[str] = set()
            out_length: dict[str, int] = {}
            joined = "".join(keys)
            chars: dict[str, str] = {}
            if bert:
                chars = _bert_chars(normalizer, joined)
                translation, odd, unsafe, out_length = _bert_views(chars)
                texts = list(map(str.translate, keys, repeat(translation)))
            findall = self.tok.pre_tokenizer.word_pattern.findall
            founds = list(map(findall, texts))
            if (
                (form is None or all(map(is_normalized, repeat(form), keys)))
                and (not odd or unsafe.isdisjoint(joined))
                and all(founds)
                # every key's pre-tokens back to back (each key's add up to at most its length)
                and sum(map(len, chain.from_iterable(founds))) == sum(map(len, texts))
            ):  # every key kept (nearly always): no Python per key
                kept = keys
                pieces = list(chain.from_iterable(founds))
                pieces_per_key = list(map(len, founds))
                back_to_back = True
                if odd and not odd.isdisjoint(joined):
                    out_lengths = _ints(map(out_length.__getitem__, joined))
                else:
                    out_lengths = [None]
            else:
                normal = (
                    map(is_normalized, itertools.repeat(form), keys)
                    if form is not None
                    else itertools.repeat(True)
                )
                for key, text, found, ok in zip(keys, texts, founds, normal):
                    if not ok:
                        rest.append(key)
                        continue
                    lengths_of = None
                    if odd and not odd.isdisjoint(key):
                        outs = list(map(chars.__getitem__, key))
                        if _UNSAFE in outs:
                            rest.append(key)
                            continue
                        lengths_of = list(map(len, outs))
                    if len(found) == 1 and found[0] == text:
                        pieces.append(text)
                        pieces_per_key.append(1)
                        piece_at.append(0)
                    elif found and sum(map(len, found)) == len(text):  # back to back: no space inside
                        pieces += found
                        pieces_per_key.append(len(found))
                        piece_at += itertools.accumulate(map(len, found[:-1]), initial=0)
                    else:
                        rest.append(key)
                        continue
                    kept.append(key)
                    out_lengths.append(lengths_of)
        elif self.kind == "regex":  # byte-level: one pre-token, its UTF-8 bytes in the byte alphabet
            kept = keys
            latin = map(bytes.decode, map(str.encode, keys), repeat("latin-1"))
            pieces = list(map(str.translate, latin, repeat(BYTE_TRANSLATION)))
            pieces_per_key = [1] * len(keys)
            piece_at = [0] * len(keys)
            out_lengths = [None] * len(keys)
            if not all(map(str.isascii, keys)):  # each character's bytes, from its code point
                from core.text import codepoints

                codes = codepoints(keys)[0]
                out_lengths = 1 + (codes >= 0x80) + (codes >= 0x800) + (codes >= 0x10000)  # type: ignore[assignment]
        elif not first:  # "lead": the chunk after a space is "▁" + its text, the ▁ spanning that space
            r = self.tok.pre_tokenizer.replacement
            for key in keys:
                if r in key or (form is not None and not is_normalized(form, " " + key)):
                    rest.append(key)
                    continue
                pieces.append(r + key)
                pieces_per_key.append(1)
                piece_at.append(-1)
                kept.append(key)
                out_lengths.append(None)
        else:  # "lead", a text's first chunk: "▁" prepended (as Metaspace does), spanning its first character
            pre = self.tok.pre_tokenizer
            r, prepend = pre.replacement, pre.prepend_scheme in ("always", "first")
            for key in keys:
                if not key or r in key or (form is not None and not is_normalized(form, key)):
                    rest.append(key)
                    continue
                pieces.append(r + key if prepend else key)
                pieces_per_key.append(1)
                piece_at.append(0)
                kept.append(key)
                out_lengths.append([2, *itertools.repeat(1, len(key) - 1)] if prepend else None)
        if not pieces:
            return {}, rest
        # the characters each of a key's characters became, when not one each
        if isinstance(out_lengths, np.ndarray):
            per_char = out_lengths
        elif any(lengths_of is not None for lengths_of in out_lengths):
            per_char = _ints(
                chain.from_iterable(
                    repeat(1, len(key)) if lengths_of is None else lengths_of
                    for key, lengths_of in zip(kept, out_lengths)
                )
            )
        else:
            per_char = np.zeros(0, np.int64)  # one each: the spans stay as they are
        model = self.tok.model
        kernels = self._line_kernels() if self._line_encoder() is not None else None
        if kernels is not None and kernels.pieces is not None:  # the match and the spans in one call
            codes = np.frombuffer("".join(pieces).encode("utf-32-le"), np.int32)
            out = np.empty((4, len(codes) + len(pieces) + 1), np.int64)
            frags = np.empty((4, len(kept)), np.int64)
            written, good_count = kernels.pieces(
                codes,
                _ints(map(len, pieces)),
                np.array(pieces_per_key, np.int64),
                np.array(piece_at, np.int64),
                back_to_back,
                np.ascontiguousarray(per_char, np.int64),
                _ints(map(len, kept)),
                *kernels.tables,
                table.lengths,
                table.prefix,
                len(self.store.ids),
                out,
                frags,
            )
            made, left = self._kept_rows(kept, out, written, frags, good_count, table, first)
            return made, rest + left
        found = model.tokenize_ids_flat(pieces)
        if found is not None:  # no Python per piece
            ids, out_bounds, known = found
        else:
            ids_of = model.tokenize_ids_batch(pieces)
            ids = np.array(list(chain.from_iterable(ids_of)), np.int64)
            out_bounds = np.zeros(len(pieces) + 1, np.int64)
            np.cumsum(_ints(map(len, ids_of)), out=out_bounds[1:])
            known = np.ones(len(pieces), np.bool_)
        rows = self._spans(
            ids,
            out_bounds,
            known,
            table,
            (_ints(map(len, pieces)), None if back_to_back else np.array(piece_at, np.int64)),
            (np.array(pieces_per_key, np.int64), _ints(map(len, kept)), per_char),
        )
        made, left = self._kept_rows(kept, *rows, table, first)
        return made, rest + left

    def _drop_pieces(self, keys: list[str]) -> list[tuple[list[str], list[int], list | None, int]]:
        """:meth:`_pieces` of many chunks cut at spaces (the loop of the commonest case, inlined)."""
        normalizer = self.tok.normalizer
        form = normalizer.form if type(normalizer) in _UNICODE_FORMS else None
        is_normalized, normalized_of = unicodedata.is_normalized, self._normalized
        pattern = self.tok.pre_tokenizer.word_pattern
        findall = pattern.findall
        out = []
        for key in keys:
            if normalizer is None or (form is not None and is_normalized(form, key)):
                normalized, align = key, None
            else:
                normalized, align = normalized_of(key)
            found = findall(normalized)
            if len(found) == 1 and found[0] == normalized:  # the whole chunk is one pre-token
                out.append((found, _AT_START, align, 0))
            else:
                out.append((*_matches(pattern, normalized), align, 0))
        return out

    def _pieces(self, key: str, first: bool) -> tuple[list[str], list[int], list | None, int]:
        """The pre-tokens of one chunk as ``(texts, where each starts in the normalized chunk,
        alignments, shift)``: ``alignments[i]`` is the chunk's span of normalized character ``i``
        (None: character ``i`` itself), ``shift`` moves those spans to where the plan says the
        chunk starts."""
        if self.kind == "regex":
            return self._byte_level_pieces(key, first)
        tok = self.tok
        if self.kind == "drop":
            normalized, align = self._normalized(key)
            return (*_matches(tok.pre_tokenizer.word_pattern, normalized), align, 0)
        # "lead": Metaspace, each ASCII space the ▁ of the chunk it starts
        pre = tok.pre_tokenizer
        r = pre.replacement
        normalized, align = self._normalized(key if first else " " + key)
        normalized = normalized.replace(" ", r)
        if (
            normalized
            and not normalized.startswith(r)
            and (
                pre.prepend_scheme == "always"
                # subtle: "first" means at offset 0 of the text, which a dropped character moves
                or (pre.prepend_scheme == "first" and first and (align is None or align[0][0] == 0))
            )
        ):
            # as Metaspace: the prepended ▁ spans the first character
            align = (
                [(0, 1), *((i, i + 1) for i in range(len(normalized)))]
                if align is None
                else [align[0], *align]
            )
            normalized = r + normalized
        if not pre.split:  # pragma: no cover - not a "lead" plan (see build)
            raise AssertionError("Metaspace without split is not cut into chunks")
        parts = normalized.split(r)
        texts = ([parts[0]] if parts[0] else []) + [r + p for p in parts[1:]]
        starts = list(itertools.accumulate(map(len, texts), initial=0))[:-1]
        return texts, starts, align, 0 if first else -1

    def _byte_level_pieces(self, key: str, first: bool) -> tuple[list[str], list[int], list | None, int]:
        """One byte-level pre-token: its UTF-8 bytes in the byte alphabet, each spanning its
        character; the first chunk of a prefixed text is ``" " + piece``, the space spanning
        the piece's first character (``Chunkplan._cut`` starts it one before the text)."""
        text = bytes_to_chars(key.encode("utf-8"))
        if key.isascii():
            align = None if not first else [(1, 2), *((i, i + 1) for i in range(1, len(key)))]
        else:
            align = [(i, i + 1) for i, c in enumerate(key) for _ in range(len(c.encode("utf-8")))]
            if first:
                align[0] = (1, 2)
        return [text], [0], align, 0

    def _normalized(self, text: str) -> tuple[str, list | None]:
        """``text`` normalized, and its alignments (None when each character stays in place)."""
        normalizer = self.tok.normalizer
        if normalizer is None:
            return text, None
        if type(normalizer) is BertNormalizer:
            found = self._bert_normalized(normalizer, text)
            if found is not None:
                return found
        elif type(normalizer) in _UNICODE_FORMS:
            if unicodedata.is_normalized(normalizer.form, text):  # most text: nothing to do
                return text, None
        elif _keeps_places(normalizer, text):
            return normalizer.normalize_str(text), None
        ns = normalizer.normalize(NormalizedString.from_str(text))
        return ns.normalized, ns.alignments

    def _bert_normalized(self, normalizer: BertNormalizer, text: str) -> tuple[str, list | None] | None:
        """BERT's normalizer character by character (each character's output spans it), or None
        when a kept combining mark could be reordered across characters (NFD's canonical order)."""
        table = _bert_chars(normalizer, text)
        outs = list(map(table.__getitem__, text))
        if _UNSAFE in outs:
            return None
        normalized = "".join(outs)
        if len(normalized) == len(text) and "" not in outs:
            return normalized, None
        lengths = map(len, outs)  # each output character spans the character it came from
        return normalized, list(
            itertools.chain.from_iterable(
                map(itertools.repeat, zip(range(len(text)), range(1, len(text) + 1)), lengths)
            )
        )


_FORM_CHARS: dict[str, dict[int, str]] = {}  # a Unicode form of each character met, by form


def _form_chars(form: Any, text: str) -> dict[int, str]:
    """``str.translate``'s table of ``form`` applied to each character of ``text`` on its own
    (and of every character met before), which is the form of the whole text only when no
    character composes or reorders with its neighbours (the caller checks).

        >>> _form_chars("NFKC", "ㅋ㈜")[ord("㈜")]
        '(주)'
    """
    table = _FORM_CHARS.setdefault(form, {})
    new = {ord(c) for c in text}.difference(table)
    for code in new:
        table[code] = unicodedata.normalize(form, chr(code))
    return table


def _bert_chars(normalizer: BertNormalizer, text: str) -> dict[str, str]:
    """BERT's normalizer of each character, for every character of ``text`` and all those met
    before under the same settings (``_UNSAFE`` where the output holds a combining mark, which
    NFD's canonical order could move across characters).

        >>> _bert_chars(BertNormalizer(), "Éa")["É"]
        'e'
    """
    config = (normalizer.clean_text, normalizer.handle_chinese_chars, normalizer.strip_accents)
    table = _BERT_CHARS.setdefault((*config, normalizer.lowercase), {})
    new = set(text).difference(table)
    if new:
        normalize = normalizer.normalize_str  # the same characters as ``normalize``, without alignments
        for c in new:
            out = normalize(c)
            table[c] = _UNSAFE if any(map(unicodedata.combining, out)) else out
    return table


class _WordPieceChars:
    """What a normalizer makes of each character alone and a pre-tokenizer's class of each
    character, as tables indexed by code point, for :func:`core.models.wordpiece.line_kernels.wordpiece_line`
    (which says what the numbers mean). Filled as characters are met (:meth:`fill`), and shared
    by every tokenizer with the same normalizer settings and pre-tokenizer.

        >>> chars = _WordPieceChars.of(BertNormalizer(), BertPreTokenizer())
        >>> chars.fill("É!\\x01")
        >>> chr(chars.norm[ord("É")]), chars.classes[[ord("e"), ord("!")]].tolist()
        ('e', [2, 1])
        >>> int(chars.extra[-3 - chars.norm[1]])   # the control character: dropped, no characters
        0

    A character's class is read from the pre-tokenizer's own regex: no piece (0, a space), a
    piece of its own even twice in a row (1), or a run with ``"a"`` (2) or without (3). The
    three pre-tokenizers allowed (``_SPACE_DROPPING``) are runs of one of two kinds of
    characters or a character alone, so the classes cut a text as the regex does (a test
    compares them on every character of the BMP).
    """

    SIZE = sys.maxunicode + 1
    _made: dict[tuple, _WordPieceChars] = {}
    _lock = threading.Lock()

    def __init__(self, normalizer, pre_tokenizer) -> None:
        import numpy as np

        self.normalizer = normalizer if type(normalizer) is BertNormalizer else None
        self.split = pre_tokenizer.word_pattern.findall
        self._np = np
        # subtle: no normalizer (or a Unicode form, checked on the whole text) is no table
        self.norm = np.full(self.SIZE if self.normalizer else 0, -1, np.int32)
        self.extra = np.zeros(0, np.int32)
        self.classes = np.full(self.SIZE, -1, np.int8)

    @classmethod
    def of(cls, normalizer, pre_tokenizer) -> _WordPieceChars:
        """The tables of these stages' settings (made once)."""
        key: tuple = (type(pre_tokenizer),)
        if type(normalizer) is BertNormalizer:
            n = normalizer
            key += (n.clean_text, n.handle_chinese_chars, n.strip_accents, n.lowercase)
        with cls._lock:
            found = cls._made.get(key)
            if found is None:
                found = cls._made[key] = cls(normalizer, pre_tokenizer)
            return found

    def fill(self, text: str) -> None:
        """Put every character of ``text`` (and each it normalizes to) in the tables."""
        with self._lock:
            outs = list(set(text))
            if self.normalizer is not None:
                bert = _bert_chars(self.normalizer, text)
                norm, extra = self.norm, self.extra.tolist()
                for c in outs:
                    out = bert[c]
                    if norm[ord(c)] != -1:
                        continue
                    if out == _UNSAFE:
                        norm[ord(c)] = -2
                    elif len(out) == 1:
                        norm[ord(c)] = ord(out)
                    else:
                        norm[ord(c)] = -3 - len(extra)
                        extra += [len(out), *map(ord, out)]
                if len(extra) != len(self.extra):
                    # subtle: a new array, never this one grown: a kernel may be reading it
                    self.extra = self._np.array(extra, self._np.int32)
                outs = [o for c in outs if bert[c] != _UNSAFE for o in bert[c]]
            classes, split = self.classes, self.split
            for c in outs:
                if classes[ord(c)] == -1:
                    if not split(c):
                        classes[ord(c)] = 0
                    elif len(split(c + c)) == 2:
                        classes[ord(c)] = 1
                    else:
                        classes[ord(c)] = 2 if len(split(c + "a")) == 1 else 3


_BERT_VIEWS: dict[int, list] = {}  # id of a BERT table -> [its size when last seen, its views]


def _bert_views(table: dict[str, str]) -> tuple[dict[int, str], set[str], set[str], dict[str, int]]:
    """A BERT character table as ``str.translate`` wants it, its odd characters (whose output
    is not exactly one character: dropped, expanded, or unsafe alone), those it cannot take
    alone, and each character's output length. subtle: a table only grows, in insertion order,
    so only the characters added since the last call are looked at."""
    found = _BERT_VIEWS.get(id(table))
    if found is None:
        found = _BERT_VIEWS[id(table)] = [0, ({}, set(), set(), {})]
    if found[0] != len(table):
        translation, odd, unsafe, out_length = found[1]
        for c, out in itertools.islice(table.items(), found[0], None):
            translation[ord(c)] = out
            out_length[c] = len(out)
            if len(out) != 1:
                odd.add(c)
            if out == _UNSAFE:
                unsafe.add(c)
        found[0] = len(table)
    return found[1]


def _ints(values):
    """A numpy array of the ints ``values`` yields. subtle: ``np.array(list(...))`` is about
    twice as fast as ``np.fromiter`` on these iterator pipelines (measured, numpy 2)."""
    import numpy as np

    return np.array(list(values), np.int64)


_KERNELS: list = []  # core.chunk_kernels, once imported (an import statement costs ~1 µs a line)


def _kernels():
    """:mod:`core.chunk_kernels` (imported on first use: it loads numba)."""
    if not _KERNELS:
        import core.chunk_kernels

        _KERNELS.append(core.chunk_kernels)
    return _KERNELS[0]


def _numba_loaded() -> bool:
    """Whether numba is imported (and done importing: see :func:`core.jit.loaded`)."""
    return loaded("numba")


def _moved(spans: tuple[tuple, ...], by: int) -> Fragment:
    """The fragment of a chunk that is one pre-token whose characters stay in place, ``by``
    characters from where the chunk starts."""
    ids, values, starts, ends = spans
    if by:
        starts, ends = tuple(map(by.__add__, starts)), tuple(map(by.__add__, ends))
    if len(ids) > 1 and not all(map(le, ends[:-1], starts[1:])):  # a character cut into tokens
        offsets = list(zip(starts, ends))
        spans_without_overlaps(offsets)
        starts, ends = tuple(a for a, _ in offsets), tuple(b for _, b in offsets)
    return ids, values, starts, ends, (0,) * len(ids), len(ids), 1


def _keeps_places(normalizer, text: str) -> bool:
    """True if ``normalizer`` changes no character's place in ``text`` (so the normalized text's
    alignments are the identity): a Unicode form on text already in it, a lowercase that keeps
    the length, a sequence of those."""
    kind = type(normalizer)
    if kind in _UNICODE_FORMS:
        return unicodedata.is_normalized(normalizer.form, text)
    if kind is Lowercase:
        return len(normalizer.normalize_str(text)) == len(text)
    if kind is NormalizerSequence:
        for part in normalizer.normalizers:
            if not _keeps_places(part, text):
                return False
            text = part.normalize_str(text)
        return True
    return False


def _matches(pattern, text: str) -> tuple[list[str], list[int]]:
    """The non-empty matches of ``pattern`` in ``text`` and where each starts."""
    found = pattern.findall(text)
    if len(found) == 1 and found[0] == text:  # the whole chunk is one pre-token
        return found, [0]
    if sum(map(len, found)) == len(text):  # back to back (most chunks): no Match objects
        return found, list(itertools.accumulate(map(len, found), initial=0))[:-1]
    spans = [m.span() for m in pattern.finditer(text) if m.end() > m.start()]
    return [text[a:b] for a, b in spans], [a for a, _ in spans]


def _model_spans(model, pieces: list[str]) -> Sequence[tuple]:
    """``(ids, tokens, starts, ends)`` of each pre-token (the model's ``tokenize_spans_batch``)."""
    return model.tokenize_spans_batch(pieces) if pieces else []
