"""Hangul syllables and their jamo (자모): pure helpers, no pipeline stage.

A precomposed syllable U+AC00..U+D7A3 is arithmetic over three letter
positions (Unicode §3.12, "Conjoining Jamo Behavior"): a leading consonant
(초성, 19 choices), a vowel (중성, 21) and an optional final consonant
(종성, 27 + none), written with the *conjoining* jamo U+1100..U+11FF:

    >>> decompose_syllable("철")          # ᄎ + ᅥ + ᆯ
    '\\u110e\\u1165\\u11af'
    >>> compose_jamo("\\u1106\\u1165\\u11a8\\u1100\\u1169")
    '먹고'

These are what NFD/NFC do to Hangul, and nothing else: an accented Latin letter
or a compatibility jamo (ㅋ, U+314B, as typed in ㅋㅋㅋ) is left as it is.

Leaves out: old Hangul (jamo sequences with no precomposed syllable stay
decomposed), and the compatibility jamo block (U+3131..U+318E), which
NFKC maps to conjoining jamo; use ``nfkc,jamo`` for that.
"""

from __future__ import annotations

from functools import cache

SYLLABLE_FIRST = 0xAC00
SYLLABLE_LAST = 0xD7A3
LEADING_FIRST, VOWEL_FIRST, TRAILING_FIRST = 0x1100, 0x1161, 0x11A7  # TRAILING_FIRST: "no final"
N_LEADING, N_VOWELS, N_TRAILING = 19, 21, 28
_PER_LEADING = N_VOWELS * N_TRAILING  # 588 syllables share a leading consonant


def is_syllable(c: str) -> bool:
    """A precomposed Hangul syllable: ``is_syllable("한")`` is True, ``is_syllable("ㅎ")`` False."""
    return SYLLABLE_FIRST <= ord(c) <= SYLLABLE_LAST


def is_conjoining_jamo(c: str) -> bool:
    """A conjoining jamo (U+1100..U+11FF, and the extended blocks A/B): ``"\\u1112"`` is one."""
    o = ord(c)
    return 0x1100 <= o <= 0x11FF or 0xA960 <= o <= 0xA97F or 0xD7B0 <= o <= 0xD7FF


def is_hangul(c: str) -> bool:
    """Any Hangul letter: syllable, conjoining or compatibility jamo (ㅋ) or half-width jamo."""
    o = ord(c)
    return (
        SYLLABLE_FIRST <= o <= SYLLABLE_LAST
        or is_conjoining_jamo(c)
        or 0x3131 <= o <= 0x318E
        or 0xFFA0 <= o <= 0xFFDC
    )


@cache
def decompose_syllable(c: str) -> str:
    """The two or three conjoining jamo of a syllable; any other character as it is.

    ``decompose_syllable("가") == "\\u1100\\u1161"`` (ᄀ + ᅡ, no final consonant).
    """
    index = ord(c) - SYLLABLE_FIRST
    if not 0 <= index <= SYLLABLE_LAST - SYLLABLE_FIRST:
        return c
    leading, rest = divmod(index, _PER_LEADING)
    vowel, trailing = divmod(rest, N_TRAILING)
    out = chr(LEADING_FIRST + leading) + chr(VOWEL_FIRST + vowel)
    return out + chr(TRAILING_FIRST + trailing) if trailing else out


# str.translate table: every syllable to its jamo (11,172 entries, built on first use).
_TABLE: dict[int, str] | None = None


def decompose_text(text: str) -> str:
    """Every syllable of ``text`` as conjoining jamo; other characters untouched.

    ``decompose_text("한a") == "\\u1112\\u1161\\u11ab" + "a"``
    """
    global _TABLE
    if _TABLE is None:
        _TABLE = {o: decompose_syllable(chr(o)) for o in range(SYLLABLE_FIRST, SYLLABLE_LAST + 1)}
    return text.translate(_TABLE)


def _leading(c: str) -> int:
    return ord(c) - LEADING_FIRST if LEADING_FIRST <= ord(c) < LEADING_FIRST + N_LEADING else -1


def _vowel(c: str) -> int:
    return ord(c) - VOWEL_FIRST if VOWEL_FIRST <= ord(c) < VOWEL_FIRST + N_VOWELS else -1


def _trailing(c: str) -> int:
    # subtle: U+11A7 itself is "no final consonant" in the arithmetic, not a letter
    return ord(c) - TRAILING_FIRST if TRAILING_FIRST < ord(c) < TRAILING_FIRST + N_TRAILING else -1


def compose_spans(text: str) -> list[tuple[str, int, int]]:
    """``text`` as ``(char, start, end)`` with each leading+vowel(+final) run composed.

        >>> compose_spans("\\u1112\\u1161\\u11abx")
        [('한', 0, 3), ('x', 3, 4)]

    ``start``/``end`` index ``text``, so a position in the composed text maps back.
    A leading consonant without a vowel, or a lone vowel, stays as it is.
    """
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        lead = _leading(c)
        if lead >= 0 and i + 1 < n and (vowel := _vowel(text[i + 1])) >= 0:
            trailing = _trailing(text[i + 2]) if i + 2 < n else -1
            width = 3 if trailing > 0 else 2
            code = SYLLABLE_FIRST + lead * _PER_LEADING + vowel * N_TRAILING + max(trailing, 0)
            out.append((chr(code), i, i + width))
            i += width
        else:
            out.append((c, i, i + 1))
            i += 1
    return out


@cache
def _compatibility_table() -> dict[str, str]:
    import unicodedata

    table: dict[str, str] = {}
    for code in range(0x3131, 0x318F):  # NFKC maps each compatibility letter to a conjoining one
        c = chr(code)
        conjoining = unicodedata.normalize("NFKC", c)
        if len(conjoining) == 1 and is_conjoining_jamo(conjoining):
            table.setdefault(conjoining, c)
    # a final consonant has no compatibility letter of its own: it shares its leading twin's
    for code in range(TRAILING_FIRST + 1, TRAILING_FIRST + N_TRAILING):
        t = chr(code)
        if t not in table:
            try:
                twin = unicodedata.lookup(unicodedata.name(t).replace("JONGSEONG", "CHOSEONG"))
            except KeyError:
                continue
            table[t] = table.get(twin, t)
    return table


def to_compatibility(text: str) -> str:
    """Conjoining jamo shown as the stand-alone letters people type (ㄱ, ㅏ): readable on their own.

    ``to_compatibility("\u110e\u1165\u11af") == "ㅊㅓㄹ"``; other characters are kept.
    """
    table = _compatibility_table()
    return "".join(table.get(c, c) for c in text)


def compose_jamo(text: str) -> str:
    """Conjoining jamo back to syllables: the inverse of :func:`decompose_text` on Hangul.

    ``compose_jamo("\\u1112\\u1161\\u11ab") == "한"``; text without conjoining jamo is returned as is.
    """
    if not any(is_conjoining_jamo(c) for c in text):
        return text
    return "".join(c for c, _, _ in compose_spans(text))
