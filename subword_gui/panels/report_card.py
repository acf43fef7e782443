"""The Compare panel's "Report card" tab: every measure of ``core.measures`` for every column.

    >>> import tempfile
    >>> from PySide6.QtCore import QEventLoop
    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.panels.compare import ComparePanel
    >>> from subword_gui.state import AppState
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> state = AppState(); state.set_full_tokenizer(drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13))))
    >>> state.corpus_source = ("lines", ["hug pug pun", "bun hugs hug"])   # as the Corpus panel sets it
    >>> compare_panel = ComparePanel(state)     # columns A (the model shown) and B (cut in half)
    >>> folder = tempfile.TemporaryDirectory(); root = Path(folder.name)
    >>> _ = (root / "ko.txt").write_text("퍼그를 안아요\\n빵\\n", encoding="utf-8")
    >>> _ = (root / "en.txt").write_text("hugs pugs\\nbun\\n", encoding="utf-8")
    >>> card = ReportCardView(compare_panel)
    >>> card.add_parallel("ko", str(root / "ko.txt")); card.add_parallel("en", str(root / "en.txt"))
    >>> card.compute()                       # a background job; ``computed`` when it lands
    True
    >>> loop = QEventLoop(); _ = card.job.ended.connect(loop.quit); loop.exec()   # about a second
    0
    >>> [(label, card.cell(label, "A"), card.cell(label, "B")) for label in ("tokens / word", "premium ko / en")]
    [('tokens / word', '1.333', '3.167'), ('premium ko / en', '1.167', '0.636')]
    >>> card.best_cells()["tokens / word"]     # the best value of a row is bold, in the accent colour
    ['A']
    >>> card.export_to(root / "card.html")   # one self-contained HTML file (core.report_export)
    True
    >>> folder.cleanup()

The card is computed in a worker process (``subword_gui.background.report_card``), with a
progress bar and a Cancel button, over the corpus the Corpus panel opened (its text file)
or, without one, the text typed above the columns. The table has one row per measure of
``core.report_export.ROWS`` (the one list the command line's table, JSON and HTML read) and
one column per Compare column; the best value of a row is bold in the accent colour. Below:
token premium per language (given parallel files), morphological alignment F1 per column,
and Rényi efficiency against vocab size for the trained model cut to a few sizes (its slider).

Leaves out: choosing the parity pivot (``en`` when given, else the first language, as
``subword evaluate`` without ``--pivot``) and the alignment's number of lines (1,000).
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.atomic import write_atomic
from core.errors import SubwordError
from core.events import Progress
from core.measures import DEFAULT_ALPHA
from core.report_export import best_of, format_value, render_html, rows_of, values_of
from subword_gui.background.jobs import can_truncate, min_vocab_size
from subword_gui.background.report_card import CardResult, curve_vocab_sizes, report_card_job
from subword_gui.background.workers import Job
from subword_gui.panels.progress import ProgressRow
from subword_gui.style import theme

BEST_ROLE = Qt.ItemDataRole.UserRole + 1  # True on the cells holding the best value of their row
TEXT_LINES = 10_000  # without a corpus, the card is over the text above: its first lines
# core.report_export's row labels and section names, for the translation catalogue
LABELS = {
    "Compression": QT_TRANSLATE_NOOP("ReportCard", "Compression"),
    "Distribution": QT_TRANSLATE_NOOP("ReportCard", "Distribution"),
    "Morphology": QT_TRANSLATE_NOOP("ReportCard", "Morphology"),
    "Parity": QT_TRANSLATE_NOOP("ReportCard", "Parity"),
    "Hygiene": QT_TRANSLATE_NOOP("ReportCard", "Hygiene"),
    "tokens / word": QT_TRANSLATE_NOOP("ReportCard", "tokens / word"),
    "tokens / character": QT_TRANSLATE_NOOP("ReportCard", "tokens / character"),
    "tokens / byte": QT_TRANSLATE_NOOP("ReportCard", "tokens / byte"),
    "bytes / token": QT_TRANSLATE_NOOP("ReportCard", "bytes / token"),
    "unknown tokens": QT_TRANSLATE_NOOP("ReportCard", "unknown tokens"),
    "baseline: characters, tokens / word": QT_TRANSLATE_NOOP(
        "ReportCard", "baseline: characters, tokens / word"
    ),
    "baseline: words at this vocab size, unknown": QT_TRANSLATE_NOOP(
        "ReportCard", "baseline: words at this vocab size, unknown"
    ),
    "Rényi efficiency": QT_TRANSLATE_NOOP("ReportCard", "Rényi efficiency"),
    "Shannon efficiency": QT_TRANSLATE_NOOP("ReportCard", "Shannon efficiency"),
    "vocabulary used": QT_TRANSLATE_NOOP("ReportCard", "vocabulary used"),
    "vocabulary size": QT_TRANSLATE_NOOP("ReportCard", "vocabulary size"),
    "boundary precision": QT_TRANSLATE_NOOP("ReportCard", "boundary precision"),
    "boundary recall": QT_TRANSLATE_NOOP("ReportCard", "boundary recall"),
    "boundary F1": QT_TRANSLATE_NOOP("ReportCard", "boundary F1"),
    "Gini across languages": QT_TRANSLATE_NOOP("ReportCard", "Gini across languages"),
    "unreachable": QT_TRANSLATE_NOOP("ReportCard", "unreachable"),
    "undecodable": QT_TRANSLATE_NOOP("ReportCard", "undecodable"),
    "byte pieces": QT_TRANSLATE_NOOP("ReportCard", "byte pieces"),
    "control pieces": QT_TRANSLATE_NOOP("ReportCard", "control pieces"),
    "never used on the corpus": QT_TRANSLATE_NOOP("ReportCard", "never used on the corpus"),
    "intermediate-only": QT_TRANSLATE_NOOP("ReportCard", "intermediate-only"),
    "special": QT_TRANSLATE_NOOP("ReportCard", "special"),
}
PHASES = {
    "read": QT_TRANSLATE_NOOP("ReportCard", "Reading the corpus…"),
    "words": QT_TRANSLATE_NOOP("ReportCard", "Counting words…"),
    "morphemes": QT_TRANSLATE_NOOP("ReportCard", "Finding morpheme boundaries…"),
    "encode": QT_TRANSLATE_NOOP("ReportCard", "Encoding the corpus with column {0}…"),
    "hygiene": QT_TRANSLATE_NOOP("ReportCard", "Checking the vocabularies…"),
    "parallel": QT_TRANSLATE_NOOP("ReportCard", "Encoding the parallel files…"),
    "curve": QT_TRANSLATE_NOOP("ReportCard", "Cutting the model to a few sizes…"),
}


def _translated(text: str) -> str:
    return QCoreApplication.translate("ReportCard", text)


def label_of(label: str) -> str:
    """A row's label in the interface's language (premium rows: ``premium ko / en``)."""
    if label.startswith("premium "):
        return QCoreApplication.translate("ReportCard", "premium {0}").format(label.removeprefix("premium "))
    return _translated(LABELS[label]) if label in LABELS else label


def guess_language_code(path: str) -> str:
    """A language code from a parallel file's name: ``flores.ko.txt`` -> ``ko``, ``en.txt`` -> ``en``.

    >>> guess_language_code("/data/flores.ko.txt"), guess_language_code("en.txt"), guess_language_code("x.txt")
    ('ko', 'en', '')
    """
    parts = Path(path).name.split(".")
    for part in reversed(parts[:-1] if len(parts) > 1 else parts):
        if 2 <= len(part) <= 3 and part.isalpha() and part.islower():
            return part
    return ""


class ReportCardView(QWidget):
    """Options, a Compute button with progress, the card's table, three plots and Export."""

    computed = Signal()

    def __init__(self, panel, parent: QWidget | None = None):
        super().__init__(parent)
        self.panel = panel  # the ComparePanel: its columns and state
        self.job: Job | None = None
        self.result: CardResult | None = None
        self.parallel: dict[str, str] = {}  # language -> file
        self._names: list[str] = []  # the card's columns (letters), as computed
        self._colours: list[str] = []
        self._columns_info: list[dict] = []
        self._phase_column = 0
        self._build()

    # -- building -------------------------------------------------------------------
    def _build(self) -> None:
        self.compute_button = QPushButton(self.tr("Compute report card"))
        self.compute_button.setToolTip(
            self.tr("Every measure for every column over the corpus (or the text above), in the background")
        )
        self.compute_button.clicked.connect(self.compute)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.alpha = QDoubleSpinBox()
        self.alpha.setRange(0.0, 100.0)
        self.alpha.setSingleStep(0.5)
        self.alpha.setDecimals(2)
        self.alpha.setValue(DEFAULT_ALPHA)
        self.alpha.setToolTip(
            self.tr(
                "The order α of Rényi efficiency (Zouhar et al. 2023); 3 as tokenization-scorer; 1 is Shannon's"
            )
        )
        alpha_label = QLabel(self.tr("Rényi α"))
        self.parallel_button = QPushButton(self.tr("Parallel file…"))
        self.parallel_button.setToolTip(
            self.tr(
                "Add one language of parallel text (one sentence a line, the same lines in every "
                "language) to compare each language's token cost (Petrov et al. 2023)"
            )
        )
        self.parallel_button.clicked.connect(self._choose_parallel)
        self.clear_parallel = QToolButton()
        self.clear_parallel.setText("✕")
        self.clear_parallel.setToolTip(self.tr("Forget the parallel files"))
        self.clear_parallel.clicked.connect(self.clear_parallel_files)
        self.export_button = QPushButton(self.tr("Export report…"))
        self.export_button.setToolTip(
            self.tr("One self-contained HTML file: the tables, the charts, the corpus, options and versions")
        )
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_report)
        top = QHBoxLayout()
        top.addWidget(self.compute_button)
        top.addWidget(self.cancel_button)
        top.addWidget(alpha_label)
        top.addWidget(self.alpha)
        top.addWidget(self.parallel_button)
        top.addWidget(self.clear_parallel)
        top.addStretch(1)
        top.addWidget(self.export_button)
        self.status = QLabel(self.tr("Not computed yet."))
        self.status.setObjectName("hint")
        self.status.setWordWrap(True)
        # subtle: the progress bar on the status row, not among the buttons: shown there, it widened
        # the button row past a 640-px dock and the main window re-arranged its docks
        self.status_row = ProgressRow(label=self.status, label_first=True, bar_width=160)
        self.progress = self.status_row.bar
        self.progress.hide()
        self._show_parallel()

        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setDefaultSectionSize(22)
        # columns as wide as their figures (stretched, "1.854" was cut to "1.85" at 1280x800); the
        # table scrolls sideways when many columns do not fit
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setMinimumSectionSize(56)

        # one tab per plot: stacked in the short bottom tab of a 1280x800 window, each plot was
        # a sliver and the third did not show at all
        self.parity_plot = self._plot(self.tr("token premium per language"))
        self.f1_plot = self._plot(self.tr("morpheme boundary F1"))
        self.curve_plot = self._plot(self.tr("Rényi efficiency against vocab size"))
        self.curve_plot.setLogMode(x=True, y=False)
        self.plots = QTabWidget()
        self.plots.setDocumentMode(True)
        for plot, name in (
            (self.parity_plot, self.tr("Parity")),
            (self.f1_plot, self.tr("Alignment F1")),
            (self.curve_plot, self.tr("Rényi / size")),
        ):
            view = pg.PlotWidget(plotItem=plot)
            view.setMinimumHeight(100)
            self.plots.addTab(view, name)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.plots)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([640, 360])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.status_row)
        layout.addWidget(split, 1)

    def _plot(self, title: str) -> pg.PlotItem:
        plot = pg.PlotItem()
        plot.setTitle(title, size="9pt")
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        plot.showGrid(y=True, alpha=0.2)
        plot.getAxis("left").setWidth(34)
        return plot

    # -- parallel files -------------------------------------------------------------
    def _choose_parallel(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Parallel text in one language"), "", self.tr("Text files (*.txt);;All files (*)")
        )
        if not path:
            return
        lang, ok = QInputDialog.getText(
            self,
            self.tr("Language of the parallel file"),
            self.tr("Language code of {0} (ko, en, ja…):").format(Path(path).name),
            text=guess_language_code(path),
        )
        if ok and lang.strip():
            self.add_parallel(lang.strip(), path)

    def add_parallel(self, lang: str, path: str) -> None:
        """Parallel text in ``lang`` (replacing that language's file)."""
        self.parallel[lang] = str(path)
        self._show_parallel()

    def clear_parallel_files(self) -> None:
        self.parallel.clear()
        self._show_parallel()

    def _show_parallel(self) -> None:
        self.clear_parallel.setVisible(bool(self.parallel))
        if self.parallel:
            self.parallel_button.setText(
                self.tr("Parallel: {0}").format(", ".join(self.parallel)) + " · " + self.tr("add…")
            )
            self.parallel_button.setToolTip(
                "\n".join(f"{lang} = {path}" for lang, path in self.parallel.items())
            )
        else:
            self.parallel_button.setText(self.tr("Parallel file…"))

    # -- computing ------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.job is not None and self.job.running

    def corpus_source(self) -> tuple[tuple, str]:
        """The lines the card is over: the Corpus panel's text file, else the text above."""
        state = self.panel.state
        source = getattr(state, "corpus_source", None)
        if source is not None and source[0] in ("file", "lines"):
            name = source[1] if source[0] == "file" else (getattr(state, "corpus_path", None) or "")
            return source, str(name or self.tr("the corpus"))
        lines = self.panel.text().split("\n")[:TEXT_LINES]
        return ("lines", lines), self.tr("the text above")

    def compute(self) -> bool:
        """Start the card's job over every column with a tokenizer; False when none has one."""
        self.cancel()
        columns = [c for c in self.panel.columns if c.tokenizer is not None]
        if not columns:
            self.status.setText(self.tr("No column has a tokenizer yet."))
            return False
        tokenizers = {c.letter: c.tokenizer for c in columns}
        self._names = list(tokenizers)
        self._colours = [c.colour for c in columns]
        self._columns_info = [
            {
                "path": c.title.text(),
                "format": type(c.tokenizer.model).__name__,
                "tokens": c.tokenizer.id_to_token,  # the hygiene lists name their tokens
            }
            for c in columns
        ]
        source, name = self.corpus_source()
        self._corpus_name = name
        full = self.panel.state.full_tokenizer
        curve = None
        if full is not None and can_truncate(full):
            # the slider's model: the trained (or opened) one, cut to a few sizes
            sizes = curve_vocab_sizes(min_vocab_size(full) + 1, full.model.vocab_size)
            curve = (self.tr("the trained model"), full, sizes)
        self.job = Job(
            report_card_job,
            tokenizers,
            source,
            dict(self.parallel),
            self.alpha.value(),
            curve,
            name,
            parent=self,
        )
        self.job.events.connect(self._on_events)
        self.job.finished.connect(self._on_finished)
        self.job.failed.connect(self._on_failed)
        self.job.cancelled.connect(lambda: self.status.setText(self.tr("Cancelled.")))
        self.job.ended.connect(self._ended)
        self.compute_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.show()
        self.status.setText(self.tr("Computing over {0}…").format(name))
        self._phase_column = 0
        self.job.start()
        return True

    def cancel(self) -> None:
        if self.running:
            self.job.cancel()

    def shutdown(self) -> None:
        if self.job is not None:
            self.job.kill()

    def _ended(self) -> None:
        self.compute_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.hide()

    def _on_events(self, events: list) -> None:
        progress = [e for e in events if isinstance(e, Progress)]
        if not progress:
            return
        for p in progress:
            if p.phase == "hygiene":
                self._phase_column = p.done
        p = progress[-1]
        fraction = p.done / p.total if p.total else 0.0
        self.progress.setValue(int(1000 * min(1.0, fraction)))
        text = PHASES.get(p.phase)
        if text is not None:
            column = self._names[min(self._phase_column, len(self._names) - 1)] if self._names else ""
            self.status.setText(_translated(text).format(column))

    def _on_failed(self, message: str) -> None:
        self.status.setText(self.tr("⚠ {0}").format(message))

    def _on_finished(self, result: CardResult) -> None:
        self.show_result(result)
        self.computed.emit()

    # -- showing --------------------------------------------------------------------
    def show_result(self, result: CardResult) -> None:
        self.result = result
        report = result.report
        s = report.sizes
        self.status.setText(
            self.tr("Over {0}: {1:,} lines, {2:,} words, {3:,} characters. Bold: the best of a row.").format(
                self._corpus_name, s.lines, s.words, s.characters
            )
        )
        self._fill_table()
        self._draw_parity()
        self._draw_f1()
        self._draw_curve()
        self.export_button.setEnabled(True)

    def _fill_table(self) -> None:
        report = self.result.report  # type: ignore[union-attr]
        names = [t.name for t in report.tokenizers]
        rows = rows_of(report)
        sections = []
        section = None
        for row in rows:
            if row.section != section:
                section = row.section
                sections.append(None)
            sections.append(row)
        table = self.table
        table.clear()
        table.setColumnCount(len(names))
        table.setRowCount(len(sections))
        bold = QFont(table.font())
        bold.setBold(True)
        for j, (name, colour) in enumerate(zip(names, self._colours)):
            head = QTableWidgetItem(name)
            head.setForeground(QBrush(QColor(colour)))
            head.setFont(bold)
            table.setHorizontalHeaderItem(j, head)
        accent = QColor(theme.current().accent)
        labels = []
        i = 0
        for row in rows:
            if i < len(sections) and sections[i] is None:
                labels.append(self._section_title(row.section))
                table.setSpan(i, 0, 1, max(1, len(names)))
                item = QTableWidgetItem("")
                table.setItem(i, 0, item)
                i += 1
            labels.append("  " + label_of(row.label))
            values = values_of(report, row)
            best = best_of(values, row.better)
            for j, value in enumerate(values):
                item = QTableWidgetItem(format_value(value, row.kind))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                item.setData(BEST_ROLE, j in best)
                if j in best:
                    item.setFont(bold)
                    item.setForeground(QBrush(accent))
                    item.setToolTip(self.tr("the best value of this row"))
                table.setItem(i, j, item)
            i += 1
        table.setVerticalHeaderLabels(labels)
        for i, entry in enumerate(sections):
            if entry is None:
                table.verticalHeaderItem(i).setFont(bold)

    def _section_title(self, section: str) -> str:
        report = self.result.report  # type: ignore[union-attr]
        title = _translated(LABELS.get(section, section))
        if section == "Morphology":
            analyser = {"ko": "kiwipiepy", "ja": "SudachiPy"}.get(report.language or "", "")
            return self.tr("{0} ({1}, {2}, {3:,} lines)").format(
                title, report.language, analyser, report.alignment_lines
            )
        if section == "Parity":
            return self.tr("{0} (pivot {1}, {2:,} lines)").format(title, report.pivot, report.parallel_lines)
        if section == "Distribution":
            return self.tr("{0} (Rényi α = {1:g})").format(title, report.alpha)
        return title

    def best_cells(self) -> dict[str, list[str]]:
        """Row label -> the columns holding its best value (tests, and a reader of the table)."""
        out: dict[str, list[str]] = {}
        for i in range(self.table.rowCount()):
            marked = [
                self.table.horizontalHeaderItem(j).text()
                for j in range(self.table.columnCount())
                if (item := self.table.item(i, j)) is not None and item.data(BEST_ROLE)
            ]
            if marked:
                out[self.table.verticalHeaderItem(i).text().strip()] = marked
        return out

    def cell(self, label: str, column: str) -> str:
        """The text of one cell, by row label and column name."""
        cols = [self.table.horizontalHeaderItem(j).text() for j in range(self.table.columnCount())]
        for i in range(self.table.rowCount()):
            if self.table.verticalHeaderItem(i).text().strip() == label:
                return self.table.item(i, cols.index(column)).text()
        raise KeyError(label)

    def _bars(self, plot: pg.PlotItem, xs, heights, brushes, ticks) -> None:
        plot.clear()
        plot.addItem(pg.BarGraphItem(x=xs, height=heights, width=0.7, brushes=brushes, pen=pg.mkPen(None)))
        plot.getAxis("bottom").setTicks([ticks])
        if xs:
            plot.setXRange(min(xs) - 0.6, max(xs) + 0.6, padding=0)
        top = max([h for h in heights if not math.isnan(h)] + [0.0])
        plot.setYRange(0, top * 1.15 if top > 0 else 1, padding=0)

    def _draw_parity(self) -> None:
        """A group of bars per language (one per column): its token premium over the pivot."""
        report = self.result.report  # type: ignore[union-attr]
        plot = self.parity_plot
        rows = [t.parity for t in report.tokenizers]
        if report.pivot is None or not any(rows):
            plot.clear()
            plot.setTitle(self.tr("token premium per language: add parallel files"), size="9pt")
            return
        plot.setTitle(self.tr("token premium per language, over {0}").format(report.pivot), size="9pt")
        languages = list(next(p for p in rows if p is not None).premiums)
        n = len(report.tokenizers)
        width = 0.8 / max(n, 1)
        xs, heights, brushes = [], [], []
        for g, lang in enumerate(languages):
            for k, (p, colour) in enumerate(zip(rows, self._colours)):
                xs.append(g + (k - (n - 1) / 2) * width)
                heights.append(0.0 if p is None else p.premiums.get(lang, 0.0))
                brushes.append(pg.mkBrush(colour))
        plot.clear()
        plot.addItem(
            pg.BarGraphItem(x=xs, height=heights, width=width * 0.9, brushes=brushes, pen=pg.mkPen(None))
        )
        plot.getAxis("bottom").setTicks([[(g, lang) for g, lang in enumerate(languages)]])
        plot.setXRange(-0.6, len(languages) - 0.4, padding=0)
        top = max(heights + [0.0])
        plot.setYRange(0, top * 1.15 if top > 0 else 1, padding=0)
        self.parity_bars = (xs, heights)

    def _draw_f1(self) -> None:
        report = self.result.report  # type: ignore[union-attr]
        plot = self.f1_plot
        if report.alignment_lines == 0:
            plot.clear()
            plot.setTitle(self.tr("morpheme boundary F1: Korean or Japanese text only"), size="9pt")
            self.f1_bars = []
            return
        plot.setTitle(self.tr("morpheme boundary F1 ({0})").format(report.language), size="9pt")
        heights = [0.0 if t.alignment is None else t.alignment.f1 for t in report.tokenizers]
        xs = list(range(len(heights)))
        self._bars(plot, xs, heights, [pg.mkBrush(c) for c in self._colours], list(zip(xs, self._names)))
        self.f1_bars = heights

    def _draw_curve(self) -> None:
        result = self.result
        plot = self.curve_plot
        plot.clear()
        points = result.curve if result is not None else []
        if not points:
            plot.setTitle(self.tr("Rényi efficiency against vocab size: no model to cut"), size="9pt")
            return
        plot.setTitle(
            self.tr("Rényi efficiency against vocab size ({0} cut to each size)").format(result.curve_of),  # type: ignore[union-attr]
            size="9pt",
        )
        xs = [k for k, _ in points]
        ys = [v for _, v in points]
        colour = theme.current().accent
        plot.plot(xs, ys, pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6, symbolBrush=colour)
        from subword_gui.panels.korean_study import log_ticks

        plot.getAxis("bottom").setTicks(
            [[(math.log10(v), f"{v:,}") for v in log_ticks(min(xs), max(xs))], []]
        )

    # -- export ---------------------------------------------------------------------
    def about(self) -> dict:
        """What the HTML says the card was made from: corpus, parallel files, versions, columns."""
        from PySide6 import __version__ as pyside_version

        result = self.result
        assert result is not None
        about = dict(result.about)
        about["versions"] = {
            **about.get("versions", {}),
            "PySide6": pyside_version,
            "pyqtgraph": pg.__version__,
        }
        about["created"] = time.strftime("%Y-%m-%d %H:%M:%S %z")
        about["tokenizers"] = self._columns_info
        if result.curve:
            about["renyi_curve"] = {"of": result.curve_of, "points": [list(p) for p in result.curve]}
        return about

    def export_report(self) -> None:
        """Ask where, then write the HTML file (the dialog asks before replacing a file)."""
        if self.result is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export the report card"), "report-card.html", self.tr("HTML pages (*.html)")
        )
        if path:
            if not path.lower().endswith((".html", ".htm")):
                path += ".html"
            self.export_to(Path(path), confirmed=True)

    def export_to(self, path: Path, confirmed: bool = False) -> bool:
        """Write the card to ``path`` atomically; an existing file is replaced only once the user
        agrees (``confirmed``: the save dialog already asked)."""
        if self.result is None:
            return False
        if path.exists() and not confirmed:
            answer = QMessageBox.question(
                self,
                self.tr("Replace the file?"),
                self.tr("{0} exists. Replace it with this report card?").format(path),
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
        try:
            write_atomic(path, render_html(self.result.report, self.about()))
        except (OSError, SubwordError) as exc:
            QMessageBox.warning(self, self.tr("Cannot export the report"), str(exc))
            return False
        self.status.setText(self.tr("Wrote {0}.").format(path))
        return True
