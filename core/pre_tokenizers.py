"""Pre-tokenizers: cut normalized text into the pieces a model tokenizes one by one.

One verb: ``pre_tokenize(NormalizedString) -> list[NormalizedString]``; each piece
keeps its alignment to the original text. Two cheap views on top:

- ``pre_tokenize_str(text)`` -> ``[(piece, (start, end)), ...]`` spans in ``text``;
- ``split_words(text)`` -> ``[piece, ...]``, the fast path used to count a corpus.
  It returns exactly the piece texts ``pre_tokenize`` would (a property test pins it).

    >>> Whitespace().pre_tokenize_str("Hi, 철수!")
    [('Hi', (0, 2)), (',', (2, 3)), ('철수', (4, 6)), ('!', (6, 7))]
    >>> Metaspace().split_words("먹고 있다")
    ['▁먹고', '▁있다']

Every pre-tokenizer cuts as `tokenizers` does: matches of a pattern become
pieces according to a *behavior* (:func:`split_by_matches`), empty pieces are
dropped, and "whitespace" is Rust's (the Unicode White_Space property).
:class:`TiktokenSplit` cuts as tiktoken does, with one of its encodings' patterns
(:data:`TIKTOKEN_PATTERNS`) or a regex, and writes each piece in the byte alphabet.

Leaves out: nothing `tokenizers` writes. Split patterns use Python's ``regex``
module where `tokenizers` uses Oniguruma (the same for the usual patterns, with
``\\s`` read as White_Space as both engines do).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Protocol

from core.bytelevel import BYTE_TO_CHAR, BytePiecesMemo, bytes_to_chars
from core.errors import ConfigError
from core.normalizers import compile_pattern
from core.text import NormalizedString

if TYPE_CHECKING:
    import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# The split patterns of OpenAI's encodings (possessive quantifiers are understood by `regex`),
# spelt as tiktoken spells them: a tokenizer.json written from a rank file carries this text.
# R50K_PATTERN is GPT2_PATTERN in tiktoken's spelling (r50k_base, p50k_base): the same pieces.
R50K_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PARTS = [
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
]
O200K_PATTERN = "|".join(O200K_PARTS)
TIKTOKEN_PATTERNS: dict[str, str] = {
    "gpt2": R50K_PATTERN,
    "r50k_base": R50K_PATTERN,
    "p50k_base": R50K_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
}
WHITESPACE_PATTERN = r"\w+|[^\w\s]+"
# BERT's punctuation: every Unicode P* character plus the ASCII symbols it treats as punctuation.
_BERT_PUNCT = r"\p{P}!-/:-@\[-`{-~"
BERT_PATTERN = rf"[^\p{{White_Space}}{_BERT_PUNCT}]+|[{_BERT_PUNCT}]"

# SuperBPE (Liu et al., 2025), as its reference trainer (github.com/PythonNut/superbpe,
# scripts/train_tokenizer.sh and extend_tokenizer.sh) spells them: stage 1 splits words, numbers
# in threes, punctuation and whitespace; stage 2 (and the trained tokenizer) only isolates numbers
# in threes, runs of two or more punctuation characters and the spaces before a space, so a piece
# holds several words and the merges of stage 2 cross spaces.
SUPERBPE_STAGE1_PATTERN = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
    r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
SUPERBPE_STAGE2_PATTERN = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"

BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")


def resolve_pattern(pattern: str) -> str:
    """A pattern name (``"cl100k_base"``) or a regex; an invalid regex is a ConfigError.

    >>> resolve_pattern("gpt2") == R50K_PATTERN
    True
    """
    import regex

    if not isinstance(pattern, str):  # a damaged file's "pattern": 5 or a list
        raise ConfigError(f"split pattern must be text, not {type(pattern).__name__}")
    pat = TIKTOKEN_PATTERNS.get(pattern, pattern)
    try:
        regex.compile(pat)
    except (regex.error, RecursionError, OverflowError) as e:
        raise ConfigError(
            f"split pattern is neither a known name ({', '.join(TIKTOKEN_PATTERNS)}) nor a valid regex: {e}"
        ) from None
    return pat


def _explicit_whitespace(pattern: str) -> str:
    r"""``\s``/``\S`` spelled as the White_Space property, as Rust's regex and Oniguruma read them."""
    import regex

    return regex.sub(
        r"(?<!\\)((?:\\\\)*)\\([sS])",
        lambda m: m.group(1) + (r"\p{White_Space}" if m.group(2) == "s" else r"\P{White_Space}"),
        pattern,
    )


class PreTokenizer(Protocol):
    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]: ...

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]: ...

    def split_words(self, text: str) -> list[str]: ...

    def to_dict(self) -> dict: ...


def split_by_matches(
    text: NormalizedString, matches: list[tuple[int, int]], behavior: str, invert: bool = False
) -> list[NormalizedString]:
    """Cut ``text`` at ``matches`` (sorted, non-overlapping ``(start, end)``) as `tokenizers` does.

        >>> [p.normalized for p in split_by_matches(NormalizedString.from_str("a-b"), [(1, 2)], "MergedWithNext")]
        ['a', '-b']

    ``Removed`` drops the matches, ``Isolated`` keeps them as pieces, ``MergedWith…``
    glues each to its neighbour, ``Contiguous`` keeps runs of adjacent matches together.
    ``invert`` swaps what counts as a match.
    """
    n = len(text.normalized)
    marked: list[tuple[int, int, bool]] = []  # every part of text, flagged if it is a match
    prev = 0
    for a, b in matches:
        if prev != a:
            marked.append((prev, a, invert))
        marked.append((a, b, not invert))
        prev = b
    if prev != n:
        marked.append((prev, n, invert))
    if behavior == "Removed":
        spans = [(a, b) for a, b, m in marked if not m]
    elif behavior == "Isolated":
        spans = [(a, b) for a, b, _ in marked]
    elif behavior == "MergedWithPrevious":
        spans, previous = [], False
        for a, b, m in marked:
            if m and not previous and spans:
                spans[-1] = (spans[-1][0], b)
            else:
                spans.append((a, b))
            previous = m
    elif behavior == "MergedWithNext":
        spans, previous = [], False
        for a, b, m in reversed(marked):
            if m and not previous and spans:
                spans[-1] = (a, spans[-1][1])
            else:
                spans.append((a, b))
            previous = m
        spans.reverse()
    elif behavior == "Contiguous":
        spans, previous = [], False
        for a, b, m in marked:
            if m == previous and spans:
                spans[-1] = (spans[-1][0], b)
            else:
                spans.append((a, b))
            previous = m
    else:
        raise ConfigError(f"unknown split behavior {behavior!r}; choose from {', '.join(BEHAVIORS)}")
    return [text.slice(a, b) for a, b in spans if b > a]


def _char_matches(s: str, pred) -> list[tuple[int, int]]:
    """Each character for which ``pred`` holds is a match on its own (a `tokenizers` char pattern)."""
    return [(i, i + 1) for i, c in enumerate(s) if pred(c)]


def _behavior_from(d: dict, default: str = "Isolated") -> str:
    b = d.get("behavior", default)
    if isinstance(b, str) and b.lower() in {x.lower() for x in BEHAVIORS}:
        return next(x for x in BEHAVIORS if x.lower() == b.lower())
    raise ConfigError(f"unknown split behavior {b!r}; choose from {', '.join(BEHAVIORS)}")


class _Base:
    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        raise NotImplementedError

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        return [(p.normalized, p.offsets) for p in self.pre_tokenize(NormalizedString.from_str(text))]

    def split_words(self, text: str) -> list[str]:
        return [p.normalized for p in self.pre_tokenize(NormalizedString.from_str(text))]

    @property
    def word_pattern(self) -> regex.Pattern | None:
        """The compiled pattern whose matches are the pre-tokens, all the rest dropped (what
        the chunk cache and a model's compiled line encoder cut with); None when the pieces
        are not simply its matches."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class _RegexMatches(_Base):
    """Pieces are the regex's matches; whatever lies between them is dropped."""

    pattern: str = ""

    @cached_property
    def _re(self) -> regex.Pattern:
        # Compiled on first use: ASCII text is counted with `re` (see Whitespace), and a small
        # training job that never imports `regex` saves ~12 ms.
        import regex

        return regex.compile(_explicit_whitespace(self.pattern))

    @property
    def word_pattern(self) -> regex.Pattern:
        return self._re

    def split_words(self, text: str) -> list[str]:
        return self._re.findall(text)

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        return [
            text.slice(m.start(), m.end()) for m in self._re.finditer(text.normalized) if m.end() > m.start()
        ]


# The two patterns spelled for ASCII text, for the standard library's `re`, which finds their
# matches in about 60% of `regex`'s time (0.28 MB of English: 9 ms against 15). ASCII White_Space
# is \t-\r and the space (not \x1c-\x1f, which str.isspace and re's \s also take).
_ASCII_WHITESPACE_WORDS = re.compile(r"[0-9A-Za-z_]+|[^0-9A-Za-z_\t-\r ]+").findall
_ASCII_BERT_WORDS = re.compile(r"[^\t-\r !-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]").findall
# GPT2_PATTERN for ASCII text: \p{L} is [A-Za-z] there, \p{N} [0-9], White_Space [\t-\r ].
_ASCII_GPT2_PIECES = re.compile(
    r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\t-\r A-Za-z0-9]+|[\t-\r ]+(?![^\t-\r ])|[\t-\r ]+"
).findall


class Whitespace(_RegexMatches):
    """``\\w+|[^\\w\\s]+``, as Hugging Face ``pre_tokenizers.Whitespace``."""

    pattern = WHITESPACE_PATTERN

    def split_words(self, text: str) -> list[str]:
        # (str.isascii costs nothing: a str knows whether it is ASCII)
        return _ASCII_WHITESPACE_WORDS(text) if text.isascii() else self._re.findall(text)

    def to_dict(self) -> dict:
        return {"type": "Whitespace"}


class WhitespaceSplit(_RegexMatches):
    """Split on whitespace only: Korean's 어절 (eojeol: the space-separated units)."""

    pattern = r"\S+"

    def split_words(self, text: str) -> list[str]:
        # subtle: str.split() also splits at U+001C..U+001F, which are not White_Space
        # (otherwise both agree), so it is the fast path whenever those are absent
        if "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text:
            return self._re.findall(text)
        return text.split()

    def to_dict(self) -> dict:
        return {"type": "WhitespaceSplit"}


class BertPreTokenizer(_RegexMatches):
    """Whitespace split, then every punctuation character on its own."""

    pattern = BERT_PATTERN

    def split_words(self, text: str) -> list[str]:
        return _ASCII_BERT_WORDS(text) if text.isascii() else self._re.findall(text)

    def to_dict(self) -> dict:
        return {"type": "BertPreTokenizer"}


class GPT2Split(_RegexMatches):
    """The GPT-2 regex, pieces keep their leading space (no byte mapping)."""

    pattern = GPT2_PATTERN

    def to_dict(self) -> dict:
        return {
            "type": "Split",
            "pattern": {"Regex": GPT2_PATTERN},
            "behavior": "Isolated",
            "invert": False,
        }


def _prepend(text: NormalizedString, prefix: str) -> NormalizedString:
    """``prefix`` + text; as `tokenizers`' ``prepend``, every new character spans the first old one."""
    span = text.alignments[0] if text.alignments else (0, 0)
    return NormalizedString(
        prefix + text.normalized, [span] * len(prefix) + text.alignments, text.original_length
    )


class ByteLevel(BytePiecesMemo, _Base):
    """GPT-2 regex, then each piece's UTF-8 bytes written in the 256-symbol alphabet.

    Every byte character keeps the original span of the character it came from.
    ``add_prefix_space`` puts a space before text that does not start with one
    (it spans the text's first character, as in `tokenizers`).
    ``trim_offsets`` only matters to the ByteLevel *post-processor* (see core.tokenizer).
    """

    def __init__(self, add_prefix_space: bool = False, use_regex: bool = True, trim_offsets: bool = True):
        self.add_prefix_space = add_prefix_space
        self.use_regex = use_regex
        self.trim_offsets = trim_offsets

    @cached_property
    def _re(self) -> regex.Pattern:
        import regex  # on first use, as _RegexMatches._re

        return regex.compile(_explicit_whitespace(GPT2_PATTERN))

    def _prefixed(self, text: str) -> str:
        if self.add_prefix_space and text and not text.startswith(" "):
            return " " + text
        return text

    def split_words(self, text: str) -> list[str]:
        return self.raw_to_words(self.split_raw(text))

    def split_raw(self, text: str) -> list[str]:
        """The pieces of ``text`` as they are, before the byte alphabet (the ids path caches by them)."""
        text = self._prefixed(text)
        if not self.use_regex:
            return [text] if text else []
        if text.isascii():  # (the pattern matches no empty piece)
            return _ASCII_GPT2_PIECES(text)
        return list(filter(None, self._re.findall(text)))

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        if self.add_prefix_space and text.normalized and not text.normalized.startswith(" "):
            text = _prepend(text, " ")
        if self.use_regex:
            matches = [m.span() for m in self._re.finditer(text.normalized)]
            pieces = split_by_matches(text, matches, "Isolated")
        else:
            pieces = [text] if text.normalized else []
        return [_to_bytes(p) for p in pieces]

    def to_dict(self) -> dict:
        return {
            "type": "ByteLevel",
            "add_prefix_space": self.add_prefix_space,
            "trim_offsets": self.trim_offsets,
            "use_regex": self.use_regex,
        }

    @classmethod
    def from_dict(cls, d: dict) -> ByteLevel:
        return cls(d.get("add_prefix_space", True), d.get("use_regex", True), d.get("trim_offsets", True))

    def __repr__(self) -> str:
        return f"ByteLevel(add_prefix_space={self.add_prefix_space}, use_regex={self.use_regex})"


def _to_bytes(piece: NormalizedString) -> NormalizedString:
    s = piece.normalized
    if s.isascii():
        return NormalizedString(bytes_to_chars(s.encode("ascii")), piece.alignments, piece.original_length)
    chars: list[str] = []
    aligns: list[tuple[int, int]] = []
    for c, span in zip(s, piece.alignments):
        encoded = c.encode("utf-8")
        for b in encoded:
            chars.append(BYTE_TO_CHAR[b])
        aligns.extend([span] * len(encoded))
    return NormalizedString("".join(chars), aligns, piece.original_length)


class TiktokenSplit(BytePiecesMemo, _Base):
    """Split with a tiktoken pattern, then write each piece's bytes in the GPT-2 alphabet.

    >>> TiktokenSplit("gpt2").pre_tokenize_str("Hi 한")
    [('Hi', (0, 2)), ('Ġíķľ', (2, 4))]
    """

    def __init__(self, pattern: str = "cl100k_base"):
        import regex

        self.pattern = resolve_pattern(pattern)  # first: it refuses a pattern that is not text
        self.name = pattern if pattern in TIKTOKEN_PATTERNS else None
        self._re = regex.compile(self.pattern)
        if (
            self.pattern not in TIKTOKEN_PATTERNS.values()
        ):  # a file's own pattern: it may backtrack without end
            from core.limits import bounded_pattern

            self._re = bounded_pattern(self._re, "split pattern")

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        out = []
        for m in self._re.finditer(text.normalized):
            piece = text.slice(m.start(), m.end())
            chars: list[str] = []
            aligns: list[tuple[int, int]] = []
            for c, span in zip(piece.normalized, piece.alignments):
                encoded = c.encode("utf-8", errors="surrogatepass")
                chars.extend(BYTE_TO_CHAR[b] for b in encoded)
                aligns.extend([span] * len(encoded))
            out.append(NormalizedString("".join(chars), aligns, piece.original_length))
        return out

    def split_words(self, text: str) -> list[str]:
        return self.raw_to_words(self.split_raw(text))

    def split_raw(self, text: str) -> list[str]:
        """The pieces of ``text`` as they are, before the byte alphabet (the ids path caches by them)."""
        return self._re.findall(text)

    def to_dict(self) -> dict:
        return {
            "type": "Sequence",
            "pretokenizers": [
                {
                    "type": "Split",
                    "pattern": {"Regex": self.pattern},
                    "behavior": "Isolated",
                    "invert": False,
                },
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
            ],
        }

    def __repr__(self) -> str:
        return f"TiktokenSplit({self.name or 'custom'!r})"


class Metaspace(_Base):
    """SentencePiece style: spaces become ``▁`` and each ``▁`` starts a new piece.

    ``prepend_scheme``: ``"always"`` puts a ``▁`` before text that lacks one,
    ``"first"`` only before text that starts the input (original offset 0),
    ``"never"`` not at all. A prepended ``▁`` spans the first character, as in `tokenizers`.
    """

    def __init__(self, replacement: str = "▁", prepend_scheme: str = "always", split: bool = True):
        if prepend_scheme not in ("always", "first", "never"):
            raise ConfigError(f"prepend_scheme must be always, first or never, not {prepend_scheme!r}")
        if not isinstance(replacement, str) or len(replacement) != 1:
            raise ConfigError(f"the Metaspace replacement must be one character, not {replacement!r}")
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = split

    def _replaced(self, text: NormalizedString, first_section: bool = True) -> NormalizedString:
        r = self.replacement
        s = text.normalized
        if " " in s:
            text = NormalizedString(s.replace(" ", r), text.alignments, text.original_length)
        if not text.normalized or text.normalized.startswith(r):
            return text
        if self.prepend_scheme == "always" or (
            self.prepend_scheme == "first" and first_section and text.alignments[0][0] == 0
        ):
            text = _prepend(text, r)
        return text

    def pre_tokenize(self, text: NormalizedString, first_section: bool = True) -> list[NormalizedString]:
        text = self._replaced(text, first_section)
        s = text.normalized
        if not self.split:
            return [text] if s else []
        cuts = [i for i, c in enumerate(s) if c == self.replacement and i > 0]
        bounds = [0] + cuts + [len(s)]
        return [text.slice(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]

    def split_words(self, text: str, first_section: bool = True) -> list[str]:
        """Fast path (no per-character offsets): counting a corpus calls this on every line.
        ``first_section`` says ``text`` starts the input (at offset 0), for ``prepend_scheme="first"``."""
        r = self.replacement
        s = text.replace(" ", r)
        if (
            s
            and not s.startswith(r)
            and (self.prepend_scheme == "always" or (self.prepend_scheme == "first" and first_section))
        ):
            s = r + s
        if not self.split:
            return [s] if s else []
        parts = s.split(r)
        return ([parts[0]] if parts[0] else []) + [r + p for p in parts[1:]]

    def to_dict(self) -> dict:
        return {
            "type": "Metaspace",
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
            "split": self.split,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Metaspace:
        scheme = d.get("prepend_scheme")
        if scheme is None:  # older files: add_prefix_space
            scheme = "always" if d.get("add_prefix_space", True) else "never"
        return cls(d.get("replacement", "▁"), scheme, d.get("split", True))

    def __repr__(self) -> str:
        return f"Metaspace({self.replacement!r}, prepend_scheme={self.prepend_scheme!r})"


class Split(_Base):
    """Cut at matches of a string or regex with a behavior: ``Split("-", "Isolated")``: ``a-b`` -> ``a - b``."""

    def __init__(self, pattern, behavior: str = "Isolated", invert: bool = False):
        self.pattern = pattern if isinstance(pattern, dict) else {"String": pattern}
        self.behavior = _behavior_from({"behavior": behavior})
        self.invert = bool(invert)
        if "Regex" in self.pattern and isinstance(self.pattern["Regex"], str):
            self._re = compile_pattern(
                {"Regex": _explicit_whitespace(self.pattern["Regex"])}, "Split pattern", self.pattern["Regex"]
            )
        else:
            self._re = compile_pattern(self.pattern, "Split pattern")

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        matches = [m.span() for m in self._re.finditer(text.normalized)]
        return split_by_matches(text, matches, self.behavior, self.invert)

    def to_dict(self) -> dict:
        return {
            "type": "Split",
            "pattern": dict(self.pattern),
            "behavior": self.behavior,
            "invert": self.invert,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Split:
        return cls(d.get("pattern"), _behavior_from(d), d.get("invert", False))

    def __repr__(self) -> str:
        return f"Split({self.pattern!r}, {self.behavior!r}, invert={self.invert})"


def is_bert_punctuation(c: str) -> bool:
    """ASCII punctuation or any Unicode P* character: ``$`` and ``、`` are, ``a`` is not."""
    return (c.isascii() and c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") or unicodedata.category(c)[0] == "P"


class Punctuation(_Base):
    """Each punctuation character is a match, handled by ``behavior`` (default Isolated)."""

    def __init__(self, behavior: str = "Isolated"):
        self.behavior = _behavior_from({"behavior": behavior})

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        return split_by_matches(text, _char_matches(text.normalized, is_bert_punctuation), self.behavior)

    def to_dict(self) -> dict:
        return {"type": "Punctuation", "behavior": self.behavior}

    @classmethod
    def from_dict(cls, d: dict) -> Punctuation:
        return cls(_behavior_from(d))


def _is_rust_numeric(c: str) -> bool:
    return unicodedata.category(c) in ("Nd", "Nl", "No")


class Digits(_Base):
    """Cut numbers out: ``a123`` -> ``a 123``, or ``a 1 2 3`` with ``individual_digits``."""

    def __init__(self, individual_digits: bool = False):
        self.individual_digits = bool(individual_digits)

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        behavior = "Isolated" if self.individual_digits else "Contiguous"
        return split_by_matches(text, _char_matches(text.normalized, _is_rust_numeric), behavior)

    def to_dict(self) -> dict:
        return {"type": "Digits", "individual_digits": self.individual_digits}

    @classmethod
    def from_dict(cls, d: dict) -> Digits:
        return cls(d.get("individual_digits", False))


class CharDelimiterSplit(_Base):
    """Cut at one character, dropping it: ``a|b`` -> ``a b``."""

    def __init__(self, delimiter: str):
        if not isinstance(delimiter, str) or len(delimiter) != 1:
            raise ConfigError(f"the delimiter must be one character, not {delimiter!r}")
        self.delimiter = delimiter

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        return split_by_matches(
            text, _char_matches(text.normalized, lambda c: c == self.delimiter), "Removed"
        )

    def to_dict(self) -> dict:
        return {"type": "CharDelimiterSplit", "delimiter": self.delimiter}

    @classmethod
    def from_dict(cls, d: dict) -> CharDelimiterSplit:
        return cls(d.get("delimiter"))


class FixedLength(_Base):
    """Pieces of ``length`` characters (the last may be shorter): ``abcdefg`` -> ``abcde fg``."""

    def __init__(self, length: int = 5):
        if not isinstance(length, int) or length < 1:
            raise ConfigError(f"FixedLength needs a length of at least 1, not {length!r}")
        self.length = length

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        n = len(text.normalized)
        return [text.slice(a, min(a + self.length, n)) for a in range(0, n, self.length)]

    def to_dict(self) -> dict:
        return {"type": "FixedLength", "length": self.length}

    @classmethod
    def from_dict(cls, d: dict) -> FixedLength:
        return cls(d.get("length", 5))


def _script_names() -> list[str]:
    """Every Unicode script name the `regex` module knows (``\\p{Script=...}`` values)."""
    # subtle: `regex` keeps its property tables in a private module; a public list does not exist
    from regex import _regex_core

    values = _regex_core.PROPERTIES["SCRIPT"][1]
    by_number: dict[int, str] = {}
    for name, number in values.items():
        if len(name) > 4 or number not in by_number:  # prefer the long name to the 4-letter code
            by_number[number] = name
    return [n for _, n in sorted(by_number.items())]


@lru_cache(maxsize=1)
def _script_regex() -> regex.Pattern:
    import regex

    # a character has one script, so the order of the alternatives changes nothing but the time:
    # the common scripts first (a Han or Hangul character tried ~70 others before, ~10 us each)
    first = {n: i for i, n in enumerate(_COMMON_SCRIPTS)}
    names = sorted((n for n in _script_names() if n.isidentifier()), key=lambda n: first.get(n, len(first)))
    return regex.compile("|".join(f"(?P<{n}>\\p{{Script={n}}})" for n in names))


_COMMON_SCRIPTS = (
    "COMMON",
    "LATIN",
    "HAN",
    "HANGUL",
    "HIRAGANA",
    "KATAKANA",
    "INHERITED",
    "CYRILLIC",
    "GREEK",
    "ARABIC",
    "HEBREW",
    "THAI",
    "DEVANAGARI",
    "UNKNOWN",
)


@lru_cache(maxsize=1)
def _common_script_regex() -> regex.Pattern:
    """:func:`_script_regex` for the common scripts only: ~1 ms to compile where the whole one
    takes ~15 ms, which a short training (the scripts of a novel's few thousand characters) felt."""
    import regex

    return regex.compile("|".join(f"(?P<{n}>\\p{{Script={n}}})" for n in _COMMON_SCRIPTS))


# Blocks (or runs of them) whose every code point has one script in Unicode's Scripts.txt, as
# (first, last, script) sorted: most characters of a text in the common scripts are answered here,
# without `regex` (whose import and pattern cost ~25 ms of CPU, a tenth of a short training), and a
# test checks every code point of them against `regex`'s tables. Kana are Han, as below.
_SCRIPT_RUNS: tuple[tuple[int, int, str], ...] = (
    (0x00A0, 0x00A9, "COMMON"),
    (0x00AA, 0x00AA, "LATIN"),
    (0x00AB, 0x00B9, "COMMON"),
    (0x00BA, 0x00BA, "LATIN"),
    (0x00BB, 0x00BF, "COMMON"),
    (0x00C0, 0x00D6, "LATIN"),
    (0x00D7, 0x00D7, "COMMON"),
    (0x00D8, 0x00F6, "LATIN"),
    (0x00F7, 0x00F7, "COMMON"),
    (0x00F8, 0x024F, "LATIN"),
    (0x02B9, 0x02DF, "COMMON"),
    (0x0391, 0x03A1, "GREEK"),
    (0x03A3, 0x03C9, "GREEK"),
    (0x0410, 0x044F, "CYRILLIC"),
    (0x1100, 0x11FF, "HANGUL"),
    (0x1E00, 0x1EFF, "LATIN"),
    (0x2010, 0x2027, "COMMON"),
    (0x2030, 0x205E, "COMMON"),
    (0x2150, 0x215F, "COMMON"),
    (0x2160, 0x2188, "LATIN"),
    (0x2190, 0x23FF, "COMMON"),
    (0x2460, 0x24FF, "COMMON"),
    (0x2500, 0x27BF, "COMMON"),
    (0x3000, 0x3004, "COMMON"),
    (0x3005, 0x3005, "HAN"),
    (0x3006, 0x3006, "COMMON"),
    (0x3007, 0x3007, "HAN"),
    (0x3008, 0x3020, "COMMON"),
    (0x3021, 0x3029, "HAN"),
    (0x3030, 0x3037, "COMMON"),
    (0x3038, 0x303B, "HAN"),
    (0x303C, 0x303F, "COMMON"),
    (0x3041, 0x3096, "HAN"),
    (0x309B, 0x309C, "COMMON"),
    (0x309D, 0x309F, "HAN"),
    (0x30A0, 0x30A0, "COMMON"),
    (0x30A1, 0x30FA, "HAN"),
    (0x30FB, 0x30FB, "COMMON"),
    (0x30FC, 0x30FC, "HAN"),
    (0x30FD, 0x30FF, "HAN"),
    (0x3131, 0x318E, "HANGUL"),
    (0x3400, 0x4DBF, "HAN"),
    (0x4E00, 0x9FFF, "HAN"),
    (0xAC00, 0xD7A3, "HANGUL"),
    (0xF900, 0xFA6D, "HAN"),
    (0xFA70, 0xFAD9, "HAN"),
    (0xFF01, 0xFF20, "COMMON"),
    (0xFF21, 0xFF3A, "LATIN"),
    (0xFF3B, 0xFF40, "COMMON"),
    (0xFF41, 0xFF5A, "LATIN"),
    (0xFF5B, 0xFF65, "COMMON"),
    (0xFF66, 0xFF6F, "HAN"),
    (0xFF70, 0xFF70, "COMMON"),
    (0xFF71, 0xFF9D, "HAN"),
    (0xFF9E, 0xFF9F, "COMMON"),
    (0xFFE0, 0xFFE6, "COMMON"),
    (0xFFE8, 0xFFEE, "COMMON"),
    (0x1F300, 0x1F5FF, "COMMON"),
    (0x1F600, 0x1F64F, "COMMON"),
    (0x1F900, 0x1F9FF, "COMMON"),
)
_SCRIPT_RUN_FIRSTS = tuple(first for first, _, _ in _SCRIPT_RUNS)


@lru_cache(maxsize=65536)
def _unicode_script(c: str) -> str:
    """The script `tokenizers`' UnicodeScripts groups ``c`` under: kana and ``ー`` count as Han,
    a space as "Any" (joins any neighbour)."""
    if c < "\x80":  # ASCII: Latin letters, the rest Common (Unicode's Scripts.txt), without `regex`
        return "ANY" if c == " " else "LATIN" if c.isalpha() else "COMMON"
    code = ord(c)
    k = bisect_right(_SCRIPT_RUN_FIRSTS, code) - 1
    if k >= 0 and code <= _SCRIPT_RUNS[k][1]:
        return _SCRIPT_RUNS[k][2]
    return _script_from_tables(c)


def _script_from_tables(c: str) -> str:
    """:func:`_unicode_script` read from `regex`'s Unicode tables."""
    if c == "\u30fc":
        return "HAN"
    m = _common_script_regex().match(c) or _script_regex().match(c)
    name = m.lastgroup if m else "UNKNOWN"
    return "HAN" if name in ("HIRAGANA", "KATAKANA") else name


class UnicodeScripts(_Base):
    """Cut where the Unicode script changes: ``こんにちはworld`` -> ``こんにちは world``; spaces join
    the piece before them (and leading spaces are dropped, as `tokenizers` does)."""

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        cuts: list[int] = []
        last = None
        for i, c in enumerate(text.normalized):
            script = _unicode_script(c)
            if script != "ANY" and last != "ANY" and last != script:
                cuts.append(i)
            if script != "ANY":
                last = script
        cuts.append(len(text.normalized))
        return [text.slice(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]

    def to_dict(self) -> dict:
        return {"type": "UnicodeScripts"}


class NoSplit(_Base):
    """The whole input (one line of a corpus) is one piece: BPE as compression."""

    def split_words(self, text: str) -> list[str]:
        return [text] if text else []

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        return [text] if text.normalized else []

    def to_dict(self) -> dict:
        # subtle: `tokenizers` has no "no-op" pre-tokenizer type; a tokenizer.json
        # simply has `"pre_tokenizer": null`. `core.formats.hf_json` writes null for this.
        return {"type": "NoSplit"}


class Sequence(_Base):
    """Apply pre-tokenizers in turn, each on the pieces of the previous one."""

    def __init__(self, pre_tokenizers: list[PreTokenizer]):
        self.pre_tokenizers = list(pre_tokenizers)

    def pre_tokenize(self, text: NormalizedString, first_section: bool = True) -> list[NormalizedString]:
        pieces = [text]
        for p in self.pre_tokenizers:
            if isinstance(p, (Metaspace, Sequence)):
                pieces = [q for piece in pieces for q in p.pre_tokenize(piece, first_section)]
            else:
                pieces = [q for piece in pieces for q in p.pre_tokenize(piece)]
        return pieces

    def to_dict(self) -> dict:
        return {"type": "Sequence", "pretokenizers": [p.to_dict() for p in self.pre_tokenizers]}

    def __repr__(self) -> str:
        return f"Sequence({self.pre_tokenizers!r})"


# Pre-tokenizers defined in modules above this one, as "module:class": core.morphemes builds
# MorphemeSplit on Metaspace, so this module names it and imports it only when it is asked for.
# (Importing it here would tie the two modules in a cycle; the "type" tag stays "MorphemeSplit".)
MORPHEME_SPLIT = "core.morphemes:MorphemeSplit"


def _defined_above(target: str):
    """The class ``"module:class"`` names, imported now (see ``MORPHEME_SPLIT``)."""
    import importlib

    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def _korean_morphemes() -> PreTokenizer:
    return _defined_above(MORPHEME_SPLIT)("ko")


def _japanese_morphemes() -> PreTokenizer:
    return _defined_above(MORPHEME_SPLIT)("ja")


def superbpe_stage2() -> PreTokenizer:
    """SuperBPE's stage 2 and its tokenizer: :data:`SUPERBPE_STAGE2_PATTERN` (isolated), then
    bytes, no other split (the reference's tokenizer.json: ``Split`` then ``ByteLevel`` without
    its regex).

        >>> superbpe_stage2().split_words("by the way, 2025...")
        ['byĠtheĠway,Ġ', '202', '5', '...']
    """
    return Sequence(
        [
            Split({"Regex": SUPERBPE_STAGE2_PATTERN}, "Isolated"),
            ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )


def superbpe_unsplit() -> PreTokenizer:
    """SuperBPE's stage 2 without any split: each line (after the normalizer) is one piece of bytes."""
    return ByteLevel(add_prefix_space=False, use_regex=False)


_PLAIN_LINE_CHARS = 4192 // 4  # a line this long is at most 4192 bytes in UTF-8 (spm_train's limit)


class SentencePieceWords(_Base):
    """The words spm_train learns from, one corpus line at a time: the line normalized as
    ``--normalization_rule_name=identity`` (extra spaces dropped, a dummy ``▁`` in front, or at
    the end with ``treat_whitespace_as_suffix``), every meta piece (``<unk>``, ``<s>``,
    user-defined symbols) replaced by a tab no piece may cross, then cut before each ``▁``
    (after it, with ``treat_whitespace_as_suffix``). A line longer than 4192 bytes, or holding
    ``▅``, is skipped, as spm_train skips it.

        >>> SentencePieceWords().split_words("  Hello   world ")
        ['▁Hello', '▁world']
        >>> SentencePieceWords(treat_whitespace_as_suffix=True).split_words("a b")
        ['a▁', 'b▁']
    """

    def __init__(
        self,
        add_dummy_prefix: bool = True,
        treat_whitespace_as_suffix: bool = False,
        meta_pieces: list[str] | tuple[str, ...] = ("<unk>", "<s>", "</s>"),
        mark_line_end: bool = False,
    ):
        from core.normalizers_sentencepiece import SentencePieceNormalizer
        from core.sentencepiece_pieces import PrefixMatcher

        self.add_dummy_prefix = add_dummy_prefix
        self.treat_whitespace_as_suffix = treat_whitespace_as_suffix
        self.meta_pieces = tuple(meta_pieces)
        # Unigram seeding tells a word that ends a line from one followed by another word: the
        # last word of a line then ends in LINE_END (core.sentencepiece_training)
        self.mark_line_end = mark_line_end
        self._normalizer = SentencePieceNormalizer(
            b"", add_dummy_prefix=add_dummy_prefix, treat_whitespace_as_suffix=treat_whitespace_as_suffix
        )
        self._meta = PrefixMatcher(list(self.meta_pieces))
        self._meta_starts = frozenset(p[0] for p in self.meta_pieces)

    def _cut_meta(self, s: str) -> str:
        if not self._meta_starts.intersection(s):
            return s
        out = []
        i = 0
        while i < len(s):
            k = self._meta.match(s, i) if s[i] in self._meta_starts else 0
            out.append("\t" if k else s[i])
            i += k or 1
        return "".join(out)

    def split_words(self, text: str) -> list[str]:
        if "\u2585" in text or len(text.encode("utf-8", "surrogatepass")) > 4192:
            return []
        s = self._cut_meta(self._normalizer.normalize_str(text))
        if not s:
            return []
        if self.treat_whitespace_as_suffix:
            parts = s.split("▁")
            words = [p + "▁" for p in parts[:-1]]
            if parts[-1]:
                words.append(parts[-1])
            return [w for w in words if w]
        parts = s.split("▁")
        words = ([parts[0]] if parts[0] else []) + ["▁" + p for p in parts[1:]]
        if self.mark_line_end and words:
            words[-1] += "\x00"
        return words

    def count_block(self, block: str, counts: Counter[str]) -> list[str]:
        """Add to ``counts`` the words of the lines of ``block`` (joined by "\\n") that need nothing
        but their spaces handled, all at once; returns the other lines, for :meth:`split_words`.

        Those lines' words are their space-separated tokens, each after a ``▁`` (the dummy prefix
        or the space before it), so one split of the whole block counts them. Lines that hold a
        ``▁`` or ``▅``, a character a meta piece or a rewrite starts with, or that may pass 4192
        bytes take the line-by-line path; so does everything when the words are not that simple
        (no dummy prefix, ``▁`` as a suffix). With line ends marked, each line's last word gets
        its mark before the split.

            >>> counts = Counter()
            >>> SentencePieceWords().count_block("  Hello   world \\nhello <s>\\n ", counts), counts
            (['hello <s>'], Counter({'▁Hello': 1, '▁world': 1}))
        """
        lines = block.split("\n")
        if not self.add_dummy_prefix or self.treat_whitespace_as_suffix:
            return lines
        special = self.__dict__.get("_special")
        if special is None:
            chars = sorted(
                frozenset("\u2581\u2585").union(
                    self._meta_starts,
                    self._normalizer._key_starts(),
                    "\x00" if self.mark_line_end else "",  # (the mark itself: such a line goes alone)
                )
            )
            special = self._special = re.compile("[" + "".join(map(re.escape, chars)) + "]").search
        if max(map(len, lines)) <= _PLAIN_LINE_CHARS and not special(block):
            plain, rest = block, []
        else:  # (a regular expression scans a line far faster than a set looks up its characters)
            rest = [t for t in lines if len(t) > _PLAIN_LINE_CHARS or special(t)]
            plain = "\n".join(t for t in lines if len(t) <= _PLAIN_LINE_CHARS and not special(t))
        if self.mark_line_end:  # a line's last word ends in LINE_END ("\x00"); a blank line has none
            plain = "\n".join(t.rstrip(" ") + "\x00" if t.strip(" ") else "" for t in plain.split("\n"))
        # a ▁ after every space (and line end): the words are then what lies between spaces, and
        # an empty one (spaces in a row, a line's ends) a lone "▁", taken out again below
        words = ("\u2581" + plain.replace("\n", " ").replace(" ", " \u2581")).split(" ")
        counts.update(words)
        empty = words.count("\u2581")
        if empty:
            left = counts["\u2581"] - empty
            if left:
                counts["\u2581"] = left
            else:
                del counts["\u2581"]
        return rest

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        raise ConfigError(
            "the SentencePiece word split only counts a corpus; a trained model has no pre-tokenizer"
        )

    def to_dict(self) -> dict:
        return {
            "type": "SentencePieceWords",
            "add_dummy_prefix": self.add_dummy_prefix,
            "treat_whitespace_as_suffix": self.treat_whitespace_as_suffix,
            "meta_pieces": list(self.meta_pieces),
            "mark_line_end": self.mark_line_end,
        }


# Names accepted on the command line and in the GUI (a class or a factory of no arguments).
PRE_TOKENIZER_NAMES: dict[str, type] = {
    "whitespace": Whitespace,
    "whitespace-split": WhitespaceSplit,
    "bert": BertPreTokenizer,
    "gpt2": GPT2Split,
    "bytelevel": ByteLevel,
    "metaspace": Metaspace,
    "punctuation": Punctuation,
    "digits": Digits,
    "none": NoSplit,
    "ko-morph": _korean_morphemes,  # core.morphemes: kiwipiepy
    "ja-morph": _japanese_morphemes,  # core.morphemes: SudachiPy
    "superbpe": superbpe_stage2,  # SuperBPE's stage 2 (the default of --algorithm superbpe)
    "superbpe-unsplit": superbpe_unsplit,
    "sentencepiece": SentencePieceWords,  # spm_train's words (the sentencepiece-* algorithms)
}

# `"type"` tags of tokenizer.json.
PRE_TOKENIZER_TYPES: dict[str, type] = {
    "Whitespace": Whitespace,
    "WhitespaceSplit": WhitespaceSplit,
    "BertPreTokenizer": BertPreTokenizer,
    "ByteLevel": ByteLevel,
    "Metaspace": Metaspace,
    "Split": Split,
    "Punctuation": Punctuation,
    "Digits": Digits,
    "CharDelimiterSplit": CharDelimiterSplit,
    "FixedLength": FixedLength,
    "UnicodeScripts": UnicodeScripts,
    "NoSplit": NoSplit,
}


def pre_tokenizer_from_name(name: str) -> PreTokenizer:
    cls = PRE_TOKENIZER_NAMES.get(name.lower())
    if cls is None:
        raise ConfigError(f"unknown pre-tokenizer {name!r}; choose from {', '.join(PRE_TOKENIZER_NAMES)}")
    return cls()


def pre_tokenizer_from_dict(d: dict | None) -> PreTokenizer | None:
    if d is None:
        return None
    kind = d.get("type")
    if kind == "Sequence":
        return Sequence([pre_tokenizer_from_dict(x) for x in d.get("pretokenizers", [])])
    if (
        kind == "Split"
        and isinstance(d.get("pattern"), dict)
        and d["pattern"].get("Regex") == GPT2_PATTERN
        and d.get("behavior") == "Isolated"
        and not d.get("invert", False)
    ):
        return GPT2Split()
    if kind == "MorphemeSplit":  # ours: an analyser `tokenizers` cannot hold (core.morphemes)
        return _defined_above(MORPHEME_SPLIT).from_dict(d)
    cls = PRE_TOKENIZER_TYPES.get(kind)
    if cls is None:
        raise ConfigError(f"unsupported pre-tokenizer type {kind!r}")
    from_dict = getattr(cls, "from_dict", None)
    return from_dict(d) if from_dict else cls()
