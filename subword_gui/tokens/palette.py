"""Colours of token spans: stable per token id, never the same for two neighbours.

    >>> [c.name() for c in token_colours([5, 5, 1])]   # the same id twice in a row: two shades
    ['#77aadd', '#5d85ad', '#99ddff']

Hues are Paul Tol's "light" scheme, designed as backgrounds behind black text
and distinguishable with the common colour-vision deficiencies. A token's hue
is its id hashed into the eight hues, so a token keeps its colour while the
user types around it. When two neighbours would get the same hue, the second
one takes the darker shade of that hue (and a third one the light shade again),
so neighbours always differ while the hue still says "same token family".

Unknown tokens, special tokens and dropped characters have their own styles
that no id can produce (a strong red, a dark slate, grey strike-through).
"""

from __future__ import annotations

from PySide6.QtGui import QColor

# Paul Tol, "light" qualitative scheme (pale grey left out: it is the "shared" colour).
LIGHT_HUES = ["#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99", "#BBCC33", "#AAAA00"]
SHADE_FACTOR = 128  # QColor.darker(): the second shade of a hue (black text stays legible)

UNKNOWN_BACKGROUND = QColor("#D7191C")
UNKNOWN_FOREGROUND = QColor("#FFFFFF")
UNKNOWN_UNDERLINE = QColor("#FFE119")
SPECIAL_BACKGROUND = QColor("#3B4A5A")
SPECIAL_FOREGROUND = QColor("#FFFFFF")
DROPPED_FOREGROUND = QColor("#8A8A8A")
SHARED_BACKGROUND = QColor("#E4E4E4")  # Compare: a token every tokenizer has
DIFF_MARK = QColor("#D81B60")  # Compare: a boundary only this tokenizer has

_LIGHT = [QColor(c) for c in LIGHT_HUES]
_DARK = [QColor(c).darker(SHADE_FACTOR) for c in LIGHT_HUES]
_KEYS = [((h, 0), (h, 1)) for h in range(len(LIGHT_HUES))]  # one tuple per key, shared


def hue_index(token_id: int) -> int:
    """The hue of a token id: a fixed integer hash (Knuth's multiplicative), not
    Python's ``hash``, so colours are the same in every run.

    >>> hue_index(0), hue_index(1), hue_index(2)
    (0, 4, 1)
    """
    return ((token_id * 2654435761) & 0xFFFFFFFF) * len(LIGHT_HUES) >> 32


def colour_keys(ids: list[int]) -> list[tuple[int, int]]:
    """``(hue, shade)`` for each token of a row: shade 0 unless the previous token
    has the same hue, in which case the other shade.

    >>> colour_keys([5, 5, 5])
    [(0, 0), (0, 1), (0, 0)]
    """
    keys: list[tuple[int, int]] = []
    append = keys.append
    n = len(LIGHT_HUES)
    prev_hue, prev_shade = -1, 0
    for i in ids:
        hue = ((i * 2654435761) & 0xFFFFFFFF) * n >> 32  # hue_index, inlined: 50 k tokens a line
        shade = 1 - prev_shade if hue == prev_hue else 0
        append(_KEYS[hue][shade])
        prev_hue, prev_shade = hue, shade
    return keys


def colour_of(key: tuple[int, int]) -> QColor:
    hue, shade = key
    return QColor(_DARK[hue] if shade else _LIGHT[hue])


def token_colours(ids: list[int]) -> list[QColor]:
    """Background colour of each token of a row (see the module docstring)."""
    return [colour_of(k) for k in colour_keys(ids)]
