"""Compiled Viterbi for Unigram encoding: the best path of many texts in one call.

    >>> trie = PieceTrie.build([("▁", 1, -1.0, False), ("a", 2, -2.0, False), ("b", 3, -2.0, False),
    ...                         ("ab", 4, -2.5, False)])
    >>> codes, bounds = codepoints(["▁ab", "ba"])
    >>> ids, ends = best_ids(codes, bounds, trie, unk_id=0, unk_score=-12.0)
    >>> [ids[ends[k]:ends[k + 1]].tolist() for k in range(2)]
    [[1, 4], [3, 2]]

The same algorithm as :meth:`core.models.unigram.Unigram._viterbi` and
:meth:`core.models.unigram.sentencepiece.SentencePieceUnigram._segment`, which stay the
readable reference (and the tests compare against them and against the peers):

- positions are code points; at each start every piece that matches is found by walking
  a character trie (so a position costs at most the longest piece's length);
- a candidate replaces the best path ending where it ends only if strictly better, so
  among equal scores the path found first stays (as `tokenizers` and SentencePiece);
- a position no one-character piece covers gets an unknown node of one character;
- unknown runs are fused: one unknown id, or (byte fallback) the UTF-8 bytes of the run as
  byte pieces — always (SentencePiece, whose byte table falls back to ``<unk>`` per byte),
  or only when every byte piece exists (`tokenizers`).

``float32`` mode rounds every addition to float32 as SentencePiece's ``float`` arithmetic
does, and, as SentencePiece 0.2.3's optimized Viterbi (``unigram_model.cc``), moves the
scores it holds back towards 0 whenever the best score where a piece starts passes 1e5 in
size: it subtracts that score (in float) from every score held from there to the furthest
node so far. On a long word the float steps are large (0.06 near 1e6), so without the same
moves the near-ties come out differently (a 1 MB word diverged after 94,155 tokens).
User-defined pieces (SentencePiece) score ``len_in_bytes * max_score - 0.1``.

The trie is an open-addressing hash of ``(parent node, code point) -> child`` in flat
arrays, built once per model. Leaves out: n-best and sampling (``core.models.unigram.lattice``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from core.jit import kernel, typed_entry
from core.normalizer_kernels import ids_and_back, normalize_sentences, packed, sentence_codes, text_codes
from core.text import codepoints

if TYPE_CHECKING:
    from core.normalizers_sentencepiece import CompiledRewrites

_CODE_BITS = 21  # a code point fits in 21 bits: key = node << 21 | code point
_HASH_MULTIPLIER = 0x5851F42D4C957F2D  # odd, below 2**63: an int64 multiplicative hash
EMPTY = -1
_SCORE_RESET = 100000.0  # SentencePiece's kScoreResetThreshold (see ``_viterbi``)

# What an unknown run becomes (besides one unknown id).
UNK_ONLY, BYTES_ALWAYS, BYTES_IF_ALL_PRESENT = 0, 1, 2


@dataclass(frozen=True)
class PieceTrie:
    """A character trie of pieces as flat arrays.

    ``keys[slot]``/``children[slot]``: the hash of edges ``(node << 21 | code point) -> child``;
    ``piece_id[node]`` (-1: no piece ends here), ``score[node]``, ``user[node]`` (a
    SentencePiece user-defined piece: scored by its length in bytes).
    """

    keys: np.ndarray
    children: np.ndarray
    piece_id: np.ndarray
    score: np.ndarray
    user: np.ndarray
    max_piece_length: int

    @classmethod
    def build(cls, entries) -> PieceTrie:
        """``entries``: ``(text, id, score, user_defined)``; an id of -1 makes the path exist
        without a piece at its end (SentencePiece's unused pieces)."""
        entries = list(entries)
        texts = [e[0] for e in entries]
        codes, bounds = codepoints(texts)
        size = 16
        while size < 2 * len(codes):  # at most one edge per character of all pieces
            size *= 2
        keys = np.full(size, EMPTY, dtype=np.int64)
        children = np.zeros(size, dtype=np.int32)
        piece_id = np.full(len(codes) + 1, -1, dtype=np.int32)
        score = np.zeros(len(codes) + 1, dtype=np.float64)
        user = np.zeros(len(codes) + 1, dtype=np.bool_)
        nodes = _insert_pieces(
            codes,
            bounds,
            np.array([e[1] for e in entries], dtype=np.int64),
            np.array([e[2] for e in entries], dtype=np.float64),
            np.array([e[3] for e in entries], dtype=np.bool_),
            keys,
            children,
            piece_id,
            score,
            user,
        )
        longest = max(map(len, texts), default=0)
        return cls(keys, children, piece_id[:nodes], score[:nodes], user[:nodes], longest)


def best_ids(
    codes: np.ndarray,
    bounds: np.ndarray,
    trie: PieceTrie,
    unk_id: int,
    unk_score: float,
    float32: bool = False,
    user_max_score: float = 0.0,
    unknown_runs: int = UNK_ONLY,
    byte_ids: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The ids of the best path of each text: ``ids[ends[k]:ends[k + 1]]`` is text ``k``'s.

    ``unk_id`` -1 means the model has no unknown token: a text that needs one makes this
    raise ``LookupError`` (the caller turns it into its own message). ``byte_ids[b]`` is the id
    of the byte piece ``<0xXX>`` (-1 if missing).
    """
    if byte_ids is None:
        byte_ids = np.full(256, -1, dtype=np.int32)
    ids, ends, failed = _best_ids(
        codes,
        bounds,
        trie.keys,
        trie.children,
        trie.piece_id,
        trie.score,
        trie.user,
        unk_id,
        unk_score,
        float32,
        user_max_score,
        unknown_runs,
        byte_ids,
    )
    if failed >= 0:
        raise LookupError(failed)
    return ids, ends


def sentence_tables(
    trie: PieceTrie,
    unk_id: int,
    unk_score: float,
    user_max_score: float,
    unknown_runs: int,
    byte_ids: np.ndarray,
) -> tuple:
    """What :func:`encode_sentences` takes of a SentencePiece Unigram, made once: the trie's
    arrays, the unknown piece and its score, the score of user-defined pieces by the byte, how
    unknown runs are written and the byte pieces' ids."""
    return (trie.keys, trie.children, trie.piece_id, trie.score, trie.user, unk_id, unk_score,
            user_max_score, unknown_runs, byte_ids)  # fmt: skip


def encode_sentences(
    texts: list[str], rewrites: CompiledRewrites, tables: tuple
) -> tuple[list[list[int]], list[int]]:
    """The ids of raw sentences normalized (``rewrites``:
    ``core.normalizers_sentencepiece.CompiledRewrites``) and cut by the float32 Viterbi of
    SentencePiece (``tables``: :func:`sentence_tables`) in one kernel call
    (:func:`_encode_sentences`): ``(ids, the sentences Python must normalize)``, those left
    without ids.

        >>> from core.normalizers_sentencepiece import SentencePieceNormalizer
        >>> rewrites = SentencePieceNormalizer().compiled_rewrites()   # no charsmap
        >>> trie = PieceTrie.build([("▁", 1, -1.0, False), ("a", 2, -2.0, False), ("▁a", 3, -2.5, False)])
        >>> tables = sentence_tables(trie, 0, -12.0, 0.0, UNK_ONLY, np.full(256, -1, np.int32))
        >>> encode_sentences(["  a   aa ", "", "a"], rewrites, tables)
        ([[3, 3, 2], [], [3]], [])
    """
    codes, bounds = sentence_codes(texts)
    return ids_and_back(_encode_sentences(codes, bounds, *rewrites.arrays(), *tables), len(texts))


def sentence_encoder(rewrites: CompiledRewrites, tables: tuple, longest: int):
    """``encode(text) -> ids``: :func:`encode_sentences` of one raw sentence, for a call of
    ``encode_ids``, with as little as can be around the kernel (:func:`_encode_sentence`): the
    ``str`` goes in as it is, the ids come out as a list, and the kernel is called for its
    argument types once found (``core.jit.typed_entry``: numba's typing of its 17 arguments
    cost more than segmenting a short line). None for a sentence Python must normalize (see
    ``core.normalizer_kernels.normalize_sentences``), longer than ``longest`` characters or
    holding a surrogate (``core.text.check_text`` refuses it: this comes before it).

        >>> from core.normalizers_sentencepiece import SentencePieceNormalizer
        >>> rewrites = SentencePieceNormalizer().compiled_rewrites()   # no charsmap
        >>> trie = PieceTrie.build([("▁", 1, -1.0, False), ("a", 2, -2.0, False), ("▁a", 3, -2.5, False)])
        >>> tables = sentence_tables(trie, 0, -12.0, 0.0, UNK_ONLY, np.full(256, -1, np.int32))
        >>> encode = sentence_encoder(rewrites, tables, longest=16)
        >>> encode("  a   aa "), encode(""), encode("a" * 17), encode("a" + chr(0xD800))
        ([3, 3, 2], [], None, None)
    """
    call = None  # found on the first call: a batch's user never loads this kernel

    def encode(text: str) -> list[int] | None:
        nonlocal call
        if len(text) > longest:
            return None
        if call is None:
            call = typed_entry(_encode_sentence, "", *rewrites.arrays(), *tables)
        ids, back = call(text, *rewrites.arrays(), *tables)  # (learn() may grow the arrays)
        return None if back else ids

    return encode


def best_path(
    codes: np.ndarray,
    trie: PieceTrie,
    unk_id: int,
    unk_score: float,
    float32: bool = False,
    user_max_score: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """The best path of one text as ``(starts, ids)`` of its nodes (unknown nodes have ``unk_id``,
    one character each, not fused): what the readable Viterbi returns, for offsets."""
    return _best_path(
        codes,
        trie.keys,
        trie.children,
        trie.piece_id,
        trie.score,
        trie.user,
        unk_id,
        unk_score,
        float32,
        user_max_score,
    )


def best_paths(
    codes: np.ndarray, bounds: np.ndarray, trie: PieceTrie, unk_id: int, unk_score: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`best_path` of many texts in one call: ``(starts, ids, ends)``, text ``k``'s nodes
    being ``starts[ends[k]:ends[k + 1]]`` (offsets within that text) and the same slice of ids."""
    return _best_paths(
        codes, bounds, trie.keys, trie.children, trie.piece_id, trie.score, trie.user, unk_id, unk_score
    )


# -- kernels -----------------------------------------------------------------------------


@kernel
def _slot_of(keys, key):
    """The slot holding ``key`` or the empty slot where it would go (linear probing)."""
    mask = keys.shape[0] - 1
    slot = ((key * _HASH_MULTIPLIER) >> 24) & mask
    while keys[slot] != EMPTY and keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


@kernel
def child_of(keys, children, node, code):
    """The child of trie ``node`` along code point ``code``, or -1."""
    slot = _slot_of(keys, (np.int64(node) << _CODE_BITS) | code)
    return children[slot] if keys[slot] != EMPTY else -1


@kernel
def _insert_pieces(codes, bounds, ids, scores, users, keys, children, piece_id, score, user):
    """Walk each piece from the root, adding the edges it lacks; its last node gets its id
    (unless -1), score and user flag. Returns the number of nodes."""
    nodes = 1
    for k in range(bounds.shape[0] - 1):
        node = 0
        for j in range(bounds[k], bounds[k + 1]):
            slot = _slot_of(keys, (np.int64(node) << _CODE_BITS) | codes[j])
            if keys[slot] == EMPTY:
                keys[slot] = (np.int64(node) << _CODE_BITS) | codes[j]
                children[slot] = nodes
                nodes += 1
            node = children[slot]
        if ids[k] >= 0:
            piece_id[node] = ids[k]
            score[node] = scores[k]
            user[node] = users[k]
    return nodes


@kernel
def _utf8_length(code):
    if code < 0x80:
        return 1
    if code < 0x800:
        return 2
    if code < 0x10000:
        return 3
    return 4


@kernel
def _viterbi(
    codes,
    lo,
    hi,
    keys,
    children,
    piece_id,
    score,
    user,
    unk_id,
    unk_score,
    float32,
    user_max_score,
    best_score,
    best_start,
    best_id,
):
    """Fill ``best_*[0..hi-lo]`` for ``codes[lo:hi]``; position p's best path ends with the
    node ``(best_start[p], p)`` of id ``best_id[p]`` (-2: the unknown node)."""
    n = hi - lo
    best_score[0] = 0.0
    for p in range(1, n + 1):
        best_start[p] = -1
    mask = keys.shape[0] - 1
    frontier = 0  # the furthest position a node has reached
    for start in range(n):
        here = best_score[start]
        if float32 and (here < -_SCORE_RESET or here > _SCORE_RESET):
            # SentencePiece (0.2.3) moves the scores it holds back to 0 (in float) once they
            # pass 1e5 in size, and so must we to pick the same paths on a long text.
            for p in range(start, frontier + 1):
                if p == start or best_start[p] != -1:
                    best_score[p] = np.float64(np.float32(best_score[p] - here))
            here = 0.0
        has_single = False
        node = 0
        ubytes = 0
        for j in range(start, n):
            code = codes[lo + j]
            key = (np.int64(node) << _CODE_BITS) | code
            slot = ((key * _HASH_MULTIPLIER) >> 24) & mask
            while keys[slot] != EMPTY and keys[slot] != key:
                slot = (slot + 1) & mask
            if keys[slot] == EMPTY:
                break
            node = children[slot]
            ubytes += _utf8_length(code)
            pid = piece_id[node]
            if pid < 0:
                continue
            if user[node]:
                s = np.float64(np.float32(np.float64(np.float32(ubytes * user_max_score)) - 0.1))
            else:
                s = score[node]
            cand = s + here
            if float32:
                cand = np.float64(np.float32(cand))
            end = j + 1
            frontier = max(frontier, end)
            # subtle: strictly greater, so among equal scores the first path found stays
            if best_start[end] == -1 or cand > best_score[end]:
                best_score[end] = cand
                best_start[end] = start
                best_id[end] = pid
            if end == start + 1:
                has_single = True
        if not has_single:
            cand = unk_score + here
            if float32:
                cand = np.float64(np.float32(cand))
            end = start + 1
            frontier = max(frontier, end)
            if best_start[end] == -1 or cand > best_score[end]:
                best_score[end] = cand
                best_start[end] = start
                best_id[end] = -2


@kernel
def _best_path(codes, keys, children, piece_id, score, user, unk_id, unk_score, float32, user_max_score):
    n = codes.shape[0]
    best_score = np.empty(n + 1, dtype=np.float64)
    best_start = np.empty(n + 1, dtype=np.int64)
    best_id = np.empty(n + 1, dtype=np.int64)
    _viterbi(
        codes,
        0,
        n,
        keys,
        children,
        piece_id,
        score,
        user,
        unk_id,
        unk_score,
        float32,
        user_max_score,
        best_score,
        best_start,
        best_id,
    )
    count = 0
    p = n
    while p > 0:
        count += 1
        p = best_start[p]
    starts = np.empty(count, dtype=np.int64)
    ids = np.empty(count, dtype=np.int64)
    p = n
    k = count
    while p > 0:
        k -= 1
        starts[k] = best_start[p]
        ids[k] = best_id[p] if best_id[p] >= 0 else unk_id
        p = best_start[p]
    return starts, ids


@kernel
def _best_ids(
    codes,
    bounds,
    keys,
    children,
    piece_id,
    score,
    user,
    unk_id,
    unk_score,
    float32,
    user_max_score,
    unknown_runs,
    byte_ids,
):
    n_texts = bounds.shape[0] - 1
    longest = 0
    for k in range(n_texts):
        longest = max(longest, bounds[k + 1] - bounds[k])
    best_score = np.empty(longest + 1, dtype=np.float64)
    best_start = np.empty(longest + 1, dtype=np.int64)
    best_id = np.empty(longest + 1, dtype=np.int64)
    path = np.empty(longest + 1, dtype=np.int64)
    # a node gives one id, or at most 4 byte ids per character of an unknown run
    out = np.empty(codes.shape[0] * (4 if unknown_runs != UNK_ONLY else 1) + 1, dtype=np.int32)
    ends = np.zeros(n_texts + 1, dtype=np.int64)
    m = 0
    for k in range(n_texts):
        lo = bounds[k]
        hi = bounds[k + 1]
        n = hi - lo
        if n > 0:
            _viterbi(
                codes,
                lo,
                hi,
                keys,
                children,
                piece_id,
                score,
                user,
                unk_id,
                unk_score,
                float32,
                user_max_score,
                best_score,
                best_start,
                best_id,
            )
            # the path backwards, as the end position of each node
            count = 0
            p = n
            while p > 0:
                path[count] = p
                count += 1
                p = best_start[p]
            run_start = -1  # where the current unknown run started, -1: not in one
            for i in range(count - 1, -2, -1):
                if i >= 0:
                    end = path[i]
                    start = best_start[end]
                    if best_id[end] == -2:
                        if run_start < 0:
                            run_start = start
                        continue
                if run_start >= 0:
                    # an unknown run ends: codes[lo + run_start : lo + start_of_next]
                    run_end = best_start[path[i]] if i >= 0 else n
                    as_bytes = unknown_runs == BYTES_ALWAYS
                    if unknown_runs == BYTES_IF_ALL_PRESENT:
                        as_bytes = True
                        for c in range(run_start, run_end):
                            if not _all_bytes_present(codes[lo + c], byte_ids):
                                as_bytes = False
                                break
                    if as_bytes:
                        for c in range(run_start, run_end):
                            m = _append_bytes(codes[lo + c], byte_ids, out, m)
                    else:
                        if unk_id < 0:
                            return out[:0], ends, k
                        out[m] = unk_id
                        m += 1
                    run_start = -1
                if i >= 0:
                    out[m] = best_id[path[i]]
                    m += 1
        ends[k + 1] = m
    return out[:m], ends, -1


@kernel
def _encode_sentences(
    codes,
    bounds,
    kind,
    at,
    length,
    rewrites,
    follows,
    longest,
    keys,
    children,
    piece_id,
    score,
    user,
    unk_id,
    unk_score,
    user_max_score,
    unknown_runs,
    byte_ids,
):
    """:func:`core.normalizer_kernels.normalize_sentences` then :func:`_best_ids` (in float32, as
    SentencePiece) in one call: raw sentences in (no ``bounds``: one), their ids and the
    sentences left to Python (which have none) out, as one array
    (``core.normalizer_kernels.packed``). SentencePiece always has an unknown piece, so no
    sentence fails."""
    normalized, bounds, back = normalize_sentences(
        codes, bounds, kind, at, length, rewrites, follows, longest
    )
    ids, ends, _ = _best_ids(
        normalized, bounds, keys, children, piece_id, score, user,
        unk_id, unk_score, True, user_max_score, unknown_runs, byte_ids,
    )  # fmt: skip
    return packed(ids, ends, back)


@kernel
def _encode_sentence(
    text,
    kind,
    at,
    length,
    rewrites,
    follows,
    longest,
    keys,
    children,
    piece_id,
    score,
    user,
    unk_id,
    unk_score,
    user_max_score,
    unknown_runs,
    byte_ids,
):
    """:func:`_encode_sentences` of one raw sentence given as a ``str``: ``(its ids as a list,
    whether Python must take it)`` (then no ids): to normalize it, or to refuse a surrogate.
    numba builds the list's integers itself, which costs less than returning an array and
    calling its ``tolist``."""
    out = [np.int64(0) for _ in range(0)]
    codes = text_codes(text)
    for k in range(codes.shape[0]):
        if 0xD800 <= codes[k] <= 0xDFFF:  # a lone surrogate (core.text.check_text refuses it)
            return out, True
    normalized, bounds, back = normalize_sentences(
        codes, np.zeros(0, np.int64), kind, at, length, rewrites, follows, longest
    )
    if back.shape[0] > 0:
        return out, True
    ids, _, _ = _best_ids(
        normalized, bounds, keys, children, piece_id, score, user,
        unk_id, unk_score, True, user_max_score, unknown_runs, byte_ids,
    )  # fmt: skip
    for k in range(ids.shape[0]):
        out.append(np.int64(ids[k]))
    return out, False


@kernel
def _utf8_bytes(code, buffer):
    """Write the UTF-8 bytes of ``code`` into ``buffer``; return how many."""
    if code < 0x80:
        buffer[0] = code
        return 1
    if code < 0x800:
        buffer[0] = 0xC0 | (code >> 6)
        buffer[1] = 0x80 | (code & 0x3F)
        return 2
    if code < 0x10000:
        buffer[0] = 0xE0 | (code >> 12)
        buffer[1] = 0x80 | ((code >> 6) & 0x3F)
        buffer[2] = 0x80 | (code & 0x3F)
        return 3
    buffer[0] = 0xF0 | (code >> 18)
    buffer[1] = 0x80 | ((code >> 12) & 0x3F)
    buffer[2] = 0x80 | ((code >> 6) & 0x3F)
    buffer[3] = 0x80 | (code & 0x3F)
    return 4


@kernel
def _all_bytes_present(code, byte_ids):
    buffer = np.empty(4, dtype=np.int64)
    for b in range(_utf8_bytes(code, buffer)):
        if byte_ids[buffer[b]] < 0:
            return False
    return True


@kernel
def _append_bytes(code, byte_ids, out, m):
    buffer = np.empty(4, dtype=np.int64)
    for b in range(_utf8_bytes(code, buffer)):
        out[m] = byte_ids[buffer[b]]
        m += 1
    return m


@kernel
def _best_paths(codes, bounds, keys, children, piece_id, score, user, unk_id, unk_score):
    n_texts = bounds.shape[0] - 1
    longest = 0
    for k in range(n_texts):
        longest = max(longest, bounds[k + 1] - bounds[k])
    best_score = np.empty(longest + 1, dtype=np.float64)
    best_start = np.empty(longest + 1, dtype=np.int64)
    best_id = np.empty(longest + 1, dtype=np.int64)
    starts = np.empty(codes.shape[0], dtype=np.int64)  # a node holds at least one character
    ids = np.empty(codes.shape[0], dtype=np.int64)
    ends = np.zeros(n_texts + 1, dtype=np.int64)
    m = 0
    for k in range(n_texts):
        lo = bounds[k]
        n = bounds[k + 1] - lo
        if n > 0:
            _viterbi(
                codes,
                lo,
                lo + n,
                keys,
                children,
                piece_id,
                score,
                user,
                unk_id,
                unk_score,
                False,
                0.0,
                best_score,
                best_start,
                best_id,
            )
            count = 0
            p = n
            while p > 0:
                count += 1
                p = best_start[p]
            p = n
            i = m + count
            while p > 0:
                i -= 1
                starts[i] = best_start[p]
                ids[i] = best_id[p] if best_id[p] >= 0 else unk_id
                p = best_start[p]
            m += count
        ends[k + 1] = m
    return starts[:m], ids[:m], ends
