"""SentencePiece's normalizer compiled, for the encoders that normalize a sentence inside their
own kernel (a SentencePiece BPE's merge, a Unigram's Viterbi): raw text in, normalized code
points out, in the same call that goes on to segment them.

    >>> from core.normalizers_sentencepiece import SentencePieceNormalizer
    >>> rewrites = SentencePieceNormalizer().compiled_rewrites()   # no charsmap: spaces only
    >>> codes, bounds = sentence_codes(["  a  b ", "", "c"])
    >>> out, out_bounds, back = normalize_sentences(codes, bounds, *rewrites.arrays())
    >>> "".join(map(chr, out)), out_bounds.tolist(), back.tolist()
    ('▁a▁b▁c', [0, 4, 4, 6], [])

The tables are :class:`core.normalizers_sentencepiece.CompiledRewrites`; the readable
normalizer is :class:`core.normalizers_sentencepiece.SentencePieceNormalizer`, which the tests
hold this to. Imported only by kernel modules (numba is heavy to load; see :mod:`core.jit`).
"""

from __future__ import annotations

from itertools import accumulate

import numpy as np
from numba.cpython.unicode import _get_code_point

from core.jit import kernel

_SPACE = 0x2581  # ▁
_ONE_SENTENCE = np.zeros(0, np.int64)  # the bounds of one sentence: all of the codes


def sentence_codes(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``texts`` as :func:`normalize_sentences` reads them: their code points one after another
    and where each starts (``len(texts) + 1`` bounds), or no bounds at all for one text (a call
    of ``encode_ids``: each numpy array made costs a microsecond there).

        >>> codes, bounds = sentence_codes(["ab", "", "한"])
        >>> codes.tolist(), bounds.tolist(), sentence_codes(["ab"])[1].tolist()
        ([97, 98, 54620], [0, 2, 2, 3], [])
    """
    codes = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), np.int32)
    if len(texts) == 1:
        return codes, _ONE_SENTENCE
    return codes, np.fromiter(accumulate(map(len, texts), initial=0), np.int64, len(texts) + 1)


def ids_and_back(packed: np.ndarray, texts: int) -> tuple[list[list[int]], list[int]]:
    """What an encoder of ``texts`` raw sentences returns, as lists: each sentence's ids and the
    sentences :func:`normalize_sentences` left to Python, from the one array :func:`packed`
    wrote (numba boxes each array a kernel returns for ~0.5 µs: one array, not three).

        >>> ids_and_back(packed(np.array([5, 6, 7]), np.array([0, 2, 2, 3]), np.array([1])), 3)
        ([[5, 6], [], [7]], [1])
    """
    values = packed.tolist()
    after_back = 1 + values[0]
    at = after_back + texts + 1  # where the ids start
    back = values[1:after_back] if after_back > 1 else []
    if texts == 1:  # one sentence (a call of encode_ids): no cutting
        return [values[at:]], back
    edges = values[after_back:at]
    return [values[at + a : at + b] for a, b in zip(edges, edges[1:])], back


@kernel
def text_codes(text):
    """The code points of a ``str`` handed to a kernel as it is, read in place from its own
    storage (one, two or four bytes a character): a call of ``encode_ids`` then makes no UTF-32
    copy of its line in Python (~0.7 µs). subtle: ``_get_code_point`` is numba's reader of a
    ``str`` (``numba.cpython.unicode``), what its own ``ord(text[i])`` calls without making the
    one-character string."""
    n = len(text)
    codes = np.empty(n, np.int32)
    for i in range(n):
        codes[i] = _get_code_point(text, i)
    return codes


@kernel
def packed(ids, ends, back):
    """``ids`` of sentences (sentence ``p``'s at ``ids[ends[p]:ends[p + 1]]``) and the sentences
    left to Python (``back``) as one int64 array: ``[len(back), *back, *ends, *ids]``."""
    n_back = back.shape[0]
    out = np.empty(1 + n_back + ends.shape[0] + ids.shape[0], np.int64)
    out[0] = n_back
    out[1 : 1 + n_back] = back
    at = 1 + n_back
    out[at : at + ends.shape[0]] = ends
    out[at + ends.shape[0] :] = ids
    return out


@kernel
def normalize_sentences(codes, bounds, kind, at, length, rewrites, follows, longest):
    """SentencePiece's normalizer on raw sentences (``codes[bounds[p]:bounds[p + 1]]``; no
    bounds: ``codes`` is one sentence), as ``SentencePieceNormalizer.normalize_str`` does it with
    the usual settings: each character rewritten by ``kind``, ``at``, ``length``, ``rewrites``
    and ``follows`` (``core.normalizers_sentencepiece.CompiledRewrites``), then spaces collapsed,
    stripped and escaped as ``▁`` with a ``▁`` in front, and every trailing ``▁`` dropped.

    Returns ``(normalized code points, bounds, back)``: sentence ``p``'s at
    ``[bounds[p]:bounds[p + 1]]``; a sentence that meets a character not known yet, or one that
    may start a longer key, is left empty and listed in ``back`` (Python normalizes it)."""
    n = codes.shape[0]
    if bounds.shape[0] == 0:
        bounds = np.empty(2, np.int64)
        bounds[0] = 0
        bounds[1] = n
    lines = bounds.shape[0] - 1
    out_bounds = np.empty(lines + 1, np.int64)
    out = np.empty(n * longest + lines + 1, np.int32)
    back = np.empty(lines, np.int64)
    n_back = 0
    w = 0
    for p in range(lines):
        begin = w
        out_bounds[p] = begin
        out[w] = _SPACE
        w += 1
        started = False
        pending = False
        returned = False
        end = bounds[p + 1]
        for k in range(bounds[p], end):
            c = codes[k]
            what = kind[c] if c < kind.shape[0] else 0
            if what == 0:
                a = -1
                b = 0
            elif what == 1:
                returned = True
                break
            else:
                if what == 3 and k + 1 < end:
                    after = codes[k + 1]
                    if after < follows.shape[0] and follows[after]:
                        returned = True
                        break
                a = at[c]
                b = length[c]
            for j in range(b if a >= 0 else 1):
                x = rewrites[a + j] if a >= 0 else c
                if x == 32:
                    pending = started
                else:
                    if pending:
                        out[w] = _SPACE
                        w += 1
                        pending = False
                    out[w] = x
                    w += 1
                    started = True
        if returned:
            back[n_back] = p
            n_back += 1
            w = begin
            continue
        while w > begin and out[w - 1] == _SPACE:
            w -= 1
    out_bounds[lines] = w
    return out[:w], out_bounds, back[:n_back]
