"""Read SentencePiece ``.model`` (protobuf) and ``.vocab`` (text) files into a Tokenizer
that encodes exactly as ``SentencePieceProcessor.encode``.

    >>> tok = load_sentencepiece("m.model")
    >>> tok.encode("Hello world").tokens
    ['▁Hello', '▁world']

A ``.model`` file is a ``ModelProto``: the pieces (text, score, type), the
``TrainerSpec`` (model type, byte fallback, special ids) and the
``NormalizerSpec`` (precompiled charsmap and whitespace rules). We read it with
our own wire-format reader (:mod:`core.formats.protobuf`).

SentencePiece's encoder, step by step, as rebuilt here:

1. Normalize (:class:`SentencePieceNormalizer`): at each position a user-defined
   piece is copied verbatim, else the longest charsmap rule applies, else the
   character is kept; leading, trailing and repeated spaces are dropped
   (``remove_extra_whitespaces``), a space is put in front (``add_dummy_prefix``)
   and every space becomes ``▁`` (``escape_whitespaces``).
2. Segment the whole normalized sentence (no pre-tokenizer):
   - unigram (:class:`SentencePieceUnigram`): Viterbi over every normal,
     user-defined piece that matches, in float32 like SentencePiece; a character
     no piece covers becomes ``<unk>`` scored ``min_score - 10``; a user-defined
     piece scores ``len_in_bytes * max_score - 0.1`` so it is always chosen.
   - BPE (:class:`SentencePieceBPE`): start from characters (user-defined pieces
     frozen whole) and repeatedly merge the adjacent pair whose merged piece is
     in the vocabulary with the HIGHEST score (ties: leftmost); unused pieces are
     split back into the pieces they were merged from.
   - char (:class:`SentencePieceChar`): one piece per character;
   - word (:class:`SentencePieceWord`): one piece per ``▁``-initial word.
3. Unknown pieces: with byte fallback each becomes its UTF-8 bytes ``<0xXX>``;
   without it, a run of adjacent unknown pieces becomes ONE ``<unk>``.
4. Other segmentations of a unigram model: n-best (``nbest_encode``) and sampling
   (``enable_sampling=True, nbest_size=-1``) on the same lattice
   (:meth:`SentencePieceUnigram.lattice`); segmentations of equal score may come in
   another order than SentencePiece's.

Offsets follow SentencePiece too (``encode(..., return_type="offset_mapping")``):
a piece spans from where its first character's source starts to where the
next piece's starts, and of the byte pieces of one character only the last
spans it.

Control pieces (``<s>``, ``</s>``) and byte pieces are never matched in text;
unused pieces never appear.

Writing (:func:`save_sentencepiece`): a tokenizer opened from a ``.model`` is
written back byte for byte; a unigram or BPE tokenizer with the metaspace
pre-tokenizer becomes a new ``ModelProto`` (BPE scores are minus the merge
rank), with a list of what SentencePiece cannot express.

Leaves out: sampling among the n best only (``nbest_size`` > 1), and writing char
and word models anew (a file opened from one is written back byte for byte).
"""

from __future__ import annotations

import heapq
import itertools
import math
import operator
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from core.atomic import write_atomic
from core.errors import FormatError
from core.formats.protobuf import (
    FIXED32,
    LENGTH_DELIMITED,
    VARINT,
    ProtobufError,
    as_float,
    as_signed,
    as_text,
    read_fields,
)
from core.formats.protobuf import field as pb_field
from core.models.base import ModelBase, Token
from core.precompiled import PrecompiledNormalizer
from core.text import NormalizedString

SPACE = "▁"
# A sentence's words: each starts at a ▁ (the first may not); "ab▁▁c" -> "ab", "▁", "▁c"
_WORDS = re.compile(f"[^{SPACE}]+|{SPACE}[^{SPACE}]*")

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
PIECE_TYPE_NAMES = {
    NORMAL: "normal",
    UNKNOWN: "unknown",
    CONTROL: "control",
    USER_DEFINED: "user-defined",
    UNUSED: "unused",
    BYTE: "byte",
}
MODEL_TYPES = {1: "unigram", 2: "bpe", 3: "word", 4: "char"}

_F32 = struct.Struct("<f")
_NOT_SPACES = re.compile("[^ ]+")
_SPACE_RUNS = re.compile(" {2,}")
_TRAILING_SPACES = re.compile(f"{SPACE}+\n")
FLT_MIN = 1.1754943508222875e-38  # C's FLT_MIN: SentencePiece's starting max_score
UNK_PENALTY = 10.0
SCORE_RESET = 100000.0  # SentencePiece's kScoreResetThreshold: see SentencePieceUnigram._segment_readable
_WORD_CACHE_LIMIT = 200_000  # words; the ids fast path's cache is emptied when it gets this big
_SHORT_WORD = 48  # characters; longer words are merged with the heap of SentencePieceBPE._segment
_SHORT_SEGMENT = 4  # characters; BPE's _segment merges longer text compiled (a call costs a few µs)
_NO_PAIR = math.inf  # the negated score of a pair that joins into no piece: after every real one
_NO_PAIRS = (_NO_PAIR,) * _SHORT_WORD


def f32(x: float) -> float:
    """Round to float32, as SentencePiece's ``float`` arithmetic does.

    >>> f32(0.1)
    0.10000000149011612
    """
    return _F32.unpack(_F32.pack(x))[0]


def _int32_array(values):
    import numpy as np

    return np.asarray(values, dtype=np.int32)


def byte_piece(b: int) -> str:
    """>>> byte_piece(0x0A)
    '<0x0A>'"""
    return f"<0x{b:02X}>"


# -- the file ---------------------------------------------------------------------


@dataclass
class Piece:
    piece: str
    score: float = 0.0
    type: int = NORMAL


@dataclass
class TrainerSpec:
    model_type: str = "unigram"
    vocab_size: int = 8000
    byte_fallback: bool = False
    unk_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    pad_id: int = -1
    unk_piece: str = "<unk>"
    bos_piece: str = "<s>"
    eos_piece: str = "</s>"
    pad_piece: str = "<pad>"
    unk_surface: str = " \u2047 "
    treat_whitespace_as_suffix: bool = False
    split_digits: bool = False
    character_coverage: float = 0.9995
    input: list[str] = field(default_factory=list)


@dataclass
class NormalizerSpec:
    name: str = ""
    precompiled_charsmap: bytes = b""
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True


@dataclass
class ModelProto:
    pieces: list[Piece]
    trainer_spec: TrainerSpec
    normalizer_spec: NormalizerSpec


def _parse_piece(data: bytes) -> Piece:
    p = Piece("")
    for number, wire, value in read_fields(data):
        if number == 1 and wire == LENGTH_DELIMITED:
            p.piece = as_text(value)
        elif number == 2 and wire == FIXED32:
            p.score = as_float(value)
        elif number == 3 and wire == VARINT:
            p.type = value
    return p


_TRAINER_INTS = {4: "vocab_size", 40: "unk_id", 41: "bos_id", 42: "eos_id", 43: "pad_id"}
_TRAINER_BOOLS = {35: "byte_fallback", 24: "treat_whitespace_as_suffix", 25: "split_digits"}
_TRAINER_STRS = {45: "unk_piece", 46: "bos_piece", 47: "eos_piece", 48: "pad_piece", 44: "unk_surface"}


def _parse_trainer(data: bytes) -> TrainerSpec:
    t = TrainerSpec()
    for number, wire, value in read_fields(data):
        if number == 3 and wire == VARINT:
            t.model_type = MODEL_TYPES.get(value, f"type {value}")
        elif number in _TRAINER_INTS and wire == VARINT:
            setattr(t, _TRAINER_INTS[number], as_signed(value))
        elif number in _TRAINER_BOOLS and wire == VARINT:
            setattr(t, _TRAINER_BOOLS[number], bool(value))
        elif number in _TRAINER_STRS and wire == LENGTH_DELIMITED:
            setattr(t, _TRAINER_STRS[number], as_text(value))
        elif number == 10 and wire == FIXED32:
            t.character_coverage = as_float(value)
        elif number == 1 and wire == LENGTH_DELIMITED:
            t.input.append(as_text(value))
    return t


def _parse_normalizer(data: bytes) -> NormalizerSpec:
    n = NormalizerSpec()
    for number, wire, value in read_fields(data):
        if number == 1 and wire == LENGTH_DELIMITED:
            n.name = as_text(value)
        elif number == 2 and wire == LENGTH_DELIMITED:
            n.precompiled_charsmap = value
        elif number == 3 and wire == VARINT:
            n.add_dummy_prefix = bool(value)
        elif number == 4 and wire == VARINT:
            n.remove_extra_whitespaces = bool(value)
        elif number == 5 and wire == VARINT:
            n.escape_whitespaces = bool(value)
    return n


def parse_model_proto(data: bytes, name: str = "<bytes>") -> ModelProto:
    """Decode a ``.model`` file's bytes; FormatError (naming ``name``) if it is not one."""
    try:
        pieces: list[Piece] = []
        trainer = TrainerSpec()
        normalizer = NormalizerSpec()
        for number, wire, value in read_fields(data):
            if wire != LENGTH_DELIMITED:
                continue
            if number == 1:
                pieces.append(_parse_piece(value))
            elif number == 2:
                trainer = _parse_trainer(value)
            elif number == 3:
                normalizer = _parse_normalizer(value)
    except ProtobufError as e:
        raise FormatError(
            f"{name}: not a valid SentencePiece model (truncated or corrupt protobuf: {e})"
        ) from None
    if not pieces:
        raise FormatError(f"{name}: not a SentencePiece model (no pieces found)")
    seen: dict[str, int] = {}
    for i, p in enumerate(pieces):
        if not p.piece:
            raise FormatError(f"{name}: piece {i} is empty")
        if p.type not in PIECE_TYPE_NAMES:
            raise FormatError(f"{name}: piece {i} ({p.piece!r}) has unknown type {p.type}")
        if p.piece in seen:
            raise FormatError(f"{name}: piece {p.piece!r} is defined twice (ids {seen[p.piece]} and {i})")
        if not math.isfinite(p.score):  # as SentencePiece refuses it ("score is NaN or Inf")
            raise FormatError(f"{name}: piece {i} ({p.piece!r}) has score {p.score}, not a finite number")
        seen[p.piece] = i
    if sum(p.type == UNKNOWN for p in pieces) != 1:
        raise FormatError(f"{name}: a SentencePiece model needs exactly one unknown piece")
    if trainer.model_type not in ("unigram", "bpe", "char", "word"):
        raise FormatError(
            f"{name}: SentencePiece model type {trainer.model_type!r} is not supported "
            "(unigram, bpe, char, word)"
        )
    return ModelProto(pieces, trainer, normalizer)


# -- normalization ------------------------------------------------------------------


class SentencePieceNormalizer:
    """SentencePiece's whole normalization (step 1 above), keeping alignments.

    >>> SentencePieceNormalizer().normalize_str("  Hello   world ")
    '▁Hello▁world'
    """

    def __init__(
        self,
        charsmap: bytes = b"",
        add_dummy_prefix: bool = True,
        remove_extra_whitespaces: bool = True,
        escape_whitespaces: bool = True,
        treat_whitespace_as_suffix: bool = False,
        user_defined: list[str] | None = None,
        name: str = "",
    ):
        self.precompiled = PrecompiledNormalizer(charsmap)
        self.add_dummy_prefix = add_dummy_prefix
        self.remove_extra_whitespaces = remove_extra_whitespaces
        self.escape_whitespaces = escape_whitespaces
        self.treat_whitespace_as_suffix = treat_whitespace_as_suffix
        self.name = name
        self.user_defined = _PrefixMatcher(user_defined or [])

    def _prefix(self, s: str, i: int) -> tuple[str, int]:
        """What SentencePiece's NormalizePrefix gives at ``s[i]``: (output, chars consumed)."""
        if s[i] not in self._key_starts():  # no rule or user-defined piece starts here
            return s[i], 1
        k = self.user_defined.match(s, i)
        if k:
            return s[i : i + k], k
        m = self.precompiled.match(s, i)
        if m is not None:
            return m[1], m[0]
        return s[i], 1

    def normalize(self, text: NormalizedString) -> NormalizedString:
        """Normalize, aligning as SentencePiece does.

        subtle: SentencePiece records for each output character only where its
        source STARTS in the original (``norm_to_orig``); a piece then spans from
        its first character's start to the next character's start. So a kept
        space also covers the spaces dropped after it, and every output
        character of one rewrite starts where that rewrite's source starts. We
        store exactly these spans: character k gets ``(start_k, start_k+1)``.
        """
        if self._key_starts().isdisjoint(text.normalized):
            return self._normalize_plain(text)
        return self._normalize_stepwise(text)

    def _normalize_plain(self, text: NormalizedString) -> NormalizedString:
        """:meth:`_normalize_stepwise` for a text where no rule applies (most lines): only the
        spaces change, so whole runs of other characters are copied with their spans."""
        s = text.normalized
        n = len(s)
        space = SPACE if self.escape_whitespaces else " "
        aligns = text.alignments

        def orig(pos: int) -> int:
            if pos < n:
                return aligns[pos][0]
            return aligns[-1][1] if n else 0

        i = n - len(s.lstrip(" ")) if self.remove_extra_whitespaces else 0
        if i == n:
            return NormalizedString("", [], text.original_length)
        chars: list[str] = []
        starts: list[int] = []
        if self.add_dummy_prefix and not self.treat_whitespace_as_suffix:
            chars.append(space)
            starts.append(orig(i))
        if self.remove_extra_whitespaces:
            end = i
            for run in _NOT_SPACES.finditer(s, i):
                a, b = run.span()
                if a > i:  # the first space between two runs stays, starting where it starts
                    chars.append(space)
                    starts.append(orig(end))
                chars.extend(s[a:b])
                starts.extend([aligns[p][0] for p in range(a, b)])
                end = b
            if end < n:  # trailing spaces: the first is kept here and dropped below, as stepwise
                chars.append(space)
                starts.append(orig(end))
        else:
            chars.extend(s.replace(" ", space) if space != " " else s)
            starts.extend([aligns[p][0] for p in range(n)])
        return self._finish(text, chars, starts, orig(n), space)

    def _finish(self, text: NormalizedString, chars: list[str], starts: list[int], consumed: int, space: str):
        """Steps 4-5 of :meth:`_normalize_stepwise`: trailing spaces and the suffix space."""
        if self.remove_extra_whitespaces:
            while chars and chars[-1] == space:
                chars.pop()
                consumed = starts.pop()
        if self.add_dummy_prefix and self.treat_whitespace_as_suffix:
            chars.append(space)
            starts.append(consumed)
        starts.append(consumed)
        aligns = [(starts[k], starts[k + 1]) for k in range(len(chars))]
        return NormalizedString("".join(chars), aligns, text.original_length)

    def _normalize_stepwise(self, text: NormalizedString) -> NormalizedString:
        """SentencePiece's normalizer, one prefix rewrite at a time (what :meth:`normalize` does)."""
        s = text.normalized
        n = len(s)
        i = 0
        space = SPACE if self.escape_whitespaces else " "

        def orig(pos: int) -> int:  # where input position `pos` starts in the original text
            if pos < n:
                return text.alignments[pos][0]
            return text.alignments[-1][1] if n else 0

        # 1. drop leading whitespace
        if self.remove_extra_whitespaces:
            while i < n:
                out, k = self._prefix(s, i)
                if out != " ":
                    break
                i += k
        if i == n:
            return NormalizedString("", [], text.original_length)
        chars: list[str] = []
        starts: list[int] = []
        # 2. the dummy prefix: "world" and "hello world" both give "▁world"
        if self.add_dummy_prefix and not self.treat_whitespace_as_suffix:
            chars.append(space)
            starts.append(orig(i))
        # 3. rewrite, collapsing runs of spaces and escaping them
        is_prev_space = self.remove_extra_whitespaces
        while i < n:
            out, k = self._prefix(s, i)
            if is_prev_space:
                out = out.lstrip(" ")
            if out:
                at = orig(i)
                for c in out:
                    chars.append(space if c == " " else c)
                    starts.append(at)
                is_prev_space = out.endswith(" ")
            i += k
            if not self.remove_extra_whitespaces:
                is_prev_space = False
        # 4. drop trailing whitespace (the text then ends where the first dropped space starts)
        return self._finish(text, chars, starts, orig(n), space)

    def normalize_str(self, text: str) -> str:
        """``normalize(text).normalized`` without alignments (the ids fast path).

        Rewrites the text, then handles spaces on the whole result: the same as the
        step-by-step loop of :meth:`normalize` as long as no rewrite yields two spaces
        in a row (checked once; otherwise this goes through :meth:`normalize`).

        >>> SentencePieceNormalizer().normalize_str("  Hello   world ")
        '▁Hello▁world'
        """
        plain = self.__dict__.get("_plain")
        if plain is None:
            plain = self._plain = self._string_path_is_exact()
        if not plain:
            return self.normalize(NormalizedString.from_str(text)).normalized
        rewritten, only_spaces = self._rewrite(text)
        if only_spaces and (self.remove_extra_whitespaces or not text):
            return ""  # normalize returns early: nothing but whitespace
        space = SPACE if self.escape_whitespaces else " "
        if self.remove_extra_whitespaces:
            rewritten = " ".join(filter(None, rewritten.split(" ")))
        if space != " ":
            rewritten = rewritten.replace(" ", space)
        prefix = self.add_dummy_prefix and not self.treat_whitespace_as_suffix
        out = space + rewritten if prefix else rewritten
        if self.remove_extra_whitespaces:
            out = out.rstrip(space)  # subtle: as normalize, a trailing literal ▁ goes too
        if self.add_dummy_prefix and self.treat_whitespace_as_suffix:
            out += space
        return out

    def normalize_many(self, texts: list[str]) -> list[str]:
        """``[normalize_str(t) for t in texts]``, the spaces of all of them handled at once.

        Each text is rewritten on its own (most need nothing: :meth:`_rewrite`), then the
        rewritten texts are joined by newlines and their spaces collapsed, escaped, prefixed and
        stripped by a few whole-string operations, and cut apart again. That is
        :meth:`normalize_str` text by text when no rewritten text holds a newline (checked: the
        joined text has one fewer than there are texts), for the usual settings (extra spaces
        removed, spaces escaped, a dummy prefix before the text); otherwise text by text.

        >>> SentencePieceNormalizer().normalize_many(["  Hello   world ", " ", "a"])
        ['▁Hello▁world', '', '▁a']
        """
        plain = self.__dict__.get("_plain")
        if plain is None:
            plain = self._plain = self._string_path_is_exact()
        usual = (
            self.remove_extra_whitespaces
            and self.escape_whitespaces
            and self.add_dummy_prefix
            and not self.treat_whitespace_as_suffix
        )
        if not plain or not usual or len(texts) < 2:
            return list(map(self.normalize_str, texts))
        starts = self._key_starts()
        rewrite = self._rewrite
        rewritten = [t if starts.isdisjoint(t) else rewrite(t)[0] for t in texts]
        joined = "\n".join(rewritten)
        if joined.count("\n") != len(texts) - 1:
            return list(map(self.normalize_str, texts))
        # a text's spaces collapsed and stripped (a text of nothing but spaces becomes empty),
        # escaped, the dummy prefix before it, then trailing ▁ stripped (a literal one too, as
        # normalize_str does)
        joined = _SPACE_RUNS.sub(" ", joined).replace(" \n", "\n").replace("\n ", "\n").strip(" ")
        joined = SPACE + joined.replace(" ", SPACE).replace("\n", "\n" + SPACE)
        return _TRAILING_SPACES.sub("\n", joined + "\n").split("\n")[:-1]

    def _string_path_is_exact(self) -> bool:
        """True when no rewrite (charsmap replacement or user-defined piece) holds two spaces."""
        if b"  " in self.precompiled._replacements:
            return False
        return not any("  " in p for ps in self.user_defined.by_first.values() for p in ps)

    def _rewrite(self, s: str) -> tuple[str, bool]:
        """The charsmap/user-defined rewrite of ``s`` (spaces untouched), and whether every
        rewrite was exactly one space.

        Only characters that start some charsmap key or user-defined piece can change
        anything (:meth:`_key_starts`); the text between them is copied as it is.
        """
        starts = self._key_starts()
        if starts.isdisjoint(s):  # nothing to rewrite: most lines
            return s, s == " " * len(s)
        match = self.precompiled.match if self.precompiled.trie.units else None
        user = self.user_defined.match if self.user_defined.by_first else None
        out: list[str] = []
        only_spaces = True
        pos = 0
        for i in [i for i, c in enumerate(s) if c in starts]:
            if i < pos:  # inside what the previous rewrite consumed
                continue
            if i > pos:
                kept = s[pos:i]
                out.append(kept)
                only_spaces = only_spaces and not kept.strip(" ")
            k = user(s, i) if user else 0
            if k:
                rewrite = s[i : i + k]
            else:
                m = match(s, i) if match else None
                rewrite, k = (s[i], 1) if m is None else (m[1], m[0])
            out.append(rewrite)
            only_spaces = only_spaces and rewrite == " "
            pos = i + k
        if pos < len(s):
            kept = s[pos:]
            out.append(kept)
            only_spaces = only_spaces and not kept.strip(" ")
        return "".join(out), only_spaces

    def _key_starts(self) -> frozenset[str]:
        """The characters that start a charsmap key or a user-defined piece, found once by
        walking the charsmap trie's UTF-8 paths (a few thousand characters for ``nmt_nfkc``)."""
        found = self.__dict__.get("_key_start_chars")
        if found is None:
            chars = set(self.user_defined.by_first)
            trie = self.precompiled.trie
            if trie.units:
                # (node, bytes so far, bytes the character still needs)
                stack: list[tuple[int, bytes, int]] = []
                for lead in range(0xF5):
                    need = 0 if lead < 0x80 else 1 if 0xC2 <= lead < 0xE0 else 2 if 0xE0 <= lead < 0xF0 else 3
                    if 0x80 <= lead < 0xC2:
                        continue  # never the first byte of a character
                    step = trie.step(trie.root, lead)
                    if step is not None:
                        stack.append((step[0], bytes([lead]), need))
                while stack:
                    node, head, need = stack.pop()
                    if need == 0:
                        try:
                            chars.add(head.decode("utf-8"))
                        except UnicodeDecodeError:  # an overlong or surrogate form: no text has it
                            pass
                        continue
                    for byte in range(0x80, 0xC0):
                        step = trie.step(node, byte)
                        if step is not None:
                            stack.append((step[0], head + bytes([byte]), need - 1))
            found = self._key_start_chars = frozenset(chars)
        return found

    def to_dict(self) -> dict:
        """The closest `tokenizers` pipeline (what its SentencePiece converters write).

        subtle: it is an approximation: `tokenizers` has no "drop leading and
        repeated spaces" rule; see :data:`APPROXIMATIONS`.
        """
        parts = []
        if self.precompiled.charsmap:
            parts.append(self.precompiled.to_dict())
        if self.remove_extra_whitespaces:
            parts.append({"type": "Strip", "strip_left": True, "strip_right": True})
            parts.append({"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "})
        if self.add_dummy_prefix and not self.treat_whitespace_as_suffix:
            parts.append({"type": "Prepend", "prepend": " "})
        if self.escape_whitespaces:
            parts.append({"type": "Replace", "pattern": {"String": " "}, "content": SPACE})
        return {"type": "Sequence", "normalizers": parts}

    def __repr__(self) -> str:
        return f"SentencePieceNormalizer({self.name or 'identity'!r})"


# The parts of SentencePiece behaviour a tokenizer.json cannot express exactly.
APPROXIMATIONS = (
    "SentencePiece normalization is written as a tokenizers Sequence (Strip, Replace, Prepend): "
    "whitespace other than ' ' and user-defined pieces inside normalization may differ"
)


class _PrefixMatcher:
    """Longest user-defined piece starting at a position (SentencePiece's PrefixMatcher)."""

    def __init__(self, pieces: list[str]):
        self.by_first: dict[str, list[str]] = {}
        for p in sorted(set(pieces), key=len, reverse=True):
            self.by_first.setdefault(p[0], []).append(p)

    def match(self, s: str, i: int) -> int:
        cands = self.by_first.get(s[i]) if self.by_first else None
        if cands:
            for p in cands:
                if s.startswith(p, i):
                    return len(p)
        return 0


# -- models -----------------------------------------------------------------------------


class _SentencePieceModel(ModelBase):
    """What unigram and BPE share: the piece table, look-ups and unknown handling."""

    def __init__(self, pieces: list[Piece], byte_fallback: bool = False):
        self.pieces = list(pieces)
        self.byte_fallback = byte_fallback
        self.unk_id = next(i for i, p in enumerate(self.pieces) if p.type == UNKNOWN)
        self.unk_token = self.pieces[self.unk_id].piece
        self._vocab = {p.piece: i for i, p in enumerate(self.pieces)}
        # Pieces matched in text: normal, user-defined and unused (the last skipped when found).
        self._matchable = {
            p.piece: i for i, p in enumerate(self.pieces) if p.type in (NORMAL, USER_DEFINED, UNUSED)
        }
        self._reserved = {
            p.piece: i for i, p in enumerate(self.pieces) if p.type not in (NORMAL, USER_DEFINED, UNUSED)
        }
        self.user_defined = [p.piece for p in self.pieces if p.type == USER_DEFINED]
        self._byte_ids = [self._vocab.get(byte_piece(b), self.unk_id) for b in range(256)]

    def piece_to_id(self, piece: str) -> int:
        """SentencePiece's PieceToId: reserved pieces, then the others, else unk."""
        i = self._reserved.get(piece)
        if i is None:
            i = self._matchable.get(piece, self.unk_id)
        return i

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        raise NotImplementedError

    def tokenize(self, piece: str) -> list[Token]:
        """Segment one normalized sentence; unknowns become bytes or merge into one ``<unk>``."""
        return self._tokens(piece, self._segment(piece))

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (the ids fast path), from cached words.

        A sentence is cut before each ``▁`` into words, each segmented once and cached
        (most words repeat). That is exact when no piece holds a ``▁`` after its first
        character, so that no piece can span two words (checked once; otherwise the
        whole sentence is segmented as :meth:`tokenize` does).
        """
        words = self.__dict__.get("_words_apart")
        if words is None:
            words = self._words_apart = not any(SPACE in p[1:] for p in self._matchable)
        if not words or SPACE not in piece[1:]:
            return [t.id for t in self.tokenize(piece)]
        cache = self.__dict__.get("_word_ids")
        if cache is None:
            cache = self._word_ids = {}
        ids: list[int] = []
        unk, fuse = self.unk_id, not self.byte_fallback
        gap = math.inf
        for k, part in enumerate(piece.split(SPACE)):
            word = SPACE + part if k else part
            if not word:
                continue
            found = cache.get(word)
            if found is None:
                found = self._word_ids_of(word)
                if len(cache) >= _WORD_CACHE_LIMIT:
                    cache.clear()
                cache[word] = found
            word_ids, word_gap = found
            if word_gap < gap:
                gap = word_gap
            if fuse and ids and ids[-1] == unk and word_ids[0] == unk:
                ids.extend(word_ids[1:])  # subtle: unknown runs fuse across words, as in one sentence
            else:
                ids.extend(word_ids)
        if gap <= self._tolerance(len(piece)):
            return [t.id for t in self.tokenize(piece)]
        return ids

    def _word_ids_of(self, word: str) -> tuple[tuple[int, ...], float]:
        """Ids of one word, and how far apart its competing scores were (BPE: no scores added)."""
        return self._ids(word, self._segment(word)), math.inf

    def _tolerance(self, n: int) -> float:
        """How much the sentence-wide arithmetic may move a word's competing scores."""
        return -1.0

    def _tokens(self, piece: str, segments: list[tuple[int, int, int]]) -> list[Token]:
        """``(start, end, id)`` segments as tokens, unknown characters as bytes or one ``<unk>``."""
        texts = self.__dict__.get("_piece_texts")
        if texts is None:
            texts = self._piece_texts = [p.piece for p in self.pieces]
        if self.unk_id not in [seg[2] for seg in segments]:  # the usual case: one token per segment
            return [Token(id, texts[id], start, end) for start, end, id in segments]
        out: list[Token] = []
        prev_unk = False
        for start, end, id in segments:
            is_unk = id == self.unk_id
            if is_unk and self.byte_fallback:
                for ci in range(start, end):
                    encoded = piece[ci].encode("utf-8", errors="surrogatepass")
                    for j, b in enumerate(encoded):
                        bid = self._byte_ids[b]
                        # as SentencePiece: the character's span goes to its last byte; the others are empty
                        last = j == len(encoded) - 1
                        out.append(Token(bid, self.pieces[bid].piece, ci, ci + 1 if last else ci))
            elif is_unk and prev_unk:
                last = out[-1]
                out[-1] = Token(last.id, last.value, last.start, end)
            else:
                out.append(Token(id, self.pieces[id].piece, start, end))
            prev_unk = is_unk
        return out

    def _ids(self, piece: str, segments) -> tuple[int, ...]:
        """The ids of :meth:`_tokens` (unknown runs fused or as bytes), without Token objects."""
        unk = self.unk_id
        if not self.byte_fallback:
            ids = [seg[2] for seg in segments]
            if unk in ids:
                ids = [id for k, id in enumerate(ids) if id != unk or k == 0 or ids[k - 1] != unk]
            return tuple(ids)
        out: list[int] = []
        byte_ids = self._byte_ids
        for start, end, id in segments:
            if id == unk:
                for c in piece[start:end]:
                    out.extend(byte_ids[b] for b in c.encode("utf-8", errors="surrogatepass"))
            else:
                out.append(id)
        return tuple(out)

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self.pieces[id].piece if 0 <= id < len(self.pieces) else None

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def vocab_size(self) -> int:
        return len(self.pieces)


class SentencePieceUnigram(_SentencePieceModel):
    """Unigram segmentation exactly as SentencePiece's optimized Viterbi.

    >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1), Piece("▁", -2), Piece("a", -3)])
    >>> [t.value for t in m.tokenize("▁a▁b")]
    ['▁a', '▁', '<unk>']
    """

    def __init__(self, pieces: list[Piece], byte_fallback: bool = False):
        super().__init__(pieces, byte_fallback)
        normal = [p.score for p in self.pieces if p.type == NORMAL]
        self.min_score = min(normal) if normal else 0.0
        self.max_score = max([FLT_MIN] + normal)
        self.unk_score = f32(self.min_score - UNK_PENALTY)
        # A character trie of matchable pieces: node = {char: child, "": (id, score_or_None)}
        self._trie: dict = {}
        for text, i in self._matchable.items():
            node = self._trie
            for c in text:
                node = node.setdefault(c, {})
            p = self.pieces[i]
            if p.type == UNUSED:
                continue
            if p.type == USER_DEFINED:
                node[""] = (i, None)  # scored by its byte length at match time
            else:
                node[""] = (i, p.score)

    # -- segmentation: the compiled Viterbi (core.models.unigram.kernels) -------------------

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (the ids fast path): the whole sentence in one
        compiled Viterbi, in float32 as SentencePiece, so no word needs to be cut out."""
        return self.tokenize_ids_batch([piece])[0]

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]`` in one kernel call.

        >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1), Piece("▁", -2), Piece("a", -3)])
        >>> m.tokenize_ids_batch(["▁a▁b", "a"])
        [[1, 2, 0], [3]]
        """
        from core.models.unigram.kernels import BYTES_ALWAYS, UNK_ONLY, best_ids, codepoints

        codes, bounds = codepoints(pieces)
        ids, ends = best_ids(
            codes,
            bounds,
            self._kernel_trie(),
            self.unk_id,
            self.unk_score,
            float32=True,
            user_max_score=self.max_score,
            unknown_runs=BYTES_ALWAYS if self.byte_fallback else UNK_ONLY,
            byte_ids=self.__dict__.setdefault("_byte_id_array", _int32_array(self._byte_ids)),
        )
        flat = ids.tolist()
        cuts = ends.tolist()
        return [flat[cuts[k] : cuts[k + 1]] for k in range(len(pieces))]

    def _kernel_trie(self):
        """The pieces matched in text as the kernel's trie (built on first use)."""
        trie = self.__dict__.get("_compiled_trie")
        if trie is None:
            from core.models.unigram.kernels import PieceTrie

            entries = []
            for text, i in self._matchable.items():
                p = self.pieces[i]
                entries.append((text, -1 if p.type == UNUSED else i, p.score, p.type == USER_DEFINED))
            trie = self._compiled_trie = PieceTrie.build(entries)
        return trie

    def __getstate__(self) -> dict:
        """Pickle without the kernel's arrays (rebuilt on first use)."""
        state = dict(self.__dict__)
        state.pop("_compiled_trie", None)
        return state

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        """The best path as ``(start, end, id)`` nodes (unknown characters one node each),
        by the compiled Viterbi; :meth:`_segment_readable` is the same in Python."""
        import numpy as np

        from core.models.unigram.kernels import best_path

        if not s:
            return []
        codes = np.frombuffer(s.encode("utf-32-le"), dtype=np.int32)
        starts, ids = best_path(
            codes,
            self._kernel_trie(),
            self.unk_id,
            self.unk_score,
            float32=True,
            user_max_score=self.max_score,
        )
        bounds = starts.tolist() + [len(s)]
        return [(bounds[k], bounds[k + 1], id) for k, id in enumerate(ids.tolist())]

    def _segment_readable(self, s: str) -> list[tuple[int, int, int]]:
        """SentencePiece's Viterbi in Python, step by step: what the kernel computes."""
        n = len(s)
        # best[e] = (score of the best path ending at char e, its last piece's start, id)
        best_score = [0.0] * (n + 1)
        best_start = [-1] * (n + 1)
        best_id = [-1] * (n + 1)
        trie = self._trie
        frontier = 0  # the furthest position a node has reached
        for start in range(n):
            here = best_score[start]
            if abs(here) > SCORE_RESET:
                # SentencePiece 0.2.3 moves the scores it holds back to 0 (in float) once
                # they pass 1e5 in size: on a long text the float steps decide near-ties
                for p in range(start, frontier + 1):
                    if p == start or best_start[p] != -1:
                        best_score[p] = f32(best_score[p] - here)
                here = 0.0
            has_single = False
            node = trie
            ubytes = 0
            for j in range(start, n):
                node = node.get(s[j])
                if node is None:
                    break
                ubytes += len(s[j].encode("utf-8", errors="surrogatepass"))
                hit = node.get("")
                if hit is None:
                    continue
                id, score = hit
                if score is None:  # user-defined: always wins
                    score = f32(f32(ubytes * self.max_score) - 0.1)
                cand = f32(score + here)
                end = j + 1
                frontier = max(frontier, end)
                # subtle: strictly greater, so among equal scores the first found stays
                if best_start[end] == -1 or cand > best_score[end]:
                    best_score[end], best_start[end], best_id[end] = cand, start, id
                if end == start + 1:
                    has_single = True
            if not has_single:
                cand = f32(self.unk_score + here)
                end = start + 1
                frontier = max(frontier, end)
                if best_start[end] == -1 or cand > best_score[end]:
                    best_score[end], best_start[end], best_id[end] = cand, start, self.unk_id
        out = []
        end = n
        while end > 0:
            start = best_start[end]
            out.append((start, end, best_id[end]))
            end = start
        out.reverse()
        return out

    # -- other segmentations: n-best and sampling (SentencePiece's NBestEncode, SampleEncode) --

    def lattice(self, s: str):
        """Every piece that matches in ``s``, scored as :meth:`_segment` scores them, plus an
        unknown node for each character no single-character piece covers."""
        from core.models.unigram.lattice import Lattice, Node

        nodes = []
        for start in range(len(s)):
            has_single = False
            node = self._trie
            ubytes = 0
            for j in range(start, len(s)):
                node = node.get(s[j])
                if node is None:
                    break
                ubytes += len(s[j].encode("utf-8", errors="surrogatepass"))
                hit = node.get("")
                if hit is None:
                    continue
                id, score = hit
                if score is None:
                    score = f32(f32(ubytes * self.max_score) - 0.1)
                nodes.append(Node(start, j + 1, self.pieces[id].piece, id, score))
                has_single = has_single or j == start
            if not has_single:
                nodes.append(Node(start, start + 1, self.unk_token, self.unk_id, self.unk_score))
        return Lattice(s, nodes)

    def _path_tokens(self, s: str, path) -> list[Token]:
        """A lattice path as tokens, unknown characters handled as :meth:`tokenize` does."""
        return self._tokens(s, [(n.start, n.end, n.id) for n in path])

    def can_nbest(self) -> bool:
        return True

    def can_sample(self) -> bool:
        return True

    def nbest_words(self, words: list[str], k: int) -> list[tuple[list[str], float]]:
        """The ``k`` best segmentations of a sequence of pre-tokens, best first, with their scores.

        >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1), Piece("▁", -2), Piece("a", -3)])
        >>> m.nbest_words(["▁a"], 2)
        [(['▁a'], -1.0), (['▁', 'a'], -5.0)]
        """
        import heapq

        from core.errors import ConfigError

        if k < 1:
            raise ConfigError(f"n-best needs k >= 1, not {k}")
        best: list[tuple[list[str], float]] = [([], 0.0)]
        for word in words:
            options = [
                ([t.value for t in self._path_tokens(word, path)], score)
                for path, score in self.lattice(word).nbest(k)
            ]
            pairs = [(a + b, s + t) for a, s in best for b, t in options]
            best = heapq.nlargest(k, pairs, key=lambda x: x[1])
        return best

    def sample(self, piece: str, alpha: float = 0.1, rng=None) -> list[Token]:
        """A segmentation drawn with probability proportional to ``exp(alpha * score)``
        (SentencePiece's ``enable_sampling=True, nbest_size=-1``)."""
        from core.errors import ConfigError

        if not alpha > 0:
            raise ConfigError(f"sampling needs alpha > 0, not {alpha}")
        if not piece:
            return []
        return self._path_tokens(piece, self.lattice(piece).sample(alpha, rng))

    def to_dict(self) -> dict:
        return {
            "type": "Unigram",
            "unk_id": self.unk_id,
            "vocab": [[p.piece, p.score] for p in self.pieces],
            "byte_fallback": self.byte_fallback,
        }


class SentencePieceBPE(_SentencePieceModel):
    """SentencePiece's BPE: merge the adjacent pair whose merged piece scores highest.

    >>> m = SentencePieceBPE([Piece("<unk>", 0, UNKNOWN), Piece("ab", 0), Piece("bc", -1), Piece("a", -2),
    ...                       Piece("b", -3), Piece("c", -4)])
    >>> [t.value for t in m.tokenize("abc")]
    ['ab', 'c']
    """

    def _word_ids_of(self, word: str) -> tuple[tuple[int, ...], float]:
        """Ids of one word: on a short word with no user-defined or unused pieces in the
        model, a scan of all pairs (the heap's order: best score, then leftmost)."""
        table = self.__dict__.get("_pair_table")
        if table is None:
            simple = not any(p.type in (USER_DEFINED, UNUSED) for p in self.pieces)
            table = self._pair_table = (
                {t: -self.pieces[i].score for t, i in self._matchable.items()} if simple else False
            )
        if table is False or len(word) > _SHORT_WORD:
            return super()._word_ids_of(word)
        symbols = list(word)
        get = table.get
        found = list(map(get, map(str.__add__, symbols, symbols[1:]), _NO_PAIRS[: len(symbols) - 1]))
        while found:
            best = min(found)  # subtle: by score alone; equal scores go to the leftmost pair
            if best == _NO_PAIR:
                break
            at = found.index(best)
            symbols[at : at + 2] = (symbols[at] + symbols[at + 1],)
            del found[at]
            if at < len(found):
                found[at] = get(symbols[at] + symbols[at + 1], _NO_PAIR)
            if at > 0:
                found[at - 1] = get(symbols[at - 1] + symbols[at], _NO_PAIR)
        matchable, unk = self._matchable, self.unk_id
        segments = []
        start = 0
        for sym in symbols:
            end = start + len(sym)
            segments.append((start, end, matchable.get(sym, unk)))
            start = end
        return self._ids(word, segments), math.inf

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]``: the words not cached yet are merged first,
        all in one call of the compiled merge, and cached.

        >>> m = SentencePieceBPE([Piece("<unk>", 0, UNKNOWN), Piece("ab", 0), Piece("a", -2), Piece("b", -3)])
        >>> m.tokenize_ids_batch(["ab▁ab", "a"])
        [[1, 1], [2]]
        """
        apart = self.__dict__.get("_words_apart")
        if apart is None:
            apart = self._words_apart = not any(SPACE in p[1:] for p in self._matchable)
        if self._compiled() is None or not apart:
            return [self.tokenize_ids(p) for p in pieces]
        cache = self.__dict__.get("_word_ids")
        if cache is None:
            cache = self._word_ids = {}
        # 1. every sentence cut before each ▁ (as tokenize_ids does; a sentence of one word is
        #    that word), and the words not cached yet merged in one call
        split = list(map(_WORDS.findall, pieces))
        everything = dict.fromkeys(itertools.chain.from_iterable(split))
        new = [w for w in everything if w not in cache]
        if len(cache) + len(new) >= _WORD_CACHE_LIMIT:
            cache.clear()
            new = list(everything)
        if new:
            cache.update(zip(new, self._words_ids(new)))
        # 2. each sentence's ids from the cache (BPE adds no scores across words: no gap check)
        first_ids = operator.itemgetter(0)
        out = []
        fuse, unk = not self.byte_fallback, self.unk_id
        for piece, words in zip(pieces, split):
            ids = list(itertools.chain.from_iterable(map(first_ids, map(cache.__getitem__, words))))
            if fuse and unk in ids:
                ids = self.tokenize_ids(piece)  # unknown runs fuse across words: the sentence's way
            out.append(ids)
        return out

    def _words_ids(self, words: list[str]) -> list[tuple[tuple[int, ...], float]]:
        """:meth:`_word_ids_of` of each word, those of known characters merged in one compiled call."""
        import numpy as np

        from core.models.bpe.kernels import codepoints, merge_flat, split_flat

        char_ids, table, closed = self._compiled()
        codes, bounds = codepoints(words)
        known = char_ids[np.minimum(codes, len(char_ids) - 1)]
        known[codes >= len(char_ids)] = -1
        ids, first, out_bounds = merge_flat(known, bounds, table)  # (-1 is in no pair: it stays)
        # subtle: the ids as lists sliced from one ``tolist`` (a tuple made of each word's array
        # slice cost as much as the merge); no reader of the cache changes them
        found: list = list(zip(split_flat(ids, out_bounds), itertools.repeat(math.inf)))
        unknown = np.flatnonzero(np.minimum.reduceat(known, bounds[:-1]) < 0).tolist() if words else []
        for k in unknown:  # an unknown character: bytes or <unk>
            if closed:
                a, b = out_bounds[k], out_bounds[k + 1]
                found[k] = (self._ids(words[k], self._segments(words[k], ids[a:b], first[a:b])), math.inf)
            else:
                found[k] = self._word_ids_of(words[k])  # it may be inside a piece: the Python merge
        return found

    def _segments(self, s: str, ids, first) -> list[tuple[int, int, int]]:
        """The compiled merge's tokens of ``s`` as ``(start, end, id)``; an unknown character
        (id -1, never merged) gets the id SentencePiece looks up for it (usually ``<unk>``)."""
        starts = first.tolist()
        out = list(zip(starts, starts[1:] + [len(s)], ids.tolist()))
        return [(a, b, id if id >= 0 else self.piece_to_id(s[a:b])) for a, b, id in out]

    def _compiled(self):
        """``(code point -> id array, PairTable, closed)`` for the compiled merge, or None when the model has
        user-defined or unused pieces (frozen pieces and splitting back need the Python merge).

        A pair's rank is the place of its merged piece's score among the distinct scores,
        best first: equal scores share a rank, so the leftmost pair wins, as in SentencePiece.
        """
        compiled = self.__dict__.get("_compiled_tables")
        if compiled is None:
            compiled = False
            if not any(p.type in (USER_DEFINED, UNUSED) for p in self.pieces):
                import numpy as np

                from core.models.bpe.kernels import PairTable

                matchable = self._matchable
                place = {score: r for r, score in enumerate(sorted({-p.score for p in self.pieces}))}
                pairs = {}
                for piece, id in matchable.items():
                    rank = place[-self.pieces[id].score]
                    for k in range(1, len(piece)):
                        left, right = matchable.get(piece[:k]), matchable.get(piece[k:])
                        if left is not None and right is not None:
                            pairs[(left, right)] = (rank, id)
                # character -> id as an array indexed by code point (-1: not a piece)
                chars = {ord(piece): id for piece, id in matchable.items() if len(piece) == 1}
                char_ids = np.full(max(chars, default=0) + 1, -1, np.int64)
                char_ids[list(chars)] = list(chars.values())
                # subtle: when every character of every piece is a piece itself, a character
                # that is not can never be merged, so words holding one merge compiled too
                closed = all(len(piece) == 1 or all(ord(c) in chars for c in piece) for piece in matchable)
                compiled = (char_ids, PairTable.build(pairs), closed)
            self._compiled_tables = compiled
        return compiled or None

    def __getstate__(self) -> dict:
        """Pickle without the compiled merge's tables (rebuilt on first use)."""
        state = dict(self.__dict__)
        state.pop("_compiled_tables", None)
        return state

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        compiled = self._compiled() if len(s) > _SHORT_SEGMENT else None
        if compiled is not None:
            import numpy as np

            from core.models.bpe.kernels import codepoints, merge_flat

            char_ids, table, closed = compiled
            codes, bounds = codepoints([s])
            known = char_ids[np.minimum(codes, len(char_ids) - 1)]
            known[codes >= len(char_ids)] = -1
            if closed or not len(codes) or known.min() >= 0:
                # the compiled merge, linear in length (unknown characters stay single)
                ids, first, _ = merge_flat(known, bounds, table)
                return self._segments(s, ids, first)
        # 1. characters, user-defined pieces kept whole and frozen
        starts: list[int] = []
        ends: list[int] = []
        frozen: list[bool] = []
        i = 0
        n = len(s)
        matcher = _PrefixMatcher(self.user_defined) if self.user_defined else None
        while i < n:
            k = matcher.match(s, i) if matcher else 0
            starts.append(i)
            ends.append(i + (k or 1))
            frozen.append(bool(k))
            i += k or 1
        m = len(starts)
        prev = list(range(-1, m - 1))
        nxt = list(range(1, m + 1))
        if m:
            nxt[-1] = -1
        alive = [True] * m
        matchable = self._matchable
        pieces = self.pieces
        rev_merge: dict[str, tuple[str, str]] = {}
        heap: list[tuple[float, int, int, int]] = []

        def add_pair(left: int, right: int) -> None:
            if left == -1 or right == -1 or frozen[left] or frozen[right]:
                return
            text = s[starts[left] : ends[right]]
            id = matchable.get(text)
            if id is None:
                return
            # max-heap on score, then the leftmost pair
            heapq.heappush(heap, (-pieces[id].score, left, right, ends[right] - starts[left]))
            if pieces[id].type == UNUSED:
                rev_merge[text] = (s[starts[left] : ends[left]], s[starts[right] : ends[right]])

        for i in range(1, m):
            add_pair(i - 1, i)
        # 2. merge the best pair until none is left; stale entries are skipped
        while heap:
            _, left, right, size = heapq.heappop(heap)
            if (
                not alive[left]
                or not alive[right]
                or nxt[left] != right
                or ends[right] - starts[left] != size
            ):
                continue
            ends[left] = ends[right]
            alive[right] = False
            nxt[left] = nxt[right]
            if nxt[right] != -1:
                prev[nxt[right]] = left
            add_pair(prev[left], left)
            add_pair(left, nxt[left])
        # 3. unused pieces are split back into what they were merged from
        out: list[tuple[int, int, int]] = []

        def resegment(start: int, end: int) -> None:
            text = s[start:end]
            id = self.piece_to_id(text)
            if pieces[id].type != UNUSED or text not in rev_merge:
                out.append((start, end, id))
                return
            left, _ = rev_merge[text]
            resegment(start, start + len(left))
            resegment(start + len(left), end)

        i = 0 if m else -1
        while i != -1:
            resegment(starts[i], ends[i])
            i = nxt[i]
        return out

    def merges(self) -> list[tuple[str, str]]:
        """Ranked merges derived from the scores, as `tokenizers`' SentencePiece converter does:
        every split of a piece into two pieces, ordered by the merged piece's score (best first)."""
        vocab = {p.piece: i for i, p in enumerate(self.pieces) if p.type in (NORMAL, USER_DEFINED, UNUSED)}
        found = []
        for piece, pid in vocab.items():
            for k in range(1, len(piece)):
                left, right = piece[:k], piece[k:]
                if left in vocab and right in vocab:
                    found.append((-self.pieces[pid].score, pid, vocab[left], vocab[right], left, right))
        found.sort()
        return [(f[4], f[5]) for f in found]

    def to_dict(self) -> dict:
        return {
            "type": "BPE",
            "dropout": None,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": True,
            "byte_fallback": self.byte_fallback,
            "ignore_merges": False,
            "vocab": dict(self._vocab),
            "merges": [[a, b] for a, b in self.merges()],
        }


# -- decoding ------------------------------------------------------------------------------------


class SentencePieceChar(_SentencePieceModel):
    """SentencePiece's ``char`` model: each character is a piece (a user-defined piece that
    starts here, the longest, is one piece instead).

    >>> m = SentencePieceChar([Piece("<unk>", 0, UNKNOWN), Piece("▁", -1), Piece("a", -2)])
    >>> [t.value for t in m.tokenize("▁ab")]
    ['▁', 'a', '<unk>']
    """

    def __init__(self, pieces: list[Piece], byte_fallback: bool = False):
        super().__init__(pieces, byte_fallback)
        self._user = sorted(self.user_defined, key=len, reverse=True)

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        out = []
        i = 0
        while i < len(s):
            n = next((len(u) for u in self._user if s.startswith(u, i)), 1)
            out.append((i, i + n, self.piece_to_id(s[i : i + n])))
            i += n
        return out

    def to_dict(self) -> dict:
        return _word_level_dict(self)


class SentencePieceWord(_SentencePieceModel):
    """SentencePiece's ``word`` model: the sentence is cut before every ``▁`` and each word
    is one piece or unknown.

    >>> m = SentencePieceWord([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1)])
    >>> [t.value for t in m.tokenize("▁a▁b")]
    ['▁a', '<unk>']
    """

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        starts = [0] + [i for i, c in enumerate(s) if c == SPACE and i > 0]
        ends = starts[1:] + [len(s)]
        return [(a, b, self.piece_to_id(s[a:b])) for a, b in zip(starts, ends) if b > a]

    def to_dict(self) -> dict:
        return _word_level_dict(self)


def _word_level_dict(model: _SentencePieceModel) -> dict:
    """A char or word model as `tokenizers`' nearest model: a WordLevel vocabulary."""
    return {"type": "WordLevel", "vocab": model.get_vocab(), "unk_token": model.unk_token}


class SentencePieceDecoder:
    """Pieces back to text as ``SentencePieceProcessor.decode`` does.

    Control pieces vanish, ``<unk>`` shows as ``" ⁇ "``, runs of byte pieces are
    read as UTF-8 (a byte that starts no valid character becomes U+FFFD), ``▁`` is
    a space. At the start (no text yet, no ``▁`` dropped yet) one leading ``▁`` is
    dropped, the space ``add_dummy_prefix`` added; with ``remove_extra_whitespaces``
    (``drop_leading_spaces``) every piece's leading ``▁`` is, until text appears.

    >>> SentencePieceDecoder({"<s>"}, "<unk>").decode(["<s>", "▁철수", "<0xEB>", "<0x8A>", "<0x94>", "<unk>"])
    '철수는 ⁇ '
    >>> SentencePieceDecoder(set()).decode(["▁", "▁x"])      # the lone ▁ was the added space
    ' x'
    """

    def __init__(
        self,
        control: set[str],
        unk_piece: str = "<unk>",
        unk_surface: str = " \u2047 ",
        drop_first_space: bool = True,
        drop_leading_spaces: bool = False,
    ):
        self.control = set(control)
        self.unk_piece = unk_piece
        self.unk_surface = unk_surface
        self.drop_first_space = drop_first_space
        self.drop_leading_spaces = drop_leading_spaces

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()
        text_so_far = False
        at_start = self.drop_first_space  # SentencePiece's is_bos_ws: a leading ▁ may still go
        dropped = False  # the piece before dropped its ▁

        def flush() -> None:
            nonlocal text_so_far
            i = 0
            while i < len(pending):
                for size in (1, 2, 3, 4):
                    try:
                        c = bytes(pending[i : i + size]).decode("utf-8")
                    except UnicodeDecodeError:
                        continue
                    if len(c) == 1:
                        out.append(c)
                        i += size
                        break
                else:
                    out.append("\ufffd")
                    i += 1
                text_so_far = True
            pending.clear()

        for t in tokens:
            if len(t) == 6 and t.startswith("<0x") and t.endswith(">"):
                try:
                    pending.append(int(t[3:5], 16))
                    continue
                except ValueError:
                    pass
            flush()
            # subtle: as sentencepiece_processor.cc, the start ends at the first text or once
            # one ▁ was dropped (a lone "▁" piece first is the added space, and the next
            # piece's ▁ a real one); removing extra whitespace drops them all
            at_start = at_start and not (dropped or text_so_far)
            dropped = False
            if t in self.control:
                continue
            if t == self.unk_piece:
                surface = self.unk_surface
            else:
                if at_start and t.startswith(SPACE):
                    t = t[len(SPACE) :]
                    dropped = not self.drop_leading_spaces
                surface = t.replace(SPACE, " ")
            out.append(surface)
            text_so_far = text_so_far or bool(surface)
        flush()
        return out

    def decode(self, tokens: list[str]) -> str:
        return "".join(self.decode_chain(tokens))

    def to_dict(self) -> dict:
        """What `tokenizers`' SentencePiece converters write (control pieces and ``<unk>`` differ)."""
        parts = [
            {"type": "Replace", "pattern": {"String": SPACE}, "content": " "},
            {"type": "ByteFallback"},
            {"type": "Fuse"},
        ]
        if self.drop_first_space:
            parts.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
        return {"type": "Sequence", "decoders": parts}


# -- building the tokenizer -----------------------------------------------------------------


def tokenizer_from_proto(proto: ModelProto):
    """The Tokenizer pipeline of a parsed model (normalizer + SentencePiece model + decoder)."""
    from core.tokenizer import Tokenizer

    t, ns = proto.trainer_spec, proto.normalizer_spec
    cls = {"bpe": SentencePieceBPE, "char": SentencePieceChar, "word": SentencePieceWord}.get(
        t.model_type, SentencePieceUnigram
    )
    model = cls(proto.pieces, byte_fallback=t.byte_fallback)
    normalizer = SentencePieceNormalizer(
        ns.precompiled_charsmap,
        add_dummy_prefix=ns.add_dummy_prefix,
        remove_extra_whitespaces=ns.remove_extra_whitespaces,
        escape_whitespaces=ns.escape_whitespaces,
        treat_whitespace_as_suffix=t.treat_whitespace_as_suffix,
        user_defined=model.user_defined,
        name=ns.name,
    )
    # subtle: control and user-defined pieces are NOT Tokenizer added tokens: those are cut
    # out of the raw text before normalization, but SentencePiece never matches control
    # pieces in text and matches user-defined ones inside the normalized sentence.
    decoder = SentencePieceDecoder(
        {p.piece for p in proto.pieces if p.type == CONTROL},
        model.unk_token,
        t.unk_surface,
        drop_first_space=ns.add_dummy_prefix or ns.remove_extra_whitespaces,
        drop_leading_spaces=ns.remove_extra_whitespaces,
    )
    tok = Tokenizer(model, normalizer=normalizer, pre_tokenizer=None, decoder=decoder)
    tok.extra["sentencepiece"] = {
        "model_type": t.model_type,
        "normalizer": ns.name or "identity",
        "byte_fallback": t.byte_fallback,
        "special_ids": {"unk": t.unk_id, "bos": t.bos_id, "eos": t.eos_id, "pad": t.pad_id},
        "piece_types": {
            PIECE_TYPE_NAMES[k]: sum(p.type == k for p in proto.pieces) for k in PIECE_TYPE_NAMES
        },
    }
    return tok


def load_sentencepiece(path: str | Path):
    """A ``.model`` file as a Tokenizer; FormatError naming the file if it is not one."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FormatError(f"{path}: cannot read ({e.strerror or e})") from None
    tok = tokenizer_from_proto(parse_model_proto(data, str(path)))
    tok.extra["sentencepiece_model"] = data  # the exact original, kept by the project save
    tok.extra["source"] = str(path)
    return tok


def read_vocab_file(path: str | Path) -> tuple[list[Piece], list[str]]:
    """A ``.vocab`` file (``piece<TAB>score`` per line) as pieces, plus warnings.

    The file has no piece types: ``<unk>`` (or the first ``<...unk...>``) is the
    unknown piece, ``<s>``, ``</s>``, ``<pad>`` are control pieces and ``<0xXX>``
    byte pieces.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise FormatError(f"{path}: cannot read ({e.strerror or e})") from None
    if b"\x00" in raw:
        raise FormatError(f"{path}: a binary file, not a SentencePiece .vocab text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError(f"{path}: not UTF-8 text (byte {e.start})") from None
    pieces: list[Piece] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) != 2:
            raise FormatError(f"{path}: line {lineno} is not 'piece<TAB>score'")
        try:
            score = float(parts[1])
        except ValueError:
            raise FormatError(f"{path}: line {lineno}: score {parts[1]!r} is not a number") from None
        if not math.isfinite(score):
            raise FormatError(f"{path}: line {lineno}: score {parts[1]!r} is not finite")
        if parts[0] in seen:
            raise FormatError(
                f"{path}: piece {parts[0]!r} appears twice (lines {seen[parts[0]]} and {lineno})"
            )
        seen[parts[0]] = lineno
        pieces.append(Piece(parts[0], f32(score)))
    if not pieces:
        raise FormatError(f"{path}: empty .vocab file")
    warnings = []
    unk = next((i for i, p in enumerate(pieces) if p.piece == "<unk>"), None)
    if unk is None:
        unk = next(
            (i for i, p in enumerate(pieces) if "unk" in p.piece.lower() and p.piece.startswith("<")), None
        )
    if unk is None:
        raise FormatError(f"{path}: no unknown piece (<unk>) in the .vocab file")
    for i, p in enumerate(pieces):
        if i == unk:
            p.type = UNKNOWN
        elif p.piece in ("<s>", "</s>", "<pad>"):
            p.type = CONTROL
        elif len(p.piece) == 6 and p.piece.startswith("<0x") and p.piece.endswith(">"):
            p.type = BYTE
    warnings.append(
        f"{path.name}: a .vocab file has no normalization rules; text is only whitespace-normalized "
        "(load the .model file for exact SentencePiece encoding)"
    )
    return pieces, warnings


def load_sentencepiece_vocab(path: str | Path):
    """A ``.vocab`` file as a Tokenizer, plus warnings about what the file cannot say.

    Model type guess: BPE vocabularies score pieces 0, -1, -2, ... (whole numbers);
    unigram scores are log-probabilities.
    """
    pieces, warnings = read_vocab_file(path)
    normal = [p.score for p in pieces if p.type == NORMAL]
    is_bpe = bool(normal) and all(float(s).is_integer() for s in normal)
    byte_fallback = sum(p.type == BYTE for p in pieces) == 256
    trainer = TrainerSpec(model_type="bpe" if is_bpe else "unigram", byte_fallback=byte_fallback)
    warnings.append(f"{Path(path).name}: model type guessed from the scores: {trainer.model_type}")
    return tokenizer_from_proto(ModelProto(pieces, trainer, NormalizerSpec(name="identity"))), warnings


# -- writing --------------------------------------------------------------------------------


def model_proto_bytes(proto: ModelProto) -> bytes:
    """Serialize a :class:`ModelProto` (the fields this module reads)."""
    out = bytearray()
    for p in proto.pieces:
        out += pb_field(1, pb_field(1, p.piece) + pb_field(2, float(p.score)) + pb_field(3, p.type))
    t = proto.trainer_spec
    trainer = (
        pb_field(3, {"unigram": 1, "bpe": 2}[t.model_type])
        + pb_field(4, t.vocab_size)
        + pb_field(24, t.treat_whitespace_as_suffix)
        + pb_field(35, t.byte_fallback)
        + pb_field(40, t.unk_id)
        + pb_field(41, t.bos_id)
        + pb_field(42, t.eos_id)
        + pb_field(43, t.pad_id)
        + pb_field(45, t.unk_piece)
        + pb_field(46, t.bos_piece)
        + pb_field(47, t.eos_piece)
        + pb_field(48, t.pad_piece)
    )
    out += pb_field(2, trainer)
    n = proto.normalizer_spec
    normalizer = pb_field(1, n.name or "identity")
    if n.precompiled_charsmap:
        normalizer += pb_field(2, n.precompiled_charsmap)
    normalizer += (
        pb_field(3, n.add_dummy_prefix)
        + pb_field(4, n.remove_extra_whitespaces)
        + pb_field(5, n.escape_whitespaces)
    )
    out += pb_field(3, normalizer)
    return bytes(out)


def proto_from_tokenizer(tok) -> tuple[ModelProto, list[str]]:
    """The ModelProto closest to ``tok`` and what it loses; ConfigError if SentencePiece cannot hold it."""
    from core.errors import ConfigError
    from core.pre_tokenizers import Metaspace

    extra = getattr(tok, "extra", {}) or {}
    if "sentencepiece_model" in extra:
        return parse_model_proto(extra["sentencepiece_model"]), []
    d = tok.model.to_dict()
    kind = d.get("type")
    if kind not in ("Unigram", "BPE"):
        raise ConfigError(f"a SentencePiece model is unigram or BPE; this tokenizer's model is {kind}")
    pre = tok.pre_tokenizer
    if not isinstance(pre, Metaspace) or pre.replacement != SPACE:
        raise ConfigError(
            "SentencePiece marks words with '▁': only a tokenizer with the metaspace "
            f"pre-tokenizer can be saved as .model (this one uses {type(pre).__name__})"
        )
    losses: list[str] = []
    special = {t.content for t in tok.added_tokens if t.special}
    user_defined = {t.content for t in tok.added_tokens if not t.special}
    # 1. pieces with scores, in id order
    if kind == "Unigram":
        entries = [(piece, float(score)) for piece, score in d["vocab"]]
        unk_id = d.get("unk_id")
    else:
        if d.get("continuing_subword_prefix") or d.get("end_of_word_suffix"):
            raise ConfigError("SentencePiece BPE has no continuing-subword prefix or end-of-word suffix")
        vocab = d["vocab"]
        by_id = sorted(vocab.items(), key=lambda kv: kv[1])
        if [i for _, i in by_id] != list(range(len(by_id))):
            raise ConfigError("a .model needs ids 0..n-1 without gaps")
        merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in d.get("merges", [])]
        made_at: dict[str, int] = {}
        for rank, (a, b) in enumerate(merges):
            made_at.setdefault(a + b, rank)
        # subtle: SentencePiece merges the pair whose merged piece scores highest, so a piece
        # made by merge r scores -r; pieces no merge makes (characters, specials) score below all.
        entries = [
            (token, float(-made_at[token]) if token in made_at else float(-len(merges) - i))
            for token, i in by_id
        ]
        unk = d.get("unk_token")
        unk_id = vocab.get(unk) if unk else None
        losses.append(
            "SentencePiece BPE joins any adjacent pair that forms a piece (highest score first), "
            "not only the listed merges: rare words may split differently"
        )
    if unk_id is None:
        entries.append(("<unk>", 0.0))
        unk_id = len(entries) - 1
        losses.append(f"a .model needs an unknown piece: added <unk> as id {unk_id}")
    byte_pieces = {f"<0x{b:02X}>" for b in range(256)}
    have_bytes = sum(piece in byte_pieces for piece, _ in entries) == 256
    byte_fallback = bool(d.get("byte_fallback")) and have_bytes
    pieces = []
    for i, (piece, score) in enumerate(entries):
        if i == unk_id:
            kind_ = UNKNOWN
        elif piece in special:
            kind_ = CONTROL
        elif piece in user_defined:
            kind_ = USER_DEFINED
        elif byte_fallback and piece in byte_pieces:
            kind_ = BYTE
        else:
            kind_ = NORMAL
        pieces.append(Piece(piece, score, kind_))
    if special:
        losses.append("special tokens become control pieces: SentencePiece never matches them in text")
    if pre.prepend_scheme != "never":
        losses.append(
            "text that starts with a space gets one more '▁' in SentencePiece (it always adds its "
            "dummy prefix; the metaspace pre-tokenizer adds one only when none is there)"
        )
    if kind == "Unigram":
        losses.append("Viterbi ties (equal-score segmentations) may break differently in SentencePiece")
    # 2. the pipeline around the model
    charsmap = b""
    from core.precompiled import PrecompiledNormalizer

    if isinstance(tok.normalizer, PrecompiledNormalizer):
        charsmap = tok.normalizer.charsmap
    elif tok.normalizer is not None:
        losses.append(
            f"SentencePiece stores normalization as a precompiled charsmap: the "
            f"{type(tok.normalizer).__name__} normalizer is lost (saved as identity)"
        )
    if tok.decoder is not None and type(tok.decoder).__name__ not in ("Metaspace", "Sequence"):
        losses.append(f"the {type(tok.decoder).__name__} decoder is lost (SentencePiece decodes its own way)")
    ids = {p.piece: i for i, p in enumerate(pieces)}

    def control_id(name: str) -> int:
        i = ids.get(name)
        return i if i is not None and pieces[i].type == CONTROL else -1

    trainer = TrainerSpec(
        model_type="unigram" if kind == "Unigram" else "bpe",
        vocab_size=len(pieces),
        byte_fallback=byte_fallback,
        unk_id=unk_id,
        bos_id=control_id("<s>"),
        eos_id=control_id("</s>"),
        pad_id=control_id("<pad>"),
        unk_piece=pieces[unk_id].piece,
    )
    normalizer = NormalizerSpec(
        name="identity" if not charsmap else "user_defined",
        precompiled_charsmap=charsmap,
        add_dummy_prefix=pre.prepend_scheme != "never",
        remove_extra_whitespaces=False,  # the metaspace pipeline keeps every space
        escape_whitespaces=True,
    )
    return ModelProto(pieces, trainer, normalizer), losses


def save_sentencepiece(tok, path: str | Path) -> list[str]:
    """Write ``tok`` as a SentencePiece ``.model`` atomically; returns what the file cannot hold."""

    proto, losses = proto_from_tokenizer(tok)
    extra = getattr(tok, "extra", {}) or {}
    data = extra.get("sentencepiece_model") or model_proto_bytes(proto)
    path = Path(path)
    write_atomic(path, data)
    return losses


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    from core.formats.common import one_file

    return one_file(folder, "*.model")


def sniff(head) -> bool:
    """A binary file whose first byte opens field 1, length-delimited: a ModelProto's first piece."""
    return head.binary and head.data[:1] == b"\x0a"


def open_file(path: Path, pattern: str | None = None):
    """``pattern`` is unused: the model stores its normalizer and splitting rules."""
    from core.formats.common import LoadedTokenizer

    return LoadedTokenizer(load_sentencepiece(path), "sentencepiece", path, [])


def save_file(tok, path: Path, record=None) -> list[str]:
    from core.formats.common import file_in

    return save_sentencepiece(tok, file_in(path, "tokenizer.model"))
