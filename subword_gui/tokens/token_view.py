"""Token spans drawn in colour: over the editor's text, and as a strip of chips.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> tokenizer = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=14)))
    >>> line = segment_line(tokenizer, "hug pug")
    >>> [line.text[s:e] for s, e in line.encoding.offsets]
    ['hug', 'pug']

Three pieces:

- :func:`segment_line` encodes one line and decides each token's look
  (palette key, unknown, special) and which characters no token covers;
  :class:`LineCache` keeps the results per line text, and encodes a long line
  in chunks cut at single spaces (:func:`chunk_bounds`, only for pipelines
  where that gives exactly the whole line's encoding), so an edit re-encodes
  a few words;
- :class:`TokenHighlighter` colours a ``QTextDocument`` line by line from those,
  re-encoding only lines whose text changed (an edit touches one block); a line
  of ``LONG_LINE`` characters or more is left to the panel, which encodes it off
  the GUI thread and colours only the part in view (:func:`span_formats` over a
  token range);
- :class:`TokenStrip` paints tokens as chips (visible rendering and id), wraps
  them like text, and answers hover and clicks; the Compare panel reuses it
  with its own colours and boundary marks.

subtle: each line (text block) is encoded on its own, as corpus lines are when
training, so a newline is never part of a token.

Leaves out: right-to-left layout of chips, and colouring text larger than
a few hundred thousand characters (every line stays in the cache).
"""

from __future__ import annotations

import bisect
import html
import re
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field

import regex
from PySide6.QtCore import QCoreApplication, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
    QPixmapCache,
    QSyntaxHighlighter,
    QTextCharFormat,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from core.encoding import Encoding
from core.hangul import decompose_syllable, is_conjoining_jamo, is_syllable, to_compatibility
from core.stats import EncodingStats, stats_of_encodings, unknown_id, unknown_mask
from core.text import NormalizedString
from subword_gui.style import theme
from subword_gui.tokens import palette
from subword_gui.tokens.cut_reuse import cut_bound, merge_tables, same_pipeline, valid_span
from subword_gui.tokens.render import (
    PART_COLOURS,
    TokenStyle,
    render_html,
    render_parts_cached,
    render_token,
    spans_a_space,
    style_for,
    token_bytes,
)

_LINE_CACHE_LIMIT = 20_000
_GRAPHEME = regex.compile(r"\X")
# Characters that join the one before them into a grapheme cluster (accents, emoji modifiers
# and joiners, variation selectors, Hangul jamo, flags): without any, every cluster is one
# code point and no token boundary can cut one (the common case, checked at C speed).
_JOINS_CLUSTER = regex.compile(
    r"[\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}\p{GCB=Prepend}\p{GCB=Regional_Indicator}"
    r"\p{GCB=L}\p{GCB=V}\p{GCB=T}]"
)


def joins_clusters(text: str) -> bool:
    """Whether ``text`` has a character that joins the one before it into a grapheme cluster
    (an accent, an emoji modifier or joiner, a conjoining jamo): text Qt must shape.

    >>> joins_clusters("정말 hello"), joins_clusters("👋🏽")
    (False, True)
    """
    return not text.isascii() and _JOINS_CLUSTER.search(text) is not None


_CHIPS_KEPT = 200_000  # chip looks kept across tokenizers at most
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")  # two UTF-16 units each in Qt
# subtle: at this length a line is no longer highlighted as a whole: formats on every token
# of a 100,000-character word make Qt lay out tens of thousands of format ranges on each
# keystroke (about a second), so such a line is coloured only where it is in view.
LONG_LINE = 3000
LONG_LINES_KEPT = 4  # long lines cached at most (50 k tokens each: typing in one makes a new one per key)


@dataclass(slots=True)
class LineTokens:
    """One line's encoding and how to draw it."""

    text: str
    encoding: Encoding
    keys: list[tuple[int, int]]  # palette (hue, shade) per token
    unknown: list[bool]
    special: list[bool]
    dropped: list[int] = field(default_factory=list)  # characters no token covers (whitespace left out)
    # subtle: Qt counts UTF-16 code units, Python code points; an emoji is 2 in Qt and 1 here.
    # ``_qt[i]`` is Qt's position of character ``i`` (None when the line is all BMP).
    _qt: list[int] | None = None
    chips: list | None = None  # this line's Chips, built once (see chips_for_lines)
    runs: list | None = None  # this line's (start, length, format) in Qt positions, built once
    stats: tuple | None = None  # (EncodingStats of this line alone, its set of ids): see line_stats
    valid: tuple[int, int] | None = None  # the cuts it is the encoding under (see LineCache._carried)
    _starts: list[int] | None = None  # each token's start, for bisection (built on first use)

    def __post_init__(self) -> None:
        if _BEYOND_BMP.search(self.text):
            qt, n = [], 0
            for c in self.text:
                qt.append(n)
                n += 2 if ord(c) > 0xFFFF else 1
            qt.append(n)
            self._qt = qt

    def to_qt(self, pos: int) -> int:
        """Python character index -> Qt (UTF-16) position in the block."""
        return pos if self._qt is None else self._qt[min(pos, len(self._qt) - 1)]

    def from_qt(self, pos: int) -> int:
        """Qt (UTF-16) position in the block -> Python character index."""
        if self._qt is None:
            return pos
        return bisect.bisect_right(self._qt, pos) - 1

    def starts(self) -> list[int]:
        """Each token's first character (in order; built once, for bisection)."""
        if self._starts is None:
            self._starts = [s for s, _ in self.encoding.offsets]
        return self._starts

    def covering(self, pos: int) -> list[int]:
        """Indexes of the tokens covering character ``pos``, in order: one, or several when
        byte-level pieces share a character; found by bisection (a long line has 50 k tokens).

        >>> from core.events import drain
        >>> from core.options import TrainOptions
        >>> from core.training import train_from_counts
        >>> options = TrainOptions("bytelevel-bpe", vocab_size=260)
        >>> bytelevel_bpe = drain(train_from_counts({"한국": 3, "hug": 2}, options))
        >>> line = segment_line(bytelevel_bpe, "a한")     # 한 is three byte tokens
        >>> line.encoding.tokens, line.encoding.offsets
        (['a', 'í', 'ķ', 'ľ'], [(0, 1), (1, 1), (1, 1), (1, 2)])
        >>> line.covering(0), line.covering(1)           # the engine spans a character's last byte
        ([0], [3])
        """
        offsets = self.encoding.offsets
        j = bisect.bisect_right(self.starts(), pos) - 1
        found = []
        # subtle: spans are in order and never nest; only pieces of one character share a
        # span, so the walk back stops at the first non-empty token that ends before ``pos``
        while j >= 0:
            s, e = offsets[j]
            if s <= pos < e:
                found.append(j)
            elif e > s:
                break
            j -= 1
        found.reverse()
        return found

    def token_at(self, pos: int) -> int | None:
        """Index of the token covering character ``pos`` (the first one if several share it)."""
        found = self.covering(pos)
        return found[0] if found else None

    def tokens_between(self, start: int, end: int) -> range:
        """Indexes of the tokens that start before ``end`` and end after ``start`` (about), for
        colouring a range in view; a few tokens more at either side do no harm."""
        starts = self.starts()
        first = max(0, bisect.bisect_right(starts, start) - 2)
        last = bisect.bisect_left(starts, end)
        return range(first, last)


def line_stats(tokenizer, line: LineTokens) -> tuple:
    """This line's counts (``core.stats``) and its set of ids, kept on the line: the panel's
    counts add the lines up, so a keystroke counts one line again, not all of them."""
    if line.stats is None:
        line.stats = (stats_of_encodings(tokenizer, [(line.text, line.encoding)]), set(line.encoding.ids))
    return line.stats


def stats_of_lines(tokenizer, lines: list[LineTokens]) -> EncodingStats:
    """:func:`core.stats.stats_of_encodings` over ``lines``, from each line's kept counts."""
    tokens = words = characters = unknown = 0
    distinct: set[int] = set()
    for line in lines:
        one, ids = line_stats(tokenizer, line)
        tokens += one.tokens
        words += one.words
        characters += one.characters
        unknown += one.unknown
        distinct |= ids
    return EncodingStats(len(lines), tokens, words, characters, unknown, len(distinct), tokenizer.vocab_size)


def segment_line(tokenizer, text: str, unk_id: int | None = None, encoded=None) -> LineTokens:
    """Encode ``text`` and work out each token's look (see :class:`LineTokens`).
    ``encoded`` = ``(encoding, dropped)`` when the caller already has them (chunked lines)."""
    enc, dropped = encoded if encoded is not None else (None, None)
    if enc is None:
        enc = tokenizer.encode(text)
        dropped = dropped_characters(tokenizer, text, enc)
    if unk_id is None:
        unk_id = unknown_id(tokenizer)
    return LineTokens(
        text=text,
        encoding=enc,
        keys=palette.colour_keys(enc.ids),
        unknown=unknown_mask(enc, unk_id),
        special=[bool(m) for m in enc.special_tokens_mask],
        dropped=dropped,
    )


# Pipeline stages under which text may be cut at a single space between two words
# and encoded piece by piece with exactly the same result (checked by a test).
_CHUNK_SAFE_PRE_TOKENIZERS = {
    "Whitespace",
    "WhitespaceSplit",
    "BertPreTokenizer",
    "GPT2Split",
    "ByteLevel",
    "Metaspace",
}
_CHUNK_SAFE_NORMALIZERS = {
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "Lowercase",
    "StripAccents",
    "BertNormalizer",
    "Jamo",
}
CHUNK_MIN_LINE = 160  # shorter lines are encoded whole
_CHUNK_MAX = 400


def chunkable(tokenizer) -> bool:
    """Can long lines be encoded in chunks cut at single spaces? (Whitespace-splitting
    pre-tokenizers, character-local normalizers, no added token containing a space.)"""
    pre = tokenizer.pre_tokenizer
    if type(pre).__name__ not in _CHUNK_SAFE_PRE_TOKENIZERS:
        return False
    if getattr(pre, "use_regex", True) is False or getattr(pre, "split", True) is False:
        return False
    norm = tokenizer.normalizer
    norms = getattr(norm, "normalizers", None) if norm is not None else []
    if norms is None:
        norms = [norm]
    if any(type(n).__name__ not in _CHUNK_SAFE_NORMALIZERS for n in norms):
        return False
    return not any(any(c.isspace() for c in t.content) for t in tokenizer.added_tokens)


def chunk_bounds(text: str) -> list[tuple[int, int]]:
    """Cut ``text`` before single spaces between words, where the word before the space
    hashes to 0 mod 4 (about every fourth word), so the cuts depend on nearby text only
    and an edit leaves the other chunks, and their cached encodings, as they were.

    >>> t = "the quick brown fox jumps over"
    >>> [t[s:e] for s, e in chunk_bounds(t)]
    ['the quick brown', ' fox jumps', ' over']
    """
    bounds = []
    start = word_start = 0
    n = len(text)
    for i in range(1, n - 1):
        c = text[i]
        if c != " ":
            continue
        if not text[i - 1].isspace() and not text[i + 1].isspace():
            if (
                zlib.crc32(text[word_start:i].encode("utf-8", "surrogatepass")) & 3 == 0
                or i - start > _CHUNK_MAX
            ):
                bounds.append((start, i))
                start = i
        word_start = i + 1
    bounds.append((start, n))
    return bounds


def dropped_characters(tokenizer, text: str, enc: Encoding) -> list[int]:
    """Characters of ``text`` that no token stands for: removed by the normalizer
    (no normalized character aligns to them, e.g. an accent under BERT's
    normalizer, even inside a token's span) or covered by no token. Whitespace
    that merely separates words is left out.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> options = TrainOptions("wordpiece", vocab_size=20, normalizer="bert", pre_tokenizer="bert")
    >>> bert_wordpiece = drain(train_from_counts({"cafe": 3}, options))
    >>> enc = bert_wordpiece.encode("cafe\u0301")     # the combining acute accent is stripped
    >>> enc.tokens, enc.offsets
    (['cafe'], [(0, 4)])
    >>> dropped_characters(bert_wordpiece, "cafe\u0301", enc)
    [4]
    """
    kept = bytearray(len(text))
    for s, e in enc.offsets:
        kept[s:e] = b"\x01" * (e - s)
    if tokenizer.normalizer is not None and text:
        normalized = tokenizer.normalizer.normalize(NormalizedString.from_str(text))
        aligned = bytearray(len(text))
        for s, e in normalized.alignments:
            aligned[s:e] = b"\x01" * (e - s)
        if 0 in aligned:
            kept = bytes(a & b for a, b in zip(kept, aligned))
    return [i for i, c in enumerate(text) if not kept[i] and not c.isspace()]


class LineCache:
    """Line text -> :class:`LineTokens` for one tokenizer (emptied when it changes).

    When the tokenizer changes to another cut of the same model (the vocab-size slider),
    a line whose tokens provably stay the same keeps its :class:`LineTokens` without being
    encoded (see :mod:`subword_gui.tokens.cut_reuse`), and a line encoded again that came
    out the same keeps it too: its colours, chips and counts are not rebuilt, and the
    highlighter, handed the same formats, leaves Qt's layout of the line alone.
    """

    def __init__(self) -> None:
        self.tokenizer = None
        self.style = TokenStyle()
        self._unk_id: int | None = None
        self._lines: OrderedDict[str, LineTokens] = OrderedDict()
        self._chunks: OrderedDict[str, tuple[Encoding, list[int]]] = OrderedDict()
        self._chunkable = False
        self._long: list[str] = []  # the long lines cached, oldest first
        self.chips: dict = {}  # look -> Chip, shared by all lines (see chips_for_lines)
        # what lines may be carried over from (see set_tokenizer)
        self._previous: OrderedDict[str, LineTokens] | None = None  # under a cut sibling
        self._full = None  # the model the shown one is cut from, while it is
        self._full_lines: OrderedDict[str, LineTokens] | None = None  # encoded uncut
        self._tables: tuple | None | bool = False  # merge_tables of it; False: not worked out yet
        self._bound: int | None = None  # the shown cut's merge count (see cut_bound)
        self._earlier: list[OrderedDict[str, LineTokens]] = []  # lines of the same model, other cuts

    def set_tokenizer(self, tokenizer, full=None) -> None:
        """Encode for ``tokenizer`` from now on; ``full``, the model the slider cut it from (or
        ``tokenizer`` itself), lets lines carry over from the cut shown before and from the
        full model (see the class docstring)."""
        bound = cut_bound(tokenizer, full)
        previous, previous_bound = self._lines, self._bound
        self._previous = previous if same_pipeline(tokenizer, self.tokenizer) else None
        self._earlier = []
        if bound is None or full is not self._full:
            self._full, self._full_lines, self._tables = (full if bound is not None else None), None, False
        elif previous_bound is not None:
            self._earlier.append(previous)
        if self._full_lines is not None and self._full_lines is not previous:
            self._earlier.append(self._full_lines)
        self._bound = bound
        style = style_for(tokenizer)
        if style != self.style or len(self.chips) > _CHIPS_KEPT:
            # subtle: a chip's look is keyed by token, id, colour and flags, so chips stay
            # right across tokenizers drawn alike: each slider move (the same ids, cut)
            # reuses them rather than building a thousand again
            self.chips = {}
        self.tokenizer = tokenizer
        self.style = style
        self._unk_id = unknown_id(tokenizer) if tokenizer is not None else None
        self._chunkable = tokenizer is not None and chunkable(tokenizer)
        self._lines = OrderedDict()  # a new one: the old one may be carried from
        if bound is not None and tokenizer is full:
            self._full_lines = self._lines
        self._long.clear()
        self._chunks.clear()

    def family_tables(self) -> tuple | None:
        """:func:`merge_tables` of the model the shown one is cut from, worked out once (the
        panel asks for them on a helper thread as a model lands, before the first move)."""
        full = self._full
        if self._tables is False and full is not None:
            tables = merge_tables(full.model)
            if self._full is full:  # still the same model once worked out
                self._tables = tables
        return self._tables if self._tables is not False else None

    def _carried(self, text: str) -> LineTokens | None:
        """``text``'s tokens under an earlier cut or the full model, when provably the same
        under the shown cut; else None."""
        if not self._earlier:
            return None
        tables = self.family_tables()
        if tables is None:
            return None
        bound = self._bound
        for lines in self._earlier:
            old = lines.get(text)
            if old is None:
                continue
            if old.valid is None:
                old.valid = valid_span(old.encoding, tables)
            top, following = old.valid
            if top < bound <= following:
                return old
        return None

    def _same_as_before(self, line: LineTokens) -> LineTokens:
        """The previous tokenizer's line for the same text if its encoding is the same as
        ``line``'s (same pipeline, so the same look), else ``line``."""
        old = self._previous.get(line.text) if self._previous is not None else None
        if old is None:
            return line
        a, b = old.encoding, line.encoding
        if (
            a.ids == b.ids
            and a.offsets == b.offsets
            and a.tokens == b.tokens
            and a.word_ids == b.word_ids
            and old.unknown == line.unknown
            and old.special == line.special
        ):
            return old
        return line

    def get(self, text: str) -> LineTokens | None:
        if self.tokenizer is None:
            return None
        line = self._lines.get(text)
        if line is None:
            line = self._carried(text)
            if line is None:
                encoded = self._chunked(text) if self._chunkable and len(text) >= CHUNK_MIN_LINE else None
                line = self._same_as_before(segment_line(self.tokenizer, text, self._unk_id, encoded))
            self.put(text, line)
        return line

    def peek(self, text: str) -> LineTokens | None:
        """The cached line, or None: never encodes (for lines encoded off the GUI thread)."""
        return self._lines.get(text)

    def put(self, text: str, line: LineTokens) -> None:
        """Keep ``line`` (encoded elsewhere, by this cache's tokenizer) for ``text``."""
        if len(self._lines) >= _LINE_CACHE_LIMIT:
            self._lines.popitem(last=False)
        self._lines[text] = line
        if len(text) >= LONG_LINE:
            self._long.append(text)
            while len(self._long) > LONG_LINES_KEPT:
                self._lines.pop(self._long.pop(0), None)

    def _chunked(self, text: str) -> tuple[Encoding, list[int]]:
        """Encode a long line chunk by chunk (see :func:`chunk_bounds`), reusing cached chunks:
        a keystroke in a 2,000-character paragraph re-encodes a few words, not all of them."""
        tok = self.tokenizer
        enc = Encoding()
        dropped: list[int] = []
        words = 0
        for cs, ce in chunk_bounds(text):
            chunk = text[cs:ce]
            cached = self._chunks.get(chunk)
            if cached is None:
                cenc = tok.encode(chunk)
                cached = (cenc, dropped_characters(tok, chunk, cenc))
                if len(self._chunks) >= _LINE_CACHE_LIMIT:
                    self._chunks.popitem(last=False)
                self._chunks[chunk] = cached
            cenc, cdropped = cached
            enc.ids.extend(cenc.ids)
            enc.tokens.extend(cenc.tokens)
            enc.offsets.extend((s + cs, e + cs) for s, e in cenc.offsets)
            enc.word_ids.extend(None if w is None else w + words for w in cenc.word_ids)
            enc.special_tokens_mask.extend(cenc.special_tokens_mask)
            dropped.extend(d + cs for d in cdropped)
            words += max((w for w in cenc.word_ids if w is not None), default=-1) + 1
        return enc, dropped


# -- formats ---------------------------------------------------------------------


_FORMATS: dict[tuple, QTextCharFormat] = {}


def token_format(
    key: tuple[int, int], unknown: bool, special: bool, superword: bool = False
) -> QTextCharFormat:
    """The character format of one token's span in the editor (built once per look); a
    superword (a token that spans a space, SuperBPE's) is overlined in the superword colour.

    subtle: brushes are passed as QBrush, never as a QColor to convert implicitly;
    PySide6 6.12 corrupts a reference count on that conversion when it is done
    thousands of times (a crash in ``none_dealloc``).
    """
    look = (key, unknown, special, superword)
    fmt = _FORMATS.get(look)
    if fmt is not None:
        return fmt
    fmt = QTextCharFormat()
    if unknown:
        # Loud: strong red, white bold text, a yellow wavy underline.
        fmt.setBackground(QBrush(palette.UNKNOWN_BACKGROUND))
        fmt.setForeground(QBrush(palette.UNKNOWN_FOREGROUND))
        fmt.setFontWeight(QFont.Weight.Bold)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(QColor(palette.UNKNOWN_UNDERLINE))
    elif special:
        fmt.setBackground(QBrush(palette.SPECIAL_BACKGROUND))
        fmt.setForeground(QBrush(palette.SPECIAL_FOREGROUND))
    else:
        fmt.setBackground(QBrush(palette.colour_of(key)))
        # the hues are pale in both themes: their text is always dark (a dark theme's light
        # text would vanish on them)
        fmt.setForeground(QBrush(_INK))
        if superword:
            fmt.setFontOverline(True)
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            fmt.setUnderlineColor(QColor(theme.current().superword))
    _FORMATS[look] = fmt
    return fmt


def dropped_format(base: QTextCharFormat | None = None) -> QTextCharFormat:
    """Characters the normalizer (or pre-tokenizer) removed: grey and struck through."""
    fmt = QTextCharFormat(base) if base is not None else QTextCharFormat()
    fmt.setForeground(QBrush(palette.DROPPED_FOREGROUND))
    fmt.setFontStrikeOut(True)
    return fmt


def shared_char_format(base: QTextCharFormat) -> QTextCharFormat:
    """A character split between several tokens (byte-level pieces of one syllable):
    its first token's colour with a dotted underline."""
    fmt = QTextCharFormat(base)
    fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
    fmt.setUnderlineColor(QColor("#202020"))
    return fmt


def span_formats(line: LineTokens, tokens: range | None = None) -> list[tuple[int, int, QTextCharFormat]]:
    """``(start, length, format)`` runs for one line (or for its ``tokens`` only, the part
    in view of a long line), in order of application."""
    out: list[tuple[int, int, QTextCharFormat]] = []
    prev_end = -1
    prev_fmt = None
    offsets = line.encoding.offsets
    cut_at = -1  # a character an earlier token took a part of (its span was left empty)
    for i in range(len(offsets)) if tokens is None else tokens:
        s, e = offsets[i]
        if e <= s:
            # subtle: spans never overlap (core.tokenizer): of the tokens cut from one character
            # (its UTF-8 bytes, its jamo) all but the last get an empty span where it starts
            cut_at = s
            continue
        fmt = token_format(line.keys[i], line.unknown[i], line.special[i], spans_a_space(line.text[s:e]))
        if s < prev_end and prev_fmt is not None:
            # Overlaps the previous token: mark the shared characters, colour the rest.
            out.append((s, prev_end - s, shared_char_format(prev_fmt)))
            if e > prev_end:
                out.append((prev_end, e - prev_end, fmt))
        else:
            out.append((s, e - s, fmt))
            if s == cut_at:  # the last piece of a split character: mark that character
                # (the whole of its cluster: one run for 👨‍👩‍👧, or Qt draws its loose code points)
                out.append((s, min(cluster_at(line.text, s)[1], e) - s, shared_char_format(fmt)))
        cut_at = -1
        prev_end = max(prev_end, e)
        prev_fmt = fmt
    if tokens is None:
        joined = _split_clusters(line)
    else:  # only in the range coloured
        joined = _split_clusters(line, out[0][0], out[-1][0] + out[-1][1]) if out else []
    if joined:
        # subtle: Qt shapes each format run on its own, so a cluster (👋🏽, 👨‍👩‍👧, a letter and
        # its accent) cut by a token boundary would draw as its loose code points: give the
        # whole cluster one run, its first token's colour marked as split.
        starts = [r[0] for r in out]
        for cs, ce in joined:
            k = bisect.bisect_right(starts, cs) - 1
            if k >= 0:
                out.append((cs, ce - cs, shared_char_format(out[k][2])))
    if line.dropped and out:
        # A removed character keeps its token's background, struck through in grey.
        starts = [r[0] for r in out]
        lo, hi = out[0][0], out[-1][0] + out[-1][1]
        dropped = line.dropped
        if tokens is not None:  # only those in the range (``dropped`` is in order)
            dropped = dropped[bisect.bisect_left(dropped, lo) : bisect.bisect_left(dropped, hi)]
        for i in dropped:
            k = bisect.bisect_right(starts, i) - 1
            base = out[k][2] if k >= 0 and i < out[k][0] + out[k][1] else None
            out.append((i, 1, dropped_format(base)))
    return out


def _split_clusters(line: LineTokens, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """``(start, end)`` of the grapheme clusters of more than one code point that a token
    boundary cuts (an emoji with a skin tone split into two tokens), in characters ``lo``
    to ``hi`` (the part of a long line in view).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> options = TrainOptions("bpe", vocab_size=10, pre_tokenizer="whitespace-split")
    >>> char_level_bpe = drain(train_from_counts({"hi": 3, "👋": 2, "🏽": 1}, options))
    >>> segment_line(char_level_bpe, "hi 👋🏽").encoding.tokens     # the wave, then its skin tone
    ['hi', '👋', '🏽']
    >>> _split_clusters(segment_line(char_level_bpe, "hi 👋🏽"))
    [(3, 5)]
    """
    text = line.text if hi is None and lo == 0 else line.text[lo:hi]
    if text.isascii() or not _JOINS_CLUSTER.search(text):
        return []
    offsets = line.encoding.offsets
    tokens = range(len(offsets)) if hi is None and lo == 0 else line.tokens_between(lo, lo + len(text))
    inner = {b for i in tokens for b in offsets[i]}
    out = []
    pos = lo
    for g in _GRAPHEME.findall(text):
        end = pos + len(g)
        if len(g) > 1 and any(b in inner for b in range(pos + 1, end)):
            out.append((pos, end))
        pos = end
    return out


def cluster_at(text: str, pos: int) -> tuple[int, int]:
    """``(start, end)`` of the grapheme cluster holding character ``pos``.

    >>> cluster_at("a👋🏽b", 2)
    (1, 3)
    """
    if text.isascii() or not 0 <= pos < len(text):
        return pos, pos + 1
    for m in _GRAPHEME.finditer(text, max(0, pos - 32), min(len(text), pos + 33)):
        if m.start() <= pos < m.end():
            return m.start(), m.end()
    return pos, pos + 1


class TokenHighlighter(QSyntaxHighlighter):
    """Colours each text block from its :class:`LineTokens` (cached by line text).
    Positions are converted to Qt's UTF-16 units (emoji count twice)."""

    def __init__(self, document, cache: LineCache):
        super().__init__(document)
        self.cache = cache

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt override)
        if len(text) >= LONG_LINE:
            return  # the panel colours the part in view (see LONG_LINE)
        line = self.cache.get(text)
        if line is None:
            return
        if line.runs is None:
            runs = []
            for start, length, fmt in span_formats(line):
                qs = line.to_qt(start)
                runs.append((qs, line.to_qt(start + length) - qs, fmt))
            line.runs = runs
        for start, length, fmt in line.runs:
            self.setFormat(start, length, fmt)


# -- tooltips -----------------------------------------------------------------------


def token_origin(model, token: str, token_id: int | None = None, style: TokenStyle | None = None) -> str:
    """One line on how the model came to have ``token`` (BPE merge, WordPiece, Unigram score);
    ``style`` spells the merged parts as every panel does (byte-level ``Ġ`` as ``␣``, bytes of a
    split character as ``⟨EC⟩``), not as the raw vocabulary strings.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=14))).model
    >>> token_origin(bpe, "hug")          # the Hugging Face course's hug/pug table
    'merge #3: h + ug'
    """
    merges = model.merge_list()
    if merges is not None:
        rank = model.merge_rank(token)
        if rank is None:
            return QCoreApplication.translate(
                "Tokens", "base token (alphabet or special), not built by a merge"
            )
        left, right = merges[rank]
        if style is not None:
            left, right = render_token(left, style), render_token(right, style)
        return QCoreApplication.translate("Tokens", "merge #{0}: {1} + {2}").format(rank + 1, left, right)
    if model.explains() == "lattice":
        tid = model.token_to_id(token) if token_id is None else token_id
        try:
            return QCoreApplication.translate("Tokens", "Unigram piece, log-probability {0:.4f}").format(
                model.score(tid)
            )
        except Exception:  # noqa: BLE001 - a tooltip must never fail
            return QCoreApplication.translate("Tokens", "Unigram piece")
    prefix = model.continuing_subword_prefix
    if prefix:
        if token.startswith(prefix):
            return QCoreApplication.translate(
                "Tokens", "WordPiece: longest vocabulary match at this position (a continuation)"
            )
        return QCoreApplication.translate(
            "Tokens", "WordPiece: longest vocabulary match at this position (a word start)"
        )
    return ""


def token_tooltip(tokenizer, style: TokenStyle, line: LineTokens, index: int) -> str:
    """Rich-text tooltip for token ``index`` of ``line``: token, id, offsets, text, bytes, origin."""
    enc = line.encoding
    token, tid, (s, e) = enc.tokens[index], enc.ids[index], enc.offsets[index]
    # an unknown token stands for the text it covers: its bytes are the text's, not "<unk>"'s
    raw = (
        line.text[s:e].encode("utf-8", "surrogatepass") if line.unknown[index] else token_bytes(token, style)
    )
    counted = QCoreApplication.translate("Tokens", "(characters, counted from the start of the line)")
    rows = [
        (QCoreApplication.translate("Tokens", "token"), render_html(token, style)),
        (QCoreApplication.translate("Tokens", "id"), str(tid)),
        (
            QCoreApplication.translate("Tokens", "offsets"),
            f"{s}–{e} <span style='color:{theme.current().muted}'>{counted}</span>",
        ),
        (QCoreApplication.translate("Tokens", "text"), html.escape(line.text[s:e]) or "∅"),
        (QCoreApplication.translate("Tokens", "bytes"), raw.hex(" ").upper() if raw else "∅"),
    ]
    jamo = _jamo_row(token, line.text[s:e])
    if jamo:
        rows.append(("jamo", jamo))
    if line.unknown[index]:
        not_in = QCoreApplication.translate("Tokens", "not in the vocabulary")
        rows.append(
            (QCoreApplication.translate("Tokens", "unknown"), f'<b style="color:#D7191C">{not_in}</b>')
        )
    elif line.special[index]:
        rows.append(
            (
                QCoreApplication.translate("Tokens", "special"),
                QCoreApplication.translate("Tokens", "added token, matched before normalization"),
            )
        )
    else:
        origin = token_origin(tokenizer.model, token, tid, style)
        if origin:
            rows.append((QCoreApplication.translate("Tokens", "origin"), html.escape(origin)))
        if spans_a_space(line.text[s:e]):
            rows.append(
                (
                    QCoreApplication.translate("Tokens", "superword"),
                    QCoreApplication.translate("Tokens", "one token across a space (SuperBPE's stage 2)"),
                )
            )
    muted = theme.current().muted
    body = "".join(f"<tr><td style='color:{muted}'>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f"<table cellspacing=0 cellpadding=1>{body}</table>"


def _jamo_row(token: str, text: str) -> str:
    """For a token made of jamo: its letters, and the letters of the syllables it covers.

    >>> _jamo_row("\u11af\u1109\u116e", "철수")     # the ㄹ that ends 철, then 수
    "ㄹ ㅅ ㅜ <span ...>of 철수 = ㅊ ㅓ ㄹ · ㅅ ㅜ</span>"
    """
    if not any(is_conjoining_jamo(c) for c in token):
        return ""
    own = " ".join(to_compatibility(c) for c in token if is_conjoining_jamo(c))
    syllables = [c for c in text if is_syllable(c)]
    if not syllables:
        return html.escape(own)
    spelled = " · ".join(" ".join(to_compatibility(decompose_syllable(c))) for c in syllables)
    return f"{html.escape(own)} <span style='color:{theme.current().muted}'>of {html.escape(''.join(syllables))} = {html.escape(spelled)}</span>"


# -- the chip strip ------------------------------------------------------------------


@dataclass(slots=True)
class Chip:
    parts: list[tuple[str, str]]  # visible rendering (render_parts)
    caption: str  # small text under it (the id)
    background: QColor
    unknown: bool = False
    special: bool = False
    new_word: bool = False  # a wider gap before it
    mark_before: bool = False  # Compare: a boundary only this tokenizer has, before this chip
    mark_after: bool = False
    superword: bool = False  # the token spans a space (SuperBPE): a border of its own colour
    tooltip: str = ""
    size: QSize | None = None  # laid-out size, cached for the strip's font


@dataclass(slots=True)
class _PaintContext:
    font: QFont
    bold: QFont
    caption: QFont
    fm: QFontMetrics
    cfm: QFontMetrics


TOKEN_INK = QColor("#111111")  # text on token colours, in both themes
_INK = TOKEN_INK
_CAPTION_INK = QColor("#3A3A3A")
_HATCH = QBrush(QColor(255, 255, 255, 70), Qt.BrushStyle.BDiagPattern)
_PART_QCOLOURS = {k: QColor(v) for k, v in PART_COLOURS.items() if v}
# on the darker shades, markers and bytes need more contrast
_PART_QCOLOURS_ON_DARK = {"marker": QColor("#2E2E2E"), "space": QColor("#00355A"), "byte": QColor("#5A1A00")}
_GAP = 3
_WORD_GAP = 11
_PAD_X = 5
_PAD_Y = 2
_MARGIN = 6


class TokenStrip(QWidget):
    """Tokens as wrapped chips. ``chip_clicked(index)`` on a click; the current chip is outlined."""

    chip_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)
        self._chips: list[Chip] = []
        self._rects: list[tuple[int, int, int, int]] = []  # x, y, w, h of each chip
        self._measured: list[tuple[int, int, int]] | None = None
        self._heights: dict[int, int] = {}  # width -> height, for heightForWidth
        self._row_tops: list[int] = []
        self._row_first_chip: list[int] = []
        self._sizes: dict[tuple, QSize] = {}  # (parts, caption, bold) -> chip size for this font
        self._current = -1
        self._layout_width = -1
        self._height = 0
        self._placeholder = ""
        # index -> rich text, asked on hover; falls back to Chip.tooltip.
        self.tooltip_provider = None
        self._caption_font = QFont(self.font())
        self._caption_font.setPointSizeF(max(6.0, self.font().pointSizeF() * 0.72))

    # -- data ------------------------------------------------------------------
    def set_chips(self, chips: list[Chip]) -> None:
        self._chips = chips
        self._measured = None
        self._heights = {}
        self._current = -1
        self._relayout(force=True)
        self.update()

    def chips(self) -> list[Chip]:
        return self._chips

    def set_placeholder(self, text: str) -> None:
        self._placeholder = text
        self.update()

    def current(self) -> int:
        """Index of the outlined chip (the token at the text cursor), -1 for none."""
        return self._current

    def set_current(self, index: int) -> None:
        if index != self._current:
            self._current = index
            self.update()

    def chip_rect(self, index: int) -> QRect:
        return QRect(*self._rects[index])

    def index_at(self, pos: QPoint) -> int:
        row = bisect.bisect_right(self._row_tops, pos.y()) - 1
        if row < 0 or not self._rects:
            return -1
        end = self._row_first_chip[row + 1] if row + 1 < len(self._row_first_chip) else len(self._rects)
        for i in range(self._row_first_chip[row], end):
            x, y, w, h = self._rects[i]
            if x <= pos.x() < x + w and y <= pos.y() < y + h:
                return i
        return -1

    # -- layout ------------------------------------------------------------------
    def _chip_size(self, chip: Chip, fm: QFontMetrics, cfm: QFontMetrics) -> QSize:
        if chip.size is None:
            key = (tuple(chip.parts), chip.caption, chip.unknown)
            size = self._sizes.get(key)
            if size is None:
                text_w = sum(fm.horizontalAdvance(t) for t, _ in chip.parts)
                if chip.unknown:  # drawn bold
                    text_w = int(text_w * 1.12) + 2
                cap_w = cfm.horizontalAdvance(chip.caption)
                size = self._sizes[key] = QSize(
                    max(text_w, cap_w) + 2 * _PAD_X, fm.height() + cfm.height() + 2 * _PAD_Y
                )
            chip.size = size
        return chip.size

    def changeEvent(self, event) -> None:  # noqa: N802
        if event.type() == event.Type.FontChange and hasattr(self, "_sizes"):
            self._sizes.clear()
            self._caption_font = QFont(self.font())
            self._caption_font.setPointSizeF(max(6.0, self.font().pointSizeF() * 0.72))
            for chip in self._chips:
                chip.size = None
            self._measured = None
            self._heights = {}
            self._relayout(force=True)
        super().changeEvent(event)

    def row_height(self) -> int:
        """Height of one row of chips (a chip: the token over its id) in this font."""
        fm, cfm = QFontMetrics(self.font()), QFontMetrics(self._caption_font)
        return fm.height() + cfm.height() + 2 * _PAD_Y

    def _measure(self) -> list[tuple[int, int, int]]:
        """``(gap before, width, height)`` of every chip, measured once per chips and font."""
        if self._measured is None:
            fm, cfm = QFontMetrics(self.font()), QFontMetrics(self._caption_font)
            out = []
            for chip in self._chips:
                size = self._chip_size(chip, fm, cfm)
                out.append((_WORD_GAP if chip.new_word else _GAP, size.width(), size.height()))
            self._measured = out
        return self._measured

    def _layout(self, width: int) -> tuple[list[tuple[int, int, int, int]], list[int], list[int], int]:
        """Wrap the chips into rows ``width`` wide: (``(x, y, w, h)`` per chip, row tops, first chip
        of each row, height). Plain integers: thousands of chips are wrapped on every resize."""
        x = y = _MARGIN
        row_h = 0
        rects = []
        row_tops, row_first = [y], [0]
        right = width - _MARGIN
        for i, (gap, w, h) in enumerate(self._measure()):
            if not i:
                gap = 0
            if x + gap + w > right and x > _MARGIN:
                x = _MARGIN
                y += row_h + 5
                row_h = 0
                gap = 0
                row_tops.append(y)
                row_first.append(i)
            x += gap
            rects.append((x, y, w, h))
            x += w
            if h > row_h:
                row_h = h
        height = y + row_h + _MARGIN if self._chips else 2 * _MARGIN + QFontMetrics(self.font()).height()
        return rects, row_tops, row_first, height

    def _relayout(self, force: bool = False) -> None:
        width = max(self.width(), 120)
        if not force and width == self._layout_width:
            return
        self._layout_width = width
        self._rects, self._row_tops, self._row_first_chip, height = self._layout(width)
        if height != self._height:
            self._height = height
            self.setMinimumHeight(height)
            self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(400, max(self._height, 40))

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        if width == self._layout_width or not self._chips:
            return max(self._height, 40)
        # Qt asks again and again for the same few widths while it lays the dock out
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = max(self._layout(max(width, 120))[3], 40)
        return height

    def resizeEvent(self, event) -> None:  # noqa: N802
        self._relayout()
        super().resizeEvent(event)

    # -- painting -----------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if not self._chips:
            p.setPen(QColor("#888888"))
            p.drawText(
                self.rect().adjusted(_MARGIN, _MARGIN, -_MARGIN, -_MARGIN),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                self._placeholder,
            )
            return
        fm, cfm = QFontMetrics(self.font()), QFontMetrics(self._caption_font)
        bold = QFont(self.font())
        bold.setBold(True)
        ctx = _PaintContext(self.font(), bold, self._caption_font, fm, cfm)
        # Inside a scroll area only a band is visible: paint the chips in it, found by bisection.
        clip = event.rect().intersected(self.visibleRegion().boundingRect()).adjusted(-8, -8, 8, 8)
        rows_top = self._row_tops
        first = max(0, bisect.bisect_right(rows_top, clip.top() - 80) - 1)
        for i in range(self._row_first_chip[first] if self._row_first_chip else 0, len(self._chips)):
            r = QRect(*self._rects[i])
            if r.top() > clip.bottom():
                break
            if r.intersects(clip):
                self._paint_chip(p, self._chips[i], r, ctx, i == self._current)
        p.end()

    def _paint_chip(self, p: QPainter, chip: Chip, r: QRect, ctx: _PaintContext, current: bool) -> None:
        # subtle: a chip is drawn once into a pixmap and copied afterwards (Qt's pixmap cache,
        # least recently used out first): a slider move repainted some hundred chips, a
        # rounded rectangle and two texts each (3-5 ms a paint); the key is what it shows
        dpr = p.device().devicePixelRatioF()
        # an unknown token's hatching is aligned to the strip, not to the chip: its phase is kept
        phase = f"{r.x() % 8},{r.y() % 8}" if chip.unknown else ""
        key = (
            f"chip|{chip.parts}|{chip.caption}|{chip.background.rgba()}|{chip.unknown:d}{chip.special:d}{chip.superword:d}"
            f"|{r.width()}x{r.height()}@{dpr}|{ctx.font.key()}|{ctx.caption.key()}|{phase}"
        )
        pixmap = QPixmapCache.find(key)
        if pixmap is None:
            pixmap = QPixmap(QSize(r.width(), r.height()) * dpr)
            pixmap.setDevicePixelRatio(dpr)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setBrushOrigin(-r.x(), -r.y())
            self._draw_chip(painter, chip, QRect(0, 0, r.width(), r.height()), ctx)
            painter.end()
            QPixmapCache.insert(key, pixmap)
        p.drawPixmap(r.topLeft(), pixmap)
        rf = QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5)
        if current:
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(self.palette().color(QPalette.ColorRole.WindowText), 2))
            p.drawRoundedRect(rf.adjusted(-1.5, -1.5, 1.5, 1.5), 5, 5)
        if chip.mark_before or chip.mark_after:
            p.setPen(QPen(palette.DIFF_MARK, 3, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            if chip.mark_before:
                p.drawLine(r.left() - 2, r.top() - 2, r.left() - 2, r.bottom() + 2)
            if chip.mark_after:
                p.drawLine(r.right() + 2, r.top() - 2, r.right() + 2, r.bottom() + 2)

    def _draw_chip(self, p: QPainter, chip: Chip, r: QRect, ctx: _PaintContext) -> None:
        """The chip itself (its box, token and id) in ``r``; the outline and marks come on top."""
        rf = QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5)
        loud = chip.unknown or chip.special
        if chip.unknown:
            bg, fg = palette.UNKNOWN_BACKGROUND, palette.UNKNOWN_FOREGROUND
        elif chip.special:
            bg, fg = palette.SPECIAL_BACKGROUND, palette.SPECIAL_FOREGROUND
        else:
            bg, fg = chip.background, _INK
        if chip.superword and not loud:
            p.setPen(QPen(QColor(theme.current().superword), 2))
            rf = rf.adjusted(0.5, 0.5, -0.5, -0.5)
        else:
            p.setPen(QPen(bg.darker(140), 1))
        p.setBrush(QBrush(bg))
        p.drawRoundedRect(rf, 4, 4)
        if chip.unknown:
            p.setBrush(_HATCH)
            p.setPen(Qt.PenStyle.NoPen)
            p.drawRoundedRect(rf, 4, 4)
        x = r.x() + _PAD_X
        baseline = r.y() + _PAD_Y + ctx.fm.ascent()
        p.setFont(ctx.bold if chip.unknown else ctx.font)
        parts_ink = _PART_QCOLOURS if bg.lightness() >= 150 else _PART_QCOLOURS_ON_DARK
        for text, kind in chip.parts:
            colour = parts_ink.get(kind)
            p.setPen(colour if colour is not None and not loud else fg)
            p.drawText(x, baseline, text)
            if len(chip.parts) > 1:
                x += ctx.fm.horizontalAdvance(text)
        p.setFont(ctx.caption)
        p.setPen(fg if loud else _CAPTION_INK)
        cap_x = r.x() + (r.width() - ctx.cfm.horizontalAdvance(chip.caption)) // 2
        p.drawText(cap_x, r.y() + _PAD_Y + ctx.fm.height() + ctx.cfm.ascent(), chip.caption)

    # -- interaction ------------------------------------------------------------------
    def tooltip_at(self, index: int) -> str:
        if self.tooltip_provider is not None:
            return self.tooltip_provider(index)
        return self._chips[index].tooltip

    def event(self, event) -> bool:
        if event.type() == event.Type.ToolTip:
            i = self.index_at(event.pos())
            text = self.tooltip_at(i) if i >= 0 else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        i = self.index_at(event.position().toPoint())
        if i >= 0:
            self.set_current(i)
            self.chip_clicked.emit(i)
        super().mousePressEvent(event)


def chips_for_lines(
    lines: list[LineTokens], style: TokenStyle, shared: dict | None = None, limit: int | None = None
) -> tuple[list[Chip], list[tuple[int, int]]]:
    """Chips for the tokens of ``lines`` (the first ``limit`` of them) and, per chip,
    ``(line number, token index)``.

    A line's chips are built once and kept on its :class:`LineTokens` (lines are
    cached by text, so a keystroke rebuilds one line's chips); with ``shared``, a
    dict kept per tokenizer, chips that look the same are one object, so even a
    long line's rebuild measures no text. A line cut by ``limit`` gets only the
    chips shown (a 100,000-character word has 50 k tokens; the strip lists 5 k).
    Tooltips are left empty: the strip asks its ``tooltip_provider`` on hover.
    """
    chips: list[Chip] = []
    where: list[tuple[int, int]] = []
    for n, line in enumerate(lines):
        room = None if limit is None else limit - len(chips)
        if room is not None and room <= 0:
            break
        line_chips = line.chips
        if line_chips is None:
            line_chips = _line_chips(line, style, {} if shared is None else shared, room)
            if room is None or len(line.encoding.ids) <= room:
                line.chips = line_chips
        if room is not None:
            line_chips = line_chips[:room]
        if line_chips:
            chips.extend(line_chips)
            where.extend((n, i) for i in range(len(line_chips)))
    return chips, where


def _line_chips(line: LineTokens, style: TokenStyle, shared: dict, limit: int | None = None) -> list[Chip]:
    enc = line.encoding
    out = []
    prev_word = object()
    for i, token in enumerate(enc.tokens if limit is None else enc.tokens[:limit]):
        word = enc.word_ids[i]
        # a wider gap between words, and before a line's first token
        new_word = (word != prev_word) or i == 0 or word is None
        start, end = enc.offsets[i]
        superword = spans_a_space(line.text[start:end])
        look = (token, enc.ids[i], line.keys[i], line.unknown[i], line.special[i], new_word, superword)
        chip = shared.get(look)
        if chip is None:
            chip = shared[look] = Chip(
                parts=render_parts_cached(token, style),
                caption=str(enc.ids[i]),
                background=palette.colour_of(line.keys[i]),
                unknown=line.unknown[i],
                special=line.special[i],
                new_word=new_word,
                superword=superword,
            )
        out.append(chip)
        prev_word = word
    return out
