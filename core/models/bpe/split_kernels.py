"""A rank file's line encoder: GPT-2's and cl100k's split patterns, the token look-up and the
merge by rank, all in one compiled call over whole texts.

The split is what `regex` finds with :data:`core.pre_tokenizers.R50K_PATTERN` (GPT-2, r50k,
p50k; also the ``tokenizers`` spelling :data:`~core.pre_tokenizers.GPT2_PATTERN`) or
:data:`~core.pre_tokenizers.CL100K_PATTERN`, written as the alternatives' rules read at each
position (leftmost alternative first), with every character's class (letter ``\\p{L}``,
number ``\\p{N}``, white space ``\\s``) taken from `regex` itself (:func:`unicode_classes`), so
the two agree character for character. Then each piece that is a token is its rank
(``core.models.bpe.kernels.TokenTable``) and the others' bytes are merged by rank.

    >>> from core.models.bpe.kernels import PairTable, TokenTable
    >>> tokens = TokenTable.build({bytes([b]): b for b in range(256)} | {b"ab": 300, b" ab": 301},
    ...                           np.arange(256), PairTable.build({(97, 98): (300, 300)}))
    >>> encode_texts(["ab ab's", "abab"], False, tokens)
    [[300, 301, 39, 115], [300, 300]]

Why: the split by `regex` (~4 µs a Korean line) and the Python between it and the kernel cost
more than the merge itself. Leaves out: other patterns (o200k's, a file's own), which go
through `regex` (the model's ``split_texts_ids`` says which it takes).
"""

from __future__ import annotations

import numpy as np

from core.jit import kernel
from core.models.bpe.kernels import TokenTable, _rank_texts, _token_of, _unpack, split_flat

LETTER, NUMBER, SPACE = 1, 2, 4  # a character's class (0: none of them, "other")
_CR, _LF, _SPACE_CHAR, _APOSTROPHE = 13, 10, 32, 39


_classes: np.ndarray | None = None


def unicode_classes() -> np.ndarray:
    """Each code point's class as `regex` sees it (:data:`LETTER`, :data:`NUMBER`,
    :data:`SPACE` or 0), built once a process (~35 ms) from runs that `regex` finds.

    >>> [int(unicode_classes()[ord(c)]) for c in "a한7٣ \\u3000!"]
    [1, 1, 2, 2, 4, 4, 0]
    """
    global _classes
    if _classes is None:
        import regex

        points = np.arange(0x110000, dtype="<u4")
        points[0xD800:0xE000] = 0  # (no surrogate in a str decoded from UTF-32; none reaches the kernel)
        every = points.tobytes().decode("utf-32-le")
        classes = np.zeros(0x110000, np.uint8)
        for bit, run in ((LETTER, r"\p{L}+"), (NUMBER, r"\p{N}+"), (SPACE, r"\s+")):
            for m in regex.finditer(run, every):
                classes[m.start() : m.end()] |= bit
        classes[0] = 0  # (stood in for the surrogates)
        _classes = classes
    return _classes


@kernel
def _folded(c):
    """``c`` as `regex`'s ``(?i)`` compares it in a contraction: ASCII capitals and ``ſ``
    (U+017F, whose simple case folding is ``s``) lowered."""
    if 65 <= c <= 90:
        return c + 32
    if c == 0x17F:
        return 115
    return c


@kernel
def _run(cps, classes, j, end, bit):
    """Where the run of characters of class ``bit`` (0: of no class) from ``j`` ends."""
    if bit == 0:
        while j < end and classes[cps[j]] == 0:
            j += 1
    else:
        while j < end and classes[cps[j]] & bit:
            j += 1
    return j


@kernel
def _piece_end(cps, classes, i, end, cl100k):
    """Where the piece starting at ``i`` ends (``cps[:end]`` being the text's code points).

    GPT-2: ``'(?:[sdmt]|ll|ve|re)| ?\\p{L}++| ?\\p{N}++| ?[^\\s\\p{L}\\p{N}]++|\\s++$|\\s+(?!\\S)|\\s``;
    cl100k: ``'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+
    |\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s``."""
    c = cps[i]
    if c == _APOSTROPHE and i + 1 < end:  # the contractions
        d = _folded(cps[i + 1]) if cl100k else cps[i + 1]
        if d == 115 or d == 100 or d == 109 or d == 116:  # s d m t
            return i + 2
        if i + 2 < end:
            e = _folded(cps[i + 2]) if cl100k else cps[i + 2]
            if (d == 108 and e == 108) or (d == 118 and e == 101) or (d == 114 and e == 101):  # ll ve re
                return i + 3
    k = classes[c]
    after = classes[cps[i + 1]] if i + 1 < end else SPACE  # (the end: no run to take)
    if cl100k:
        if k == LETTER:
            return _run(cps, classes, i + 1, end, LETTER)
        if k != NUMBER and c != _CR and c != _LF and after == LETTER:  # one mark before letters
            return _run(cps, classes, i + 2, end, LETTER)
        if k == NUMBER:  # one to three digits
            j = i + 1
            while j < end and j < i + 3 and classes[cps[j]] == NUMBER:
                j += 1
            return j
        j = -1
        if k == 0:
            j = _run(cps, classes, i + 1, end, 0)
        elif c == _SPACE_CHAR and after == 0:
            j = _run(cps, classes, i + 2, end, 0)
        if j >= 0:
            while j < end and (cps[j] == _CR or cps[j] == _LF):
                j += 1
            return j
    else:
        if k != SPACE:  # a run of letters, numbers or others
            return _run(cps, classes, i + 1, end, k)
        if c == _SPACE_CHAR and after != SPACE:  # a space, then such a run
            return _run(cps, classes, i + 2, end, after)
    # white space: to the end of the text; else (cl100k) to its last line end; else all
    # but its last character (which goes with what follows), or that one character alone
    r = _run(cps, classes, i + 1, end, SPACE)
    if r == end:
        return end
    if cl100k:
        for p in range(r - 1, i - 1, -1):
            if cps[p] == _CR or cps[p] == _LF:
                return p + 1
    return r - 1 if r - i >= 2 else i + 1


@kernel
def _split_texts(data, char_counts, classes, cl100k):
    """The pieces of texts (UTF-8 bytes back to back, ``char_counts[t]`` characters in text
    ``t``): ``(byte bounds of each piece, where each text's pieces start)``."""
    n = data.shape[0]
    cps = np.empty(n, np.int32)
    at = np.empty(n + 1, np.int64)
    k = 0
    m = 0
    while k < n:
        b = np.int64(data[k])
        if b < 0x80:
            c = b
            w = 1
        elif b < 0xE0:
            c = ((b & 0x1F) << 6) | (np.int64(data[k + 1]) & 0x3F)
            w = 2
        elif b < 0xF0:
            c = ((b & 0x0F) << 12) | ((np.int64(data[k + 1]) & 0x3F) << 6) | (np.int64(data[k + 2]) & 0x3F)
            w = 3
        else:
            c = (
                ((b & 0x07) << 18)
                | ((np.int64(data[k + 1]) & 0x3F) << 12)
                | ((np.int64(data[k + 2]) & 0x3F) << 6)
                | (np.int64(data[k + 3]) & 0x3F)
            )
            w = 4
        cps[m] = c
        at[m] = k
        m += 1
        k += w
    at[m] = n
    texts = char_counts.shape[0]
    bounds = np.empty(m + 1, np.int64)
    text_pieces = np.empty(texts + 1, np.int64)
    p = 0
    start = 0
    for t in range(texts):
        text_pieces[t] = p
        end = min(start + char_counts[t], m)
        i = start
        while i < end:
            bounds[p] = at[i]
            p += 1
            i = _piece_end(cps, classes, i, end, cl100k)
        start = end
    text_pieces[texts] = p
    bounds[p] = at[start]
    return bounds[: p + 1], text_pieces


@kernel
def _encode_texts(data, char_counts, classes, cl100k, blob, packed):
    """:func:`_split_texts`, then each piece a token's rank or its bytes merged by rank
    (``core.models.bpe.kernels._rank_texts``): ``(ids, where each text's ids start, ok)``,
    not ``ok`` when a byte to merge has no rank."""
    byte_ranks, keys, values, offsets, slots, token_ranks = _unpack(packed)
    bounds, text_bounds = _split_texts(data, char_counts, classes, cl100k)
    pieces = bounds.shape[0] - 1
    known = np.empty(pieces, np.int64)
    for p in range(pieces):
        t = _token_of(data, bounds[p], bounds[p + 1], blob, offsets, slots)
        known[p] = token_ranks[t] if t >= 0 else -1
    ids, ok = _rank_texts(data, bounds, known, text_bounds, byte_ranks, keys, values)
    return ids, text_bounds, ok


def split_texts(texts: list[str], cl100k: bool) -> list[list[str]]:
    """Each text's pieces as :func:`_encode_texts` cuts them (what the tests hold against `regex`).

    >>> split_texts(["Hi  there's 12345!!\\n"], True)
    [['Hi', ' ', ' there', "'s", ' ', '123', '45', '!!\\n']]
    """
    data = np.frombuffer("".join(texts).encode("utf-8", "surrogatepass"), np.uint8)
    counts = np.fromiter(map(len, texts), np.int64, len(texts))
    bounds, text_pieces = _split_texts(data, counts, unicode_classes(), cl100k)
    raw = data.tobytes()
    cuts = bounds.tolist()
    edges = text_pieces.tolist()
    return [
        [raw[cuts[p] : cuts[p + 1]].decode("utf-8", "surrogatepass") for p in range(a, b)]
        for a, b in zip(edges, edges[1:])
    ]


def encode_texts(texts: list[str], cl100k: bool, tokens: TokenTable) -> list[list[int]] | None:
    """The ids of whole texts (strings) in one kernel call (:func:`_encode_texts`), taken as
    tiktoken's ``encode`` takes them (a surrogate pair joined, a lone one U+FFFD); None when a
    byte to merge has no rank."""
    joined = "".join(texts)
    try:
        raw = joined.encode("utf-8")
    except UnicodeEncodeError:  # a surrogate: as core.text.replace_surrogates
        from core.text import replace_surrogates

        texts = [replace_surrogates(t)[0] for t in texts]
        joined = "".join(texts)
        raw = joined.encode("utf-8")
    data = np.frombuffer(raw, np.uint8)
    if len(texts) == 1:
        counts = np.array([len(joined)], np.int64)
    else:
        counts = np.fromiter(map(len, texts), np.int64, len(texts))
    ids, bounds, ok = _encode_texts(data, counts, _classes if _classes is not None else unicode_classes(),
                                    cl100k, tokens.blob, tokens.packed)  # fmt: skip
    if not ok:
        return None
    return [ids.tolist()] if len(texts) == 1 else split_flat(ids, bounds)
