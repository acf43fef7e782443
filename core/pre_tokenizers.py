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
"""

from __future__ import annotations

from typing import Protocol

import regex

from core.bytelevel import BYTE_TO_CHAR, bytes_to_chars
from core.errors import ConfigError
from core.text import NormalizedString

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
WHITESPACE_PATTERN = r"\w+|[^\w\s]+"
# BERT's punctuation: every Unicode P* character plus the ASCII symbols it treats as punctuation.
_BERT_PUNCT = r"\p{P}!-/:-@\[-`{-~"
BERT_PATTERN = rf"[^\s{_BERT_PUNCT}]+|[{_BERT_PUNCT}]"


class PreTokenizer(Protocol):
    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]: ...

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]: ...

    def split_words(self, text: str) -> list[str]: ...

    def to_dict(self) -> dict: ...


class _Base:
    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        return [(p.normalized, p.offsets) for p in self.pre_tokenize(NormalizedString.from_str(text))]

    def split_words(self, text: str) -> list[str]:
        return [p.normalized for p in self.pre_tokenize(NormalizedString.from_str(text))]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class _RegexMatches(_Base):
    """Pieces are the regex's matches; whatever lies between them is dropped."""

    pattern: str = ""

    def __init__(self) -> None:
        self._re = regex.compile(self.pattern)

    def split_words(self, text: str) -> list[str]:
        return self._re.findall(text)

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        return [text.slice(m.start(), m.end()) for m in self._re.finditer(text.normalized)]


class Whitespace(_RegexMatches):
    """``\\w+|[^\\w\\s]+``, as Hugging Face ``pre_tokenizers.Whitespace``."""

    pattern = WHITESPACE_PATTERN

    def to_dict(self) -> dict:
        return {"type": "Whitespace"}


class WhitespaceSplit(_RegexMatches):
    """Split on whitespace only: the seeds' 어절 (space-separated units)."""

    pattern = r"\S+"

    def split_words(self, text: str) -> list[str]:
        return text.split()

    def to_dict(self) -> dict:
        return {"type": "WhitespaceSplit"}


class BertPreTokenizer(_RegexMatches):
    """Whitespace split, then every punctuation character on its own."""

    pattern = BERT_PATTERN

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


class ByteLevel(_Base):
    """GPT-2 regex, then each piece's UTF-8 bytes written in the 256-symbol alphabet.

    Every byte character keeps the original span of the character it came from.
    ``add_prefix_space`` puts a space before text that does not start with one.
    """

    def __init__(self, add_prefix_space: bool = False, use_regex: bool = True, trim_offsets: bool = True):
        self.add_prefix_space = add_prefix_space
        self.use_regex = use_regex
        self.trim_offsets = trim_offsets
        self._re = regex.compile(GPT2_PATTERN)

    def _prefixed(self, text: str) -> str:
        if self.add_prefix_space and text and not text.startswith(" "):
            return " " + text
        return text

    def split_words(self, text: str) -> list[str]:
        text = self._prefixed(text)
        pieces = self._re.findall(text) if self.use_regex else [text]
        return [bytes_to_chars(p.encode("utf-8")) for p in pieces if p]

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        if self.add_prefix_space and text.normalized and not text.normalized.startswith(" "):
            start = text.span(0, 0)
            text = NormalizedString(" " + text.normalized, [start] + text.alignments, text.original_length)
        if self.use_regex:
            pieces = [text.slice(m.start(), m.end()) for m in self._re.finditer(text.normalized)]
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
    def from_dict(cls, d: dict) -> "ByteLevel":
        return cls(d.get("add_prefix_space", True), d.get("use_regex", True), d.get("trim_offsets", True))


def _to_bytes(piece: NormalizedString) -> NormalizedString:
    chars: list[str] = []
    aligns: list[tuple[int, int]] = []
    for c, span in zip(piece.normalized, piece.alignments):
        encoded = c.encode("utf-8")
        for b in encoded:
            chars.append(BYTE_TO_CHAR[b])
        aligns.extend([span] * len(encoded))
    return NormalizedString("".join(chars), aligns, piece.original_length)


class Metaspace(_Base):
    """SentencePiece style: spaces become ``▁`` and each ``▁`` starts a new piece.

    ``prepend_scheme``: ``"always"`` puts a ``▁`` before text that lacks one,
    ``"first"`` only before the first section of an input, ``"never"`` not at all.
    """

    def __init__(self, replacement: str = "▁", prepend_scheme: str = "always", split: bool = True):
        if prepend_scheme not in ("always", "first", "never"):
            raise ConfigError(f"prepend_scheme must be always, first or never, not {prepend_scheme!r}")
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = split

    def _replaced(self, text: NormalizedString, first_section: bool = True) -> NormalizedString:
        r = self.replacement
        s = text.normalized.replace(" ", r)
        aligns = text.alignments
        prepend = self.prepend_scheme == "always" or (self.prepend_scheme == "first" and first_section)
        if prepend and s and not s.startswith(r):
            pos = text.span(0, 0)
            s = r + s
            aligns = [pos] + aligns
        return NormalizedString(s, aligns, text.original_length)

    def pre_tokenize(self, text: NormalizedString, first_section: bool = True) -> list[NormalizedString]:
        text = self._replaced(text, first_section)
        s = text.normalized
        if not self.split:
            return [text] if s else []
        cuts = [i for i, c in enumerate(s) if c == self.replacement and i > 0]
        bounds = [0] + cuts + [len(s)]
        return [text.slice(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]

    def split_words(self, text: str) -> list[str]:
        return [p.normalized for p in self.pre_tokenize(NormalizedString.from_str(text))]

    def to_dict(self) -> dict:
        return {
            "type": "Metaspace",
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
            "split": self.split,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Metaspace":
        scheme = d.get("prepend_scheme")
        if scheme is None:  # older files: add_prefix_space
            scheme = "always" if d.get("add_prefix_space", True) else "never"
        return cls(d.get("replacement", "▁"), scheme, d.get("split", True))


class NoSplit(_Base):
    """The whole input (one line of a corpus) is one piece: BPE as compression."""

    def split_words(self, text: str) -> list[str]:
        return [text] if text else []

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        return [text] if text.normalized else []

    def to_dict(self) -> dict:
        # subtle: `tokenizers` has no "no-op" pre-tokenizer type; a tokenizer.json
        # simply has `"pre_tokenizer": null`. `core.tokenizer` writes null for this.
        return {"type": "NoSplit"}


class Sequence(_Base):
    """Apply pre-tokenizers in turn, each on the pieces of the previous one."""

    def __init__(self, pre_tokenizers: list[PreTokenizer]):
        self.pre_tokenizers = list(pre_tokenizers)

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        pieces = [text]
        for p in self.pre_tokenizers:
            pieces = [q for piece in pieces for q in p.pre_tokenize(piece)]
        return pieces

    def to_dict(self) -> dict:
        return {"type": "Sequence", "pretokenizers": [p.to_dict() for p in self.pre_tokenizers]}


# Names accepted on the command line and in the GUI.
PRE_TOKENIZER_NAMES: dict[str, type] = {
    "whitespace": Whitespace,
    "whitespace-split": WhitespaceSplit,
    "bert": BertPreTokenizer,
    "gpt2": GPT2Split,
    "bytelevel": ByteLevel,
    "metaspace": Metaspace,
    "none": NoSplit,
}

# `"type"` tags of tokenizer.json; `core.formats.hf_json` may register more.
PRE_TOKENIZER_TYPES: dict[str, type] = {
    "Whitespace": Whitespace,
    "WhitespaceSplit": WhitespaceSplit,
    "BertPreTokenizer": BertPreTokenizer,
    "ByteLevel": ByteLevel,
    "Metaspace": Metaspace,
    "NoSplit": NoSplit,
}


def pre_tokenizer_from_name(name: str) -> PreTokenizer:
    cls = PRE_TOKENIZER_NAMES.get(name.lower())
    if cls is None:
        raise ConfigError(
            f"unknown pre-tokenizer {name!r}; choose from {', '.join(PRE_TOKENIZER_NAMES)}"
        )
    return cls()


def pre_tokenizer_from_dict(d: dict | None) -> PreTokenizer | None:
    if d is None:
        return None
    kind = d.get("type")
    if kind == "Sequence":
        return Sequence([pre_tokenizer_from_dict(x) for x in d.get("pretokenizers", [])])
    if kind == "Split" and d.get("pattern", {}).get("Regex") == GPT2_PATTERN and d.get("behavior") == "Isolated":
        return GPT2Split()
    cls = PRE_TOKENIZER_TYPES.get(kind)
    if cls is None:
        raise ConfigError(f"unsupported pre-tokenizer type {kind!r}")
    from_dict = getattr(cls, "from_dict", None)
    return from_dict(d) if from_dict else cls()
