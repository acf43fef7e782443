"""The whole pipeline: added tokens -> normalizer -> pre-tokenizer -> model -> decoder.

    >>> from core.models.bpe.model import BPE
    >>> from core.normalizers import NFC
    >>> from core.pre_tokenizers import Whitespace
    >>> model = BPE({"철": 0, "수": 1, "는": 2, "먹": 3, "고": 4, "철수": 5}, [("철", "수")])
    >>> tok = Tokenizer(model, normalizer=NFC(), pre_tokenizer=Whitespace())
    >>> enc = tok.encode("철수는 먹고")
    >>> enc.tokens, enc.offsets     # offsets index the original text
    (['철수', '는', '먹', '고'], [(0, 2), (2, 3), (4, 5), (5, 6)])

Encoding a text, step by step (as `tokenizers` does, so ids *and* offsets match):

1. added tokens with ``normalized=False`` (special tokens) are cut out of the raw
   text, leftmost-longest; ``single_word`` ones only between non-word characters,
   ``lstrip``/``rstrip`` ones swallow the whitespace beside them;
2. each remaining section is normalized, then added tokens with ``normalized=True``
   are cut out of the normalized text (matched against their normalized content);
3. each remaining part is pre-tokenized (so ByteLevel's prefix space and
   Metaspace's ``▁`` are added per part) and each piece goes through the model;
4. a loaded post-processor trims byte-level offsets and, with
   ``add_special_tokens=True``, adds its ``[CLS]``/``[SEP]`` (see :func:`post_process`).

The ids fast path (:meth:`Tokenizer.encode_ids`, :meth:`Tokenizer.encode_batch_ids`) runs
the same steps on plain strings: no offsets, no per-token objects, and a cache of the
ids of each pre-token (most words repeat). It gives exactly ``encode(text).ids``; a
pipeline stage it cannot run on strings sends it through :meth:`Tokenizer.encode`.

Conventions that differ from `tokenizers` on purpose: ``word_ids`` is None for
added tokens (they still use up a word index), and ``special_tokens_mask`` is 1
for special added tokens found in the text. Leaves out: pairs of sequences,
truncation, padding.
"""

from __future__ import annotations

import gc
import itertools
import re
from typing import Any, NamedTuple, TypeVar

from core.encoding import Encoding, spans_without_overlaps
from core.models.base import Model
from core.normalizers import RUST_WHITESPACE
from core.pre_tokenizers import TiktokenSplit
from core.records import frozen_record
from core.text import NormalizedString, check_text, check_texts, replace_surrogates

T = TypeVar("T")


@frozen_record
class AddedToken(NamedTuple):
    content: str
    id: int
    special: bool = True
    normalized: bool = False
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "content": self.content,
            "single_word": self.single_word,
            "lstrip": self.lstrip,
            "rstrip": self.rstrip,
            "normalized": self.normalized,
            "special": self.special,
        }


class Tokenizer:
    def __init__(
        self,
        model: Model,
        normalizer: Any = None,
        pre_tokenizer: Any = None,
        decoder: Any = None,
        added_tokens: list[AddedToken] | None = None,
        post_processor: dict | None = None,
        extra: dict | None = None,
    ):
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.decoder = decoder
        # Kept verbatim for round trips; we do not apply post-processors.
        self.post_processor = post_processor
        # Anything else a loaded file carried (truncation, padding, unknown parts).
        self.extra = dict(extra or {})
        self.added_tokens: list[AddedToken] = []
        self._encode_special_tokens = False
        self._by_content: dict[str, AddedToken] = {}
        self._raw_re = self._norm_re = None
        self._normalized_by_content: dict[str, AddedToken] = {}
        self._indexed_for = normalizer
        for t in added_tokens or []:
            self.add_token(t)

    # -- added tokens -----------------------------------------------------
    def add_token(self, token: AddedToken) -> None:
        self.added_tokens = [t for t in self.added_tokens if t.content != token.content] + [token]
        self._by_content = {t.content: t for t in self.added_tokens}
        self._index_added_tokens()

    @property
    def encode_special_tokens(self) -> bool:
        """True: special tokens written in the text are encoded as ordinary text (as `tokenizers`'
        setting of that name, tiktoken's ``encode_ordinary`` and mistral-common's ``encode``);
        False (the default): they become their special token."""
        return self._encode_special_tokens

    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None:
        self._encode_special_tokens = bool(value)
        self._index_added_tokens()

    def _matched(self, t: AddedToken) -> bool:
        return not (t.special and self._encode_special_tokens)

    def _index_added_tokens(self) -> None:
        self._raw_re = _alternation(
            t.content for t in self.added_tokens if not t.normalized and self._matched(t)
        )
        self._index_normalized_tokens()

    def _index_normalized_tokens(self) -> None:
        """Tokens with ``normalized=True`` are matched by their normalized content."""
        self._normalized_by_content = {}
        for t in self.added_tokens:
            if t.normalized and t.content and self._matched(t):
                key = self.normalizer.normalize_str(t.content) if self.normalizer is not None else t.content
                self._normalized_by_content.setdefault(key, t)
        self._norm_re = _alternation(self._normalized_by_content)
        self._indexed_for = self.normalizer

    def _added_id(self, content: str) -> int:
        return self._by_content[content].id

    def _sections(self, text: str):
        """Yield ``(start, end, added_token_or_None)`` covering ``text`` (tokens with ``normalized=False``)."""
        if self._raw_re is None:
            yield 0, len(text), None
            return
        pos = 0
        for start, end, token in _find_added(text, self._raw_re, self._by_content):
            if start > pos:
                yield pos, start, None
            yield start, end, token.content
            pos = end
        if pos < len(text) or not text:
            yield pos, len(text), None

    def _split_normalized(self, section: NormalizedString):
        """Cut a normalized section at added tokens with ``normalized=True`` (matched on normalized text)."""
        if self._indexed_for is not self.normalizer:  # the normalizer was swapped since
            self._index_normalized_tokens()
        if self._norm_re is None:
            yield section, None
            return
        pos = 0
        s = section.normalized
        for start, end, token in _find_added(s, self._norm_re, self._normalized_by_content):
            if start > pos:
                yield section.slice(pos, start), None
            yield section.slice(start, end), token
            pos = end
        if pos < len(s):
            yield section.slice(pos, len(s)), None

    # -- stages -------------------------------------------------------------
    def normalize(self, text: NormalizedString) -> NormalizedString:
        return self.normalizer.normalize(text) if self.normalizer is not None else text

    def pre_tokenize(self, text: NormalizedString, first_section: bool = True) -> list[NormalizedString]:
        if self.pre_tokenizer is None:
            return [text] if text.normalized else []
        if hasattr(self.pre_tokenizer, "prepend_scheme") or hasattr(self.pre_tokenizer, "pre_tokenizers"):
            return self.pre_tokenizer.pre_tokenize(text, first_section=first_section)
        return self.pre_tokenizer.pre_tokenize(text)

    def _checked(self, text) -> tuple[str, list[int] | None]:
        """``text`` as the model takes it, with the positions of :func:`core.text.replace_surrogates`
        (None: the same). ``check_text``'s rule refuses a lone surrogate, as `tokenizers` does;
        a model that declares ``surrogates = "replace"`` (tiktoken's ranks) takes text as
        tiktoken's ``encode`` does, a surrogate pair joined and a lone one U+FFFD."""
        if self.model.surrogates == "replace" and isinstance(text, str):
            return replace_surrogates(text)
        return check_text(text), None

    def pieces(self, text: str) -> list[NormalizedString]:
        """The pre-tokens of ``text`` (added tokens left out), aligned to ``text``."""
        text = self._checked(text)[0]
        out = []
        for i, (start, end, added) in enumerate(self._sections(text)):
            if added is None and end > start:
                for part, token in self._split_normalized(self.normalize(_section(text, start, end))):
                    if token is None:
                        out.extend(self.pre_tokenize(part, first_section=i == 0))
        return out

    def encode(self, text: str, add_special_tokens: bool = False) -> Encoding:
        """Tokens of ``text``. ``add_special_tokens=True`` also lets a loaded post-processor
        add its tokens (``[CLS] … [SEP]``), as `tokenizers`' ``encode`` does by default;
        the explorer leaves them out so that what you see is how the text is cut.
        Anything but a ``str`` of Unicode characters is an InputError (see ``core.text.check_text``).

        Most tokenizers encode a text chunk by chunk, each distinct chunk (a word, mostly)
        through the stages once (``core.encode_chunks``); the rest take the general path."""
        text, positions = self._checked(text)
        plan = self._chunk_plan()
        enc = plan.encode(text) if plan is not None else None
        if enc is None:
            enc = self._encode_general(text)
        if positions is not None:  # offsets into the text as given, before pairs were joined
            enc.offsets[:] = [(positions[a], positions[b]) for a, b in enc.offsets]
        if self.post_processor is not None:
            enc = post_process(self.post_processor, enc, add_special_tokens)
        return enc

    def _encode_general(self, text: str) -> Encoding:
        """:meth:`encode` stage by stage on the whole text, without the post-processor."""
        enc = Encoding()
        word = 0
        tokenize_batch = self.model.tokenize_batch
        for i, (start, end, added) in enumerate(self._sections(text)):
            if added is not None:
                _append_added(enc, self._by_content[added], (start, end), text[start:end])
                word += 1  # subtle: as in `tokenizers`, an added token counts as a word
                continue
            if end <= start:
                continue
            for part, token in self._split_normalized(self.normalize(_section(text, start, end))):
                if token is not None:
                    _append_added(enc, token, part.offsets, part.normalized)
                    word += 1
                    continue
                pieces = self.pre_tokenize(part, first_section=i == 0)
                if len(pieces) > 1:
                    # one call for all pre-tokens (a compiled Unigram Viterbi pays per call)
                    tokens_of = tokenize_batch([piece.normalized for piece in pieces])
                else:
                    tokens_of = [self.model.tokenize(piece.normalized) for piece in pieces]
                for piece, tokens in zip(pieces, tokens_of):
                    for t in tokens:
                        enc.ids.append(t.id)
                        enc.tokens.append(t.value)
                        enc.offsets.append(piece.span(t.start, t.end))
                        enc.word_ids.append(word)
                        enc.special_tokens_mask.append(0)
                    word += 1
        spans_without_overlaps(enc.offsets)
        return enc

    def _chunk_plan(self):
        """The chunk cache for the current stages (rebuilt when a stage is swapped), or None."""
        if self._indexed_for is not self.normalizer:  # the normalizer was swapped since
            self._index_normalized_tokens()
        plan, model, normalizer, pre_tokenizer, norm_re = self.__dict__.get("_chunks") or _NO_PLAN
        if (
            model is not self.model
            or normalizer is not self.normalizer
            or pre_tokenizer is not self.pre_tokenizer
            or norm_re is not self._norm_re
        ):
            from core.encode_chunks import ChunkPlan

            # a model that draws at random (BPE-dropout) must meet every chunk afresh: no cache
            plan = ChunkPlan.build(self) if self.model.deterministic else None
            self._chunks = (plan, self.model, self.normalizer, self.pre_tokenizer, self._norm_re)
        return plan

    def encode_batch(self, texts: list[str], add_special_tokens: bool = False) -> list[Encoding]:
        """``[encode(t) for t in texts]``; the chunks none of a few hundred texts has seen go
        through the stages together (one model call for all of them)."""
        # subtle: a big batch makes the cyclic garbage collector walk every kept Encoding
        # again and again (it made a batch 2-3x slower than a loop); none of them can be
        # part of a cycle, so it is paused meanwhile.
        with _collector_paused():
            plan = self._chunk_plan()
            if plan is None:
                return [self.encode(t, add_special_tokens) for t in texts]
            out: list[Encoding] = []
            texts = list(texts)
            for at in range(0, len(texts), _OFFSETS_BATCH_TEXTS):
                checked = [self._checked(t) for t in texts[at : at + _OFFSETS_BATCH_TEXTS]]
                batch = [text for text, _ in checked]
                for (text, positions), enc in zip(checked, plan.encode_many(batch)):
                    if enc is None:
                        enc = self._encode_general(text)
                    if positions is not None:
                        enc.offsets[:] = [(positions[a], positions[b]) for a, b in enc.offsets]
                    if self.post_processor is not None:
                        enc = post_process(self.post_processor, enc, add_special_tokens)
                    out.append(enc)
            return out

    # -- ids only -------------------------------------------------------------------
    def encode_ids(self, text: str, add_special_tokens: bool = False) -> list[int]:
        """``encode(text, add_special_tokens).ids``, without offsets or per-token objects.

            >>> from core.models.bpe.model import BPE
            >>> tok = Tokenizer(BPE({"철": 0, "수": 1, "는": 2, "먹": 3, "고": 4, "철수": 5}, [("철", "수")]))
            >>> tok.encode_ids("철수는 먹고") == tok.encode("철수는 먹고").ids
            True

        Each stage runs on plain strings (``normalize_str``, ``split_words``) and the
        ids of each pre-token are cached, so a repeated word costs one look-up.
        """
        plan = self._ids_plan()
        if plan is None:
            return self.encode(text, add_special_tokens).ids
        if plan.piece_ids_batch is not None:
            if self.pre_tokenizer is None and self._raw_re is None and self._norm_re is None:
                # a SentencePiece .model: the normalized text is the one piece (as _sentence_ids)
                ids = None
                if plan.sentence is not None and type(text) is str:
                    # normalized inside the model's own kernel for one sentence. subtle: before
                    # _checked (~0.35 µs a Korean line), as that kernel leaves a text holding a
                    # surrogate to the way below, which refuses it (Model.sentence_ids)
                    ids = plan.sentence(text)
                if ids is None:
                    text = self._checked(text)[0]
                    if plan.sentences is not None:  # normalized inside the model's compiled merge
                        ids = plan.sentences([text])[0]
                    else:
                        if plan.normalize is not None:
                            text = plan.normalize(text)
                        ids = plan.piece_ids_batch([text])[0] if text else []
                if add_special_tokens and (plan.before or plan.after):
                    ids = [*plan.before, *ids, *plan.after]
                return ids
            if self._indexed_for is not self.normalizer:  # the normalizer was swapped since
                self._index_normalized_tokens()
            if (
                plan.texts is not None
                and self._raw_re is None
                and self._norm_re is None
                and not add_special_tokens
            ):
                # a rank file's text (no normalizer: see _IdsPlan.build): its pieces straight to
                # the model, as _batch_ids and _parts take them
                if plan.split is not None and type(text) is str:  # split in the model's own kernel
                    found = plan.split([text])
                    if found is not None:
                        return found[0]
                text = self._checked(text)[0]
                return plan.texts([plan.words(text, True)])[0] if text else []
            # subtle: a long text's new words then cost one model call, not one each
            if add_special_tokens:
                return self._batch_ids(plan, [text], plan.before, plan.after)[0]
            return self._batch_ids(plan, [text], (), ())[0]
        ids: list[int] = []
        if add_special_tokens and plan.before:
            ids.extend(plan.before)
        self._append_ids(plan, text, ids)
        if add_special_tokens and plan.after:
            ids.extend(plan.after)
        return ids

    def encode_batch_ids(self, texts, add_special_tokens: bool = False) -> list[list[int]]:
        """``[encode_ids(t) for t in texts]``; ``texts`` may be any iterable (a file's lines).

        A model with ``tokenize_ids_batch`` (a compiled Unigram Viterbi) gets the pre-tokens
        not yet cached of up to :data:`_IDS_BATCH_TEXTS` texts in one call, so the cost of
        calling it is paid per batch rather than per new word.
        """
        plan = self._ids_plan()
        if plan is None:
            with _collector_paused():
                return [self.encode(t, add_special_tokens).ids for t in texts]
        before = plan.before if add_special_tokens else ()
        after = plan.after if add_special_tokens else ()
        out: list[list[int]] = []
        append_ids = self._append_ids
        with _collector_paused():
            if plan.piece_ids_batch is None:
                for text in texts:
                    ids = list(before)
                    append_ids(plan, text, ids)
                    if after:
                        ids.extend(after)
                    out.append(ids)
                return out
            if type(texts) is list:  # (slices: no append and length test a line)
                for at in range(0, len(texts), _IDS_BATCH_TEXTS):
                    out.extend(self._batch_ids(plan, texts[at : at + _IDS_BATCH_TEXTS], before, after))
                return out
            chunk: list[str] = []
            for text in texts:
                chunk.append(text)
                if len(chunk) >= _IDS_BATCH_TEXTS:
                    out.extend(self._batch_ids(plan, chunk, before, after))
                    chunk = []
            if chunk:
                out.extend(self._batch_ids(plan, chunk, before, after))
        return out

    def _batch_ids(self, plan: _IdsPlan, texts: list[str], before, after) -> list[list[int]]:
        """Ids of ``texts``: the pre-tokens of all of them first, then those not in the cache
        go to the model in one ``tokenize_ids_batch`` call, then each text's ids from the cache."""
        if self.pre_tokenizer is None and self._raw_re is None and self._norm_re is None:
            return self._sentence_ids(plan, texts, before, after)
        if plan.split is not None and self._indexed_for is not self.normalizer:
            self._index_normalized_tokens()  # (the normalizer was swapped since: as _parts)
        if (
            plan.split is not None
            and self._raw_re is None
            and self._norm_re is None
            and all(type(text) is str for text in texts)
        ):  # no added token to look for: the texts go whole to the model, which splits them
            found = plan.split(texts)
            if found is not None:
                return [[*before, *ids, *after] for ids in found] if before or after else found
        parts = [self._parts(plan, text) for text in texts]
        if plan.texts is not None:  # the model takes whole texts' pieces itself, uncached
            found = plan.texts(parts)
            return [[*before, *ids, *after] for ids in found] if before or after else found
        cache = plan.cache
        everything = dict.fromkeys(itertools.chain.from_iterable(parts))
        new = [w for w in everything if w not in cache]
        if len(cache) + len(new) >= _IDS_CACHE_LIMIT:
            cache.clear()
            new = list(everything)
        long: list[str] = []
        if new:
            # subtle: an added token's id is in the parts as an int, cached as itself (an
            # int key never meets a str one), so every part is one cache look-up
            words = [w for w in new if type(w) is str]
            cache.update((w, [w]) for w in new if type(w) is not str)
            cache.update(zip(words, plan.piece_ids_batch(words)))
            long = [w for w in words if len(w) > _IDS_CACHE_MAX_PIECE]
        get = cache.__getitem__
        chain = itertools.chain.from_iterable
        if before or after:
            out = [[*before, *chain(map(get, p)), *after] for p in parts]
        else:
            out = [list(chain(map(get, p))) for p in parts]
        for w in long:  # long pre-tokens (whole lines, pasted words) were for this batch only
            del cache[w]
        return out

    def _sentence_ids(self, plan: _IdsPlan, texts: list[str], before, after) -> list[list[int]]:
        """:meth:`_batch_ids` without a pre-tokenizer or added tokens (a SentencePiece
        ``.model``): each normalized text is one piece, so the texts go to the model as they
        are, normalized together where the normalizer can (``normalize_many``), with no cache
        of whole texts (most lines are seen once; the model caches their words)."""
        if self.model.surrogates == "replace":
            texts = [self._checked(text)[0] for text in texts]  # the same rule as encode
        else:
            texts = check_texts(texts)  # (the same rule, in one pass over the batch)
        if plan.sentences is not None:  # normalized inside the model's compiled merge
            out = plan.sentences(texts)
            return [[*before, *ids, *after] for ids in out] if before or after else out
        normalizer = self.normalizer
        if normalizer is None:
            normalized = texts
        else:
            many = getattr(normalizer, "normalize_many", None)
            normalized = many(texts) if many is not None else list(map(plan.normalize, texts))
        pieces = [t for t in normalized if t]
        found = iter(plan.piece_ids_batch(pieces) if pieces else ())
        out = [next(found) if t else [] for t in normalized]
        if before or after:
            out = [[*before, *ids, *after] for ids in out]
        return out

    def _parts(self, plan: _IdsPlan, text: str) -> list:
        """The pre-tokens of ``text`` (strings) and the ids of its added tokens (ints), in order."""
        text = self._checked(text)[0]  # the same rule as encode
        words, normalize = plan.words, plan.normalize
        if self._indexed_for is not self.normalizer:  # the normalizer was swapped since
            self._index_normalized_tokens()
        if self._raw_re is None and self._norm_re is None:  # no added token to look for
            if normalize is not None:
                text = normalize(text)
            return words(text, True) if text else []
        out: list = []
        for i, (start, end, added) in enumerate(self._sections(text)):
            if added is not None:
                out.append(self._by_content[added].id)
                continue
            if end <= start:
                continue
            section = text[start:end] if (start, end) != (0, len(text)) else text
            if normalize is not None:
                section = normalize(section)
            for pos, part, token in self._split_normalized_str(section):
                if token is not None:
                    out.append(token.id)
                else:
                    # subtle: as in _append_ids, Metaspace's "first" scheme prepends only at offset 0
                    out.extend(words(part, i == 0 and start + pos == 0))
        return out

    def __getstate__(self) -> dict:
        """Pickle the pipeline, not the ids fast path's plan (its word splitter is a closure
        and its cache can be larger than the model); it is rebuilt on first use."""
        state = dict(self.__dict__)
        state.pop("_plan", None)
        state.pop("_chunks", None)
        return state

    def _ids_plan(self) -> _IdsPlan | None:
        """The string-only pipeline for the current stages (rebuilt when a stage is swapped),
        or None when some stage can only run with offsets."""
        plan = self.__dict__.get("_plan")
        key = plan.key if plan is not None else None
        if (
            key is None
            or key[0] is not self.model
            or key[1] is not self.normalizer
            or key[2] is not self.pre_tokenizer
            or key[3] is not self.post_processor
            or key[4] != len(self.added_tokens)
        ):
            key = (
                self.model,
                self.normalizer,
                self.pre_tokenizer,
                self.post_processor,
                len(self.added_tokens),
            )
            plan = self._plan = _IdsPlan.build(self, key)
        return plan if plan.words is not None else None

    def _append_ids(
        self,
        plan: _IdsPlan,
        text: str,
        ids: list[int],
        holes: list[tuple[int, str]] | None = None,
        missing: dict[str, int] | None = None,
    ) -> None:
        """Append the ids of ``text`` (no post-processor tokens) to ``ids``.

        With ``holes``, a pre-token not in the cache is not encoded here: ``(len(ids), word)``
        goes to ``holes`` and the word to ``missing`` (numbered in order), for the caller to
        encode all of them at once and fill the holes."""
        text = self._checked(text)[0]  # the same rule as encode
        cache, words, piece_ids, normalize = plan.cache, plan.words, plan.piece_ids, plan.normalize
        if self._indexed_for is not self.normalizer:  # the normalizer was swapped since
            self._index_normalized_tokens()
        for i, (start, end, added) in enumerate(self._sections(text)):
            if added is not None:
                ids.append(self._by_content[added].id)
                continue
            if end <= start:
                continue
            section = text[start:end] if (start, end) != (0, len(text)) else text
            if normalize is not None:
                section = normalize(section)
            for pos, part, token in self._split_normalized_str(section):
                if token is not None:
                    ids.append(token.id)
                    continue
                # subtle: Metaspace's "first" scheme prepends only at offset 0 of the input;
                # the plan allows that scheme only without a normalizer, so positions are offsets
                for word in words(part, i == 0 and start + pos == 0):
                    found = cache.get(word)
                    if found is None and holes is not None and missing is not None:
                        holes.append((len(ids), word))
                        missing.setdefault(word, len(missing))
                        continue
                    if found is None:
                        found = piece_ids(word)
                        if len(word) <= _IDS_CACHE_MAX_PIECE:
                            if len(cache) >= _IDS_CACHE_LIMIT:
                                cache.clear()
                            cache[word] = found
                    ids.extend(found)

    def _split_normalized_str(self, s: str):
        """:meth:`_split_normalized` on a string: ``(position, part, None)`` or ``(position, text, token)``."""
        if self._norm_re is None:
            if s:
                yield 0, s, None
            return
        pos = 0
        for start, end, token in _find_added(s, self._norm_re, self._normalized_by_content):
            if start > pos:
                yield pos, s[pos:start], None
            yield start, s[start:end], token
            pos = end
        if pos < len(s):
            yield pos, s[pos:], None

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        special = {t.id for t in self.added_tokens if t.special}
        tokens = []
        for i in ids:
            if skip_special_tokens and i in special:
                continue
            tok = self.id_to_token(i)
            if tok is not None:
                tokens.append(tok)
        if self.decoder is None:
            return " ".join(tokens)
        return self.decoder.decode(tokens)

    # -- vocabulary -----------------------------------------------------------
    def token_to_id(self, token: str) -> int | None:
        if token in self._by_content:
            return self._by_content[token].id
        return self.model.token_to_id(token)

    def id_to_token(self, id: int) -> str | None:
        tok = self.model.id_to_token(id)
        if tok is not None:
            return tok
        for t in self.added_tokens:
            if t.id == id:
                return t.content
        return None

    def get_vocab(self) -> dict[str, int]:
        vocab = dict(self.model.get_vocab())
        for t in self.added_tokens:
            vocab[t.content] = t.id
        return vocab

    @property
    def vocab_size(self) -> int:
        """``len(get_vocab())`` without copying the vocabulary (the slider asks on every move)."""
        model = self.model
        return model.vocab_size + sum(
            1 for t in {t.content for t in self.added_tokens} if model.token_to_id(t) is None
        )


_NO_PLAN = (None, None, None, None, None)  # no chunk plan built yet
_IDS_CACHE_LIMIT = 200_000  # pre-tokens; the ids cache is emptied when it gets this big
_IDS_CACHE_MAX_PIECE = 256  # longer pre-tokens (whole lines, long words) are not cached
_IDS_BATCH_TEXTS = 1024  # texts whose new pre-tokens go to the model in one call
_OFFSETS_BATCH_TEXTS = 256  # texts whose new chunks go through the stages together (encode_batch)


class _collector_paused:
    """Pause the cyclic garbage collector inside a ``with`` block (restored as it was)."""

    def __enter__(self):
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was_enabled:
            gc.enable()


class _IdsPlan:
    """How :meth:`Tokenizer.encode_ids` runs each stage on strings.

    ``words(part, at_start)`` splits a normalized part into pre-tokens (None: some
    pre-tokenizer needs offsets, so ids go through ``encode``); ``piece_ids(word)`` is
    the model's ids of one pre-token, and ``piece_ids_batch(words)`` those of many (None
    when the model has no batch call); ``before``/``after`` are the ids a post-processor
    adds with ``add_special_tokens``; ``cache`` maps pre-tokens to their ids;
    ``sentences(texts)`` the ids of whole raw texts that the model normalizes itself
    (``Model.sentence_ids_batch``; None: normalize, then ``piece_ids_batch``) and ``sentence(text)``
    one's, None for one it leaves to ``sentences`` (``Model.sentence_ids``); ``texts(parts)``
    the ids of whole texts from their pre-tokens (``Model.raw_texts_ids``; None: the cache);
    ``split(texts)`` the ids of whole raw texts that the model splits with the pre-tokenizer's
    pattern itself (``Model.split_texts_ids``; None, or its None for a batch: ``texts``).
    """

    __slots__ = (
        "key", "normalize", "words", "piece_ids", "piece_ids_batch", "before", "after", "cache", "sentences",
        "texts", "split", "sentence",
    )  # fmt: skip

    def __init__(self, key: tuple, normalize: Any, words: Any, piece_ids: Any, piece_ids_batch: Any = None,
                 before: tuple[int, ...] = (), after: tuple[int, ...] = ()) -> None:  # fmt: skip
        self.key = key
        self.normalize = normalize
        self.words = words
        self.piece_ids = piece_ids
        self.piece_ids_batch = piece_ids_batch
        self.before = before
        self.after = after
        self.cache: dict = {}
        self.sentences: Any = None
        self.sentence: Any = None
        self.texts: Any = None
        self.split: Any = None

    @classmethod
    def build(cls, tok: Tokenizer, key: tuple) -> _IdsPlan:
        model = tok.model
        if not model.deterministic:  # random tokens (BPE-dropout): no cache of ids
            return cls(key, None, None, None)
        piece_ids = model.tokenize_ids
        normalize = tok.normalizer.normalize_str if tok.normalizer is not None else None
        words = _string_splitter(tok.pre_tokenizer, has_normalizer=normalize is not None)
        before: tuple[int, ...] = ()
        after: tuple[int, ...] = ()
        if tok.post_processor is not None:
            # the tokens a post-processor adds around one sequence, found around a marker id
            marked = post_process(tok.post_processor, Encoding([-1], ["?"], [(0, 0)], [0], [0]), True)
            at = marked.ids.index(-1)
            before, after = tuple(marked.ids[:at]), tuple(marked.ids[at + 1 :])
        piece_ids_batch = model.tokenize_ids_batch
        split_raw = getattr(tok.pre_tokenizer, "split_raw", None)
        if split_raw is not None:
            # A byte-level splitter: cache the ids by the text's own pieces, so only pieces seen
            # for the first time are written in the byte alphabet (split_words = as_words(split_raw)).
            # A model that reads such pieces itself (a rank file: their UTF-8 bytes) skips the alphabet.
            as_words = tok.pre_tokenizer.raw_to_words
            model_batch = piece_ids_batch
            words = lambda text, at_start: split_raw(text)  # noqa: E731
            raw_batch = model.raw_ids_batch()

            def piece_ids_batch(pieces, model_batch=model_batch, as_words=as_words):
                return model_batch(as_words(pieces))

            if raw_batch is not None:
                piece_ids_batch = raw_batch
            texts = model.raw_texts_ids() if normalize is None else None

            def piece_ids(piece, piece_ids_batch=piece_ids_batch):
                return piece_ids_batch([piece])[0]

        plan = cls(key, normalize, words, piece_ids, piece_ids_batch, before, after)
        if split_raw is not None:
            plan.texts = texts
            if texts is not None and isinstance(tok.pre_tokenizer, TiktokenSplit):
                plan.split = model.split_texts_ids(tok.pre_tokenizer.pattern)
        if tok.pre_tokenizer is None and tok.normalizer is not None:
            plan.sentences = model.sentence_ids_batch(tok.normalizer)
            if plan.sentences is not None:
                plan.sentence = model.sentence_ids(tok.normalizer)
        return plan


def _string_splitter(pre_tokenizer, has_normalizer: bool):
    """``words(text, at_start) -> [pre-token, ...]`` for a pre-tokenizer, exactly the texts
    of its ``pre_tokenize`` pieces; None if it cannot be done on strings alone."""
    from core.pre_tokenizers import Metaspace
    from core.pre_tokenizers import Sequence as PreSequence

    if pre_tokenizer is None:
        return lambda text, at_start: [text] if text else []
    if isinstance(pre_tokenizer, Metaspace):
        if pre_tokenizer.prepend_scheme == "first" and (
            has_normalizer or type(pre_tokenizer) is not Metaspace
        ):
            # whether a part starts at offset 0 needs the normalizer's alignments, and a
            # subclass's split_words may read every text as the start of the input
            return None
        return pre_tokenizer.split_words
    if isinstance(pre_tokenizer, PreSequence):
        parts = []
        for p in pre_tokenizer.pre_tokenizers:
            if isinstance(p, Metaspace) and p.prepend_scheme == "first":
                return None  # inside a sequence a piece's offset is not known without alignments
            split = _string_splitter(p, has_normalizer)
            if split is None:
                return None
            parts.append(split)

        def words(text, at_start):
            pieces = [text]
            for split in parts:
                pieces = [w for piece in pieces for w in split(piece, at_start)]
            return pieces

        return words
    split_words = getattr(pre_tokenizer, "split_words", None)
    if split_words is None:
        return None
    return lambda text, at_start: split_words(text)


def _section(text: str, start: int, end: int) -> NormalizedString:
    return NormalizedString(text[start:end], [(i, i + 1) for i in range(start, end)], len(text))


_word_char = None  # `regex`'s \w (Unicode's, as Rust's), compiled when a single_word token first needs it


def _is_word_char(c: str) -> bool:
    global _word_char
    if _word_char is None:
        import regex  # here: training and most tokenizers never need it (importing it: ~12 ms)

        _word_char = regex.compile(r"\w")
    return _word_char.match(c) is not None


def _alternation(contents) -> re.Pattern | None:
    """One regex matching any of ``contents``, longest first (so leftmost-longest, as aho-corasick).

    Escaped literals only, so the standard library's `re` finds what `regex` would (and a
    tokenizer with special tokens, as every trained one is, need not import `regex`).
    """
    contents = sorted((c for c in contents if c), key=len, reverse=True)
    return re.compile("|".join(re.escape(c) for c in contents)) if contents else None


def _find_added(text: str, pattern, by_content: dict):
    """Matches of added tokens in ``text`` as `tokenizers` finds them: ``(start, end, token)``.

    ``single_word`` tokens match only between non-word characters; ``lstrip``/``rstrip``
    tokens swallow the whitespace on their left/right.
    """
    last_end = 0
    for m in pattern.finditer(text):
        start, end = m.span()
        token = by_content[m.group()]
        if token.single_word:
            if (start > 0 and _is_word_char(text[start - 1])) or (
                end < len(text) and _is_word_char(text[end])
            ):
                continue
        if token.lstrip:
            s = start
            while s > 0 and text[s - 1] in RUST_WHITESPACE:
                s -= 1
            start = max(s, last_end)
        if token.rstrip:
            while end < len(text) and text[end] in RUST_WHITESPACE:
                end += 1
        yield start, end, token
        last_end = end


def _append_added(enc: Encoding, token: AddedToken, span: tuple[int, int], value: str) -> None:
    # subtle: as `tokenizers`, the token's text is what matched, with any whitespace
    # lstrip/rstrip swallowed (" [MASK] "), not its content
    enc.ids.append(token.id)
    enc.tokens.append(value)
    enc.offsets.append(span)
    enc.word_ids.append(None)
    enc.special_tokens_mask.append(1 if token.special else 0)


# Post-processors (kept as their tokenizer.json dicts) whose effect on one sequence we apply.
POST_PROCESSOR_TYPES = ("ByteLevel", "TemplateProcessing", "BertProcessing", "RobertaProcessing", "Sequence")


def unsupported_post_processor(post_processor) -> str | None:
    """The ``"type"`` of the first part of ``post_processor`` we cannot apply, if any."""
    if post_processor is None:
        return None
    if not isinstance(post_processor, dict):
        return repr(post_processor)
    kind = post_processor.get("type")
    if kind == "Sequence":
        for p in post_processor.get("processors") or []:
            bad = unsupported_post_processor(p)
            if bad:
                return bad
        return None
    return None if kind in POST_PROCESSOR_TYPES else str(kind)


def post_process(post_processor: dict, enc: Encoding, add_special_tokens: bool) -> Encoding:
    """Apply a `tokenizers` post-processor to the encoding of one sequence.

        >>> # BertProcessing: [CLS] hug [SEP], the added tokens at offsets (0, 0)

    ByteLevel trims offsets; Roberta trims too (if ``trim_offsets``), then, as Bert
    and Template, adds its special tokens when ``add_special_tokens`` is set.
    Unknown types change nothing (``core.formats.hf_json`` warns about them).
    """
    kind = post_processor.get("type")
    if kind == "Sequence":
        for p in post_processor.get("processors") or []:
            enc = post_process(p, enc, add_special_tokens)
        return enc
    if kind == "ByteLevel":
        if post_processor.get("trim_offsets", True):
            _trim_byte_level_offsets(enc, bool(post_processor.get("add_prefix_space", True)))
        return enc
    if kind == "RobertaProcessing" and post_processor.get("trim_offsets", True):
        _trim_byte_level_offsets(enc, bool(post_processor.get("add_prefix_space", True)))
    if not add_special_tokens:
        return enc
    if kind in ("BertProcessing", "RobertaProcessing"):
        (cls_token, cls_id), (sep_token, sep_id) = post_processor["cls"], post_processor["sep"]
        before, after = [(cls_token, cls_id)], [(sep_token, sep_id)]
    elif kind == "TemplateProcessing":
        before, after, seen_sequence = [], [], False
        specials = post_processor.get("special_tokens") or {}
        for piece in post_processor.get("single") or []:
            if "Sequence" in piece:
                seen_sequence = True
                continue
            name = piece["SpecialToken"]["id"]
            spec = specials[name]
            (after if seen_sequence else before).extend(zip(spec["tokens"], spec["ids"]))
    else:
        return enc
    out = Encoding()
    for token, id in before:
        _append_special(out, token, id)
    out.ids += enc.ids
    out.tokens += enc.tokens
    out.offsets += enc.offsets
    out.word_ids += enc.word_ids
    out.special_tokens_mask += enc.special_tokens_mask
    for token, id in after:
        _append_special(out, token, id)
    return out


def _append_special(enc: Encoding, token: str, id: int) -> None:
    enc.ids.append(id)
    enc.tokens.append(token)
    enc.offsets.append((0, 0))
    enc.word_ids.append(None)
    enc.special_tokens_mask.append(1)


def _trim_byte_level_offsets(enc: Encoding, add_prefix_space: bool) -> None:
    """The ByteLevel post-processor's ``trim_offsets``: spans leave out leading/trailing spaces.

        >>> # token "Ġworld" at (5, 11) -> (6, 11)

    subtle: as `tokenizers`, a single leading space of the first token (or of a token
    starting at 0) is kept when ``add_prefix_space`` is set, since that space was added.
    """
    space = "\u0120"  # Ġ, the byte-level space
    for i, (token, (start, end)) in enumerate(zip(enc.tokens, enc.offsets)):
        lead = 0
        for c in token:
            if c == space or c in RUST_WHITESPACE:
                lead += 1
            else:
                break
        trail = 0
        for c in reversed(token):
            if c == space or c in RUST_WHITESPACE:
                trail += 1
            else:
                break
        if not lead and not trail:
            continue
        if lead:
            if (i == 0 or start == 0) and add_prefix_space and lead == 1:
                lead = 0
            start = min(start + lead, end)
        if trail and end >= trail:
            end = max(end - trail, start)
        enc.offsets[i] = (start, end)
