"""Events yielded by the engine's long-running generators (training, counting).

Every long job in the engine is a generator: each ``yield`` is an observation
point and a cancellation point (the caller simply stops iterating), and the
generator's ``return`` value is the result. Events are small immutable records
that cost O(1) to build: they never carry a snapshot of the vocabulary.

    >>> from core.models.bpe.trainer import train_bpe
    >>> from core.options import TrainOptions
    >>> events = []
    >>> model = drain(train_bpe({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=9)), on_event=events.append)
    >>> [(e.step, e.new_token, e.count) for e in events if isinstance(e, MergeEvent)]
    [(1, 'ug', 15), (2, 'hug', 10), (3, 'pug', 5)]

subtle: they are named tuples with a frozen dataclass's manners (``core.records``), not frozen
dataclasses: a trainer makes a :class:`MergeEvent` per merge (a frozen dataclass cost ~5 ms of
the 7,917 merges of a short novel), and every process that trains makes the classes.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import NamedTuple, TypeVar

from core.records import frozen_record

R = TypeVar("R")


@frozen_record
class Progress(NamedTuple):
    """Coarse progress of a phase: ``done`` out of ``total`` units (bytes, words...)."""

    phase: str
    done: int
    total: int


@frozen_record
class MergeEvent(NamedTuple):
    """One merge of a BPE or WordPiece trainer: ``left + right -> new_token``.

    ``count`` is the raw pair count; ``score`` is what ranked the pair (equal to
    ``count`` for BPE, the likelihood score for WordPiece). ``tie`` is true when
    another pair had the same score at this step, so the tie rule decided.
    ``vocab_size`` is the size after the merge, special tokens included.

    >>> MergeEvent(1, "u", "g", "ug", 20, 12, 20.0)
    MergeEvent(step=1, left='u', right='g', new_token='ug', count=20, vocab_size=12, score=20.0, tie=False)
    """

    step: int
    left: str
    right: str
    new_token: str
    count: int  # type: ignore[assignment]  # (the field hides tuple's count method)
    vocab_size: int
    score: float
    tie: bool = False


@frozen_record
class TokenRemoved(NamedTuple):
    """A PickyBPE deletion: ``token`` left the vocabulary right after merge ``step``.

    ``ios`` is its intersection over self at that merge (the merged pair's count over the
    token's count before it), above the threshold τ; its occurrences became ``parts``, the
    tokens it was built of (``core.models.bpe.picky``). ``vocab_size`` is the size after it.

    >>> TokenRemoved(7, "ould", 0.95, ("o", "uld"), 40)
    TokenRemoved(step=7, token='ould', ios=0.95, parts=('o', 'uld'), vocab_size=40)
    """

    step: int
    token: str
    ios: float
    parts: tuple[str, ...]
    vocab_size: int


@frozen_record
class StageStarted(NamedTuple):
    """A trainer of several stages begins one: SuperBPE's stage 2 (superwords) follows stage 1
    (subwords). ``after_step`` is the number of merges made before it, ``vocab_size`` the size
    reached then; the merge log marks the place.

    >>> StageStarted(2, "superwords: merges across spaces", 7000, 8000).after_step
    7000
    """

    stage: int
    description: str
    after_step: int
    vocab_size: int


@frozen_record
class UnigramRound(NamedTuple):
    """One EM round or pruning round of the Unigram trainer.

    ``phase`` is one of ``"seed"``, ``"em"``, ``"prune"``, ``"final"``.
    ``removed`` holds ``(piece, loss_increase)`` pairs for a pruning round.
    """

    phase: str
    round: int
    vocab_size: int
    loss: float
    removed: tuple[tuple[str, float], ...] = ()


@frozen_record
class TrainingStopped(NamedTuple):
    """Last event of a training run: why it ended and the size it reached."""

    reason: str
    vocab_size: int
    requested_vocab_size: int

    @property
    def reached_target(self) -> bool:
        return self.vocab_size >= self.requested_vocab_size


@frozen_record
class Warning_(NamedTuple):
    """Something the user should know that does not stop the job (e.g. replaced bytes)."""

    message: str


def drain(gen: Generator[object, None, R], on_event: Callable[[object], None] | None = None) -> R:
    """Run an engine generator to completion and return its result.

    >>> def job():
    ...     yield Progress("count", 1, 1)
    ...     return 42
    >>> drain(job())
    42
    """
    while True:
        try:
            event = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_event is not None:
            on_event(event)
