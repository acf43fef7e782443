"""SentencePiece's BPE model: merge the adjacent pair whose merged piece scores highest.

Start from characters (user-defined pieces frozen whole) and repeatedly merge the adjacent
pair whose merged piece is in the vocabulary with the HIGHEST score (ties: leftmost);
unused pieces are split back into the pieces they were merged from. A variant of BPE
whose ranks are scores: the compiled merge of :mod:`core.models.bpe.kernels` runs it when
no piece is user-defined or unused.

Leaves out: BPE-dropout (SentencePiece's ``alpha`` sampling for BPE).
"""

from __future__ import annotations

import heapq

from core.models.sentencepiece import SentencePieceModel
from core.sentencepiece_pieces import NORMAL, SPACE, UNUSED, USER_DEFINED, PrefixMatcher

_SHORT_SEGMENT = 4  # characters; BPE's _segment merges longer text compiled (a call costs a few µs)


class SentencePieceBPE(SentencePieceModel):
    """SentencePiece's BPE: merge the adjacent pair whose merged piece scores highest.

    >>> from core.sentencepiece_pieces import UNKNOWN, Piece
    >>> m = SentencePieceBPE([Piece("<unk>", 0, UNKNOWN), Piece("ab", 0), Piece("bc", -1), Piece("a", -2),
    ...                       Piece("b", -3), Piece("c", -4)])
    >>> [t.value for t in m.tokenize("abc")]
    ['ab', 'c']
    """

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize`: see :meth:`tokenize_ids_batch`."""
        return self.tokenize_ids_batch([piece])[0]

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]``: each sentence merged whole, as SentencePiece
        merges it, all of them in one call of the compiled merge (unknown characters become
        their bytes or ``<unk>`` there too). A sentence longer than :data:`_LONG_SENTENCE`
        characters is cut into cached words instead (the compiled merge holds a few arrays
        as long as what it merges).

        >>> from core.sentencepiece_pieces import UNKNOWN, Piece
        >>> m = SentencePieceBPE([Piece("<unk>", 0, UNKNOWN), Piece("ab", 0), Piece("a", -2), Piece("b", -3)])
        >>> m.tokenize_ids_batch(["ab▁ab", "a", ""])   # no piece ▁, no byte fallback: <unk>
        [[1, 0, 1], [2], []]
        """
        compiled = self._compiled()
        if compiled is None:  # user-defined or unused pieces: the Python merge
            return [super(SentencePieceBPE, self).tokenize_ids(p) for p in pieces]
        from core.models.bpe.kernels import merge_sentences

        char_ids, table, closed = compiled
        long = [k for k, p in enumerate(pieces) if len(p) > self._LONG_SENTENCE]
        short = [p if len(p) <= self._LONG_SENTENCE else "" for p in pieces] if long else pieces
        apart = self.__dict__.get("_words_apart")
        if apart is None:
            apart = self._words_apart = not any(SPACE in p[1:] for p in self._matchable)
        ids, unknown = merge_sentences(short, char_ids, table, self._byte_id_array(), self.unk_id, apart)
        if unknown and not closed:  # a character without a piece of its own may be inside one
            chars = self._single_chars()
            for k, p in enumerate(short):
                if not chars.issuperset(p):
                    ids[k] = list(self._ids(p, self._segment(p)))
        for k in long:
            ids[k] = super().tokenize_ids(pieces[k])
        return ids

    def _raw_sentences_encoder(self, rewrites):
        """The compiled merge that normalizes raw sentences first
        (``core.models.bpe.kernels.encode_sentences``); when a sentence held a character without
        a piece that may be inside one, all of them go back to Python.

            >>> from core.normalizers_sentencepiece import SentencePieceNormalizer
            >>> from core.sentencepiece_pieces import UNKNOWN, Piece
            >>> m = SentencePieceBPE([Piece("<unk>", 0, UNKNOWN), Piece("▁ab", 0), Piece("▁a", -1),
            ...                       Piece("▁", -2), Piece("a", -3), Piece("b", -4)])
            >>> m.sentence_ids_batch(SentencePieceNormalizer())([" ab  a", ""])
            [[1, 2], []]
        """
        compiled = self._compiled()
        if compiled is None:
            return None
        from core.models.bpe.kernels import encode_sentences

        char_ids, table, closed = compiled
        byte_ids = self._byte_id_array()
        unk = self.unk_id
        apart = not any(SPACE in p[1:] for p in self._matchable)

        def encode(texts: list[str]) -> tuple[list[list[int]], list[int]]:
            ids, unknown, back = encode_sentences(texts, rewrites, char_ids, table, byte_ids, unk, apart)
            if unknown and not closed:  # a character without a piece may be inside one: as before
                return ids, list(range(len(texts)))
            return ids, back

        return encode

    def _single_chars(self) -> frozenset[str]:
        """The characters that are pieces themselves."""
        found = self.__dict__.get("_chars")
        if found is None:
            found = self._chars = frozenset(p for p in self._matchable if len(p) == 1)
        return found

    def _byte_id_array(self):
        """The id of each byte's piece ``<0xXX>`` as an array (empty without byte fallback)."""
        found = self.__dict__.get("_byte_id_table")
        if found is None:
            import numpy as np

            found = self._byte_id_table = np.array(self._byte_ids if self.byte_fallback else [], np.int64)
        return found

    def _segments(self, s: str, ids, first) -> list[tuple[int, int, int]]:
        """The compiled merge's tokens of ``s`` as ``(start, end, id)``; an unknown character
        (id -1, never merged) gets the id SentencePiece looks up for it (usually ``<unk>``)."""
        starts = first.tolist()
        out = list(zip(starts, starts[1:] + [len(s)], ids.tolist()))
        return [(a, b, id if id >= 0 else self.piece_to_id(s[a:b])) for a, b, id in out]

    def _compiled(self):
        """``(code point -> id array, PairTable, closed)`` for the compiled merge, or None when the model has
        user-defined or unused pieces (frozen pieces and splitting back need the Python merge).

        A pair's rank is the place of its merged piece's score among the distinct scores,
        best first: equal scores share a rank, so the leftmost pair wins, as in SentencePiece.
        """
        compiled = self.__dict__.get("_compiled_tables")
        if compiled is None:
            compiled = False
            if not any(p.type in (USER_DEFINED, UNUSED) for p in self.pieces):
                import numpy as np

                from core.models.bpe.kernels import PairTable

                matchable = self._matchable
                place = {score: r for r, score in enumerate(sorted({-p.score for p in self.pieces}))}
                pairs = {}
                for piece, id in matchable.items():
                    rank = place[-self.pieces[id].score]
                    for k in range(1, len(piece)):
                        left, right = matchable.get(piece[:k]), matchable.get(piece[k:])
                        if left is not None and right is not None:
                            pairs[(left, right)] = (rank, id)
                # character -> id as an array indexed by code point (-1: not a piece)
                chars = {ord(piece): id for piece, id in matchable.items() if len(piece) == 1}
                char_ids = np.full(max(chars, default=0) + 1, -1, np.int64)
                char_ids[list(chars)] = list(chars.values())
                # subtle: when every character of every piece is a piece itself, a character
                # that is not can never be merged, so words holding one merge compiled too
                closed = all(len(piece) == 1 or all(ord(c) in chars for c in piece) for piece in matchable)
                compiled = (char_ids, PairTable.build(pairs), closed)
            self._compiled_tables = compiled
        return compiled or None

    def __getstate__(self) -> dict:
        """Pickle without the compiled merge's tables (rebuilt on first use)."""
        state = dict(self.__dict__)
        state.pop("_compiled_tables", None)
        return state

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        compiled = self._compiled() if len(s) > _SHORT_SEGMENT else None
        if compiled is not None:
            import numpy as np

            from core.models.bpe.kernels import merge_flat
            from core.text import codepoints

            char_ids, table, closed = compiled
            codes, bounds = codepoints([s])
            known = char_ids[np.minimum(codes, len(char_ids) - 1)]
            known[codes >= len(char_ids)] = -1
            if closed or not len(codes) or known.min() >= 0:
                # the compiled merge, linear in length (unknown characters stay single)
                ids, first, _ = merge_flat(known, bounds, table)
                return self._segments(s, ids, first)
        # 1. characters, user-defined pieces kept whole and frozen
        starts: list[int] = []
        ends: list[int] = []
        frozen: list[bool] = []
        i = 0
        n = len(s)
        matcher = PrefixMatcher(self.user_defined) if self.user_defined else None
        while i < n:
            k = matcher.match(s, i) if matcher else 0
            starts.append(i)
            ends.append(i + (k or 1))
            frozen.append(bool(k))
            i += k or 1
        m = len(starts)
        prev = list(range(-1, m - 1))
        nxt = list(range(1, m + 1))
        if m:
            nxt[-1] = -1
        alive = [True] * m
        matchable = self._matchable
        pieces = self.pieces
        rev_merge: dict[str, tuple[str, str]] = {}
        heap: list[tuple[float, int, int, int]] = []

        def add_pair(left: int, right: int) -> None:
            if left == -1 or right == -1 or frozen[left] or frozen[right]:
                return
            text = s[starts[left] : ends[right]]
            id = matchable.get(text)
            if id is None:
                return
            # max-heap on score, then the leftmost pair
            heapq.heappush(heap, (-pieces[id].score, left, right, ends[right] - starts[left]))
            if pieces[id].type == UNUSED:
                rev_merge[text] = (s[starts[left] : ends[left]], s[starts[right] : ends[right]])

        for i in range(1, m):
            add_pair(i - 1, i)
        # 2. merge the best pair until none is left; stale entries are skipped
        while heap:
            _, left, right, size = heapq.heappop(heap)
            if (
                not alive[left]
                or not alive[right]
                or nxt[left] != right
                or ends[right] - starts[left] != size
            ):
                continue
            ends[left] = ends[right]
            alive[right] = False
            nxt[left] = nxt[right]
            if nxt[right] != -1:
                prev[nxt[right]] = left
            add_pair(prev[left], left)
            add_pair(left, nxt[left])
        # 3. unused pieces are split back into what they were merged from
        out: list[tuple[int, int, int]] = []

        def resegment(start: int, end: int) -> None:
            text = s[start:end]
            id = self.piece_to_id(text)
            if pieces[id].type != UNUSED or text not in rev_merge:
                out.append((start, end, id))
                return
            left, _ = rev_merge[text]
            resegment(start, start + len(left))
            resegment(start + len(left), end)

        i = 0 if m else -1
        while i != -1:
            resegment(starts[i], ends[i])
            i = nxt[i]
        return out

    def explains(self) -> str:
        return "merges"

    def explain(self, piece: str) -> list:
        """The merges that cut ``piece``, in the order applied: each time the adjacent pair whose
        merged piece scores highest (ties: leftmost), as :meth:`_segment` merges. A step's
        ``rank`` is the place of the merged piece's score among the model's distinct scores,
        best first (the rank the compiled merge gives the pair). Leaves out unused pieces'
        splitting back (a model with unused pieces may end with other tokens than the steps).

        >>> from core.sentencepiece_pieces import UNKNOWN, Piece
        >>> m = SentencePieceBPE([Piece("<unk>", 0, UNKNOWN), Piece("ab", 0), Piece("bc", -1), Piece("a", -2),
        ...                       Piece("b", -3), Piece("c", -4)])
        >>> [(s.left, s.right, s.rank) for s in m.explain("abc")]
        [('a', 'b', 0)]
        """
        from core.models.bpe.model import MergeStep

        place = self.__dict__.get("_score_place")
        if place is None:
            place = self._score_place = {
                score: r for r, score in enumerate(sorted({-p.score for p in self.pieces}))
            }
        matchable, pieces = self._matchable, self.pieces
        # 1. characters, user-defined pieces whole and frozen (as _segment starts)
        symbols: list[str] = []
        frozen: list[bool] = []
        matcher = PrefixMatcher(self.user_defined) if self.user_defined else None
        i = 0
        while i < len(piece):
            k = matcher.match(piece, i) if matcher else 0
            symbols.append(piece[i : i + (k or 1)])
            frozen.append(bool(k))
            i += k or 1
        steps = []
        while True:
            # 2. the adjacent pair whose merged piece scores highest, the leftmost on a tie
            best = None
            for j in range(len(symbols) - 1):
                if frozen[j] or frozen[j + 1]:
                    continue
                id = matchable.get(symbols[j] + symbols[j + 1])
                if id is not None and (best is None or pieces[id].score > pieces[best[1]].score):
                    best = (j, id)
            if best is None:
                return steps
            j, id = best
            left, right = symbols[j], symbols[j + 1]
            symbols[j : j + 2] = [left + right]
            del frozen[j + 1]
            steps.append(
                MergeStep(
                    place[-pieces[id].score],
                    left,
                    right,
                    left + right,
                    sum(len(s) for s in symbols[:j]),
                    tuple(symbols),
                    j,
                )
            )

    def merges(self) -> list[tuple[str, str]]:
        """Ranked merges derived from the scores, as `tokenizers`' SentencePiece converter does:
        every split of a piece into two pieces, ordered by the merged piece's score (best first)."""
        pieces = self.pieces
        vocab = {p.piece: i for i, p in enumerate(pieces) if p.type in (NORMAL, USER_DEFINED, UNUSED)}
        get = vocab.get
        found = []  # (-score, piece id, left id, right id): the ids fix the texts, so they sort alone
        for piece, pid in vocab.items():
            if len(piece) > 1:
                score = -pieces[pid].score
                for k in range(1, len(piece)):
                    left = get(piece[:k])
                    if left is not None:
                        right = get(piece[k:])
                        if right is not None:
                            found.append((score, pid, left, right))
        found.sort()
        return [(pieces[left].piece, pieces[right].piece) for _, _, left, right in found]

    def to_dict(self) -> dict:
        return {
            "type": "BPE",
            "dropout": None,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": True,
            "byte_fallback": self.byte_fallback,
            "ignore_merges": False,
            "vocab": dict(self._vocab),
            "merges": [[a, b] for a, b in self.merges()],
        }
