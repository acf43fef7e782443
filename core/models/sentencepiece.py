"""What SentencePiece's unigram, BPE, char and word models share: the piece table, look-ups
and the handling of unknown characters.

A model segments one normalized sentence (``▁`` for spaces, no pre-tokenizer) into
``(start, end, id)`` segments (``_segment``, one per model); unknown segments then become
their UTF-8 bytes ``<0xXX>`` with byte fallback, or, without it, a run of them one
``<unk>``. Control pieces and byte pieces are never matched in text; unused pieces never
appear.

Leaves out: the segmentations themselves (``core.models.unigram.sentencepiece``,
``core.models.bpe.sentencepiece``, ``core.models.wordlevel.sentencepiece``) and files
(``core.formats.sentencepiece_model``).
"""

from __future__ import annotations

import math

from core.models.base import ModelBase, Token
from core.sentencepiece_pieces import NORMAL, SPACE, UNKNOWN, UNUSED, USER_DEFINED, Piece, byte_piece

WORD_CACHE_LIMIT = 200_000  # words; the ids fast path's cache is emptied when it gets this big


class SentencePieceModel(ModelBase):
    """What unigram and BPE share: the piece table, look-ups and unknown handling."""

    #: characters; a longer sentence is not normalized and segmented whole in one kernel call
    #: (the kernels hold a few arrays as long as the sentence, and its rewrite)
    _LONG_SENTENCE = 1 << 16

    def __init__(self, pieces: list[Piece], byte_fallback: bool = False):
        self.pieces = list(pieces)
        self.byte_fallback = byte_fallback
        self.unk_id = next(i for i, p in enumerate(self.pieces) if p.type == UNKNOWN)
        self.unk_token = self.pieces[self.unk_id].piece
        self._vocab = {p.piece: i for i, p in enumerate(self.pieces)}
        # Pieces matched in text: normal, user-defined and unused (the last skipped when found).
        self._matchable = {
            p.piece: i for i, p in enumerate(self.pieces) if p.type in (NORMAL, USER_DEFINED, UNUSED)
        }
        self._reserved = {
            p.piece: i for i, p in enumerate(self.pieces) if p.type not in (NORMAL, USER_DEFINED, UNUSED)
        }
        self.user_defined = [p.piece for p in self.pieces if p.type == USER_DEFINED]
        self._byte_ids = [self._vocab.get(byte_piece(b), self.unk_id) for b in range(256)]

    def piece_to_id(self, piece: str) -> int:
        """SentencePiece's PieceToId: reserved pieces, then the others, else unk."""
        i = self._reserved.get(piece)
        if i is None:
            i = self._matchable.get(piece, self.unk_id)
        return i

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        raise NotImplementedError

    def sentence_ids_batch(self, normalizer):
        """Raw sentences to ids in one call of the model's compiled encoder
        (:meth:`_raw_sentences_encoder`), which normalizes each with ``normalizer`` (a
        ``SentencePieceNormalizer`` whose ``compiled_rewrites`` has tables) before it segments
        it. A sentence holding a character the tables do not know yet goes again once they have
        learnt it; one that may start a key of several characters, or longer than
        :data:`_LONG_SENTENCE`, is normalized in Python and goes to :meth:`tokenize_ids_batch`;
        None when the model or the normalizer has no compiled way.

            >>> from core.models.unigram.sentencepiece import SentencePieceUnigram
            >>> from core.normalizers_sentencepiece import SentencePieceNormalizer
            >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁ab", -1), Piece("▁a", -2),
            ...                           Piece("▁", -3), Piece("a", -4), Piece("b", -5)])
            >>> m.sentence_ids_batch(SentencePieceNormalizer())([" ab  a", ""])
            [[1, 2], []]
        """
        get_rewrites = getattr(normalizer, "compiled_rewrites", None)
        rewrites = get_rewrites() if get_rewrites is not None else None
        encode_raw = self._raw_sentences_encoder(rewrites) if rewrites is not None else None
        if encode_raw is None:
            return None
        normalize = normalizer.normalize_str
        tokenize_ids_batch = self.tokenize_ids_batch

        def encode(texts: list[str]) -> list[list[int]]:
            limit = self._LONG_SENTENCE
            long = []  # subtle: most calls are one short line: no list comprehension for them
            if max(map(len, texts), default=0) > limit:
                long = [k for k, t in enumerate(texts) if len(t) > limit]
            short = [t if len(t) <= limit else "" for t in texts] if long else texts
            ids, back = encode_raw(short)
            if back and rewrites.learn("".join([short[k] for k in back])):
                # the characters met for the first time are known now: those sentences again
                # (a fresh tokenizer's first batch of Korean text sends back a sixth of its lines)
                again, back_again = encode_raw([short[k] for k in back])
                for k, found in zip(back, again):
                    ids[k] = found
                back = [back[j] for j in back_again]
            if long:
                back = sorted({*back, *long})
            if back:
                rewrites.learn("".join([texts[k] for k in long]))
                normalized = [normalize(texts[k]) for k in back]
                for k, found in zip(back, tokenize_ids_batch(normalized)):
                    ids[k] = found
            return ids

        return encode

    def sentence_ids(self, normalizer):
        """One raw sentence to ids in one call of the model's compiled encoder for a single
        sentence (:meth:`_raw_sentence_encoder`), None for a sentence it leaves to
        :meth:`sentence_ids_batch` (a character not learnt yet, a longer key, longer than
        :data:`_LONG_SENTENCE`, a surrogate: ``check_text`` has not seen it); None when the
        model or the normalizer has no such way.

            >>> from core.models.unigram.sentencepiece import SentencePieceUnigram
            >>> from core.normalizers_sentencepiece import SentencePieceNormalizer
            >>> m = SentencePieceUnigram([Piece("<unk>", 0, UNKNOWN), Piece("▁ab", -1), Piece("▁a", -2),
            ...                           Piece("▁", -3), Piece("a", -4), Piece("b", -5)])
            >>> m.sentence_ids(SentencePieceNormalizer())(" ab  a")
            [1, 2]
        """
        get_rewrites = getattr(normalizer, "compiled_rewrites", None)
        rewrites = get_rewrites() if get_rewrites is not None else None
        return self._raw_sentence_encoder(rewrites) if rewrites is not None else None

    def _raw_sentences_encoder(self, rewrites):
        """``encode(texts) -> (ids, the texts Python must normalize)`` of the model's kernel that
        normalizes raw sentences with ``rewrites`` (``CompiledRewrites``) and segments them; None
        when the model has none. See :meth:`sentence_ids_batch`."""
        return None

    def _raw_sentence_encoder(self, rewrites):
        """``encode(text) -> ids``, or None for a text it leaves to the batch's way: the model's
        kernel for one sentence (a call of ``encode_ids``, where what is around a kernel costs
        as much as the kernel); None when the model has none. See :meth:`sentence_ids`."""
        return None

    def tokenize(self, piece: str) -> list[Token]:
        """Segment one normalized sentence; unknowns become bytes or merge into one ``<unk>``."""
        return self._tokens(piece, self._segment(piece))

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (the ids fast path), from cached words.

        A sentence is cut before each ``▁`` into words, each segmented once and cached
        (most words repeat). That is exact when no piece holds a ``▁`` after its first
        character, so that no piece can span two words (checked once; otherwise the
        whole sentence is segmented as :meth:`tokenize` does).
        """
        words = self.__dict__.get("_words_apart")
        if words is None:
            words = self._words_apart = not any(SPACE in p[1:] for p in self._matchable)
        if not words or SPACE not in piece[1:]:
            return [t.id for t in self.tokenize(piece)]
        cache = self.__dict__.get("_word_ids")
        if cache is None:
            cache = self._word_ids = {}
        ids: list[int] = []
        unk, fuse = self.unk_id, not self.byte_fallback
        gap = math.inf
        for k, part in enumerate(piece.split(SPACE)):
            word = SPACE + part if k else part
            if not word:
                continue
            found = cache.get(word)
            if found is None:
                found = self._word_ids_of(word)
                if len(cache) >= WORD_CACHE_LIMIT:
                    cache.clear()
                cache[word] = found
            word_ids, word_gap = found
            if word_gap < gap:
                gap = word_gap
            if fuse and ids and ids[-1] == unk and word_ids[0] == unk:
                ids.extend(word_ids[1:])  # subtle: unknown runs fuse across words, as in one sentence
            else:
                ids.extend(word_ids)
        if gap <= self._tolerance(len(piece)):
            return [t.id for t in self.tokenize(piece)]
        return ids

    def _word_ids_of(self, word: str) -> tuple[tuple[int, ...], float]:
        """Ids of one word, and how far apart its competing scores were (BPE: no scores added)."""
        return self._ids(word, self._segment(word)), math.inf

    def _tolerance(self, n: int) -> float:
        """How much the sentence-wide arithmetic may move a word's competing scores."""
        return -1.0

    def _tokens(self, piece: str, segments: list[tuple[int, int, int]]) -> list[Token]:
        """``(start, end, id)`` segments as tokens, unknown characters as bytes or one ``<unk>``."""
        texts = self.__dict__.get("_piece_texts")
        if texts is None:
            texts = self._piece_texts = [p.piece for p in self.pieces]
        if self.unk_id not in [seg[2] for seg in segments]:  # the usual case: one token per segment
            return [Token(id, texts[id], start, end) for start, end, id in segments]
        out: list[Token] = []
        prev_unk = False
        for start, end, id in segments:
            is_unk = id == self.unk_id
            if is_unk and self.byte_fallback:
                for ci in range(start, end):
                    encoded = piece[ci].encode("utf-8", errors="surrogatepass")
                    for j, b in enumerate(encoded):
                        bid = self._byte_ids[b]
                        # as SentencePiece: the character's span goes to its last byte; the others are empty
                        last = j == len(encoded) - 1
                        out.append(Token(bid, self.pieces[bid].piece, ci, ci + 1 if last else ci))
            elif is_unk and prev_unk:
                last = out[-1]
                out[-1] = Token(last.id, last.value, last.start, end)
            else:
                out.append(Token(id, self.pieces[id].piece, start, end))
            prev_unk = is_unk
        return out

    def _ids(self, piece: str, segments) -> tuple[int, ...]:
        """The ids of :meth:`_tokens` (unknown runs fused or as bytes), without Token objects."""
        unk = self.unk_id
        if not self.byte_fallback:
            ids = [seg[2] for seg in segments]
            if unk in ids:
                ids = [id for k, id in enumerate(ids) if id != unk or k == 0 or ids[k - 1] != unk]
            return tuple(ids)
        out: list[int] = []
        byte_ids = self._byte_ids
        for start, end, id in segments:
            if id == unk:
                for c in piece[start:end]:
                    out.extend(byte_ids[b] for b in c.encode("utf-8", errors="surrogatepass"))
            else:
                out.append(id)
        return tuple(out)

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self.pieces[id].piece if 0 <= id < len(self.pieces) else None

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def vocab_size(self) -> int:
        return len(self.pieces)
