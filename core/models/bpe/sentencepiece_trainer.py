"""BPE trained as ``spm_train --model_type=bpe`` trains it: the same pieces, in the same order.

1. Words: each line normalized and cut into ``▁``-words (:class:`core.pre_tokenizers.SentencePieceWords`),
   counted; characters outside ``character_coverage`` become ``▅``, which no piece holds.
2. Repeat until the vocabulary is full: take the adjacent pair of symbols whose joined text is
   a valid piece (one script, ``▁`` only first, not longer than ``max_sentencepiece_length``)
   and occurs most often; ties go to the SHORTER piece (in characters), then to the smaller
   text (code point order, which is UTF-8 byte order); a pair whose text is a piece already
   (``aaa`` reached as ``aa a`` after ``a aa``) is dropped. Merge it in every word, left to right.
3. The pieces, scored minus their rank, come after the meta pieces (``<unk>``, ``<s>``, ``</s>``,
   user-defined symbols, the 256 byte pieces with ``byte_fallback``); the required characters
   come last, most frequent first.

This is ``bpe_model_trainer.cc``'s rule (google/sentencepiece). spm_train looks for the best
pair among the 5 % most frequent pairs (refreshed every 100 pieces) and the pairs made since;
this trainer looks at all of them with a heap, so the two agree whenever the best pair is among
those (a corpus test says how far they agree on a whole book).

Leaves out: ``--split_by_whitespace=false``, ``--allow_whitespace_only_pieces`` and
``--split_by_unicode_script=false``/``--split_by_number=false`` (always on here).
"""

from __future__ import annotations

import heapq
from collections.abc import Generator

from core.errors import ConfigError
from core.events import MergeEvent, Progress, TrainingStopped
from core.sentencepiece_training import (
    UNK_CHAR,
    SentencePieceSettings,
    mask_rare_chars,
    piece_table,
    required_chars,
    sorted_chars,
)

_PROGRESS_EVERY = 1000


def learn_pieces_reference(
    word_counts: dict[str, int], size: int, settings: SentencePieceSettings
) -> Generator[MergeEvent, None, list[str]]:
    """The first ``size`` merged pieces of ``word_counts`` (words already masked), best first:
    the readable version, which rewrites each word holding the pair (:func:`learn_pieces` is
    the same rule on linked positions, linear in the occurrences it merges).

    >>> drain(learn_pieces({"▁ab": 3, "▁abc": 2}, 3, SentencePieceSettings()))
    ['▁a', '▁ab', '▁abc']
    """
    # words in spm_train's order (most frequent first, then by text) and as symbol lists
    items = sorted(word_counts.items(), key=lambda kv: (-kv[1], kv[0]))
    words: list[list[str]] = [list(w) for w, _ in items]
    counts = [n for _, n in items]
    freq: dict[tuple[str, str], int] = {}
    where: dict[tuple[str, str], set[int]] = {}
    valid: dict[tuple[str, str], bool] = {}
    is_valid = settings.is_valid_piece

    def pair_ok(pair: tuple[str, str]) -> bool:
        ok = valid.get(pair)
        if ok is None:
            ok = valid[pair] = UNK_CHAR not in pair and is_valid(pair[0] + pair[1])
        return ok

    for k, w in enumerate(words):
        n = counts[k]
        for pair in zip(w, w[1:]):
            if pair_ok(pair):
                freq[pair] = freq.get(pair, 0) + n
                where.setdefault(pair, set()).add(k)
    heap = [(-f, len(a) + len(b), a + b, a, b) for (a, b), f in freq.items()]
    heapq.heapify(heap)
    made = set(freq)  # every valid pair that was ever adjacent somewhere
    pieces: list[str] = []
    seen: set[str] = set()
    while len(pieces) < size and heap:
        neg, _, text, a, b = heapq.heappop(heap)
        pair = (a, b)
        if freq.get(pair, 0) != -neg or -neg <= 0:
            continue  # stale: pushed again with its current count
        if text in seen:
            del freq[pair]  # reached by another split; never merged (as spm_train)
            made.discard(pair)
            continue
        seen.add(text)
        pieces.append(text)
        count = -neg
        changed: dict[tuple[str, str], int] = {}
        for k in sorted(where.pop(pair)):
            w = words[k]
            n = counts[k]
            i = 0
            new: list[str] = []
            hit = False
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    # subtle: spm_train merges one place at a time and makes the pairs around it
                    # then, so "abab" briefly holds the pair ab|a: it matters once counts run out
                    if new and pair_ok((new[-1], text)):
                        made.add((new[-1], text))
                    if i + 2 < len(w) and pair_ok((text, w[i + 2])):
                        made.add((text, w[i + 2]))
                    new.append(text)
                    i += 2
                    hit = True
                else:
                    new.append(w[i])
                    i += 1
            if not hit:
                continue
            for p in zip(w, w[1:]):
                if p in freq and p != pair:
                    freq[p] -= n
                    changed[p] = freq[p]
            for p in zip(new, new[1:]):
                if pair_ok(p):
                    freq[p] = freq.get(p, 0) + n
                    changed[p] = freq[p]
                    where.setdefault(p, set()).add(k)
                    made.add(p)
            words[k] = new
        del freq[pair]
        changed.pop(pair, None)
        for p, f in changed.items():
            if f > 0:
                heapq.heappush(heap, (-f, len(p[0]) + len(p[1]), p[0] + p[1], p[0], p[1]))
        made.discard(pair)
        yield MergeEvent(len(pieces), a, b, text, count, len(pieces), float(count))
    # subtle: when no pair occurs any more, spm_train goes on taking pairs that occurred once
    # and no longer do (count 0), shortest first, then by text; exact while it looks at all of them
    # (it looks at the 1,000 most frequent pairs and those made since, at least)
    for _, text, a, b in sorted((len(a) + len(b), a + b, a, b) for a, b in made):
        if len(pieces) >= size:
            break
        if text not in seen:
            seen.add(text)
            pieces.append(text)
            yield MergeEvent(len(pieces), a, b, text, 0, len(pieces), 0.0)
    return pieces


def learn_pieces(
    word_counts: dict[str, int], size: int, settings: SentencePieceSettings
) -> Generator[MergeEvent, None, list[str]]:
    """What :func:`learn_pieces_reference` gives, merging where the pair is, not word by word:
    every distinct word's symbols are laid end to end and linked (``nxt``/``prv``, -1 at a
    word's ends); each pair knows the left positions where it may occur (checked when used).

    >>> drain(learn_pieces({"▁ab": 3, "▁abc": 2}, 3, SentencePieceSettings()))
    ['▁a', '▁ab', '▁abc']
    """
    items = sorted(word_counts.items(), key=lambda kv: (-kv[1], kv[0]))
    texts: list[str] = []
    ids: dict[str, int] = {}
    sym: list[int] = []
    weight: list[int] = []
    nxt: list[int] = []
    for word, n in items:
        start = len(sym)
        for c in word:
            i = ids.get(c)
            if i is None:
                i = ids[c] = len(texts)
                texts.append(c)
            sym.append(i)
            weight.append(n)
            nxt.append(len(sym))
        if len(sym) > start:
            nxt[-1] = -1
    prv = [-1] + [i - 1 for i in range(1, len(sym))]
    for i, j in enumerate(nxt):
        if j == -1 and i + 1 < len(sym):
            prv[i + 1] = -1
    alive = [True] * len(sym)
    valid: dict[tuple[int, int], bool] = {}
    is_valid = settings.is_valid_piece
    unk = ids.get(UNK_CHAR, -1)

    def pair_ok(pair: tuple[int, int]) -> bool:
        ok = valid.get(pair)
        if ok is None:
            ok = valid[pair] = unk not in pair and is_valid(texts[pair[0]] + texts[pair[1]])
        return ok

    freq: dict[tuple[int, int], int] = {}
    where: dict[tuple[int, int], list[int]] = {}
    for i, j in enumerate(nxt):
        if j != -1:
            pair = (sym[i], sym[j])
            if pair_ok(pair):
                freq[pair] = freq.get(pair, 0) + weight[i]
                where.setdefault(pair, []).append(i)
    heap = [(-f, len(texts[a]) + len(texts[b]), texts[a] + texts[b], a, b) for (a, b), f in freq.items()]
    heapq.heapify(heap)
    made = set(freq)
    pieces: list[str] = []
    seen: set[str] = set()
    piece_id: dict[str, int] = {}
    while len(pieces) < size and heap:
        neg, _, text, a, b = heapq.heappop(heap)
        pair = (a, b)
        if freq.get(pair, 0) != -neg or -neg <= 0:
            continue
        if text in seen:
            del freq[pair]
            made.discard(pair)
            continue
        seen.add(text)
        pieces.append(text)
        new = piece_id.get(text)
        if new is None:
            new = piece_id[text] = len(texts)
            texts.append(text)
        changed: dict[tuple[int, int], int] = {}

        def add(p: tuple[int, int], n: int, at: int, pair=pair, changed=changed) -> None:
            if n < 0 and p not in freq:
                return  # a pair dropped as a duplicate piece: its count starts again from 0
            if p != pair and pair_ok(p):
                freq[p] = freq.get(p, 0) + n
                changed[p] = freq[p]
                if n > 0:
                    where.setdefault(p, []).append(at)
                    made.add(p)

        for i in sorted(set(where.pop(pair))):
            j = nxt[i]
            if not alive[i] or j == -1 or sym[i] != a or sym[j] != b:
                continue  # merged away since it was listed
            n = weight[i]
            left, right = prv[i], nxt[j]
            if left != -1:
                add((sym[left], a), -n, left)
            if right != -1:
                add((b, sym[right]), -n, j)
            sym[i] = new
            alive[j] = False
            nxt[i] = right
            if right != -1:
                prv[right] = i
            # subtle: as spm_train, the pairs around each merge are made then, so "abab" briefly
            # holds ab|a (it matters once the counts run out)
            if left != -1:
                add((sym[left], new), n, left)
            if right != -1:
                add((new, sym[right]), n, i)
        del freq[pair]
        for p, f in changed.items():
            if f > 0:
                heapq.heappush(
                    heap, (-f, len(texts[p[0]]) + len(texts[p[1]]), texts[p[0]] + texts[p[1]], p[0], p[1])
                )
        made.discard(pair)
        yield MergeEvent(len(pieces), texts[a], texts[b], text, -neg, len(pieces), float(-neg))
    for _, text, a, b in sorted((len(texts[a]) + len(texts[b]), texts[a] + texts[b], a, b) for a, b in made):
        if len(pieces) >= size:
            break
        if text not in seen:
            seen.add(text)
            pieces.append(text)
            yield MergeEvent(len(pieces), texts[a], texts[b], text, 0, len(pieces), 0.0)
    return pieces


def train_sentencepiece_bpe(word_counts: dict[str, int], options) -> Generator[object, None, object]:
    """Learn a SentencePiece BPE model from ``{word: count}`` (words of :class:`SentencePieceWords`);
    yields Progress and MergeEvent, returns a ``SentencePieceBPE`` model."""
    from core.models.bpe.sentencepiece import SentencePieceBPE

    settings = SentencePieceSettings.from_extra(options.extra)
    meta = settings.meta_pieces(*_specials(options))
    chars = required_chars(word_counts, settings.character_coverage)
    size = options.vocab_size - len(meta) - len(chars)
    if size < 0:
        raise ConfigError(
            f"vocab size {options.vocab_size:,} is smaller than the {len(meta) + len(chars):,} meta pieces "
            "and required characters: raise it or lower the character coverage"
        )
    yield Progress("merge", 0, size)
    learned = yield from learn_pieces(mask_rare_chars(word_counts, chars), size, settings)
    if len(learned) < size:
        yield TrainingStopped(
            "no valid pair is left", len(meta) + len(chars) + len(learned), options.vocab_size
        )
    yield Progress("merge", size, size)
    return SentencePieceBPE(
        piece_table(meta, learned, sorted_chars(chars)), byte_fallback=settings.byte_fallback
    )


def _specials(options) -> tuple[str, list[str]]:
    """(the unknown piece, the control pieces) from the options' special tokens (``<unk>, <s>, </s>``)."""
    specials = list(options.special_tokens or [])
    unk = options.unk_token or "<unk>"
    return unk, [t for t in specials if t != unk]
