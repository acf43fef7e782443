"""Our span rule applied to another library's offsets, so parity tests compare like with like.

`tokenizers` gives every token cut from one character (the UTF-8 bytes of ``한``
under byte-level, ``ᄀ`` ``ᅡ`` of an NFD ``가``, a prepended ``▁`` and the
character after it) the whole character's span, so its spans overlap. We follow
SentencePiece instead (see ``core.text.NormalizedString.span``): the character
belongs to the token holding its last part; the tokens before end where it starts.

    >>> sentencepiece_spans([(0, 1), (0, 1), (0, 1), (1, 2)])
    [(0, 0), (0, 0), (0, 1), (1, 2)]
"""

from __future__ import annotations


def sentencepiece_spans(offsets) -> list[tuple[int, int]]:
    """``offsets`` with each overlap resolved in favour of the later token."""
    theirs = [tuple(o) for o in offsets]
    spans = list(theirs)
    for i in range(len(theirs) - 1):
        (s, e), (ns, ne) = theirs[i], theirs[i + 1]
        if ns < e <= ne:  # the next token holds the end of our last character
            spans[i] = (min(s, ns), ns)
    return spans
