"""Normalizers: rewrite text while keeping, for each character, where it came from.

One verb: ``normalize(NormalizedString) -> NormalizedString``. ``normalize_str``
is the cheap preview (and the fast path used when counting a corpus).

    >>> Lowercase().normalize_str("Hello")
    'hello'
    >>> NFD().normalize(NormalizedString.from_str("가")).alignments
    [(0, 1), (0, 1)]

Each normalizer serializes to a Hugging Face shaped dict tagged with ``"type"``,
and aligns its output to the original text exactly as `tokenizers` does, so that
offsets match theirs. `tokenizers` describes every rewrite as a list of
``(new_char, change)`` pairs read left to right against the old characters
(:func:`apply_changes`): ``change <= 0`` replaces the next old character (and
drops ``-change`` more), ``change = 1`` inserts a character that shares the
span of the last old character consumed. So a composed ``é`` from ``e`` +
``U+0301`` spans only the ``e``, and a decomposed ``가`` gives two characters
both spanning ``가``.

Unicode data: ours is Python's (Unicode 14 for Python 3.11); `tokenizers` mixes
tables of several Unicode versions, so characters assigned in other versions may
be classified differently (a random test over the whole code space finds only those).

Leaves out: the ``Precompiled`` normalizer lives in ``core.precompiled`` (it is
loaded from here lazily); Replace with a pattern that can match empty text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from collections.abc import Sequence as SequenceT
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, Protocol

from core.errors import ConfigError
from core.hangul import decompose_syllable, decompose_text
from core.text import NormalizedString

if TYPE_CHECKING:
    import regex

    from core.limits import BoundedPattern


class Normalizer(Protocol):
    def normalize(self, text: NormalizedString) -> NormalizedString: ...

    def normalize_str(self, text: str) -> str: ...

    def to_dict(self) -> dict: ...


# -- character classes as Rust (and so `tokenizers`) defines them ---------------------

# Rust's char::is_whitespace is the Unicode White_Space property. subtle: Python's
# str.isspace also counts U+001C..U+001F, which Rust does not.
RUST_WHITESPACE = frozenset(
    [chr(c) for c in range(0x09, 0x0E)]
    + [" ", "\x85", "\xa0", "\u1680"]
    + [chr(c) for c in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
)


def is_rust_whitespace(c: str) -> bool:
    return c in RUST_WHITESPACE


def apply_changes(
    text: NormalizedString,
    changes: Iterable[tuple[str, int]],
    removed_first: int = 0,
    start: int = 0,
    end: int | None = None,
) -> NormalizedString:
    """Rewrite characters ``[start, end)`` of ``text`` as `tokenizers`' ``transform_range`` does.

        >>> apply_changes(NormalizedString.from_str("ab"), [("x", 0), ("y", 1), ("b", 0)]).alignments
        [(0, 1), (0, 1), (1, 2)]

    ``removed_first`` old characters are dropped before the first change is read.
    """
    if end is None:
        end = len(text.normalized)
    old = text.alignments
    cursor = start + removed_first
    chars: list[str] = []
    aligns: list[tuple[int, int]] = []
    for c, change in changes:
        if change > 0:
            span = old[cursor - 1] if cursor > 0 else (0, 0)
        else:
            span = old[cursor]
            cursor += 1 - change
        chars.append(c)
        aligns.append(span)
    return NormalizedString(
        text.normalized[:start] + "".join(chars) + text.normalized[end:],
        old[:start] + aligns + old[end:],
        text.original_length,
    )


# -- Unicode normalization forms ------------------------------------------------------


@lru_cache(maxsize=65536)
def _decomposed(c: str, compat: bool) -> str:
    return unicodedata.normalize("NFKD" if compat else "NFD", c)


@lru_cache(maxsize=65536)
def _compose_pair(a: str, b: str) -> str | None:
    """The primary composite of ``a`` + ``b``, if any (Hangul LV/LVT included)."""
    r = unicodedata.normalize("NFC", a + b)
    return r if len(r) == 1 else None


_ccc = unicodedata.combining


def _decompose_changes(s: str, compat: bool) -> list[tuple[str, int]]:
    """Full decomposition, each character's first part replacing it and the rest inserted,
    then the canonical reordering of combining marks (which carries the changes along)."""
    out: list[tuple[str, int]] = []
    for c in s:
        d = _decomposed(c, compat)
        out.append((d[0], 0))
        for x in d[1:]:
            out.append((x, 1))
    # canonical ordering: stable sort of each run of non-starters by combining class
    i, n = 0, len(out)
    while i < n:
        if _ccc(out[i][0]) == 0:
            i += 1
            continue
        j = i
        while j < n and _ccc(out[j][0]) != 0:
            j += 1
        if j - i > 1:
            out[i:j] = sorted(out[i:j], key=lambda p: _ccc(p[0]))
        i = j
    return out


def _compose_changes(seq: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Canonical composition; a composite takes the starter's place and absorbs the change
    of what it swallowed minus one (it replaces one more old character)."""
    out: list[tuple[str, int]] = []
    composee: tuple[str, int] | None = None
    last_ccc: int | None = None
    buffer: list[tuple[str, int]] = []
    for ch, change in seq:
        cc = _ccc(ch)
        if composee is None:
            if cc != 0:
                out.append((ch, change))
            else:
                composee = (ch, change)
            continue
        if last_ccc is not None and last_ccc >= cc:  # blocked from the starter
            if cc == 0:
                out.append(composee)
                out.extend(buffer)
                buffer = []
                composee, last_ccc = (ch, change), None
            else:
                buffer.append((ch, change))
                last_ccc = cc
            continue
        r = _compose_pair(composee[0], ch)
        if r is not None:
            composee = (r, composee[1] + change - 1)
            continue
        if cc == 0 and last_ccc is None:
            out.append(composee)
            composee = (ch, change)
            continue
        buffer.append((ch, change))
        last_ccc = cc
    if composee is not None:
        out.append(composee)
    out.extend(buffer)
    return out


class _UnicodeForm:
    """NFC/NFD/NFKC/NFKD, aligned as `tokenizers` aligns them (see the module docstring)."""

    form: Literal["NFC", "NFD", "NFKC", "NFKD"] = "NFC"
    compat = False
    compose = True

    def normalize_str(self, text: str) -> str:
        return unicodedata.normalize(self.form, text)

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        if unicodedata.is_normalized(self.form, s):
            return text
        changes = _decompose_changes(s, self.compat)
        if self.compose:
            changes = _compose_changes(changes)
        return apply_changes(text, changes)

    def to_dict(self) -> dict:
        return {"type": self.form}

    def __repr__(self) -> str:
        return f"{self.form}()"


class NFC(_UnicodeForm):
    form, compat, compose = "NFC", False, True


class NFD(_UnicodeForm):
    form, compat, compose = "NFD", False, False


class NFKC(_UnicodeForm):
    form, compat, compose = "NFKC", True, True


class NFKD(_UnicodeForm):
    form, compat, compose = "NFKD", True, False


# -- case, accents, spaces ------------------------------------------------------------


def _lower_chars(s: str) -> list[str]:
    # subtle: per character, as Rust's char::to_lowercase (no final-sigma rule of str.lower)
    return [c.lower() for c in s]


class Lowercase:
    """Unicode lowercase, character by character; a character that lowers to several keeps its span for each."""

    def normalize_str(self, text: str) -> str:
        return text.lower() if "\u03a3" not in text else "".join(_lower_chars(text))

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        lowered = self.normalize_str(s)
        if len(lowered) == len(s):
            return NormalizedString(lowered, text.alignments, text.original_length)
        return text.transform((low, text.alignments[i]) for i, low in enumerate(_lower_chars(s)))

    def to_dict(self) -> dict:
        return {"type": "Lowercase"}

    def __repr__(self) -> str:
        return "Lowercase()"


def _keep(text: NormalizedString, keep) -> NormalizedString:
    """Drop the characters ``keep`` rejects; the others keep their spans."""
    s = text.normalized
    idx = [i for i, c in enumerate(s) if keep(c)]
    if len(idx) == len(s):
        return text
    return NormalizedString(
        "".join(s[i] for i in idx), [text.alignments[i] for i in idx], text.original_length
    )


def _is_mark(c: str) -> bool:
    # subtle: `tokenizers` calls this "nonspacing mark", but the table it uses holds
    # spacing (Mc) and enclosing (Me) marks too, e.g. Devanagari U+093E; we follow it
    return unicodedata.category(c)[0] == "M"


class StripAccents:
    """Remove combining marks; use after NFD to strip accents: ``é`` -> NFD -> ``e``."""

    def normalize_str(self, text: str) -> str:
        return "".join(c for c in text if not _is_mark(c))

    def normalize(self, text: NormalizedString) -> NormalizedString:
        return _keep(text, lambda c: not _is_mark(c))

    def to_dict(self) -> dict:
        return {"type": "StripAccents"}

    def __repr__(self) -> str:
        return "StripAccents()"


class Strip:
    """Remove leading and/or trailing whitespace: ``"  a b "`` -> ``"a b"``."""

    def __init__(self, left: bool = True, right: bool = True):
        self.left = left
        self.right = right

    def _bounds(self, s: str) -> tuple[int, int]:
        a, b = 0, len(s)
        if self.left:
            while a < b and s[a] in RUST_WHITESPACE:
                a += 1
        if self.right:
            while b > a and s[b - 1] in RUST_WHITESPACE:
                b -= 1
        return a, b

    def normalize_str(self, text: str) -> str:
        a, b = self._bounds(text)
        return text[a:b]

    def normalize(self, text: NormalizedString) -> NormalizedString:
        a, b = self._bounds(text.normalized)
        return text if (a, b) == (0, len(text)) else text.slice(a, b)

    def to_dict(self) -> dict:
        return {"type": "Strip", "strip_left": self.left, "strip_right": self.right}

    @classmethod
    def from_dict(cls, d: dict) -> Strip:
        return cls(bool(d.get("strip_left", True)), bool(d.get("strip_right", True)))

    def __repr__(self) -> str:
        return f"Strip(left={self.left}, right={self.right})"


class ByteLevel:
    """Each character as its UTF-8 bytes in the GPT-2 byte alphabet: ``"한 a"`` -> ``"íķľĠa"``;
    every byte character spans the character it came from."""

    def normalize_str(self, text: str) -> str:
        from core.bytelevel import bytes_to_chars

        return bytes_to_chars(text.encode("utf-8", errors="surrogatepass"))

    def normalize(self, text: NormalizedString) -> NormalizedString:
        from core.bytelevel import bytes_to_chars

        return text.transform(
            (bytes_to_chars(c.encode("utf-8", errors="surrogatepass")), text.alignments[i])
            for i, c in enumerate(text.normalized)
        )

    def to_dict(self) -> dict:
        return {"type": "ByteLevel"}

    def __repr__(self) -> str:
        return "ByteLevel()"


# Nmt: what SentencePiece's nmt_nfkc rules do besides NFKC, as `tokenizers`' Nmt normalizer.
_NMT_DROPPED = frozenset(
    [chr(c) for c in range(0x01, 0x09)]
    + ["\x0b"]
    + [chr(c) for c in range(0x0E, 0x20)]
    + ["\x7f", "\x8f", "\x9f"]
)
_NMT_SPACES = frozenset(
    ["\t", "\n", "\x0c", "\r", "\u1680"]
    + [chr(c) for c in range(0x200B, 0x2010)]
    + ["\u2028", "\u2029", "\u2581", "\ufeff", "\ufffd"]
)


class Nmt:
    """Drop ASCII control characters and turn other break and space-like characters into a space:
    ``"a\tb\x07c"`` -> ``"a bc"`` (what `tokenizers`' ``SentencePieceUnigramTokenizer`` writes,
    before its NFKC)."""

    def normalize_str(self, text: str) -> str:
        return "".join(" " if c in _NMT_SPACES else c for c in text if c not in _NMT_DROPPED)

    def normalize(self, text: NormalizedString) -> NormalizedString:
        kept = _keep(text, lambda c: c not in _NMT_DROPPED)
        s = kept.normalized
        if not any(c in _NMT_SPACES for c in s):
            return kept
        mapped = "".join(" " if c in _NMT_SPACES else c for c in s)
        return NormalizedString(mapped, kept.alignments, kept.original_length)

    def to_dict(self) -> dict:
        return {"type": "Nmt"}

    def __repr__(self) -> str:
        return "Nmt()"


class Prepend:
    """Put a string before non-empty text, spanning its first character: ``"a"`` -> ``"▁a"``."""

    def __init__(self, prepend: str = "\u2581"):
        self.prepend = prepend

    def normalize_str(self, text: str) -> str:
        return self.prepend + text if text else text

    def normalize(self, text: NormalizedString) -> NormalizedString:
        if not text.normalized or not self.prepend:
            return text
        first = text.alignments[0]
        return NormalizedString(
            self.prepend + text.normalized,
            [first] * len(self.prepend) + text.alignments,
            text.original_length,
        )

    def to_dict(self) -> dict:
        return {"type": "Prepend", "prepend": self.prepend}

    @classmethod
    def from_dict(cls, d: dict) -> Prepend:
        return cls(d.get("prepend", "\u2581"))

    def __repr__(self) -> str:
        return f"Prepend({self.prepend!r})"


def compile_pattern(
    pattern, what: str = "pattern", written: str | None = None
) -> regex.Pattern | BoundedPattern:
    """A tokenizer.json pattern (``{"String": s}`` or ``{"Regex": r}``, or a bare string) compiled;
    a regex runs with a time bound (``core.limits.bounded_pattern``; ``written``: the regex as
    the file wrote it, when ``pattern`` holds it rewritten)."""
    import regex  # here: a job that compiles no pattern does without it (importing it: ~12 ms)

    if isinstance(pattern, str):
        return regex.compile(regex.escape(pattern))
    if isinstance(pattern, dict) and len(pattern) == 1:
        kind, value = next(iter(pattern.items()))
        if kind == "String" and isinstance(value, str):
            return regex.compile(regex.escape(value))
        if kind == "Regex" and isinstance(value, str):
            from core.limits import bounded_pattern

            try:
                compiled = regex.compile(value)
            except (regex.error, RecursionError, OverflowError) as e:
                raise ConfigError(f"{what} {value!r} is not a regex we can read: {e}") from None
            return bounded_pattern(compiled, what, written)  # a file's pattern: it may backtrack without end
    raise ConfigError(f'{what} must be {{"String": ...}} or {{"Regex": ...}}, not {pattern!r}')


class Replace:
    """Replace every match of a string or regex: ``Replace(" ", "▁")``: ``"a b"`` -> ``"a▁b"``.

    Alignment as `tokenizers`: the new characters all span the last character of the match.
    """

    def __init__(self, pattern, content: str):
        self.pattern = pattern if isinstance(pattern, dict) else {"String": pattern}
        self.content = content
        self._re = compile_pattern(self.pattern, "Replace pattern")

    def normalize_str(self, text: str) -> str:
        # subtle: as normalize(), an empty match replaces nothing
        return self._re.sub(lambda m: self.content if m.end() > m.start() else "", text)

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        chars: list[str] = []
        aligns: list[tuple[int, int]] = []
        pos = 0
        for m in self._re.finditer(s):
            a, b = m.span()
            if a == b:  # subtle: an empty match replaces nothing in `tokenizers`' char loop; skip it
                continue
            chars.append(s[pos:a])
            aligns.extend(text.alignments[pos:a])
            chars.append(self.content)
            aligns.extend([text.alignments[b - 1]] * len(self.content))
            pos = b
        if pos == 0 and not chars:
            return text
        chars.append(s[pos:])
        aligns.extend(text.alignments[pos:])
        return NormalizedString("".join(chars), aligns, text.original_length)

    def to_dict(self) -> dict:
        return {"type": "Replace", "pattern": dict(self.pattern), "content": self.content}

    @classmethod
    def from_dict(cls, d: dict) -> Replace:
        return cls(d.get("pattern"), d.get("content", ""))

    def __repr__(self) -> str:
        return f"Replace({self.pattern!r}, {self.content!r})"


# BERT's notion of Chinese characters: the CJK Unified Ideograph blocks.
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


def _is_chinese(c: str) -> bool:
    o = ord(c)
    return any(a <= o <= b for a, b in _CJK_RANGES)


def _bert_drops(c: str) -> bool:
    # NUL, U+FFFD and "other" characters, except tab, newline and CR. subtle: as in
    # `tokenizers`, "other" is control, format and private use (Cc, Cf, Co), not
    # unassigned code points (Cn), which are kept
    if c in "\t\n\r":
        return False
    return c == "\x00" or c == "\ufffd" or unicodedata.category(c) in ("Cc", "Cf", "Co")


class BertNormalizer:
    """BERT's clean-up: drop controls, whitespace -> space, spaces around CJK ideographs,
    strip accents (default: when lowercasing), lowercase. ``"Héllo\\t世"`` -> ``"hello  世 "``."""

    def __init__(
        self,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        strip_accents: bool | None = None,
        lowercase: bool = True,
    ):
        self.clean_text = clean_text
        self.handle_chinese_chars = handle_chinese_chars
        self.strip_accents = strip_accents
        self.lowercase = lowercase

    def normalize(self, text: NormalizedString) -> NormalizedString:
        if self.clean_text:
            text = _keep(text, lambda c: not _bert_drops(c))
            s = text.normalized
            if any(c in RUST_WHITESPACE and c != " " for c in s):
                text = NormalizedString(
                    "".join(" " if c in RUST_WHITESPACE else c for c in s),
                    text.alignments,
                    text.original_length,
                )
        if self.handle_chinese_chars and any(_is_chinese(c) for c in text.normalized):
            chars: list[str] = []
            aligns: list[tuple[int, int]] = []
            for c, span in zip(text.normalized, text.alignments):
                if _is_chinese(c):
                    chars.append(" " + c + " ")
                    aligns.extend([span] * 3)
                else:
                    chars.append(c)
                    aligns.append(span)
            text = NormalizedString("".join(chars), aligns, text.original_length)
        strip = self.lowercase if self.strip_accents is None else self.strip_accents
        if strip:
            # subtle: unlike the StripAccents normalizer, BERT's strip removes only
            # nonspacing marks (Mn), as in `tokenizers`
            text = _keep(NFD().normalize(text), lambda c: unicodedata.category(c) != "Mn")
        if self.lowercase:
            text = Lowercase().normalize(text)
        return text

    def normalize_str(self, text: str) -> str:
        """``normalize(text).normalized`` without alignments: each step is a per-character
        rewrite, done with ``str.translate`` tables filled as new characters are met.

        >>> BertNormalizer().normalize_str("Héllo\\t世")
        'hello  世 '
        """
        tables = self.__dict__.get("_tables")
        if tables is None:
            tables = self._tables = ({}, set(), {}, set())  # clean+CJK table, seen; Mn table, seen
        clean, seen, marks, seen_marks = tables
        if self.clean_text or self.handle_chinese_chars:
            new = set(text).difference(seen)
            for c in new:
                if self.clean_text and _bert_drops(c):
                    clean[ord(c)] = None
                elif self.clean_text and c in RUST_WHITESPACE and c != " ":
                    clean[ord(c)] = " "
                elif self.handle_chinese_chars and _is_chinese(c):
                    clean[ord(c)] = " " + c + " "
            seen.update(new)
            text = text.translate(clean)
        strip = self.lowercase if self.strip_accents is None else self.strip_accents
        if strip:
            text = unicodedata.normalize("NFD", text)
            new = set(text).difference(seen_marks)
            for c in new:
                if unicodedata.category(c) == "Mn":
                    marks[ord(c)] = None
            seen_marks.update(new)
            text = text.translate(marks)
        if self.lowercase:
            text = Lowercase().normalize_str(text)
        return text

    def to_dict(self) -> dict:
        return {
            "type": "BertNormalizer",
            "clean_text": self.clean_text,
            "handle_chinese_chars": self.handle_chinese_chars,
            "strip_accents": self.strip_accents,
            "lowercase": self.lowercase,
        }

    @classmethod
    def from_dict(cls, d: dict) -> BertNormalizer:
        return cls(
            bool(d.get("clean_text", True)),
            bool(d.get("handle_chinese_chars", True)),
            d.get("strip_accents"),
            bool(d.get("lowercase", True)),
        )

    def __repr__(self) -> str:
        return "BertNormalizer()"


class Jamo:
    """Hangul syllables to conjoining jamo (자모), each jamo spanning its syllable; other text untouched.

        >>> Jamo().normalize_str("철수 ok")          # ᄎ ᅥ ᆯ ᄉ ᅮ
        '\u110e\u1165\u11af\u1109\u116e ok'
        >>> Jamo().normalize(NormalizedString.from_str("한")).alignments
        [(0, 1), (0, 1), (0, 1)]

    On Hangul this is NFD; unlike NFD it leaves accents (``é``) and compatibility
    jamo (``ㅋ``) alone. A model trained after it sees an alphabet of ~70 letters
    instead of thousands of syllables. Not a `tokenizers` type: ``tokenizer.json``
    export writes NFD in its place and reports the difference (``core.formats.detect``).
    """

    def normalize_str(self, text: str) -> str:
        return decompose_text(text)

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        out = decompose_text(s)
        if len(out) == len(s):
            return text
        return text.transform((decompose_syllable(c), span) for c, span in zip(s, text.alignments))

    def to_dict(self) -> dict:
        return {"type": "Jamo"}

    def __repr__(self) -> str:
        return "Jamo()"


class ClipCleaning:
    """CLIP's text cleaning with offsets: HTML entities unescaped twice, white space collapsed and
    stripped, lower-cased: ``" A&amp;amp;B\\n\\nc "`` -> ``"a&b c"``."""

    def normalize_str(self, text: str) -> str:
        return self.normalize(NormalizedString.from_str(text)).normalized

    def normalize(self, text: NormalizedString) -> NormalizedString:
        text = NFC().normalize(text)
        text = _unescape(_unescape(text))
        # subtle: CLIP strips before and after collapsing; `\s` is the regex module's, as in CLIP
        text = Replace({"Regex": r"\s+"}, " ").normalize(text)
        text = Strip().normalize(text)
        return Lowercase().normalize(text)

    def to_dict(self) -> dict:
        # ours: `tokenizers` has no such step (core.formats.hf_compat writes a stand-in)
        return {"type": "ClipCleaning"}

    def __repr__(self) -> str:
        return "ClipCleaning()"


def _unescape(text: NormalizedString) -> NormalizedString:
    """``html.unescape`` with offsets: each entity's characters span the whole entity."""
    s = text.normalized
    if "&" not in s:
        return text
    import html  # here, not at the top: only CLIP's cleaning unescapes, and html.entities is large

    pieces = []
    pos = 0
    for m in html._charref.finditer(s):  # subtle: the (private) pattern html.unescape itself uses
        a, b = m.span()
        for i in range(pos, a):
            pieces.append((s[i], text.alignments[i]))
        replacement = html.unescape(m.group(0))
        span = (text.alignments[a][0], text.alignments[b - 1][1])
        for c in replacement:
            pieces.append((c, span))
        pos = b
    for i in range(pos, len(s)):
        pieces.append((s[i], text.alignments[i]))
    return text.transform(pieces)


class Sequence:
    """Apply normalizers in order."""

    def __init__(self, normalizers: SequenceT[Normalizer]):
        self.normalizers = list(normalizers)

    def normalize_str(self, text: str) -> str:
        for n in self.normalizers:
            text = n.normalize_str(text)
        return text

    def normalize(self, text: NormalizedString) -> NormalizedString:
        for n in self.normalizers:
            text = n.normalize(text)
        return text

    def to_dict(self) -> dict:
        return {"type": "Sequence", "normalizers": [n.to_dict() for n in self.normalizers]}

    def __repr__(self) -> str:
        return f"Sequence({self.normalizers!r})"


# Names accepted on the command line and in the GUI.
NORMALIZER_NAMES: dict[str, type] = {
    "nfc": NFC,
    "nfd": NFD,
    "nfkc": NFKC,
    "nfkd": NFKD,
    "lowercase": Lowercase,
    "strip-accents": StripAccents,
    "strip": Strip,
    "bert": BertNormalizer,
    "jamo": Jamo,
}

# `"type"` tags of tokenizer.json. "Precompiled" is resolved lazily (core.precompiled).
NORMALIZER_TYPES: dict[str, type] = {
    "NFC": NFC,
    "NFD": NFD,
    "NFKC": NFKC,
    "NFKD": NFKD,
    "Lowercase": Lowercase,
    "StripAccents": StripAccents,
    "Strip": Strip,
    "Prepend": Prepend,
    "Replace": Replace,
    "BertNormalizer": BertNormalizer,
    "Nmt": Nmt,
    "ByteLevel": ByteLevel,
    "Jamo": Jamo,  # ours: `tokenizers` has no such type
    "ClipCleaning": ClipCleaning,  # ours: CLIP's cleaning (core.formats.clip_bpe)
}
LAZY_NORMALIZER_TYPES: dict[str, str] = {"Precompiled": "core.precompiled:PrecompiledNormalizer"}


def normalizer_from_names(names: str | SequenceT[str] | None) -> Normalizer | None:
    """``"nfkc,lowercase"`` -> ``Sequence([NFKC(), Lowercase()])``; empty or ``"none"`` -> None."""
    if names is None:
        return None
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    names = [n.lower() for n in names if n.lower() not in ("none", "identity")]
    unknown = [n for n in names if n not in NORMALIZER_NAMES]
    if unknown:
        raise ConfigError(
            f"unknown normalizer {unknown[0]!r}; choose from {', '.join(sorted(NORMALIZER_NAMES))}"
        )
    parts = [NORMALIZER_NAMES[n]() for n in names]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else Sequence(parts)


def _lazy(target: str):
    import importlib

    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def normalizer_from_dict(d: dict | None) -> Normalizer | None:
    if d is None:
        return None
    kind = d.get("type")
    if kind == "Sequence":
        return Sequence([normalizer_from_dict(x) for x in d.get("normalizers", [])])
    cls = NORMALIZER_TYPES.get(kind)
    if cls is None and kind in LAZY_NORMALIZER_TYPES:
        try:
            cls = _lazy(LAZY_NORMALIZER_TYPES[kind])
        except (ImportError, AttributeError):
            cls = None
    if cls is None:
        raise ConfigError(f"unsupported normalizer type {kind!r}")
    from_dict = getattr(cls, "from_dict", None)
    return from_dict(d) if from_dict else cls()
