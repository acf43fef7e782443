"""Decoders: turn a list of token strings back into text.

One verb: ``decode_chain(tokens) -> tokens`` (each decoder rewrites the list, so
they compose in a ``Sequence``); ``decode(tokens) -> str`` joins the result.

    >>> WordPiece().decode(["un", "##aff", "##able"])
    'unaffable'
    >>> ByteLevel().decode(["íķľ", "Ġa"])
    '한 a'

Leaves out (for now): ByteFallback, Strip, Replace — they arrive with ``core.formats``.
"""

from __future__ import annotations

from core.bytelevel import chars_to_bytes
from core.errors import ConfigError


class _Base:
    def decode(self, tokens: list[str]) -> str:
        return "".join(self.decode_chain(list(tokens)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ByteLevel(_Base):
    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [chars_to_bytes("".join(tokens)).decode("utf-8", errors="replace")]

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}


class WordPiece(_Base):
    def __init__(self, prefix: str = "##", cleanup: bool = True):
        self.prefix = prefix
        self.cleanup = cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(tokens):
            if i > 0:
                t = t[len(self.prefix):] if t.startswith(self.prefix) else " " + t
            if self.cleanup:
                t = _cleanup(t)
            out.append(t)
        return out

    def to_dict(self) -> dict:
        return {"type": "WordPiece", "prefix": self.prefix, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, d: dict) -> "WordPiece":
        return cls(d.get("prefix", "##"), d.get("cleanup", True))


def _cleanup(text: str) -> str:
    """BERT's clean-up of spaces before punctuation and contractions."""
    for a, b in ((" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"),
                 (" 'm", "'m"), (" do not", " don't"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re")):
        text = text.replace(a, b)
    return text


class Metaspace(_Base):
    def __init__(self, replacement: str = "▁", prepend_scheme: str = "always", split: bool = True):
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = split

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(tokens):
            t = t.replace(self.replacement, " ")
            if i == 0 and self.prepend_scheme != "never" and t.startswith(" "):
                t = t[1:]
            out.append(t)
        return out

    def to_dict(self) -> dict:
        return {"type": "Metaspace", "replacement": self.replacement, "prepend_scheme": self.prepend_scheme,
                "split": self.split}

    @classmethod
    def from_dict(cls, d: dict) -> "Metaspace":
        scheme = d.get("prepend_scheme") or ("always" if d.get("add_prefix_space", True) else "never")
        return cls(d.get("replacement", "▁"), scheme, d.get("split", True))


class BPEDecoder(_Base):
    """Undo an end-of-word suffix: ``lo w</w>`` -> ``low``; the suffix becomes a space."""

    def __init__(self, suffix: str = "</w>"):
        self.suffix = suffix

    def decode_chain(self, tokens: list[str]) -> list[str]:
        n = len(tokens)
        return [t.replace(self.suffix, "" if i == n - 1 else " ") for i, t in enumerate(tokens)]

    def to_dict(self) -> dict:
        return {"type": "BPEDecoder", "suffix": self.suffix}

    @classmethod
    def from_dict(cls, d: dict) -> "BPEDecoder":
        return cls(d.get("suffix", "</w>"))


class Fuse(_Base):
    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]

    def to_dict(self) -> dict:
        return {"type": "Fuse"}


class Sequence(_Base):
    def __init__(self, decoders: list):
        self.decoders = list(decoders)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for d in self.decoders:
            tokens = d.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict:
        return {"type": "Sequence", "decoders": [d.to_dict() for d in self.decoders]}


DECODER_TYPES: dict[str, type] = {
    "ByteLevel": ByteLevel,
    "WordPiece": WordPiece,
    "Metaspace": Metaspace,
    "BPEDecoder": BPEDecoder,
    "Fuse": Fuse,
}


def decoder_from_dict(d: dict | None):
    if d is None:
        return None
    kind = d.get("type")
    if kind == "Sequence":
        return Sequence([decoder_from_dict(x) for x in d.get("decoders", [])])
    cls = DECODER_TYPES.get(kind)
    if cls is None:
        raise ConfigError(f"unsupported decoder type {kind!r}")
    from_dict = getattr(cls, "from_dict", None)
    return from_dict(d) if from_dict else cls()
