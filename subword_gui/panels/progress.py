"""Progress: a bar that repaints with the window, the row every long job shows it in, and the
estimate of a training run's overall progress across its phases.

    >>> row = ProgressRow(cancel=QPushButton("Cancel"))   # bar, what it measures, Cancel
    >>> row.set_fraction(0.5); row.label.setText("Counting… 50%")
    >>> row.fraction()
    0.5
    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> options, events = TrainOptions("bpe", vocab_size=11), []
    >>> _ = drain(train_from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4}, options), events.append)
    >>> estimate = TrainingProgress(options, counting=False, now=0.0)
    >>> estimate.feed(events[:2]); 0 < estimate.fraction < 1       # part way through the phases
    True
    >>> estimate.feed(events[2:]); estimate.fraction, estimate.seconds_left(1.0)   # done: no time left
    (1.0, None)

Why ``ProgressBar``: ``QProgressBar.setValue`` repaints *synchronously* whenever the new value
moves the bar by a pixel, and a synchronous repaint paints everything else waiting to be
painted in the window as well (the merge log with the rows just inserted, the plot).
Called from the slot that receives a batch of training events, that made one
event-loop turn do the batch and a whole-window paint: 100-160 ms on a busy machine.
Here the new value only schedules a paint (``update``), which Qt does in a turn of
its own, merged with the window's other updates.

Why ``TrainingProgress``: a trainer reports each phase on its own (Unigram's seed, every EM
round and every pruning round go from 0 to 100 %; SuperBPE's stage 2 counts its pairs again),
so a bar that followed the last phase filled up a dozen times in a long run and said nothing of
the time left. The estimate weighs the phases by what they cost (measured on a 5 MB and a
20 MB Korean corpus) and, for Unigram, predicts the pruning rounds still to come from the size
reached (each round keeps ``shrinking_factor`` of the pieces, down to 1.1 x the target).
Leaves out: the held-out curve measured after the model lands (the bar is full by then).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

BAR_STEPS = 1000


class ProgressBar(QProgressBar):
    def setValue(self, value: int) -> None:  # noqa: N802 (Qt's name)
        if value == self.value():
            return
        # with updates disabled QProgressBar skips its repaint(); enabling them again
        # schedules an ordinary update()
        self.setUpdatesEnabled(False)
        try:
            super().setValue(value)
        finally:
            self.setUpdatesEnabled(True)


class ProgressRow(QWidget):
    """A progress bar, the label that says what it measures, and a Cancel button if given (the
    Corpus panel's counting, the Training panel's run, the report card's measures).

    ``label_first``: the label on the left taking the width, the bar after it at ``bar_width``
    (a status line with a bar); else the bar takes the width and the label follows it."""

    def __init__(
        self,
        cancel: QPushButton | None = None,
        label: QLabel | None = None,
        label_first: bool = False,
        bar_width: int | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.bar = ProgressBar()
        self.bar.setRange(0, BAR_STEPS)
        self.bar.setTextVisible(False)
        if bar_width is not None:
            self.bar.setMaximumWidth(bar_width)
        self.label = label if label is not None else QLabel("")
        if label is None:
            self.label.setObjectName("hint")
        self.cancel_button = cancel
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        if label_first:
            row.addWidget(self.label, 1)
            row.addWidget(self.bar)
        else:
            row.addWidget(self.bar, 1)
            row.addWidget(self.label)
        if cancel is not None:
            row.addWidget(cancel)

    def set_fraction(self, fraction: float) -> None:
        self.bar.setValue(int(BAR_STEPS * min(max(fraction, 0.0), 1.0)))

    def fraction(self) -> float:
        return self.bar.value() / BAR_STEPS


def format_duration(seconds: float) -> str:
    """A run's training time, as a person would say it.

    >>> format_duration(0.4), format_duration(83), format_duration(3725)
    ('0.4 s', '1 min 23 s', '1 h 2 min')
    """
    translate = QCoreApplication.translate
    if seconds < 10:
        return translate("Duration", "{0:.1f} s").format(seconds)
    s = round(seconds)
    if s < 60:
        return translate("Duration", "{0} s").format(s)
    if s < 3600:
        return translate("Duration", "{0} min {1} s").format(s // 60, s % 60)
    return translate("Duration", "{0} h {1} min").format(s // 3600, s % 3600 // 60)


def format_time_left(seconds: float) -> str:
    """A time left as an estimate reads: whole seconds under ten, then in steps of five seconds,
    whole minutes from ten minutes (``format_duration`` of the rounded time).

    >>> format_time_left(3.4), format_time_left(168), format_time_left(1234)
    ('3 s', '2 min 50 s', '21 min 0 s')
    """
    s = max(1, int(round(seconds)))
    if s < 10:
        return QCoreApplication.translate("Duration", "{0} s").format(s)
    return format_duration(5 * round(s / 5) if s < 600 else 60 * round(s / 60))


# -- a training run's overall progress --------------------------------------------------------

# Counting the corpus under the run's pipeline, against the training after it (only when the
# counts are not known already)
COUNT_SHARE = 0.25
# Each plan: (segment, share of the training, {phase: (start, end) within the segment}).
# A "merges" segment follows the vocabulary from where its merges began to its target.
_BPE_PLAN = [
    ("prepare", 0.3, {"alphabet": (0.0, 0.4), "count characters": (0.0, 0.4), "count pairs": (0.4, 1.0)}),
    ("merges", 0.7, {}),
]
_PLANS = {
    # SentencePiece BPE sets its pieces up (~2 s of 5 on 5 MB of Korean) before the first merge
    "sentencepiece-bpe": [("prepare", 0.45, {}), ("merges", 0.55, {})],
    # measured on 5 MB of Korean at 6,000 (t 90 %): 2.6 s, 0.6 s, 3.75 s, 0.2 s
    "superbpe": [
        (
            "prepare",
            0.36,
            {"tokenize words": (0.0, 0.85), "alphabet": (0.85, 0.92), "count pairs": (0.92, 1.0)},
        ),
        ("merges", 0.08, {}),
        ("prepare 2", 0.53, {"encode": (0.0, 0.35), "count pairs": (0.35, 1.0)}),
        ("merges 2", 0.03, {}),
    ],
    "unigram": [("unigram", 1.0, {})],
    "sentencepiece-unigram": [("unigram", 1.0, {})],
}
_COUNT_PHASES = ("count", "read", "sort")
# Unigram's costs in units of the first EM round (one E-step: three sweeps over every lattice
# edge), measured on 20 MB of Korean at 8,000: the seed ~4 rounds, the seed's loss a third, a
# pruning round 0.4 of an EM round; each pruning round leaves fewer edges, so the rounds after
# it cost ~7 % less (the last of 13 took 0.4 of the first)
_SEED_UNITS, _SEED_LOSS_UNITS, _PRUNE_UNITS, _ROUND_DECAY = 4.0, 1 / 3, 0.4, 0.93


class _UnigramRounds:
    """Unigram's progress in units of work: what is done, and what the size reached says is left."""

    def __init__(self, options) -> None:
        from core.models.unigram.trainer import (
            DEFAULT_SEED_SIZE,
            DEFAULT_SHRINKING_FACTOR,
            DEFAULT_SUB_ITERATIONS,
            DESIRED_SIZE_FACTOR,
        )

        extra = options.extra or {}
        self.shrink = float(extra.get("shrinking_factor", DEFAULT_SHRINKING_FACTOR))
        self.sub = int(extra.get("n_sub_iterations", DEFAULT_SUB_ITERATIONS))
        self.desired = max(1.0, options.vocab_size * DESIRED_SIZE_FACTOR)
        if options.algorithm == "sentencepiece-unigram":
            self.sub = DEFAULT_SUB_ITERATIONS
            self.desired /= self.shrink  # (it stops a round earlier: see its stop_size)
        self.done = 0.0  # units finished
        self.part = 0.0  # units of the step under way, done so far
        self.block = 0  # pruning rounds so far (each makes the rounds after it cheaper)
        self.in_block = 0  # EM rounds since the last pruning round
        self.step = _SEED_UNITS  # units of the step under way
        seed = int(extra.get("seed_size", DEFAULT_SEED_SIZE))
        self.left = (
            _SEED_LOSS_UNITS + self.sub + self._left_after_block(seed)
        )  # a guess until the seed is known

    def _prunes_left(self, size: float) -> int:
        if size <= self.desired:
            return 0
        return math.ceil(math.log(size / self.desired) / math.log(1 / self.shrink))

    def _cost(self, block: int) -> float:
        return _ROUND_DECAY**block

    def _left_after_block(self, size: float) -> float:
        """Units left once this block's EM rounds are done: the pruning rounds still to come,
        each with its EM rounds, and the final E-step."""
        prunes = self._prunes_left(size)
        rounds = sum(self._cost(self.block + j) for j in range(1, prunes + 1)) * (_PRUNE_UNITS + self.sub)
        return rounds + self._cost(self.block + prunes)

    def progress(self, phase: str, fraction: float) -> None:
        if phase == "seed":
            self.step = _SEED_UNITS
        elif phase == "seed loss":
            self.step = _SEED_LOSS_UNITS
        elif phase == "prune":
            self.step = _PRUNE_UNITS * self._cost(self.block)
        else:  # an E-step ("expected counts")
            self.step = self._cost(self.block)
        self.part = max(self.part, self.step * fraction)

    def round(self, phase: str, vocab_size: int) -> None:
        cost = self._cost(self.block)
        if phase == "seed":
            self.done += _SEED_UNITS + _SEED_LOSS_UNITS
            self.left = self.sub * cost + self._left_after_block(vocab_size)
        elif phase == "em":
            self.done += cost
            self.in_block += 1
            self.left = max(0, self.sub - self.in_block) * cost + self._left_after_block(vocab_size)
        elif phase == "prune":
            self.done += _PRUNE_UNITS * cost
            self.block += 1
            self.in_block = 0
            self.left = self.sub * self._cost(self.block) + self._left_after_block(vocab_size)
        else:  # final
            self.done += cost
            self.left = 0
        self.part = 0.0

    @property
    def fraction(self) -> float:
        part = min(self.part, self.step)
        return (self.done + part) / max(self.done + max(self.left, part), 1e-9)


# the time left shows once this much of the run is done and this many seconds are gone, and
# the run's estimated duration is averaged over about ETA_SMOOTHING_S seconds of time
ETA_MIN_FRACTION = 0.10
ETA_MIN_SECONDS = 5.0
ETA_SMOOTHING_S = 10.0


class TrainingProgress:
    """A training run's overall progress (0 to 1, never going back) and the time left, from the
    events its job sends: counting (when ``counting``), then the algorithm's phases."""

    def __init__(self, options, counting: bool, now: float) -> None:
        self.started = now
        plan = _PLANS.get(options.algorithm, _BPE_PLAN)
        self.segments = [
            (name, share * (1 - COUNT_SHARE if counting else 1), phases) for name, share, phases in plan
        ]
        if counting:
            self.segments.insert(0, ("count", COUNT_SHARE, {}))
        self.at = 0  # the segment under way
        self.within = 0.0  # how far into it
        self.best = 0.0
        self.target = options.vocab_size
        self.merges_from: int | None = None  # the vocab size the merges of this segment began at
        self.stage_target = self.target
        if options.algorithm == "superbpe":
            from core.models.bpe.superbpe import superbpe_settings

            self.stage_target = superbpe_settings(options)[0]
        self.unigram = _UnigramRounds(options) if plan[0][0] == "unigram" else None

    def _go_to(self, name: str) -> None:
        names = [s[0] for s in self.segments]
        if name in names[self.at :]:
            k = names.index(name, self.at)
            if k != self.at:
                self.at, self.within = k, 0.0

    def _segment(self) -> str:
        return self.segments[self.at][0]

    def feed(self, events) -> None:
        for e in events:
            kind = type(e).__name__
            if kind == "Progress":
                fraction = e.done / e.total if e.total else 0.0
                if self._segment() == "count" and e.phase in _COUNT_PHASES:
                    self.within = max(self.within, fraction)
                elif self.unigram is not None:
                    self._go_to("unigram")
                    self.unigram.progress(e.phase, fraction)
                else:
                    if self._segment() == "count":
                        self._go_to("prepare")
                    span = self.segments[self.at][2].get(e.phase)
                    if span is not None:
                        a, b = span
                        self.within = max(self.within, a + (b - a) * fraction)
            elif kind == "TrainingAlphabet":  # the counts are known: the training begins
                if self._segment() == "count":
                    self.at, self.within = self.at + 1, 0.0
            elif kind == "StageStarted" and e.stage == 2:
                self._go_to("prepare 2")
                self.stage_target = self.target
                self.merges_from = e.vocab_size
            elif kind == "MergeEvent":
                segment = self._segment()
                if segment in ("count", "prepare", "prepare 2"):
                    self._go_to("merges 2" if segment == "prepare 2" else "merges")
                    if self.merges_from is None:
                        self.merges_from = e.vocab_size - 1
                start = self.merges_from or 0
                span = max(self.stage_target - start, 1)
                self.within = max(self.within, min((e.vocab_size - start) / span, 1.0))
            elif kind == "UnigramRound" and self.unigram is not None:
                self._go_to("unigram")
                self.unigram.round(e.phase, e.vocab_size)
            elif kind == "Trained":
                self.at, self.within = len(self.segments) - 1, 1.0
        if self.unigram is not None and self._segment() == "unigram":
            self.within = self.unigram.fraction
        before = sum(share for _, share, _ in self.segments[: self.at])
        now = before + self.segments[self.at][1] * min(self.within, 1.0)
        self.best = max(self.best, min(now, 1.0))

    @property
    def fraction(self) -> float:
        return self.best

    def seconds_left(self, now: float) -> float | None:
        """The time left at the pace so far, smoothed (None until there is a pace to go by:
        :data:`ETA_MIN_FRACTION` done and :data:`ETA_MIN_SECONDS` gone; early paces are rough,
        a Unigram run's first phases are not its last's).

        subtle: the whole run's duration is what is smoothed (an exponential average over
        :data:`ETA_SMOOTHING_S` of time), not the time left, so a burst of fast events does
        not make the estimate jump down and back up."""
        elapsed = now - self.started
        f = self.best
        if f < ETA_MIN_FRACTION or elapsed < ETA_MIN_SECONDS or f >= 1.0:
            return None
        total = elapsed / f
        last = getattr(self, "_eta", None)
        if last is None:
            smoothed = total
        else:
            then, before = last
            weight = min(1.0, max(now - then, 0.0) / ETA_SMOOTHING_S)
            smoothed = before + (total - before) * weight
        self._eta = (now, smoothed)
        return max(smoothed - elapsed, 0.0)
