"""SentencePiece's unigram model: the best segmentation as its optimized Viterbi finds it.

Viterbi over every normal and user-defined piece that matches, in float32 like
SentencePiece; a character no piece covers becomes ``<unk>`` scored ``min_score - 10``; a
user-defined piece scores ``len_in_bytes * max_score - 0.1`` so it is always chosen.
Other segmentations: n-best (``nbest_words``) and sampling (``sample``, as
``enable_sampling=True, nbest_size=-1``) on the same lattice (:meth:`SentencePieceUnigram.lattice`);
segmentations of equal score may come in another order than SentencePiece's. Raw sentences
are normalized inside the compiled Viterbi (``sentence_ids_batch``, with the normalizer's
``core.normalizer_kernels``), so ``encode_ids`` pays no Python normalizer.

Leaves out: sampling among the n best only (``nbest_size`` > 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

from core.models.base import Token
from core.models.sentencepiece import SentencePieceModel
from core.sentencepiece_pieces import NORMAL, UNUSED, USER_DEFINED, Piece, f32

FLT_MIN = 1.1754943508222875e-38  # C's FLT_MIN: SentencePiece's starting max_score
UNK_PENALTY = 10.0
SCORE_RESET = 100000.0  # SentencePiece's kScoreResetThreshold: see SentencePieceUnigram._segment_readable


def _int32_array(values):
    import numpy as np

    return np.asarray(values, dtype=np.int32)


class SentencePieceUnigram(SentencePieceModel):
    """Unigram segmentation exactly as SentencePiece's optimized Viterbi.

    >>> from core.sentencepiece_pieces import UNKNOWN
    >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1), Piece("▁", -2), Piece("a", -3)])
    >>> [t.value for t in m.tokenize("▁a▁b")]
    ['▁a', '▁', '<unk>']
    """

    def __init__(self, pieces: list[Piece], byte_fallback: bool = False):
        super().__init__(pieces, byte_fallback)
        normal = [p.score for p in self.pieces if p.type == NORMAL]
        self.min_score = min(normal) if normal else 0.0
        self.max_score = max([FLT_MIN] + normal)
        self.unk_score = f32(self.min_score - UNK_PENALTY)

    @cached_property
    def _trie(self) -> dict:
        """A character trie of matchable pieces: node = {char: child, "": (id, score_or_None)};
        made at its first use (the readable segmentation, the lattice): a trained model that is
        only saved never needs it."""
        trie: dict = {}
        for text, i in self._matchable.items():
            node = trie
            for c in text:
                node = node.setdefault(c, {})
            p = self.pieces[i]
            if p.type == UNUSED:
                continue
            if p.type == USER_DEFINED:
                node[""] = (i, None)  # scored by its byte length at match time
            else:
                node[""] = (i, p.score)
        return trie

    # -- segmentation: the compiled Viterbi (core.models.unigram.kernels) -------------------

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (the ids fast path): the whole sentence in one
        compiled Viterbi, in float32 as SentencePiece, so no word needs to be cut out."""
        return self.tokenize_ids_batch([piece])[0]

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]`` in one kernel call.

        >>> from core.sentencepiece_pieces import UNKNOWN
        >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1), Piece("▁", -2), Piece("a", -3)])
        >>> m.tokenize_ids_batch(["▁a▁b", "a"])
        [[1, 2, 0], [3]]
        """
        from core.models.unigram.kernels import BYTES_ALWAYS, UNK_ONLY, best_ids
        from core.text import codepoints

        codes, bounds = codepoints(pieces)
        ids, ends = best_ids(
            codes,
            bounds,
            self._kernel_trie(),
            self.unk_id,
            self.unk_score,
            float32=True,
            user_max_score=self.max_score,
            unknown_runs=BYTES_ALWAYS if self.byte_fallback else UNK_ONLY,
            byte_ids=self._byte_id_array(),
        )
        if len(pieces) == 1:  # one sentence (a call of encode_ids): no cutting
            return [ids.tolist()]
        flat = ids.tolist()
        cuts = ends.tolist()
        return [flat[cuts[k] : cuts[k + 1]] for k in range(len(pieces))]

    def _raw_sentences_encoder(self, rewrites):
        """The compiled Viterbi that normalizes raw sentences first
        (``core.models.unigram.kernels.encode_sentences``); see ``sentence_ids_batch``."""
        from core.models.unigram.kernels import encode_sentences

        tables = self._sentence_tables()

        def encode(texts: list[str]) -> tuple[list[list[int]], list[int]]:
            return encode_sentences(texts, rewrites, tables)

        return encode

    def _raw_sentence_encoder(self, rewrites):
        """The same for one sentence, a call of ``encode_ids``
        (``core.models.unigram.kernels.sentence_encoder``)."""
        from core.models.unigram.kernels import sentence_encoder

        return sentence_encoder(rewrites, self._sentence_tables(), self._LONG_SENTENCE)

    def _sentence_tables(self) -> tuple:
        """The model's tables as the kernels that normalize raw sentences take them (made once)."""
        tables = self.__dict__.get("_compiled_tables")
        if tables is None:
            from core.models.unigram.kernels import BYTES_ALWAYS, UNK_ONLY, sentence_tables

            runs = BYTES_ALWAYS if self.byte_fallback else UNK_ONLY
            tables = self._compiled_tables = sentence_tables(
                self._kernel_trie(), self.unk_id, self.unk_score, self.max_score, runs, self._byte_id_array()
            )
        return tables

    def _byte_id_array(self):
        """The id of each byte's piece ``<0xXX>`` as the kernel's int32 array (built on first use)."""
        found = self.__dict__.get("_byte_ids_int32")
        if found is None:
            found = self._byte_ids_int32 = _int32_array(self._byte_ids)
        return found

    def _kernel_trie(self):
        """The pieces matched in text as the kernel's trie (built on first use)."""
        trie = self.__dict__.get("_compiled_trie")
        if trie is None:
            from core.models.unigram.kernels import PieceTrie

            entries = []
            for text, i in self._matchable.items():
                p = self.pieces[i]
                entries.append((text, -1 if p.type == UNUSED else i, p.score, p.type == USER_DEFINED))
            trie = self._compiled_trie = PieceTrie.build(entries)
        return trie

    def __getstate__(self) -> dict:
        """Pickle without the kernel's arrays (rebuilt on first use)."""
        state = dict(self.__dict__)
        state.pop("_compiled_trie", None)
        state.pop("_compiled_tables", None)
        return state

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        """The best path as ``(start, end, id)`` nodes (unknown characters one node each),
        by the compiled Viterbi; :meth:`_segment_readable` is the same in Python."""
        import numpy as np

        from core.models.unigram.kernels import best_path

        if not s:
            return []
        codes = np.frombuffer(s.encode("utf-32-le"), dtype=np.int32)
        starts, ids = best_path(
            codes,
            self._kernel_trie(),
            self.unk_id,
            self.unk_score,
            float32=True,
            user_max_score=self.max_score,
        )
        bounds = starts.tolist() + [len(s)]
        return [(bounds[k], bounds[k + 1], id) for k, id in enumerate(ids.tolist())]

    def _matches_at(self, s: str, start: int) -> Iterator[tuple[int, int, float]]:
        """``(end, id, score)`` of each piece that matches ``s`` at ``start``, shortest first,
        walking the piece trie one character at a time; a user-defined piece scores above any
        other of its length (SentencePiece: it always wins)."""
        node = self._trie
        ubytes = 0
        for j in range(start, len(s)):
            node = node.get(s[j])
            if node is None:
                return
            ubytes += len(s[j].encode("utf-8", errors="surrogatepass"))
            hit = node.get("")
            if hit is None:
                continue
            id, score = hit
            if score is None:  # user-defined
                score = f32(f32(ubytes * self.max_score) - 0.1)
            yield j + 1, id, score

    def _segment_readable(self, s: str) -> list[tuple[int, int, int]]:
        """SentencePiece's Viterbi in Python, step by step: what the kernel computes."""
        n = len(s)
        # best[e] = (score of the best path ending at char e, its last piece's start, id)
        best_score = [0.0] * (n + 1)
        best_start = [-1] * (n + 1)
        best_id = [-1] * (n + 1)
        frontier = 0  # the furthest position a node has reached
        for start in range(n):
            here = best_score[start]
            if abs(here) > SCORE_RESET:
                # SentencePiece 0.2.3 moves the scores it holds back to 0 (in float) once
                # they pass 1e5 in size: on a long text the float steps decide near-ties
                for p in range(start, frontier + 1):
                    if p == start or best_start[p] != -1:
                        best_score[p] = f32(best_score[p] - here)
                here = 0.0
            has_single = False
            for end, id, score in self._matches_at(s, start):
                cand = f32(score + here)
                frontier = max(frontier, end)
                # subtle: strictly greater, so among equal scores the first found stays
                if best_start[end] == -1 or cand > best_score[end]:
                    best_score[end], best_start[end], best_id[end] = cand, start, id
                if end == start + 1:
                    has_single = True
            if not has_single:
                cand = f32(self.unk_score + here)
                end = start + 1
                frontier = max(frontier, end)
                if best_start[end] == -1 or cand > best_score[end]:
                    best_score[end], best_start[end], best_id[end] = cand, start, self.unk_id
        out = []
        end = n
        while end > 0:
            start = best_start[end]
            out.append((start, end, best_id[end]))
            end = start
        out.reverse()
        return out

    # -- other segmentations: n-best and sampling (SentencePiece's NBestEncode, SampleEncode) --

    def explains(self) -> str:
        return "lattice"

    def lattice(self, s: str):
        """Every piece that matches in ``s``, scored as :meth:`_segment` scores them, plus an
        unknown node for each character no single-character piece covers."""
        from core.models.unigram.lattice import Lattice, Node

        nodes = []
        for start in range(len(s)):
            has_single = False
            for end, id, score in self._matches_at(s, start):
                nodes.append(Node(start, end, self.pieces[id].piece, id, score))
                has_single = has_single or end == start + 1
            if not has_single:
                nodes.append(Node(start, start + 1, self.unk_token, self.unk_id, self.unk_score))
        return Lattice(s, nodes)

    def _path_tokens(self, s: str, path) -> list[Token]:
        """A lattice path as tokens, unknown characters handled as :meth:`tokenize` does."""
        return self._tokens(s, [(n.start, n.end, n.id) for n in path])

    def can_nbest(self) -> bool:
        return True

    def can_sample(self) -> bool:
        return True

    def nbest_words(self, words: list[str], k: int) -> list[tuple[list[str], float]]:
        """The ``k`` best segmentations of a sequence of pre-tokens, best first, with their scores.

        >>> from core.sentencepiece_pieces import UNKNOWN
        >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1), Piece("▁", -2), Piece("a", -3)])
        >>> m.nbest_words(["▁a"], 2)
        [(['▁a'], -1.0), (['▁', 'a'], -5.0)]
        """
        import heapq

        from core.errors import ConfigError

        if k < 1:
            raise ConfigError(f"n-best needs k >= 1, not {k}")
        best: list[tuple[list[str], float]] = [([], 0.0)]
        for word in words:
            options = [
                ([t.value for t in self._path_tokens(word, path)], score)
                for path, score in self.lattice(word).nbest(k)
            ]
            pairs = [(a + b, s + t) for a, s in best for b, t in options]
            best = heapq.nlargest(k, pairs, key=lambda x: x[1])
        return best

    def sample(self, piece: str, alpha: float = 0.1, rng=None) -> list[Token]:
        """A segmentation drawn with probability proportional to ``exp(alpha * score)``
        (SentencePiece's ``enable_sampling=True, nbest_size=-1``)."""
        from core.errors import ConfigError

        if not alpha > 0:
            raise ConfigError(f"sampling needs alpha > 0, not {alpha}")
        if not piece:
            return []
        return self._path_tokens(piece, self.lattice(piece).sample(alpha, rng))

    def to_dict(self) -> dict:
        return {
            "type": "Unigram",
            "unk_id": self.unk_id,
            "vocab": [[p.piece, p.score] for p in self.pieces],
            "byte_fallback": self.byte_fallback,
        }
