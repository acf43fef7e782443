"""Compiled WordPiece: BERT's greedy longest-match-first of many words in one call.

    >>> from core.models.unigram.kernels import PieceTrie
    >>> from core.text import codepoints
    >>> trie = PieceTrie.build([("hu", 1, 0.0, False), ("##g", 2, 0.0, False), ("##gs", 3, 0.0, False)])
    >>> codes, bounds = codepoints(["hugs", "mug"])
    >>> ids, ends = longest_match_ids(codes, bounds, trie, "##", unk_id=0, max_chars=100)
    >>> [ids[ends[k]:ends[k + 1]].tolist() for k in range(2)]
    [[1, 3], [0]]

The same steps as :meth:`core.models.wordpiece.WordPiece.explain` (the readable form): a
word longer than ``max_chars`` is the unknown token; from its start take the longest piece
that matches, after the first with the continuing prefix; if nothing matches at some
position the whole word is the unknown token. The vocabulary is one character trie
(``core.models.unigram.kernels.PieceTrie``); continuing pieces are found by walking the
prefix (``##``) first, so the node it ends at is where their search starts.
"""

from __future__ import annotations

import numpy as np

from core.jit import kernel
from core.models.unigram.kernels import PieceTrie, child_of


def longest_match_ids(
    codes: np.ndarray, bounds: np.ndarray, trie: PieceTrie, prefix: str, unk_id: int, max_chars: int
) -> tuple[np.ndarray, np.ndarray]:
    """The ids of each word: ``ids[ends[k]:ends[k + 1]]`` is word ``k``'s."""
    node = continuing_root(trie, prefix)
    return _longest_match_ids(codes, bounds, trie.keys, trie.children, trie.piece_id, node, unk_id, max_chars)


def continuing_root(trie: PieceTrie, prefix: str) -> int:
    """The trie node the continuing prefix (``##``) ends at, where a word's later pieces are
    looked for (-1 if no piece starts with it)."""
    node = 0
    for c in prefix:
        node = int(child_of(trie.keys, trie.children, node, ord(c)))
        if node < 0:
            break
    return node


@kernel
def _longest_match_ids(codes, bounds, keys, children, piece_id, continuing_root, unk_id, max_chars):
    n_texts = bounds.shape[0] - 1
    out = np.empty(codes.shape[0] + n_texts, dtype=np.int32)  # at most a piece per character, or one unk
    ends = np.zeros(n_texts + 1, dtype=np.int64)
    m = 0
    for k in range(n_texts):
        lo = bounds[k]
        n = bounds[k + 1] - lo
        word_start = m
        if n > max_chars:
            out[m] = unk_id
            m += 1
            ends[k + 1] = m
            continue
        start = 0
        while start < n:
            node = 0 if start == 0 else continuing_root
            best_end = -1
            best_id = -1
            j = start
            while j < n and node >= 0:
                node = child_of(keys, children, node, codes[lo + j])
                j += 1
                if node >= 0 and piece_id[node] >= 0:
                    best_end = j
                    best_id = piece_id[node]
            if best_end < 0:
                m = word_start  # subtle: one failure makes the whole word unknown
                out[m] = unk_id
                m += 1
                break
            out[m] = best_id
            m += 1
            start = best_end
        ends[k + 1] = m
    return out[:m], ends
