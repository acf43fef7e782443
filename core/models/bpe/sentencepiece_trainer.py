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

Two versions of step 2: :func:`learn_pieces_reference`, readable top to bottom (it rewrites
every word holding the pair), and :func:`learn_pieces`, the same rule compiled
(``sentencepiece_kernels.py``: linked positions, each pair's positions, a heap of pairs), which
training runs and which ``tests/engine/models/bpe/test_sentencepiece_kernels.py`` holds to the
readable one on random corpora, merge for merge.

Leaves out: ``--split_by_whitespace=false``, ``--allow_whitespace_only_pieces`` and
``--split_by_unicode_script=false``/``--split_by_number=false`` (always on here).
"""

from __future__ import annotations

import heapq
from collections.abc import Generator, Iterator

from core.errors import ConfigError
from core.events import MergeEvent, Progress, TrainingStopped
from core.sentencepiece_pieces import SPACE
from core.sentencepiece_training import (
    BOUNDARY,
    UNK_CHAR,
    SentencePieceSettings,
    covering_chars,
    is_decimal,
    piece_table,
    script_of,
    sorted_chars,
)

_PROGRESS_EVERY = 1000


def learn_pieces_reference(
    word_counts: dict[str, int], size: int, settings: SentencePieceSettings
) -> Generator[MergeEvent, None, list[str]]:
    """The first ``size`` merged pieces of ``word_counts`` (words already masked), best first:
    the readable version, which rewrites each word holding the pair (:func:`learn_pieces` is
    the same rule compiled, linear in the occurrences it merges).

    >>> from core.events import drain
    >>> drain(learn_pieces_reference({"▁ab": 3, "▁abc": 2}, 3, SentencePieceSettings()))  # ab, ▁a tie: "a" < "▁"
    ['ab', '▁ab', '▁abc']
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
    yield from _take_leftovers([(len(a) + len(b), a + b, a, b) for a, b in made], pieces, seen, size)
    return pieces


def _take_leftovers(made: list, pieces: list[str], seen: set[str], size: int) -> Iterator[MergeEvent]:
    """Append the pairs ``made`` ((length, text, left, right)) that no longer occur, shortest
    first and then by text, until ``pieces`` has ``size``; ``seen`` holds the pieces so far."""
    for _, text, a, b in sorted(made):
        if len(pieces) >= size:
            break
        if text not in seen:
            seen.add(text)
            pieces.append(text)
            yield MergeEvent(len(pieces), a, b, text, 0, len(pieces), 0.0)


def learn_pieces(
    word_counts: dict[str, int], size: int, settings: SentencePieceSettings, kernels=None, arrays=None
) -> Generator[MergeEvent, None, list[str]]:
    """What :func:`learn_pieces_reference` gives, compiled: the merge loop of
    ``core/models/bpe/sentencepiece_kernels.py`` on every distinct word's symbols laid end to end
    and linked, each pair knowing where it may occur (linear in the occurrences it merges).

    ``kernels`` (and the ``arrays`` they take, ``core.models.bpe.flat_arrays``) default to the
    plain shared library ``python -m core.build`` makes (no numpy, no numba: what a small file
    needs), else the extension built ahead of time, else numba's JIT of the same source.

    >>> from core.events import drain
    >>> drain(learn_pieces({"▁ab": 3, "▁abc": 2}, 3, SentencePieceSettings()))  # ab and ▁a tie: "a" < "▁"
    ['ab', '▁ab', '▁abc']
    """
    return (yield from LaidOutWords(word_counts, kernels, arrays).learn(size, settings))


class LaidOutWords:
    """Every distinct word's characters as ids, one word after the other: what the compiled loop
    starts from, and where the characters are counted and the rare ones masked without a Python
    loop over the text."""

    def __init__(self, word_counts: dict[str, int], kernels=None, arrays=None) -> None:
        if kernels is None:
            kernels, arrays = _kernels()
        self.kernels, self.xp = kernels, arrays
        xp = arrays
        joined = "".join(word_counts)
        self.symbols = xp.codes([joined])[0]  # code points, then ids
        table = xp.zeros(0x110000, "int32")  # (one slot per code point: cheaper than max(joined))
        char_of = xp.zeros(min(len(self.symbols), len(table)), "int32")
        n_chars = kernels.number_chars(self.symbols, table, char_of)
        del table, joined
        self.chars: list[str] = [chr(c) for c in char_of[:n_chars].tolist()]  # each id's character
        self.word_len = xp.of(list(map(len, word_counts)), "int32")
        self.word_count = xp.of(list(word_counts.values()), "int64")

    def char_counts(self) -> dict[str, int]:
        """How often each character occurs (the words weighted by their counts)."""
        counts = self.xp.zeros(len(self.chars), "int64")
        self.kernels.count_chars(self.symbols, self.word_len, self.word_count, counts)
        return dict(zip(self.chars, counts.tolist()))

    def mask(self, keep: dict[str, int]) -> None:
        """Every character outside ``keep`` becomes :data:`UNK_CHAR` (as ``mask_rare_chars``)."""
        if all(c in keep for c in self.chars):
            return
        if UNK_CHAR not in self.chars:
            self.chars.append(UNK_CHAR)
        unk = self.chars.index(UNK_CHAR)
        new_id = [i if c in keep else unk for i, c in enumerate(self.chars)]
        self.unused = {c for c in self.chars if c not in keep and c != UNK_CHAR}
        self.kernels.renumber(self.symbols, self.xp.of(new_id, "int32"))

    def learn(self, size: int, settings: SentencePieceSettings) -> Generator[MergeEvent, None, list[str]]:
        """The first ``size`` pieces, best first (see :func:`learn_pieces`); uses the words up."""
        from core.models.bpe import sentencepiece_signatures as sig

        kernels, xp, chars = self.kernels, self.xp, self.chars
        texts = list(chars)  # every token's text, by id: the characters, then the pieces
        symbols, word_len, word_count = self.symbols, self.word_len, self.word_count
        del self.symbols, self.word_len, self.word_count
        n = len(symbols)
        capacity = len(chars) + size + 1
        tok_chars = xp.grown(xp.codes(chars)[0], len(chars) + 4 * size + 16)
        tok_start = xp.grown(xp.of(list(range(len(chars))), "int32"), capacity)
        tok_len = xp.grown(xp.of([1] * len(chars), "int32"), capacity)
        unused = getattr(self, "unused", ())
        traits = _all_traits(chars, unused)
        tok_script = xp.grown(xp.of([s for s, _ in traits], "int32"), capacity)
        tok_flags = xp.grown(xp.of([f for _, f in traits], "int32"), capacity)
        token_table = xp.full(_table_size(size + 1), -1, "int32")
        # (distinct pairs are a tenth of the positions or so: the pair arrays and the heap start at a
        # quarter and grow while counting, rather than zeroing tens of megabytes they never use)
        state = _PairArrays(xp, n // 4 + 1024)
        pool = xp.zeros(n + 1024, "int32")
        heap_pair = xp.zeros(len(state.left), "int32")
        heap_count = xp.zeros(len(state.left), "int64")
        heap_key = xp.zeros(len(state.left), "int64")
        pos = xp.zeros(4 * n, "int32")  # symbol, next, previous, pair there (sentencepiece_kernels)
        weight = xp.zeros(n, "int64")
        ints = xp.zeros(sig.N_INTS, "int64")
        ints[sig.I_TOKENS] = ints[sig.I_CHARS] = len(chars)
        options = (sig.SPLIT_DIGITS if settings.split_digits else 0) | (
            sig.SUFFIX if settings.treat_whitespace_as_suffix else 0
        )
        max_len = settings.max_sentencepiece_length
        first = 0
        while first != -1:
            if first:  # the pair arrays are full: grow them, and the heap with them
                state.make_room(int(ints[sig.I_PAIRS]), 1, kernels)
                size_ = len(state.left)
                heap_pair, heap_count = xp.grown(heap_pair, size_), xp.grown(heap_count, size_)
                heap_key = xp.grown(heap_key, size_)
            first = kernels.link_and_count(symbols, word_len, word_count, pos, weight,
                                           tok_chars, tok_start, tok_len, tok_script, tok_flags, token_table,
                                           *state.arrays(), pool, heap_pair, heap_count, heap_key, ints,
                                           max_len, options, first)  # fmt: skip
        del symbols, word_len, word_count  # (pos holds the symbols now)
        gain_pair = xp.zeros(2048, "int32")
        gain_pos = xp.zeros(2048, "int32")
        changed = xp.zeros(4096, "int32")
        chunk = _FIRST_CHUNK
        out = [xp.zeros(_LAST_CHUNK, kind) for kind in ("int32", "int32", "int32", "int64")]
        pieces: list[str] = []
        while True:
            result = kernels.merge_pieces(pos, weight,
                                          tok_chars, tok_start, tok_len, tok_script, tok_flags, token_table,
                                          *state.arrays(), pool, heap_pair, heap_count, heap_key, gain_pair, gain_pos, changed,
                                          ints, size, chunk, max_len, options, *out)  # fmt: skip
            for a, b, _new, count in xp.rows(out, int(ints[sig.I_DONE])):
                text = texts[a] + texts[b]
                texts.append(text)
                pieces.append(text)
                yield MergeEvent(len(pieces), texts[a], texts[b], text, count, len(pieces), float(count))
            chunk = min(2 * chunk, _LAST_CHUNK)
            if result == sig.GROW:  # room for the next merge's worst case (k listed positions)
                k = int(ints[sig.I_NEED])
                state.make_room(int(ints[sig.I_PAIRS]), 2 * k, kernels)
                if ints[sig.I_NODES] + 2 * k > len(pool):
                    pool = xp.grown(pool, max(len(pool) * 3 // 2, int(ints[sig.I_NODES]) + 2 * k))
                if ints[sig.I_HEAP] + 2 * k > len(heap_pair):
                    size_ = max(len(heap_pair) * 3 // 2, int(ints[sig.I_HEAP]) + 2 * k)
                    heap_pair, heap_count = xp.grown(heap_pair, size_), xp.grown(heap_count, size_)
                    heap_key = xp.grown(heap_key, size_)
                if 2 * k > len(gain_pair):
                    gain_pair = xp.zeros(max(2 * k, 2 * len(gain_pair)), "int32")
                    gain_pos = xp.zeros(len(gain_pair), "int32")
                if 2 * k > len(changed):
                    changed = xp.zeros(max(2 * k, 2 * len(changed)), "int32")
                if ints[sig.I_CHARS] + 2 * max_len > len(tok_chars):
                    tok_chars = xp.grown(tok_chars, 2 * len(tok_chars) + 2 * max_len)
            elif result != sig.CHUNK_DONE:
                break
        if result == sig.STOP_NO_PAIRS and len(pieces) < size:
            # subtle: when no pair occurs any more, spm_train goes on taking pairs that occurred once
            # and no longer do (count 0), shortest first, then by text (see learn_pieces_reference)
            made = [
                (len(texts[a]) + len(texts[b]), texts[a] + texts[b], texts[a], texts[b])
                for a, b, s in xp.rows(state.sides(), int(ints[sig.I_PAIRS]))
                if s & sig.MADE
            ]
            yield from _take_leftovers(made, pieces, set(pieces), size)
        return pieces


_FIRST_CHUNK, _LAST_CHUNK = (
    64,
    1024,
)  # merges per kernel call: the first ones show soon, later ones cost no calls


class _PairArrays:
    """The pair arrays of the compiled loop (ids, table, counts, states, where-lists), grown together."""

    def __init__(self, xp, capacity: int) -> None:
        self.xp = xp
        self.table = xp.full(_table_size(capacity), -1, "int32")
        self.left, self.right, self.state = (xp.zeros(capacity, "int32") for _ in range(3))
        self.start, self.nodes, self.mark = (xp.zeros(capacity, "int32") for _ in range(3))
        self.count = xp.zeros(capacity, "int64")

    def arrays(self) -> tuple:
        """In the kernels' order: table, left, right, count, state, start, nodes, mark."""
        return self.table, self.left, self.right, self.count, self.state, self.start, self.nodes, self.mark

    def sides(self) -> list:
        return [self.left, self.right, self.state]

    def make_room(self, n_pairs: int, more: int, kernels) -> None:
        """Room for ``more`` pairs after the ``n_pairs`` there are (at least half as many again)."""
        if n_pairs + more <= len(self.left):
            return
        xp = self.xp
        size = max(len(self.left) * 3 // 2, n_pairs + more)
        for name in ("left", "right", "state", "start", "nodes", "mark", "count"):
            setattr(self, name, xp.grown(getattr(self, name), size))
        self.table = xp.zeros(0, "int32")  # the old table goes before the new one comes
        self.table = xp.full(_table_size(size), -1, "int32")
        kernels.rehash_pairs(self.table, self.left, self.right, n_pairs)


def _table_size(capacity: int) -> int:
    """A power of two at least 1.5 times ``capacity`` (open addressing stays at most 2/3 full)."""
    size = 16
    while size < capacity + capacity // 2:
        size *= 2
    return size


def _traits(c: str) -> tuple[int, int]:
    """What the kernel knows of character ``c`` for piece validity: its script's number (-1: none,
    ``▁`` or an inherited mark) and its flags (``BAD``, ``SPACE``, ``DIGIT``)."""
    from core.models.bpe import sentencepiece_signatures as sig

    flags = 0
    if c in (UNK_CHAR, "\0", BOUNDARY, " "):
        flags |= sig.BAD
    if c == SPACE:
        flags |= sig.SPACE
    if is_decimal(c):
        flags |= sig.DIGIT
    if flags & sig.BAD:  # never in a pair, so its script is never asked (nor `regex` imported for it)
        return -1, flags
    name = None if c == SPACE else script_of(c)
    if name is None or name == "INHERITED":
        return -1, flags
    return _SCRIPT_NUMBERS.setdefault(name, len(_SCRIPT_NUMBERS)), flags


def _all_traits(chars: list[str], unused=()) -> list[tuple[int, int]]:
    """``[_traits(c) for c in chars]``, a masked character (in ``unused``) never in a pair: the
    usual letter (a script, no flag) without a call per character (thousands of them in Japanese).

        >>> _all_traits(["a", "1", "▁", "あ"]) == [_traits(c) for c in "a1▁あ"]
        True
    """
    from core.models.bpe import sentencepiece_signatures as sig

    plain = _SCRIPT_NUMBERS
    special = {
        UNK_CHAR,
        "\0",
        BOUNDARY,
        " ",
        SPACE,
        *"0123456789\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19",
    }
    out = []
    for c in chars:
        if c in unused:
            out.append((-1, sig.BAD))
        elif c in special:
            out.append(_traits(c))
        else:
            name = script_of(c)
            if name == "INHERITED":
                out.append((-1, 0))
            else:
                number = plain.get(name)
                if number is None:
                    number = plain[name] = len(plain)
                out.append((number, 0))
    return out


_SCRIPT_NUMBERS: dict[str, int] = {}


def _kernels():
    """The compiled merge loop and the arrays it takes: the plain shared library (``array.array``),
    else the extension built ahead of time, else numba's JIT (both numpy)."""
    from core.jit import load_ahead_of_time, load_plain_library
    from core.models.bpe.flat_arrays import NumpyArrays, PlainArrays

    plain = load_plain_library(_KERNELS)
    if plain is not None:
        return plain, PlainArrays()
    ahead = load_ahead_of_time(_KERNELS)
    if ahead is None:
        from core.models.bpe import sentencepiece_kernels as ahead  # loads numba, compiles or reads its cache
    return ahead, NumpyArrays()


_KERNELS = "core.models.bpe.sentencepiece_kernels"


def train_sentencepiece_bpe(word_counts: dict[str, int], options) -> Generator[object, None, object]:
    """Learn a SentencePiece BPE model from ``{word: count}`` (words of :class:`SentencePieceWords`);
    yields Progress and MergeEvent, returns a ``SentencePieceBPE`` model."""
    from core.models.bpe.sentencepiece import SentencePieceBPE

    settings = SentencePieceSettings.from_extra(options.extra)
    meta = settings.meta_pieces(*_specials(options))
    words = LaidOutWords(word_counts)
    chars = covering_chars(words.char_counts(), settings.character_coverage)
    size = options.vocab_size - len(meta) - len(chars)
    if size < 0:
        raise ConfigError(
            f"vocab size {options.vocab_size:,} is smaller than the {len(meta) + len(chars):,} meta pieces "
            "and required characters: raise it or lower the character coverage"
        )
    yield Progress("merge", 0, size)
    words.mask(chars)
    learned = yield from words.learn(size, settings)
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
