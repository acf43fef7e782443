"""Normalizers: rewrite text while keeping, for each character, where it came from.

One verb: ``normalize(NormalizedString) -> NormalizedString``. ``normalize_str``
is the cheap preview (and the fast path used when counting a corpus).

    >>> Lowercase().normalize_str("Hello")
    'hello'
    >>> NFD().normalize(NormalizedString.from_str("가")).alignments
    [(0, 1), (0, 1)]

Each normalizer serializes to a Hugging Face shaped dict tagged with ``"type"``.
Leaves out (for now): BertNormalizer, Replace, Prepend, Strip, Precompiled —
those arrive with the interoperability work in ``core.formats``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Protocol, Sequence as SequenceT

from core.errors import ConfigError
from core.text import NormalizedString


class Normalizer(Protocol):
    def normalize(self, text: NormalizedString) -> NormalizedString: ...

    def normalize_str(self, text: str) -> str: ...

    def to_dict(self) -> dict: ...


@lru_cache(maxsize=65536)
def _interacts(form: str, a: str, b: str) -> bool:
    """True if normalizing ``a+b`` differs from normalizing each alone (they must stay together)."""
    return unicodedata.combining(b) != 0 or unicodedata.normalize(form, a + b) != (
        unicodedata.normalize(form, a) + unicodedata.normalize(form, b)
    )


class _UnicodeForm:
    """NFC/NFD/NFKC/NFKD, aligned chunk by chunk.

    subtle: a chunk is a maximal run of characters that normalize together (a
    starter with its combining marks, or conjoining Hangul jamo). Within a
    chunk that keeps its length, characters map one to one; otherwise every
    output character gets the span of the whole chunk, as `tokenizers` does.
    """

    form = "NFC"

    def normalize_str(self, text: str) -> str:
        return unicodedata.normalize(self.form, text)

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        if unicodedata.is_normalized(self.form, s):
            return text
        form = self.form
        out: list[str] = []
        aligns: list[tuple[int, int]] = []
        start = 0
        n = len(s)
        for i in range(1, n + 1):
            if i < n and _interacts(form, s[i - 1], s[i]):
                continue
            chunk = s[start:i]
            normed = unicodedata.normalize(form, chunk) if (len(chunk) > 1 or not chunk.isascii()) else chunk
            if len(normed) == len(chunk):
                aligns.extend(text.alignments[start:i])
            else:
                aligns.extend([text.span(start, i)] * len(normed))
            out.append(normed)
            start = i
        return NormalizedString("".join(out), aligns, text.original_length)

    def to_dict(self) -> dict:
        return {"type": self.form}

    def __repr__(self) -> str:
        return f"{self.form}()"


class NFC(_UnicodeForm):
    form = "NFC"


class NFD(_UnicodeForm):
    form = "NFD"


class NFKC(_UnicodeForm):
    form = "NFKC"


class NFKD(_UnicodeForm):
    form = "NFKD"


class Lowercase:
    """Unicode lowercase; a character that lowers to several keeps its span for each."""

    def normalize_str(self, text: str) -> str:
        return text.lower()

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        lowered = s.lower()
        if len(lowered) == len(s):
            return NormalizedString(lowered, text.alignments, text.original_length)
        return text.transform((c.lower(), text.alignments[i]) for i, c in enumerate(s))

    def to_dict(self) -> dict:
        return {"type": "Lowercase"}

    def __repr__(self) -> str:
        return "Lowercase()"


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
}

# `"type"` tags of tokenizer.json; `core.formats.hf_json` may register more.
NORMALIZER_TYPES: dict[str, type] = {"NFC": NFC, "NFD": NFD, "NFKC": NFKC, "NFKD": NFKD, "Lowercase": Lowercase}


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


def normalizer_from_dict(d: dict | None) -> Normalizer | None:
    if d is None:
        return None
    kind = d.get("type")
    if kind == "Sequence":
        return Sequence([normalizer_from_dict(x) for x in d.get("normalizers", [])])
    cls = NORMALIZER_TYPES.get(kind)
    if cls is None:
        raise ConfigError(f"unsupported normalizer type {kind!r}")
    from_dict = getattr(cls, "from_dict", None)
    return from_dict(d) if from_dict else cls()
