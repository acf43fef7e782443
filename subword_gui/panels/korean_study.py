"""The Korean study (Examples menu): syllable, jamo and morpheme-aware BPE side by side.

Not a doctest: the job loads the kiwipiepy morpheme analyser in its worker process, seconds
before the first pipeline trains (``core.korean_study`` shows the figures on a small corpus)::

    study = KoreanStudy(window)                     # window: the MainWindow
    study.start(lines, vocab_size=1500, name="sample-ko-en.txt")

The engine does the work (:func:`core.korean_study.korean_study`, in a background
job, cancellable between pipelines). When it lands, each pipeline becomes a run
of the session (the Runs panel), the three open side by side in Compare, and a
small window shows the held-out figures (with the morphological alignment F1 of
each pipeline's token boundaries against kiwipiepy's morpheme boundaries) and a plot
of tokens per word against vocab size for the three (each model cut to smaller
sizes, as the slider cuts it).

Leaves out: choosing other pipelines (train them from the Training panel and
compare them as any other runs).
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.events import Progress
from core.korean_study import PIPELINES, korean_study, split_held_out
from core.pre_tokenizers import pre_tokenizer_from_name
from subword_gui.background.analysers import after_analysers, loading_analysers
from subword_gui.background.workers import Job
from subword_gui.runs import Run

# Okabe-Ito, as the Compare panel's columns
# Okabe-Ito colours, far apart: the morpheme-aware curve often lies on the syllable one, and a
# bluish green beside a blue read as one teal line
STUDY_COLOURS = {"syllable BPE": "#0072B2", "jamo BPE": "#E69F00", "morpheme-aware BPE": "#CC79A7"}
COMPARE_TEXT = "철수는 치킨을 먹고 볶음밥을 먹고 있다"
INTRO = QT_TRANSLATE_NOOP(
    "KoreanStudyWindow",
    "One corpus, one vocab size, three ways for BPE to see Korean: syllables (metaspace), jamo "
    "(the jamo normalizer: ~70 letters, tokens may end inside a syllable), and morphemes first "
    "(ko-morph, kiwipiepy: no token crosses a morpheme, as in Park et al. 2020). Figures are over "
    "held-out lines (every 20th); a word is a space-separated word (어절) for all three.",
)


class KoreanStudyWindow(QWidget):
    """The study's figures: a table and the tokens-per-word curves."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(self.tr("Korean study: syllable, jamo and morpheme-aware BPE"))
        self.resize(760, 620)
        intro = QLabel(self.tr(INTRO))
        intro.setWordWrap(True)
        self.status = QLabel("")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.table = QTableWidget(0, 7)
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("pipeline"),
                self.tr("vocab"),
                self.tr("tokens per word"),
                self.tr("characters per token"),
                self.tr("unknown rate"),
                self.tr("vocabulary used"),
                self.tr("morpheme boundary F1"),
            ]
        )
        self.table.horizontalHeaderItem(6).setToolTip(
            self.tr(
                "How well token boundaries inside words fall on kiwipiepy's morpheme boundaries, on "
                "held-out lines: the F1 of boundary precision and recall (MorphScore, Arnett & Bergen "
                "2024; the question of Park et al. 2020)"
            )
        )
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.plot = pg.PlotWidget()
        self.plot.setLabel("bottom", self.tr("vocab size"))
        self.plot.setLabel("left", self.tr("tokens per word"))
        self.plot.setLogMode(x=True, y=False)
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot.addLegend(offset=(-10, 10))
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.status)
        # subtle: a window of its own needs its own way out where no window manager draws one.
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.clicked.connect(self.close)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout.addLayout(buttons)
        layout.addWidget(self.table)
        layout.addWidget(self.plot, 1)

    def show_rows(self, rows) -> None:
        self.table.setRowCount(len(rows))
        self.plot.clear()
        for i, r in enumerate(rows):
            s = r.stats
            cells = [
                r.name,
                f"{s.vocab_size:,}",
                f"{s.tokens_per_word:.3f}",
                f"{s.chars_per_token:.3f}",
                f"{s.unk_rate:.3%}",
                f"{s.vocab_used:.1%}",
                "–" if r.alignment is None else f"{r.alignment.f1:.3f}",
            ]
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if j == 6 and r.alignment is not None:
                    a = r.alignment
                    item.setToolTip(
                        self.tr(
                            "precision {0:.3f}, recall {1:.3f} ({2:,} of {3:,} morpheme boundaries)"
                        ).format(a.precision, a.recall, a.matched, a.gold)
                    )
                self.table.setItem(i, j, item)
            xs = [k for k, _ in r.curve]
            ys = [v for _, v in r.curve]
            colour = STUDY_COLOURS.get(r.name, "#555555")
            # dashed: the morpheme-aware curve often lies on the syllable one, which must show through
            style = Qt.PenStyle.DashLine if r.name == "morpheme-aware BPE" else Qt.PenStyle.SolidLine
            pen = pg.mkPen(colour, width=2, style=style)
            self.plot.plot(xs, ys, pen=pen, symbol="o", symbolSize=6, symbolBrush=colour, name=r.name)
        sizes = [k for r in rows for k, _ in r.curve]
        if sizes:
            # pyqtgraph labels every minor tick of a log axis: 200 … 900 ran into each other
            self.plot.getAxis("bottom").setTicks(
                [[(math.log10(v), f"{v:,}") for v in log_ticks(min(sizes), max(sizes))], []]
            )


def log_ticks(low: float, high: float) -> list[int]:
    """Round values 1, 2, 5 × 10ⁿ from ``low`` to ``high``: labels for a log axis that never crowd.

    >>> log_ticks(120, 2000)
    [200, 500, 1000, 2000]
    """
    out = []
    power = 10 ** max(0, math.floor(math.log10(max(low, 1))))
    while power <= high:
        out += [m * power for m in (1, 2, 5) if low <= m * power <= high]
        power *= 10
    return out or [int(low)]


class KoreanStudy(QObject):
    """Runs the study for the main window and puts its results where a user looks for them."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.view = KoreanStudyWindow(window)
        self.view.cancel_button.clicked.connect(self.cancel)
        self.job: Job | None = None
        self.rows: list = []
        self.runs: list[Run] = []
        self._name = ""
        self._vocab_size = 0

    @property
    def running(self) -> bool:
        return self.job is not None and self.job.running

    def start(self, lines: list[str], vocab_size: int, name: str = "") -> None:
        self.cancel()
        train, held_out = split_held_out(lines)
        self._name, self._vocab_size = name, vocab_size
        self.view.status.setText(
            self.tr("Training {0} tokenizers on {1:,} lines…").format(len(PIPELINES), len(train))
        )
        self.view.cancel_button.setEnabled(True)
        self.view.show()
        self.view.raise_()
        # the morpheme-aware run's analyser loads beside the training, ready when the runs land
        loading_analysers(pre_tokenizer_from_name(pre) for _, pre in PIPELINES.values())
        self.job = Job(korean_study, train, held_out, vocab_size, parent=self)
        self.job.events.connect(self._on_events)
        self.job.finished.connect(self._on_finished)
        self.job.failed.connect(self._on_failed)
        self.job.cancelled.connect(lambda: self.view.status.setText(self.tr("Cancelled.")))
        self.job.ended.connect(lambda: self.view.cancel_button.setEnabled(False))
        self.job.start()

    def cancel(self) -> None:
        if self.running:
            self.job.cancel()

    def _on_events(self, events: list) -> None:
        progress = [e for e in events if isinstance(e, Progress)]
        if progress:
            p = progress[-1]
            names = list(PIPELINES)
            if p.done < len(names):
                self.view.status.setText(
                    self.tr("Training {0} ({1} of {2})…").format(names[p.done], p.done + 1, p.total)
                )

    def _on_failed(self, message: str) -> None:
        self.view.status.setText(self.tr("⚠ {0}").format(message))
        self.window.report_error(self.tr("Korean study"), message)

    def _on_finished(self, rows) -> None:
        after_analysers([r.tokenizer for r in rows], lambda: self._show_finished(rows))

    def _show_finished(self, rows) -> None:
        self.rows = rows
        self.view.show_rows(rows)
        self.view.status.setText(
            self.tr("{0}: {1:,} tokens each; the three runs are open side by side in Compare.").format(
                self._name, self._vocab_size
            )
        )
        window = self.window
        self.runs = []
        for i, r in enumerate(rows):
            run = Run(
                id=0,
                name=f"{r.name} {r.stats.vocab_size:,}",
                tokenizer=r.tokenizer,
                options=r.options,
                corpus=self._name,
                merge_events=list(r.merges),
                figures={
                    "tokens_per_word": r.stats.tokens_per_word,
                    "chars_per_token": r.stats.chars_per_token,
                    "on": "held-out lines",
                },
            )
            window.state.add_run(run, show=i == len(rows) - 1)
            self.runs.append(run)
        window.finish_startup()
        compare = window.compare_panel
        if compare is None:
            return
        columns = [compare.add_run_column(run) for run in self.runs]
        for column in list(compare.columns):
            if column not in columns:
                compare.remove_column(column)
        compare.set_text(COMPARE_TEXT)
        window.raise_panel("compare")
        self.view.raise_()
