"""PickyBPE model: BPE merges with token removals between them, replayed in training order.

    >>> m = PickyBPE({"a": 0, "b": 1, "c": 2, "abc": 3}, [("a", "b"), ("ab", "c")], [(2, "ab")])
    >>> [t.value for t in m.tokenize("abcab")]      # 'ab' was removed after the merge that used it
    ['abc', 'a', 'b']

How a pre-token is encoded (the reference's ``picky_tokenize.py``, ``_encode_word_by_events``):

1. A pre-token that is itself a token of the vocabulary is that token.
2. Otherwise it becomes characters (a character not in the vocabulary is the unknown token,
   or is dropped without one), then the training's events are replayed in their order: a
   merge joins every occurrence of its pair, left to right without overlaps; a removal
   turns every occurrence of its token into the tokens it was split into during training.
   Events that find nothing to do are skipped: each round applies the earliest event that
   applies, so a word takes a few rounds, not one per event.

So a cut of the model is no longer a prefix of its vocabulary: :meth:`at_step` gives the model
after ``k`` merges (the tokens made minus those removed by then), and :meth:`truncated` the
model at the first step where the vocabulary reaches a size (what training to that size gives).

Ids: the vocabulary's. A cut keeps them; a token present at the cut but removed later gets an
id after the full vocabulary's. In ``tokenizer.json`` the model is ``{"type": "PickyBPE"}``,
which only Subword Explorer reads; :meth:`as_plain_bpe` gives the stand-in a file for Hugging
Face ``tokenizers`` holds, and what it loses.

Leaves out: a continuing-subword prefix, an end-of-word suffix, byte fallback, dropout.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from core.errors import ConfigError, FormatError
from core.models.base import ModelBase, Token, VocabLookup, vocab_by_id

_CACHE_LIMIT = 100_000
_NEVER = 1 << 62
# A merge of rank r happens at time 3r; the (at most two) removals after it at 3r + 1, 3r + 2.
_SLOTS = 3


class PickyBPE(VocabLookup, ModelBase):
    """Vocabulary, merges in training order and removals ``(step, token)``: ``token`` was
    removed right after merge ``step`` (1-based), in the order listed."""

    def __init__(
        self,
        vocab: dict[str, int],
        merges: Iterable[tuple[str, str]],
        removals: Iterable[tuple[int, str]] = (),
        unk_token: str | None = None,
        tau: float | None = None,
    ):
        self.vocab: dict[str, int] = dict(vocab)
        self.merges: list[tuple[str, str]] = [(a, b) for a, b in merges]
        self.removals: list[tuple[int, str]] = [(int(s), t) for s, t in removals]
        self.unk_token = unk_token
        self.tau = tau
        self._id_to_token = {i: t for t, i in self.vocab.items()}
        if len(self._id_to_token) != len(self.vocab):
            raise ConfigError("the vocabulary gives the same id to two tokens")
        self._unk = unk_token if unk_token in self.vocab else None
        self._replay()
        self._cache: dict[str, tuple] = {}

    def _replay(self) -> None:
        """Walk the events once: check them, and keep what encoding and cutting need."""
        made = {a + b for a, b in self.merges}
        present = {t for t in self.vocab if t not in made}
        self._min_vocab_size = len(present)
        by_step: dict[int, list[str]] = {}
        for step, token in self.removals:
            if not 1 <= step <= len(self.merges):
                raise ConfigError(f"removal of {token!r} after merge {step}, which does not exist")
            by_step.setdefault(step, []).append(token)
        if any(len(v) > _SLOTS - 1 for v in by_step.values()):
            raise ConfigError("a merge removes at most its two parts")
        parts: dict[str, tuple[str, str]] = {}
        merge_times: dict[tuple[str, str], list[int]] = {}
        removal_times: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        sizes = [len(present)]
        order: list[str] = []  # merged tokens in order of their first making

        def walk(token: str) -> list[str]:
            if token in present or token not in parts:
                return [token]
            a, b = parts[token]
            return walk(a) + walk(b)

        for r, (a, b) in enumerate(self.merges):
            for part in (a, b):
                if part not in present:
                    raise ConfigError(
                        f"merge {r + 1} ({a} {b}) uses {part!r}, which is not in the vocabulary at that step"
                    )
            new = a + b
            if new not in parts:
                parts[new] = (a, b)
                order.append(new)
            present.add(new)
            merge_times.setdefault((a, b), []).append(_SLOTS * r)
            for j, token in enumerate(by_step.get(r + 1, ()), start=1):
                if token not in present or token not in parts:
                    raise ConfigError(
                        f"removal after merge {r + 1}: {token!r} is not a merged token present then"
                    )
                present.discard(token)
                removal_times.setdefault(token, []).append((_SLOTS * r + j, tuple(walk(token))))
            sizes.append(len(present))
        if present != self.vocab.keys():
            extra = sorted(present.symmetric_difference(self.vocab))[:3]
            raise ConfigError(
                f"the vocabulary is not the tokens the merges and removals leave (e.g. {', '.join(map(repr, extra))})"
            )
        self._parts = parts
        self._order = order
        self._merge_times = merge_times
        self._removal_times = removal_times
        self._sizes = sizes

    # -- what training left -------------------------------------------------------
    def removed_tokens(self) -> list[str]:
        """Tokens some merge made that are not in the vocabulary, in the order first made.

        >>> PickyBPE({"a": 0, "b": 1, "c": 2, "abc": 3}, [("a", "b"), ("ab", "c")], [(2, "ab")]).removed_tokens()
        ['ab']
        """
        return [t for t in self._order if t not in self.vocab]

    @property
    def min_vocab_size(self) -> int:
        """The smallest size :meth:`truncated` can cut to: the base tokens."""
        return self._min_vocab_size

    def has_merges(self) -> bool:
        return True

    def merge_parts(self, token: str) -> tuple[str, str] | None:
        """The two tokens whose first merge built ``token``; None for a base token."""
        return self._parts.get(token)

    def size_after(self, step: int) -> int:
        """Tokens present after ``step`` merges and their removals (``0``: the base tokens)."""
        return self._sizes[step]

    # -- encoding -------------------------------------------------------------------
    def tokenize(self, piece: str) -> list[Token]:
        """Tokens of one pre-token; ``start``/``end`` index its characters. Never raises."""
        vocab = self.vocab
        return [Token(vocab[t], t, s, e) for t, s, e in self._segment(piece)]

    def tokenize_ids(self, piece: str) -> list[int]:
        vocab = self.vocab
        return [vocab[t] for t, _, _ in self._segment(piece)]

    def _segment(self, piece: str) -> tuple:
        found = self._cache.get(piece)
        if found is None:
            found = tuple(self._replay_word(piece))
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[piece] = found
        return found

    def _replay_word(self, piece: str) -> list[tuple[str, int, int]]:
        """Step 1 and 2 of the module docstring: ``(token, start, end)`` of each token."""
        vocab = self.vocab
        if piece in vocab:
            return [(piece, 0, len(piece))]
        symbols: list[tuple[str, int, int]] = []
        for i, ch in enumerate(piece):
            if ch in vocab:
                symbols.append((ch, i, i + 1))
            elif self._unk is not None:
                symbols.append((self._unk, i, i + 1))
        merge_times, removal_times = self._merge_times, self._removal_times
        now = -1
        while True:
            # the earliest event after ``now`` that applies to the word as it is
            best, merge, removal = _NEVER, None, None
            for left, right in zip(symbols, symbols[1:]):
                times = merge_times.get((left[0], right[0]))
                if times is not None:
                    k = bisect_right(times, now)
                    if k < len(times) and times[k] < best:
                        best, merge = times[k], (left[0], right[0])
            for s in symbols:
                events = removal_times.get(s[0])
                if events is not None:
                    for t, split in events:
                        if t > now:
                            if t < best:
                                best, removal, merge = t, (s[0], split), None
                            break
            if best == _NEVER:
                return symbols
            now = best
            if merge is not None:
                symbols = _merge_pair(symbols, merge)
            elif removal is not None:
                symbols = _split_token(symbols, *removal)

    # -- the explorer's slider --------------------------------------------------------
    def at_step(self, k: int) -> PickyBPE:
        """The model after its first ``k`` merges and the removals they caused.

        >>> m = PickyBPE({"a": 0, "b": 1, "c": 2, "abc": 3}, [("a", "b"), ("ab", "c")], [(2, "ab")])
        >>> sorted(m.at_step(1).vocab), sorted(m.at_step(2).vocab)
        (['a', 'ab', 'b', 'c'], ['a', 'abc', 'b', 'c'])
        """
        k = max(0, min(k, len(self.merges)))
        if k == len(self.merges):
            return self
        made = {a + b for a, b in self.merges}
        present = {t for t in self.vocab if t not in made}
        removals = [(s, t) for s, t in self.removals if s <= k]
        gone: dict[int, list[str]] = {}
        for s, t in removals:
            gone.setdefault(s, []).append(t)
        for r, (a, b) in enumerate(self.merges[:k], start=1):
            present.add(a + b)
            present.difference_update(gone.get(r, ()))
        later = {t: len(self.vocab) + j for j, t in enumerate(self.removed_tokens())}
        vocab = {t: self.vocab.get(t, later.get(t, -1)) for t in present}
        vocab = dict(sorted(vocab.items(), key=lambda item: item[1]))
        return PickyBPE(vocab, self.merges[:k], removals, self.unk_token, self.tau)

    def step_for_size(self, vocab_size: int) -> int:
        """The first step after which the vocabulary holds ``vocab_size`` tokens (or the last).

        A step changes the size by at most one up (a merge) and maybe down (its removals),
        and training stops on first reaching its size: this step is where it would stop.
        """
        for k, size in enumerate(self._sizes):
            if size >= vocab_size:
                return k
        return len(self.merges)

    def can_truncate(self) -> bool:
        return True

    def truncated(self, vocab_size: int) -> PickyBPE:
        """The model training to ``vocab_size`` tokens gives: :meth:`at_step` of :meth:`step_for_size`."""
        if vocab_size >= len(self.vocab):
            return self
        return self.at_step(self.step_for_size(vocab_size))

    # -- files ---------------------------------------------------------------------------
    def as_plain_bpe(self) -> tuple[ModelBase, list[str]]:
        """``(a BPE model, removed tokens)``: the nearest a plain BPE file can hold.

        The tokens removed for good follow the vocabulary (ids after it), since the merges make
        them; a merge listed again (its token removed, then made again) keeps its first rank,
        so the BPE merges a word as this model does until a removal would apply to it: only a
        word whose merges pass through a token removed at some step can come out otherwise.
        Pre-tokens found whole in the vocabulary stay whole (``ignore_merges``), as here.
        """
        from core.models.bpe.model import BPE

        removed = self.removed_tokens()
        vocab = dict(self.vocab)
        top = max(vocab.values(), default=-1) + 1
        for j, t in enumerate(removed):
            vocab[t] = top + j
        first = list(dict.fromkeys(self.merges))
        return BPE(vocab, first, unk_token=self.unk_token, ignore_merges=True), removed

    def to_dict(self) -> dict:
        """The ``"model"`` entry of a ``tokenizer.json`` (Subword Explorer's own type)."""
        return {
            "type": "PickyBPE",
            "unk_token": self.unk_token,
            "tau": self.tau,
            "vocab": vocab_by_id(self.vocab),
            "merges": [[a, b] for a, b in self.merges],
            "removals": [[s, t] for s, t in self.removals],
        }

    @classmethod
    def from_dict(cls, d: dict) -> PickyBPE:
        if not isinstance(d, dict) or d.get("type") != "PickyBPE":
            raise FormatError("not a PickyBPE model")
        vocab = d.get("vocab")
        if not isinstance(vocab, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in vocab.items()
        ):
            raise FormatError("a PickyBPE model needs a vocabulary mapping tokens to whole-number ids")
        merges = []
        for n, m in enumerate(d.get("merges") or [], start=1):
            if not (isinstance(m, list) and len(m) == 2 and all(isinstance(p, str) and p for p in m)):
                raise FormatError(f"merge {n} is malformed: {m!r}")
            merges.append((m[0], m[1]))
        removals = []
        for n, r in enumerate(d.get("removals") or [], start=1):
            if not (isinstance(r, list) and len(r) == 2 and type(r[0]) is int and isinstance(r[1], str)):
                raise FormatError(f"removal {n} is malformed: {r!r}")
            removals.append((r[0], r[1]))
        tau = d.get("tau")
        if tau is not None and (isinstance(tau, bool) or not isinstance(tau, (int, float))):
            raise FormatError(f"the threshold tau is not a number: {tau!r}")
        try:
            return cls(vocab, merges, removals, unk_token=d.get("unk_token"), tau=tau)
        except ConfigError as e:
            raise FormatError(str(e)) from None

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_cache"] = {}
        return state

    def __setstate__(self, state: dict) -> None:
        if "min_vocab_size" in state:  # pickled before min_vocab_size became a declared property
            state["_min_vocab_size"] = state.pop("min_vocab_size")
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return (
            f"PickyBPE(vocab_size={len(self.vocab)}, merges={len(self.merges)}, removed={len(self.removals)})"
        )


def _merge_pair(symbols: list, pair: tuple[str, str]) -> list:
    """Every occurrence of ``pair`` joined, left to right without overlaps.

    >>> _merge_pair([("a", 0, 1), ("a", 1, 2), ("a", 2, 3)], ("a", "a"))
    [('aa', 0, 2), ('a', 2, 3)]
    """
    out = []
    i, n = 0, len(symbols)
    a, b = pair
    while i < n:
        s = symbols[i]
        if i + 1 < n and s[0] == a and symbols[i + 1][0] == b:
            out.append((a + b, s[1], symbols[i + 1][2]))
            i += 2
        else:
            out.append(s)
            i += 1
    return out


def _split_token(symbols: list, token: str, split: tuple[str, ...]) -> list:
    """Every occurrence of ``token`` replaced by ``split`` (whose lengths add up to the token's).

    >>> _split_token([("ab", 0, 2), ("c", 2, 3)], "ab", ("a", "b"))
    [('a', 0, 1), ('b', 1, 2), ('c', 2, 3)]
    """
    out = []
    for s in symbols:
        if s[0] != token:
            out.append(s)
            continue
        at = s[1]
        for part in split:
            out.append((part, at, at + len(part)))
            at += len(part)
    return out
