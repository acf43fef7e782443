"""A rank file's line encoder: GPT-2's, cl100k's and o200k's split patterns, the token look-up
and the merge by rank, all in one compiled call over whole texts.

The split is what `regex` finds with :data:`core.pre_tokenizers.R50K_PATTERN` (GPT-2, r50k,
p50k; also the ``tokenizers`` spelling :data:`~core.pre_tokenizers.GPT2_PATTERN`),
:data:`~core.pre_tokenizers.CL100K_PATTERN` or :data:`~core.pre_tokenizers.O200K_PATTERN`,
written as the alternatives' rules read at each position (leftmost alternative first, with
`regex`'s backtracking where o200k's quantifiers are not possessive), with every character's
class (letter ``\\p{L}``, number ``\\p{N}``, white space ``\\s``; o200k's upper and lower cases)
taken from `regex` itself (:func:`unicode_classes`, :func:`o200k_classes`), so the two agree
character for character. Then each piece that is a token is its rank
(:class:`RankTable`) and the others' bytes are merged by rank.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 300, b" ab": 301}
    >>> table = RankTable.build(ranks, np.arange(256), {(97, 98): (300, 300)})
    >>> encode_texts(["ab ab's", "abab"], GPT2, table)
    [[300, 301, 39, 115], [300, 300]]

Why: the split by `regex` (~4 µs a Korean line) and the Python between it and the kernel cost
more than the merge itself. Leaves out: other patterns (a file's own), which go through `regex` (the model's ``split_texts_ids`` says which it takes).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from core.jit import kernel
from core.models.bpe.kernels import _fill_token_slots, _heap_pop, _heap_push, _slot, _token_of, split_flat

LETTER, NUMBER, SPACE = 1, 2, 4  # a character's class (0: none of them, "other")
# o200k's two letter cases, marks in both: [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], [\p{Ll}\p{Lm}\p{Lo}\p{M}]
UPPER, LOWER = 8, 16
GPT2, CL100K, O200K = 0, 1, 2  # which pattern a kernel splits with (its ``kind``)
_CR, _LF, _SPACE_CHAR, _APOSTROPHE, _SLASH = 13, 10, 32, 39, 47
RANK_BITS = 21  # ranks below 2**21 (every rank file OpenAI ships: o200k's are below 2**18)
_RANK_MASK = (1 << RANK_BITS) - 1
_NO_PAIR = 1 << (2 * RANK_BITS)  # the rank of two tokens that join into none: above every rank
_SHORT = 24  # up to this many bytes, scan the pairs; more, keep a heap


_classes: np.ndarray | None = None
_o200k_classes: np.ndarray | None = None


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


def o200k_classes() -> np.ndarray:
    """:func:`unicode_classes` with o200k's two cases added (:data:`UPPER`, :data:`LOWER`; a
    mark, Lm or Lo both), from runs that `regex` finds too; built once a process when an o200k
    file is first encoded.

    >>> [int(o200k_classes()[ord(c)]) for c in "aAǅʰ한\u0301 7!"]
    [17, 9, 9, 25, 25, 24, 4, 2, 0]
    """
    global _o200k_classes
    if _o200k_classes is None:
        import regex

        points = np.arange(0x110000, dtype="<u4")
        points[0xD800:0xE000] = 0
        every = points.tobytes().decode("utf-32-le")
        classes = unicode_classes().copy()
        for bit, run in (
            (UPPER, r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+"),
            (LOWER, r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"),
        ):
            for m in regex.finditer(run, every):
                classes[m.start() : m.end()] |= bit
        classes[0] = 0
        _o200k_classes = classes
    return _o200k_classes


def classes_of(kind: int) -> np.ndarray:
    """The class table the kernels read for a pattern :data:`GPT2`, :data:`CL100K` or :data:`O200K`."""
    if kind == O200K:
        return _o200k_classes if _o200k_classes is not None else o200k_classes()
    return _classes if _classes is not None else unicode_classes()


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
def _contraction_end(cps, j, end):
    """Where o200k's ``(?i:'s|'t|'re|'ve|'m|'ll|'d)?`` ends when it starts at ``j``."""
    if j + 1 < end and cps[j] == _APOSTROPHE:
        d = _folded(cps[j + 1])
        if d == 115 or d == 116 or d == 109 or d == 100:  # s t m d
            return j + 2
        if j + 2 < end:
            e = _folded(cps[j + 2])
            if (d == 114 and e == 101) or (d == 118 and e == 101) or (d == 108 and e == 108):  # re ve ll
                return j + 3
    return j


@kernel
def _cased_word_end(cps, classes, j, end):
    """Where o200k's ``[UPPER]*[LOWER]+`` and its contraction end when they start at ``j``, -1
    when they do not match: the upper run given back one character at a time (a mark, Lm or
    Lo is of both cases) until a lower one follows, as `regex` backtracks."""
    u = j
    while u < end and classes[cps[u]] & UPPER:
        u += 1
    p = u
    while p >= j:
        if p < end and classes[cps[p]] & LOWER:
            q = p + 1
            while q < end and classes[cps[q]] & LOWER:
                q += 1
            return _contraction_end(cps, q, end)
        p -= 1
    return -1


@kernel
def _o200k_piece_end(cps, classes, i, end):
    """Where o200k's piece starting at ``i`` ends: ``[^\\r\\n\\p{L}\\p{N}]?[UPPER]*[LOWER]+'s?
    |[^\\r\\n\\p{L}\\p{N}]?[UPPER]+[LOWER]*'s?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+
    |\\s+(?!\\S)|\\s+`` (``'s``: any of its contractions, in either case), the alternatives
    tried in that order, each with and then without its optional first character."""
    c = cps[i]
    k = classes[c]
    prefix = c != _CR and c != _LF and (k & (LETTER | NUMBER)) == 0
    if prefix and i + 1 < end:  # one character before a lower-cased word
        j = _cased_word_end(cps, classes, i + 1, end)
        if j >= 0:
            return j
    j = _cased_word_end(cps, classes, i, end)
    if j >= 0:
        return j
    if prefix and i + 1 < end and classes[cps[i + 1]] & UPPER:  # or before an upper-cased one
        j = i + 1
    elif k & UPPER:
        j = i
    else:
        j = -1
    if j >= 0:
        while j < end and classes[cps[j]] & UPPER:
            j += 1
        while j < end and classes[cps[j]] & LOWER:
            j += 1
        return _contraction_end(cps, j, end)
    if k & NUMBER:  # one to three digits
        j = i + 1
        while j < end and j < i + 3 and classes[cps[j]] & NUMBER:
            j += 1
        return j
    j = -1
    if (k & (LETTER | NUMBER | SPACE)) == 0:
        j = i + 1
    elif c == _SPACE_CHAR and i + 1 < end and (classes[cps[i + 1]] & (LETTER | NUMBER | SPACE)) == 0:
        j = i + 2
    if j >= 0:  # others, then line ends and slashes
        while j < end and (classes[cps[j]] & (LETTER | NUMBER | SPACE)) == 0:
            j += 1
        while j < end and (cps[j] == _CR or cps[j] == _LF or cps[j] == _SLASH):
            j += 1
        return j
    # white space: to its last line end; else to the end of the text; else all but its last
    # character (which goes with what follows), or that one character alone
    r = i + 1
    while r < end and classes[cps[r]] & SPACE:
        r += 1
    for p in range(r - 1, i - 1, -1):
        if cps[p] == _CR or cps[p] == _LF:
            return p + 1
    if r == end:
        return end
    return r - 1 if r - i >= 2 else i + 1


@kernel
def _piece_end(cps, classes, i, end, kind):
    """Where the piece starting at ``i`` ends (``cps[:end]`` being the text's code points).

    GPT-2: ``'(?:[sdmt]|ll|ve|re)| ?\\p{L}++| ?\\p{N}++| ?[^\\s\\p{L}\\p{N}]++|\\s++$|\\s+(?!\\S)|\\s``;
    cl100k: ``'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+
    |\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s``; o200k: :func:`_o200k_piece_end`."""
    if kind == O200K:
        return _o200k_piece_end(cps, classes, i, end)
    cl100k = kind == CL100K
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
def _split_texts(data, char_counts, classes, kind):
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
            i = _piece_end(cps, classes, i, end, kind)
        start = end
    text_pieces[texts] = p
    bounds[p] = at[start]
    return bounds[: p + 1], text_pieces


@dataclass(frozen=True)
class RankTable:
    """A rank file for :func:`_encode_texts`, in two arrays: ``blob``, the tokens' bytes back to
    back, and ``packed``: its first 5 numbers say where each part starts: the rank of each byte
    (-1: none), where each token's bytes start in ``blob``, an open-addressing hash of the tokens
    (FNV-1a of their bytes; the index of a token, -1 free), each token's rank, and the pairs:
    ``(left << 21 | right) << 21 | rank of left + right`` for every two tokens that join into a
    token, an open-addressing hash on ``left << 21 | right`` (-1 free).

    Why one number a pair: the key and its rank in one 8-byte slot, a probe reads one cache line
    (with ``core.models.bpe.kernels.PairTable``'s two arrays, two; ~40 % of a Korean line's
    merge time), and the table is half the size (512 KB for 32,000 ranks), near a core's cache.

        >>> t = RankTable.build({b"a": 0, b"b": 1, b"ab": 2}, np.arange(256), {(0, 1): (2, 2)})
        >>> parts = _unpack(t.packed)
        >>> int(_pair_rank(parts[4], 0, 1)), int(_pair_rank(parts[4], 1, 0)) == _NO_PAIR
        (2, True)
    """

    blob: np.ndarray
    packed: np.ndarray

    @classmethod
    def build(cls, ranks: dict[bytes, int], byte_ranks: np.ndarray, pairs: dict) -> RankTable | None:
        """From a rank file's ranks (the empty token left out: no piece is empty) and its pairs
        ``{(left, right): (rank, rank)}``; None when a rank does not fit in :data:`RANK_BITS`."""
        if max(ranks.values(), default=0) > _RANK_MASK:
            return None
        tokens = [token for token in ranks if token]
        blob = np.frombuffer(b"".join(tokens), np.uint8)
        offsets = np.fromiter(itertools.accumulate(map(len, tokens), initial=0), np.int64, len(tokens) + 1)
        slots = np.full(1 << max(3, (2 * len(tokens)).bit_length()), -1, np.int64)
        _fill_token_slots(blob, offsets, slots)
        token_ranks = np.fromiter(map(ranks.__getitem__, tokens), np.int64, len(tokens))
        n = len(pairs)
        pair_slots = np.full(1 << max(3, (4 * n // 3).bit_length()), -1, np.int64)  # at most 3/4 full
        if n:
            flat = np.fromiter(itertools.chain.from_iterable(pairs), np.int64, 2 * n).reshape(n, 2)
            joined = np.fromiter((rank for rank, _ in pairs.values()), np.int64, n)
            _fill_pairs(flat[:, 0].copy(), flat[:, 1].copy(), joined, pair_slots)
        parts = [byte_ranks.astype(np.int64), offsets, slots, token_ranks, pair_slots]
        starts = list(itertools.accumulate(map(len, parts), initial=len(parts)))
        return cls(blob, np.concatenate([np.array(starts[:-1], np.int64), *parts]))


@kernel
def _unpack(packed):
    """The parts of :attr:`RankTable.packed`: byte ranks, token offsets, token slots, token
    ranks, pair slots."""
    return (
        packed[packed[0] : packed[1]],
        packed[packed[1] : packed[2]],
        packed[packed[2] : packed[3]],
        packed[packed[3] : packed[4]],
        packed[packed[4] :],
    )


@kernel
def _fill_pairs(lefts, rights, joined, slots):
    mask = slots.shape[0] - 1
    for n in range(lefts.shape[0]):
        key = (lefts[n] << RANK_BITS) | rights[n]
        i = _slot(key, mask)
        while slots[i] != -1 and (slots[i] >> RANK_BITS) != key:
            i = (i + 1) & mask
        slots[i] = (key << RANK_BITS) | joined[n]


@kernel
def _pair_rank(slots, left, right):
    """The rank of the token ``left`` + ``right`` join into, or :data:`_NO_PAIR`."""
    key = (left << RANK_BITS) | right
    mask = slots.shape[0] - 1
    i = _slot(key, mask)
    while True:
        s = slots[i]
        if s == -1:
            return _NO_PAIR
        if (s >> RANK_BITS) == key:
            return s & _RANK_MASK
        i = (i + 1) & mask


@kernel
def _merge_by_rank(ids, bounds, slots, out, out_bounds):
    """Merge each piece ``ids[bounds[p]:bounds[p + 1]]`` (byte ranks) by rank, tiktoken's rule:
    join the adjacent pair whose joined token has the lowest rank, the leftmost of equals,
    until no pair joins. Its tokens go to ``out`` from ``out_bounds[p]`` on.

    ``core.models.bpe.kernels._merge_pieces`` with a rank file's one-number pairs (a pair's
    rank is the id it merges into) and no positions; short pieces scan their pairs, long ones
    keep a heap of ``rank << 32 | position`` over a linked list."""
    longest = 1
    for p in range(bounds.shape[0] - 1):
        longest = max(longest, bounds[p + 1] - bounds[p])
    symbol = np.empty(longest, np.int64)
    pair = np.empty(longest, np.int64)
    nxt = np.empty(longest, np.int64)
    prv = np.empty(longest, np.int64)
    heap = np.empty(3 * longest, np.int64)
    low = np.int64(0xFFFFFFFF)
    written = 0
    for p in range(bounds.shape[0] - 1):
        start = bounds[p]
        n = bounds[p + 1] - start
        out_bounds[p] = written
        for k in range(n):
            symbol[k] = ids[start + k]
        if n <= _SHORT:
            for k in range(n - 1):
                pair[k] = _pair_rank(slots, symbol[k], symbol[k + 1])
            m = n
            while m > 1:
                at = 0
                best = pair[0]
                for k in range(1, m - 1):
                    if pair[k] < best:  # strict: the leftmost of equal ranks
                        best = pair[k]
                        at = k
                if best == _NO_PAIR:
                    break
                symbol[at] = best
                for k in range(at + 1, m - 1):
                    symbol[k] = symbol[k + 1]
                    pair[k] = pair[k + 1]
                m -= 1
                if at + 1 < m:
                    pair[at] = _pair_rank(slots, symbol[at], symbol[at + 1])
                if at > 0:
                    pair[at - 1] = _pair_rank(slots, symbol[at - 1], symbol[at])
            for k in range(m):
                out[written] = symbol[k]
                written += 1
            continue
        for k in range(n):
            nxt[k] = k + 1
            prv[k] = k - 1
        size = 0
        for k in range(n - 1):
            r = _pair_rank(slots, symbol[k], symbol[k + 1])
            if r != _NO_PAIR:
                size = _heap_push(heap, size, (r << 32) | k)
        while size > 0:
            top = _heap_pop(heap, size)
            size -= 1
            i = top & low
            right = nxt[i]
            if symbol[i] < 0 or right >= n or _pair_rank(slots, symbol[i], symbol[right]) != (top >> 32):
                continue  # merged away, or its pair changed since it was pushed
            symbol[i] = top >> 32
            symbol[right] = -1
            after = nxt[right]
            nxt[i] = after
            if after < n:
                prv[after] = i
                r = _pair_rank(slots, symbol[i], symbol[after])
                if r != _NO_PAIR:
                    size = _heap_push(heap, size, (r << 32) | i)
            before = prv[i]
            if before >= 0:
                r = _pair_rank(slots, symbol[before], symbol[i])
                if r != _NO_PAIR:
                    size = _heap_push(heap, size, (r << 32) | before)
        k = 0
        while k < n:
            out[written] = symbol[k]
            written += 1
            k = nxt[k]
    out_bounds[bounds.shape[0] - 1] = written
    return written


@kernel
def _encode_texts(data, bounds, classes, kind, blob, packed, out):
    """:func:`_split_texts` of texts of ``bounds[t]`` characters each, then each piece a token's
    rank or its bytes merged by rank (:func:`_merge_by_rank`), the ids written to ``out`` (as
    long as ``data``: a token holds a byte at least) and where each text's ids start to
    ``bounds`` (``texts + 1`` numbers). Returns how many ids, -1 when a byte to merge has no
    rank.

    subtle: one number back, not arrays: boxing two arrays in a tuple cost each call ~0.3 µs."""
    byte_ranks, offsets, slots, token_ranks, pair_slots = _unpack(packed)
    pieces_at, text_pieces = _split_texts(data, bounds[:-1], classes, kind)
    pieces = pieces_at.shape[0] - 1
    texts = text_pieces.shape[0] - 1
    known = np.empty(pieces, np.int64)
    symbols = np.empty(data.shape[0], np.int64)
    merge_bounds = np.empty(pieces + 1, np.int64)
    todo = 0
    m = 0
    for p in range(pieces):
        t = _token_of(data, pieces_at[p], pieces_at[p + 1], blob, offsets, slots)
        if t >= 0:
            known[p] = token_ranks[t]
            continue
        known[p] = -1
        merge_bounds[todo] = m
        todo += 1
        for k in range(pieces_at[p], pieces_at[p + 1]):
            r = byte_ranks[data[k]]
            if r < 0:
                return -1
            symbols[m] = r
            m += 1
    merge_bounds[todo] = m
    merged = np.empty(max(m, 1), np.int64)
    merged_bounds = np.empty(todo + 1, np.int64)
    _merge_by_rank(symbols, merge_bounds[: todo + 1], pair_slots, merged, merged_bounds)
    w = 0
    q = 0
    for t in range(texts):
        bounds[t] = w
        for p in range(text_pieces[t], text_pieces[t + 1]):
            if known[p] >= 0:
                out[w] = known[p]
                w += 1
            else:
                for j in range(merged_bounds[q], merged_bounds[q + 1]):
                    out[w] = merged[j]
                    w += 1
                q += 1
    bounds[texts] = w
    return w


def split_texts(texts: list[str], kind: int) -> list[list[str]]:
    """Each text's pieces as :func:`_encode_texts` cuts them (what the tests hold against `regex`).

    >>> split_texts(["Hi  there's 12345!!\\n"], CL100K)
    [['Hi', ' ', ' there', "'s", ' ', '123', '45', '!!\\n']]
    >>> split_texts(["Hi  THERE's HTMLParser a/b//\\n"], O200K)
    [['Hi', ' ', " THERE's", ' HTMLParser', ' a', '/b', '//\\n']]
    """
    data = np.frombuffer("".join(texts).encode("utf-8", "surrogatepass"), np.uint8)
    counts = np.fromiter(map(len, texts), np.int64, len(texts))
    bounds, text_pieces = _split_texts(data, counts, classes_of(kind), int(kind))
    raw = data.tobytes()
    cuts = bounds.tolist()
    edges = text_pieces.tolist()
    return [
        [raw[cuts[p] : cuts[p + 1]].decode("utf-8", "surrogatepass") for p in range(a, b)]
        for a, b in zip(edges, edges[1:])
    ]


def encode_texts(texts: list[str], kind: int, table: RankTable) -> list[list[int]] | None:
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
    out = np.empty(len(raw), np.int64)
    classes = classes_of(kind)
    if len(texts) == 1:
        bounds = np.array([len(joined), 0], np.int64)
        written = _encode_texts(data, bounds, classes, kind, table.blob, table.packed, out)
        return None if written < 0 else [out[:written].tolist()]
    bounds = np.fromiter(itertools.chain(map(len, texts), (0,)), np.int64, len(texts) + 1)
    written = _encode_texts(data, bounds, classes, kind, table.blob, table.packed, out)
    return None if written < 0 else split_flat(out[:written], bounds)
