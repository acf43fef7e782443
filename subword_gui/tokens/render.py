"""Show a token so that every character of it is visible (Qt-free).

    >>> render_token("Ġhello", TokenStyle(byte_level=True))
    '␣hello'
    >>> render_token("##ing", TokenStyle(prefix="##"))
    '##ing'

A token is cut into *parts*, each tagged with a kind the views style:

- ``"text"``: ordinary characters;
- ``"space"``: whitespace and the metaspace ``▁`` (a space becomes ``␣``, a tab
  ``⇥``, a newline ``↵``, other control characters their Unicode control picture,
  invisible format characters like U+200B ``⟨U+200B⟩``);
- ``"marker"``: the continuing-subword prefix (``##``) or end-of-word suffix (``</w>``);
- ``"byte"``: a byte that is not a whole UTF-8 character: a byte-level
  token's stray bytes (``íķ`` is the first two bytes of 한 and shows as
  ``⟨ED 95⟩``) or a SentencePiece byte-fallback token (``<0xE2>``); and,
  the same way, jamo that are not a whole syllable (a jamo model's token
  ``ᆯ수`` shows as ``⟨ㄹ⟩수``: the ``ㄹ`` ends the syllable before it).

Byte-level tokens (GPT-2's 256-symbol alphabet, ``Ġ`` for a space) are shown
as the text their bytes spell, never as the alphabet's stand-in characters.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import regex

from core import decoders
from core.bytelevel import chars_to_bytes
from core.hangul import compose_jamo, is_conjoining_jamo, is_syllable, to_compatibility
from core.pre_tokenizers import ByteLevel

_GRAPHEME = regex.compile(r"\X")
_STRAY_BYTE = re.compile("([\udc80-\udcff])")
_BYTE_FALLBACK = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")
_SPACE_PICTURES = {" ": "␣", "\t": "⇥", "\n": "↵", "\r": "␍", "\u00a0": "⍽", "\u3000": "□"}
METASPACE = "▁"


@dataclass(frozen=True, slots=True)
class TokenStyle:
    """What a tokenizer's tokens look like: byte-level alphabet, ``##`` prefix, ``</w>`` suffix."""

    byte_level: bool = False
    prefix: str | None = None
    suffix: str | None = None


def style_for(tokenizer) -> TokenStyle:
    """Read a tokenizer's conventions off its pipeline and model."""
    if tokenizer is None:
        return TokenStyle()
    pre = tokenizer.pre_tokenizer
    pres = getattr(pre, "pre_tokenizers", [pre])
    byte_level = any(isinstance(p, ByteLevel) for p in pres) or isinstance(
        tokenizer.decoder, decoders.ByteLevel
    )
    model = tokenizer.model
    prefix = model.continuing_subword_prefix or None
    suffix = model.end_of_word_suffix or None
    return TokenStyle(byte_level=byte_level, prefix=prefix, suffix=suffix)


def _visible_char(c: str) -> tuple[str, str]:
    if c in _SPACE_PICTURES:
        return _SPACE_PICTURES[c], "space"
    if c == METASPACE:
        return c, "space"
    cat = unicodedata.category(c)
    if cat == "Cc":
        code = ord(c)
        return (chr(0x2400 + code) if code < 0x20 else f"⟨U+{code:04X}⟩"), "space"
    if cat in ("Cf", "Zl", "Zp") or (cat == "Zs"):
        return f"⟨U+{ord(c):04X}⟩", "space"
    return c, "text"


def _clusters(text: str) -> list[str]:
    """User-perceived characters: grapheme clusters, with each undecodable byte on its own.

    >>> _clusters("a👋🏽b")
    ['a', '👋🏽', 'b']
    """
    if text.isascii():
        return list(text)
    out = []
    for piece in _STRAY_BYTE.split(text):
        for g in _GRAPHEME.findall(piece):
            # a joiner left dangling at the end (the emoji was cut after it) stays visible
            tail = len(g)
            while tail > 1 and unicodedata.category(g[tail - 1]) == "Cf":
                tail -= 1
            out.append(g[:tail])
            out.extend(g[tail:])
    return out


def _text_parts(text: str) -> list[tuple[str, str]]:
    parts: list[tuple[str, str]] = []
    # subtle: walk grapheme clusters, not code points, so that 👋🏽 or 👨‍👩‍👧 (joined by
    # U+200D, an invisible format character on its own) stay one visible character.
    for g in _clusters(text):
        c = g[0]
        if 0xDC80 <= ord(c) <= 0xDCFF:  # a byte that did not decode (surrogateescape)
            shown, kind = f"{ord(c) - 0xDC00:02X}", "byte"
        elif is_conjoining_jamo(c):
            # a whole syllable's jamo (L V or L V T) show as the syllable; any other run
            # is part of a syllable cut by a token boundary: shown as the letters people type
            composed = compose_jamo(g)
            if len(composed) == 1 and is_syllable(composed):
                shown, kind = composed, "text"
            else:
                shown, kind = to_compatibility(g), "byte"
        elif len(g) > 1 and _visible_char(c)[1] == "text":
            shown, kind = g, "text"
        else:
            shown, kind = "".join(_visible_char(x)[0] for x in g), _visible_char(c)[1]
        if parts and parts[-1][1] == kind:
            prev = parts[-1][0]
            parts[-1] = ((prev + " " + shown) if kind == "byte" else prev + shown, kind)
        else:
            parts.append((shown, kind))
    return [(f"⟨{t}⟩", k) if k == "byte" else (t, k) for t, k in parts]


def render_parts(token: str, style: TokenStyle = TokenStyle()) -> list[tuple[str, str]]:
    """Cut a token into visible ``(text, kind)`` parts (kinds in the module docstring).

    >>> render_parts("##ug", TokenStyle(prefix="##"))
    [('##', 'marker'), ('ug', 'text')]
    >>> render_parts("íķ", TokenStyle(byte_level=True))
    [('⟨ED 95⟩', 'byte')]
    """
    return list(render_parts_cached(token, style))


@lru_cache(maxsize=1 << 17)
def render_parts_cached(token: str, style: TokenStyle = TokenStyle()) -> tuple[tuple[str, str], ...]:
    """:func:`render_parts` as a shared tuple, remembered (the views render the same
    tokens again after every slider move)."""
    return tuple(_render_parts(token, style))


def _render_parts(token: str, style: TokenStyle) -> list[tuple[str, str]]:
    if token == "":
        return [("∅", "marker")]
    m = _BYTE_FALLBACK.match(token)
    if m:
        return [(token, "byte")]
    head: list[tuple[str, str]] = []
    tail: list[tuple[str, str]] = []
    body = token
    if style.prefix and body.startswith(style.prefix) and len(body) > len(style.prefix):
        head.append((style.prefix, "marker"))
        body = body[len(style.prefix) :]
    if style.suffix and body.endswith(style.suffix) and len(body) > len(style.suffix):
        tail.append((style.suffix, "marker"))
        body = body[: -len(style.suffix)]
    if style.byte_level:
        body = chars_to_bytes(body).decode("utf-8", errors="surrogateescape")
    return head + _text_parts(body) + tail


def render_token(token: str, style: TokenStyle = TokenStyle()) -> str:
    """The token as one visible string (tables, chips, search)."""
    return "".join(t for t, _ in render_parts_cached(token, style))


def spans_a_space(text: str) -> bool:
    """Does this text hold whitespace between two of its non-space characters (a SuperBPE
    superword's text, " of the")? A leading or trailing space alone does not count.

    >>> spans_a_space(" of the"), spans_a_space(" the"), spans_a_space("the  "), spans_a_space("a\u3000b")
    (True, False, False, True)
    """
    inner = text.strip()
    return len(inner) > 2 and any(c.isspace() for c in inner)


def is_superword(token: str, style: TokenStyle = TokenStyle()) -> bool:
    """Does the token span a space (SuperBPE's superwords, ``ĠofĠthe``)? Read off its visible
    parts: a space (or ``▁``) part with text on both sides.

    >>> is_superword("ĠofĠthe", TokenStyle(byte_level=True)), is_superword("Ġthe", TokenStyle(byte_level=True))
    (True, False)
    >>> is_superword("▁of▁the"), is_superword("of▁")
    (True, False)
    """
    if token.isalnum() and not style.byte_level:  # no space of any kind (Ġ is a letter)
        return False
    kinds = [k for _, k in render_parts_cached(token, style)]
    if "space" not in kinds:
        return False
    seen_text = False
    for i, kind in enumerate(kinds):
        if kind == "text":
            seen_text = True
        elif kind == "space" and seen_text and "text" in kinds[i + 1 :]:
            return True
    return False


def token_bytes(token: str, style: TokenStyle = TokenStyle()) -> bytes:
    """The bytes a token stands for: the raw bytes of a byte-level or byte-fallback
    token, else the UTF-8 of its text (``##`` and ``</w>`` left out).

    >>> token_bytes("Ġa", TokenStyle(byte_level=True)).hex(" ")
    '20 61'
    """
    m = _BYTE_FALLBACK.match(token)
    if m:
        return bytes([int(m.group(1), 16)])
    body = token
    if style.prefix and body.startswith(style.prefix) and len(body) > len(style.prefix):
        body = body[len(style.prefix) :]
    if style.suffix and body.endswith(style.suffix) and len(body) > len(style.suffix):
        body = body[: -len(style.suffix)]
    if style.byte_level:
        return chars_to_bytes(body)
    return body.encode("utf-8")


# Colours of the part kinds in rich text (chips draw them with QPainter instead).
PART_COLOURS = {"text": None, "space": "#0072B2", "marker": "#888888", "byte": "#B8400B"}


def render_html(token: str, style: TokenStyle = TokenStyle()) -> str:
    """The token as HTML with markers greyed and spaces/bytes coloured (tooltips, why view)."""
    out = []
    for text, kind in render_parts(token, style):
        esc = html.escape(text)
        if kind == "byte":  # "⟨EC 9D⟩" is one unit: a line never breaks inside it
            esc = esc.replace(" ", "&nbsp;")
        colour = PART_COLOURS[kind]
        out.append(f'<span style="color:{colour}">{esc}</span>' if colour else esc)
    return "".join(out)
