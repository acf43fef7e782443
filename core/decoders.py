"""Decoders: turn a list of token strings back into text.

One verb: ``decode_chain(tokens) -> tokens`` (each decoder rewrites the list, so
they compose in a ``Sequence``); ``decode(tokens) -> str`` joins the result.

    >>> WordPiece().decode(["un", "##aff", "##able"])
    'unaffable'
    >>> ByteLevel().decode(["íķľ", "Ġa"])
    '한 a'

Each behaves exactly as its `tokenizers` namesake (a parity test decodes the same
tokens with both) and serializes to the same ``"type"``-tagged dict; :class:`SentencePieceDecoder`
decodes as ``SentencePieceProcessor.decode`` and writes the closest `tokenizers` Sequence.

Leaves out: ``DecodeStream`` (a streaming helper of the Python API, never in a file).
"""

from __future__ import annotations

import re

from core.bytelevel import CHAR_TO_BYTE
from core.errors import ConfigError
from core.hangul import compose_jamo
from core.sentencepiece_pieces import SPACE


class _Base:
    def decode_chain(self, tokens: list[str]) -> list[str]:
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        return "".join(self.decode_chain(list(tokens)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ByteLevel(_Base):
    """Byte-level symbols back to UTF-8 text; undecodable bytes become U+FFFD."""

    def __init__(self, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True):
        # kept for the round trip only: decoding does not depend on them
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    def decode_chain(self, tokens: list[str]) -> list[str]:
        data = bytearray()
        for t in tokens:
            # subtle: a token with any character outside the byte alphabet (an added
            # token such as "한") is taken as UTF-8 text as a whole, as `tokenizers` does
            try:
                data.extend(CHAR_TO_BYTE[c] for c in t)
            except KeyError:
                data.extend(t.encode("utf-8"))
        return [bytes(data).decode("utf-8", errors="replace")]

    def to_dict(self) -> dict:
        return {
            "type": "ByteLevel",
            "add_prefix_space": self.add_prefix_space,
            "trim_offsets": self.trim_offsets,
            "use_regex": self.use_regex,
        }

    @classmethod
    def from_dict(cls, d: dict) -> ByteLevel:
        return cls(
            _field(d, "add_prefix_space", True), _field(d, "trim_offsets", True), _field(d, "use_regex", True)
        )


class WordPiece(_Base):
    """``##`` continuations glue to the previous token, other tokens get a space before them."""

    def __init__(self, prefix: str = "##", cleanup: bool = True):
        self.prefix = prefix
        self.cleanup = cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(tokens):
            if i > 0:
                t = t.replace(self.prefix, "", 1) if t.startswith(self.prefix) else " " + t
            if self.cleanup:
                t = _cleanup(t)
            out.append(t)
        return out

    def to_dict(self) -> dict:
        return {"type": "WordPiece", "prefix": self.prefix, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, d: dict) -> WordPiece:
        return cls(_field(d, "prefix", "##"), _field(d, "cleanup", True))


def _cleanup(text: str) -> str:
    """BERT's clean-up of spaces before punctuation and contractions."""
    for a, b in (
        (" .", "."),
        (" ?", "?"),
        (" !", "!"),
        (" ,", ","),
        (" ' ", "'"),
        (" n't", "n't"),
        (" 'm", "'m"),
        (" do not", " don't"),
        (" 's", "'s"),
        (" 've", "'ve"),
        (" 're", "'re"),
    ):
        text = text.replace(a, b)
    return text


class Metaspace(_Base):
    """``▁`` back to spaces; in the first token they are dropped unless ``prepend_scheme`` is never."""

    def __init__(self, replacement: str = "▁", prepend_scheme: str = "always", split: bool = True):
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = split

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(tokens):
            # subtle: as `tokenizers`, *every* replacement of the first token is dropped
            out.append(t.replace(self.replacement, "" if i == 0 and self.prepend_scheme != "never" else " "))
        return out

    def to_dict(self) -> dict:
        return {
            "type": "Metaspace",
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
            "split": self.split,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Metaspace:
        scheme = _field(d, "prepend_scheme", "") or (
            "always" if _field(d, "add_prefix_space", True) else "never"
        )
        return cls(_field(d, "replacement", "▁"), scheme, _field(d, "split", True))


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
    def from_dict(cls, d: dict) -> BPEDecoder:
        return cls(_field(d, "suffix", "</w>"))


_BYTE_TOKEN = re.compile(r"<0x([0-9A-Fa-f]{2})>")  # (ASCII: the standard library's re reads it alike)


class ByteFallback(_Base):
    """Runs of ``<0xNN>`` tokens back to text: ``<0xED><0x95><0x9C>`` -> ``한``.

    A run that is not valid UTF-8 becomes one U+FFFD per byte, as in `tokenizers`.
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()

        def flush() -> None:
            if pending:
                try:
                    out.append(pending.decode("utf-8"))
                except UnicodeDecodeError:
                    out.extend(["\ufffd"] * len(pending))
                pending.clear()

        for t in tokens:
            m = _BYTE_TOKEN.fullmatch(t) if len(t) == 6 else None
            if m is not None:
                pending.append(int(m.group(1), 16))
            else:
                flush()
                out.append(t)
        flush()
        return out

    def to_dict(self) -> dict:
        return {"type": "ByteFallback"}


class Fuse(_Base):
    """All tokens into one string."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]

    def to_dict(self) -> dict:
        return {"type": "Fuse"}


class Strip(_Base):
    """Remove up to ``start`` leading and ``stop`` trailing ``content`` characters of each token."""

    def __init__(self, content: str = " ", start: int = 0, stop: int = 0):
        if not isinstance(content, str) or len(content) != 1:
            raise ConfigError(f"the Strip decoder's content must be one character, not {content!r}")
        self.content = content
        self.start = int(start)
        self.stop = int(stop)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for t in tokens:
            a = 0
            while a < min(self.start, len(t)) and t[a] == self.content:
                a += 1
            b = len(t)
            while len(t) - b < self.stop and b > a and t[b - 1] == self.content:
                b -= 1
            out.append(t[a:b])
        return out

    def to_dict(self) -> dict:
        return {"type": "Strip", "content": self.content, "start": self.start, "stop": self.stop}

    @classmethod
    def from_dict(cls, d: dict) -> Strip:
        return cls(_field(d, "content", " "), _field(d, "start", 0), _field(d, "stop", 0))


class Replace(_Base):
    """Replace a string or regex in every token: ``Replace("▁", " ")``."""

    def __init__(self, pattern, content: str):
        from core.normalizers import compile_pattern

        self.pattern = pattern if isinstance(pattern, dict) else {"String": pattern}
        self.content = content
        self._re = compile_pattern(self.pattern, "Replace pattern")

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [self._re.sub(lambda m: self.content, t) for t in tokens]

    def to_dict(self) -> dict:
        return {"type": "Replace", "pattern": dict(self.pattern), "content": self.content}

    @classmethod
    def from_dict(cls, d: dict) -> Replace:
        return cls(d.get("pattern"), d.get("content", ""))


class JamoCompose(_Base):
    """Conjoining jamo back to Hangul syllables, across token boundaries: the inverse of ``Jamo``.

        >>> JamoCompose().decode(["\u1106\u1165", "\u11a8\u1100\u1169"])   # 머 + ㄱ고: a token cut a syllable
        '먹고'

    Tokens are joined first, since a jamo token may end inside a syllable. Ours:
    `tokenizers` has no such decoder (``tokenizer.json`` export drops it and says so).
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [compose_jamo("".join(tokens))]

    def to_dict(self) -> dict:
        return {"type": "JamoCompose"}


class Sequence(_Base):
    def __init__(self, decoders: list):
        self.decoders = list(decoders)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for d in self.decoders:
            tokens = d.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict:
        return {"type": "Sequence", "decoders": [d.to_dict() for d in self.decoders]}

    def __repr__(self) -> str:
        return f"Sequence({self.decoders!r})"


class CTC(_Base):
    """A speech model's per-frame tokens to text: repeats collapse, the pad token goes, and with
    ``cleanup`` the word delimiter becomes a space (``h h <pad> i | a`` -> ``hi a``)."""

    def __init__(self, pad_token: str = "<pad>", word_delimiter_token: str = "|", cleanup: bool = True):
        self.pad_token = pad_token
        self.word_delimiter_token = word_delimiter_token
        self.cleanup = cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(tokens):
            if i and t == tokens[i - 1]:
                continue  # repeated frames are one token
            t = t.replace(self.pad_token, "") if self.pad_token else t
            if self.cleanup:
                t = _cleanup(t).replace(self.word_delimiter_token, " ")
            if t:
                out.append(t)
        return out

    def to_dict(self) -> dict:
        return {
            "type": "CTC",
            "pad_token": self.pad_token,
            "word_delimiter_token": self.word_delimiter_token,
            "cleanup": self.cleanup,
        }

    @classmethod
    def from_dict(cls, d: dict) -> CTC:
        return cls(
            _field(d, "pad_token", "<pad>"),
            _field(d, "word_delimiter_token", "|"),
            _field(d, "cleanup", True),
        )


class SentencePieceDecoder(_Base):
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


DECODER_TYPES: dict[str, type] = {
    "CTC": CTC,
    "ByteLevel": ByteLevel,
    "WordPiece": WordPiece,
    "Metaspace": Metaspace,
    "BPEDecoder": BPEDecoder,
    "ByteFallback": ByteFallback,
    "Fuse": Fuse,
    "Strip": Strip,
    "Replace": Replace,
    "JamoCompose": JamoCompose,  # ours
}


def _field(d: dict, key: str, default):
    """``d[key]`` (``default`` when absent or null), of ``default``'s type, else one ConfigError
    line: a file's ``"replacement": 5`` must not load and then fail at every decode.

        >>> _field({"suffix": "</w>"}, "suffix", ""), _field({"start": None}, "start", 0)
        ('</w>', 0)
    """
    value = d.get(key)
    if value is None:
        return default
    if type(value) is not type(default):
        raise ConfigError(
            f"decoder {d.get('type')!r}: {key!r} must be {type(default).__name__}, not {type(value).__name__}"
        )
    return value


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
