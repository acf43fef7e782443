"""The Compare panel: one text under several tokenizers, side by side.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.state import AppState
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> state = AppState(); state.set_full_tokenizer(drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=11))))
    >>> panel = ComparePanel(state)               # columns A = shown, B = the full model cut in half
    >>> column = panel.add_column(("size", 9)); panel.set_text("hugs pun")   # C: the first merge only
    >>> [c.result.lines[0].encoding.tokens for c in panel.columns]
    [['hug', 's', 'p', 'un'], ['h', 'u', 'g', 's', 'p', 'u', 'n'], ['h', 'ug', 's', 'p', 'u', 'n']]
    >>> panel.columns[2].result.marked            # per line: boundaries not every column has
    [{1, 7}]

Each column picks its tokenizer: the one shown (follows the slider), the full
trained one, the full one cut to a vocab size of its own, any run of the
session (the Runs panel), or a tokenizer file.
Its tokens are drawn as chips: a token whose span of text every other column
also has as one token is grey (they agree there); the others are coloured,
and a magenta bar marks each boundary not every column has. Below: the
statistics side by side (a table and bar plots of tokens per word, characters
per token, unknown rate and vocabulary use), over the text above or over the
loaded corpus's most frequent words, weighted by their counts. The "Report card" tab beside
them computes every measure of ``core.measures`` over the whole corpus in the background
(``subword_gui.panels.report_card``) and exports it as one HTML file.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QTextOption
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.errors import SubwordError
from core.stats import (
    EncodingStats,
    boundaries,
    shared_token_mask,
    stats_of_encodings,
    token_spans,
    word_count_stats,
)
from subword_gui.background.analysers import loading_analysers
from subword_gui.background.jobs import can_truncate, min_vocab_size, truncate_tokenizer
from subword_gui.file_dialogs import tokenizer_filter, widen_next_file_dialog
from subword_gui.panels.report_card import ReportCardView
from subword_gui.panels.runs import what_sets_apart
from subword_gui.state import on_screen
from subword_gui.tokens import palette
from subword_gui.tokens.render import render_parts, style_for
from subword_gui.tokens.token_view import LONG_LINE, Chip, TokenStrip, segment_line, token_tooltip

# The Segmentation panel's opening text, so both panels start on the same text.
DEFAULT_TEXT = "토크나이저는 문장을 작은 조각으로 나눕니다.\nTokenizers cut text into subword pieces."
# Okabe-Ito: one colour per column, in the headers and in the plots.
COLUMN_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]
SOURCES = [
    ("shown", QT_TRANSLATE_NOOP("Labels", "Shown (slider)")),
    ("full", QT_TRANSLATE_NOOP("Labels", "Full trained")),
    ("size", QT_TRANSLATE_NOOP("Labels", "Full cut to size…")),
    ("file", QT_TRANSLATE_NOOP("Labels", "File…")),
]
METRICS = [
    ("tokens", QT_TRANSLATE_NOOP("Labels", "tokens"), "{:,}"),
    ("words", QT_TRANSLATE_NOOP("Labels", "words"), "{:,}"),
    ("characters", QT_TRANSLATE_NOOP("Labels", "characters"), "{:,}"),
    ("tokens_per_word", QT_TRANSLATE_NOOP("Labels", "tokens / word"), "{:.3f}"),
    ("chars_per_token", QT_TRANSLATE_NOOP("Labels", "chars / token"), "{:.3f}"),
    ("unknown", QT_TRANSLATE_NOOP("Labels", "unknown tokens"), "{:,}"),
    ("unk_rate", QT_TRANSLATE_NOOP("Labels", "unknown rate"), "{:.2%}"),
    # byte fallback (SentencePiece, Llama): what the unknown rate would be without the byte pieces
    ("byte_tokens", QT_TRANSLATE_NOOP("Labels", "byte-fallback tokens"), "{:,}"),
    ("unk_rate_without_bytes", QT_TRANSLATE_NOOP("Labels", "unknown rate without byte fallback"), "{:.2%}"),
    ("distinct_ids", QT_TRANSLATE_NOOP("Labels", "distinct tokens used"), "{:,}"),
    ("vocab_size", QT_TRANSLATE_NOOP("Labels", "vocab size"), "{:,}"),
    ("vocab_used", QT_TRANSLATE_NOOP("Labels", "vocab used"), "{:.2%}"),
]
PLOTTED = [
    ("tokens_per_word", QT_TRANSLATE_NOOP("Labels", "tokens / word"), 1),
    ("chars_per_token", QT_TRANSLATE_NOOP("Labels", "chars / token"), 1),
    ("unk_rate", QT_TRANSLATE_NOOP("Labels", "unknown %"), 100),
    ("vocab_used", QT_TRANSLATE_NOOP("Labels", "vocab used %"), 100),
]
COMPARE_DELAY_MS = 100  # the columns re-encode once edits or slider moves pause this long
COMPARE_MAX_CHARS = 10_000  # compared at most (every column encodes on the GUI thread)
CORPUS_WORDS = 2000  # "statistics over the corpus": its most frequent words, weighted by count


@dataclass
class ColumnResult:
    """One column's encoding of the text: per line, the encoding, shared mask and marked boundaries."""

    lines: list = field(default_factory=list)  # LineTokens
    shared: list[list[bool]] = field(default_factory=list)
    marked: list[set[int]] = field(default_factory=list)


class ElidingComboBox(QComboBox):
    """A combo box whose current text ends in "…" when its column is too narrow for it.

    subtle: QComboBox clips its text at the edge ("Full cut to s", "Shown (sli" in a quarter of a
    1280-wide window), which reads as a broken label; the popup and the tooltip keep the whole text.
    """

    def shown_text(self) -> str:
        """The current text as painted: elided at the right to the edit field's width."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        return self.fontMetrics().elidedText(opt.currentText, Qt.TextElideMode.ElideRight, field.width())

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        opt.currentText = self.shown_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)


class CompareColumn(QFrame):
    """One tokenizer's column: where it comes from, its token chips and a summary."""

    changed = Signal()
    remove_requested = Signal(object)

    def __init__(self, panel: ComparePanel, letter: str, colour: str, source="shown"):
        super().__init__()
        self.panel = panel
        self.letter = letter
        self.colour = colour
        self.tokenizer = None
        self.file_tokenizer = None
        self.file_name = ""
        self._cut, self._cut_key = None, None
        self.result = ColumnResult()
        self.differing = 0  # tokens not shared with every other column (see show_result)
        self.setFrameShape(QFrame.Shape.StyledPanel)

        self.badge = badge = QLabel()
        self.set_letter(letter, colour)
        self.source = ElidingComboBox()
        self.fill_sources()
        self.source.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.source.setMinimumContentsLength(6)
        self.size = QSpinBox()
        self.size.setRange(1, 10_000_000)
        self.size.setSingleStep(100)
        self.size.setKeyboardTracking(False)
        self.size.setGroupSeparatorShown(True)  # 1,610 as everywhere else, not 1610
        # no " tokens" suffix and room for seven digits, not for the range's eight: in a
        # half-width column the spin box clipped the source to "Full cut to s"
        self.size.setMaximumWidth(self.size.fontMetrics().horizontalAdvance("9999999") + 40)
        self.size.setToolTip(self.tr("The vocab size to cut the full model to, in tokens"))
        self.remove = QToolButton()
        self.remove.setText("✕")
        self.remove.setToolTip(self.tr("Remove this column"))
        self.remove.clicked.connect(lambda: self.remove_requested.emit(self))
        head = QHBoxLayout()
        head.addWidget(badge)
        head.addWidget(self.source, 1)
        head.addWidget(self.remove)
        # the size on a row of its own: beside the combo, in a half-width column of a narrow
        # tab, it clipped the combo to "Full cut to size."
        self.size_row = QWidget()
        size_row = QHBoxLayout(self.size_row)
        size_row.setContentsMargins(0, 0, 0, 0)
        size_label = QLabel(self.tr("Vocab size"))
        size_label.setObjectName("hint")
        size_row.addWidget(size_label)
        size_row.addWidget(self.size, 1)
        self.size_row.setVisible(False)

        self.title = QLabel()
        self.title.setObjectName("hint")
        self.title.setWordWrap(True)
        self.strip = TokenStrip()
        self.strip.set_placeholder(self.tr("No tokenizer here yet."))
        self.strip.tooltip_provider = self._tooltip
        scroll = QScrollArea()
        scroll.setWidget(self.strip)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(head)
        layout.addWidget(self.size_row)
        layout.addWidget(self.title)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.summary)
        self._where: list[tuple[int, int]] = []

        self.source.currentIndexChanged.connect(self._source_changed)
        self.size.valueChanged.connect(lambda _v: self._resolve())
        self.set_source(source)

    # -- where the tokenizer comes from ---------------------------------------------

    def set_letter(self, letter: str, colour: str) -> None:
        """The column's name and colour (A in the first colour, B in the second...)."""
        self.letter, self.colour = letter, colour
        self.badge.setText(self.tr(" {0} ").format(letter))
        self.badge.setStyleSheet(f"background:{colour}; color:white; font-weight:bold; border-radius:3px")

    def fill_sources(self) -> None:
        """The source menu: the fixed choices, then every run of the session (``"run:<id>"``).

        A column whose run was discarded goes back to the shown tokenizer."""
        current = self.source.currentData()
        self.source.blockSignals(True)
        self.source.clear()
        for key, label in SOURCES:
            self.source.addItem(QCoreApplication.translate("Labels", label), key)
        runs = getattr(self.panel.state, "runs", [])
        for run in runs:
            self.source.addItem(run.name, f"run:{run.id}")
            apart = what_sets_apart(run, runs)
            full = run.name + (" · " + " · ".join(apart) if apart else "")
            self.source.setItemData(self.source.count() - 1, full, Qt.ItemDataRole.ToolTipRole)
        i = self.source.findData(current) if current is not None else -1
        self.source.setCurrentIndex(max(i, 0))
        self.source.blockSignals(False)
        if current is not None and (i < 0 or str(current).startswith("run:")):
            self._resolve()  # gone: back to the shown tokenizer; a run: what sets it apart changed

    def set_source(self, source) -> None:
        """``"shown"``, ``"full"``, ``("size", n)``, ``("file", path)``, ``("run", id)`` or a Tokenizer."""
        if isinstance(source, tuple) and source[0] == "run":
            source = f"run:{source[1]}"
            if self.source.findData(source) < 0:
                source = "shown"
        if isinstance(source, tuple) and source[0] == "size":
            self.size.blockSignals(True)
            self.size.setValue(int(source[1]))
            self.size.blockSignals(False)
            source = "size"
        elif isinstance(source, tuple) and source[0] == "file":
            self.load_file(source[1])
            return
        elif not isinstance(source, str):
            self.file_tokenizer, self.file_name = source, "given tokenizer"
            source = "file"
        self.source.blockSignals(True)
        self.source.setCurrentIndex(self.source.findData(source))
        self.source.blockSignals(False)
        self._resolve()

    def source_key(self) -> str:
        return self.source.currentData()

    def _source_changed(self) -> None:
        if self.source_key() == "file" and self.file_tokenizer is None:
            widen_next_file_dialog()
            path, _ = QFileDialog.getOpenFileName(
                self,
                self.tr("Open a tokenizer to compare"),
                "",
                tokenizer_filter(),  # every format of the format table
            )
            if not path:
                self.set_source("shown")
                return
            self.load_file(path)
            return
        self._resolve()

    def load_file(self, path: str, pattern: str | None = None, lowercase: bool | None = None) -> bool:
        """Open a tokenizer file into this column; a bad file leaves the column as it was. What
        the file does not say (a rank file's split pattern, a vocab.txt's casing) is shown in the
        main window's report dialog, where choosing another opens the file again in this column."""
        from core.formats.detect import open_tokenizer

        try:
            loaded = open_tokenizer(path, pattern=pattern, lowercase=lowercase)
        except (SubwordError, OSError, ValueError) as exc:
            QMessageBox.warning(
                self, self.tr("Cannot compare this file"), self.tr("{0}\n\n{1}").format(path, exc)
            )
            return False
        tok = getattr(loaded, "tokenizer", loaded)
        self.file_tokenizer, self.file_name = tok, path.rsplit("/", 1)[-1]
        window = self.window()
        if hasattr(window, "show_opening_report"):  # (a column outside the main window: none)
            window.show_opening_report(loaded, path, pattern, self.load_file)
        self.source.blockSignals(True)
        self.source.setCurrentIndex(self.source.findData("file"))
        self.source.blockSignals(False)
        self._resolve()
        return True

    def _resolve(self) -> None:
        state = self.panel.state
        key = self.source_key()
        full = state.full_tokenizer
        self.size_row.setVisible(key == "size")
        tok, title = None, ""
        if key == "shown":
            tok = state.tokenizer
            title = self.tr("the tokenizer the other panels show")
        elif key == "full":
            tok = full
            title = self.tr("the trained (or opened) tokenizer, uncut")
        elif key == "size":
            if full is not None and can_truncate(full):
                low, high = min_vocab_size(full), full.model.vocab_size
                self.size.blockSignals(True)
                self.size.setRange(min(low, high), high)
                self.size.blockSignals(False)
                key = (id(full), self.size.value())
                if self._cut_key != key:  # cutting a large model costs tens of milliseconds
                    self._cut, self._cut_key = truncate_tokenizer(full, self.size.value()), key
                tok = self._cut
                title = self.tr("the full tokenizer cut to {0:,} tokens").format(self.size.value())
            elif full is not None:
                tok, title = full, self.tr("this model cannot be cut; showing it whole")
        elif key == "file":
            tok, title = self.file_tokenizer, self.file_name
        elif isinstance(key, str) and key.startswith("run:"):
            run = state.run_by_id(int(key[4:]))
            if run is not None:
                tok, title = run.tokenizer, self.tr("run “{0}”").format(run.name)
                # the combo box clips a run's name in a narrow column: the title (which wraps)
                # says what sets it apart from the other runs, e.g. its pre-tokenizer
                apart = what_sets_apart(run, state.runs)
                if apart:
                    title += " · " + " · ".join(apart)
        # the whole name of the chosen source, however narrow the column clips it
        self.source.setToolTip(
            self.source.itemData(self.source.currentIndex(), Qt.ItemDataRole.ToolTipRole)
            or self.source.currentText()
        )
        self.tokenizer = tok
        if tok is not None:
            kind = type(tok.model).__name__
            title = self.tr("{0}, {1:,} tokens: {2}").format(kind, tok.vocab_size, title)
        self.title.setText(title or self.tr("no tokenizer yet"))
        self.changed.emit()

    # -- drawing ------------------------------------------------------------------
    def show_result(self, result: ColumnResult) -> None:
        self.result = result
        if self.tokenizer is None:
            self.strip.set_chips([])
            self.summary.setText("")
            return
        style = style_for(self.tokenizer)
        chips: list[Chip] = []
        where = []
        n_marked = 0
        for n, (line, shared, marked) in enumerate(zip(result.lines, result.shared, result.marked)):
            n_marked += len(marked)
            spans = token_spans(line.encoding, line.text)
            prev_word = object()
            for i, token in enumerate(line.encoding.tokens):
                s, e = spans[i]
                word = line.encoding.word_ids[i]
                chips.append(
                    Chip(
                        parts=render_parts(token, style),
                        caption=str(line.encoding.ids[i]),
                        background=palette.SHARED_BACKGROUND
                        if shared[i]
                        else palette.colour_of(line.keys[i]),
                        unknown=line.unknown[i],
                        special=line.special[i],
                        new_word=word != prev_word or (i == 0 and n > 0),
                        mark_before=e > s and s in marked,
                        mark_after=e > s and e in marked,
                    )
                )
                where.append((n, i))
                prev_word = word
        self._where = where
        self.strip.set_chips(chips)
        # defined once, for every column alike (core.stats.shared_token_mask): a token is shared
        # when it is the only token over its characters here and in every other column
        self.differing = sum(1 for sh in result.shared for x in sh if not x)
        differing = self.differing
        self.summary.setToolTip(
            self.tr(
                "A token is shared when every other column has exactly one token over the same "
                "characters, and so does this one; the others are differing tokens. Columns share "
                "as many tokens, so their differing tokens differ by as much as their token counts."
            )
        )
        # each count picks its own plural form (the English catalogue has them: "1 token", "2 tokens")
        n_tokens = len(chips)  # subtle: lupdate reads a count only as a name
        parts = (
            self.tr("<b>{0:,}</b> token(s)", None, n_tokens).format(n_tokens),
            self.tr("<b style='color:{1}'>{0:,}</b> boundary(ies) not shared", None, n_marked).format(
                n_marked, palette.DIFF_MARK.name()
            ),
            self.tr("{0:,} differing token(s)", None, differing).format(differing),
        )
        self.summary.setText(" · ".join(parts))

    def _tooltip(self, index: int) -> str:
        n, i = self._where[index]
        line = self.result.lines[n]
        return token_tooltip(self.tokenizer, style_for(self.tokenizer), line, i)


def capped_lines(text: str, limit: int | None = None) -> list[str]:
    """The lines of ``text`` up to ``limit`` characters in all (``COMPARE_MAX_CHARS``), the last
    one cut where the limit falls.

    >>> capped_lines("hug pug\\nbun", limit=5)
    ['hug p']
    >>> capped_lines("hug pug\\nbun", limit=10)
    ['hug pug', 'bu']
    """
    limit = COMPARE_MAX_CHARS if limit is None else limit
    out, used = [], 0
    for line in text.split("\n"):
        if used >= limit and out:
            break
        out.append(line[: max(0, limit - used)])
        used += len(line) + 1
    return out


def compare_lines(tokenizers: list, lines: list[str]) -> list[ColumnResult]:
    """Encode every line under every tokenizer (None = empty column) and work out, per
    column, which tokens all other columns share and which boundaries not all columns have."""
    results = [ColumnResult() for _ in tokenizers]
    live = [i for i, t in enumerate(tokenizers) if t is not None]
    for text in lines:
        encoded = {i: segment_line(tokenizers[i], text) for i in live}
        bounds = {i: boundaries(encoded[i].encoding, text) for i in live}
        common = set.intersection(*bounds.values()) if bounds else set()
        for i in live:
            others = [encoded[j].encoding for j in live if j != i]
            results[i].lines.append(encoded[i])
            results[i].shared.append(
                shared_token_mask(encoded[i].encoding, others, text)
                if others
                else [False] * len(encoded[i].encoding.ids)
            )
            results[i].marked.append(bounds[i] - common)
    return results


class ComparePanel(QWidget):
    """Text on top, one column per tokenizer, statistics table and bar plots below."""

    compared = Signal()

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.columns: list[CompareColumn] = []
        self.stats: list[EncodingStats | None] = []
        # debounced: a slider drag or typing re-encodes every column once it pauses
        self._timer = QTimer(self, singleShot=True, interval=COMPARE_DELAY_MS)
        self._timer.timeout.connect(self.compare)
        self._top_words: tuple | None = None  # (corpus, its most frequent words)
        self._mirroring = False  # setting the editor from the Segmentation text
        self._last_segmentation_text: str | None = None
        self._stale = True  # changed while hidden (e.g. a tab behind Segmentation): redo when shown
        self._build()
        state.tokenizer_changed.connect(lambda _t: self._resolve_all(only="shown"))
        state.full_tokenizer_changed.connect(self._full_changed)
        state.corpus_changed.connect(lambda _c: self._schedule())
        if hasattr(state, "text_changed"):
            state.text_changed.connect(self._segmentation_text)
        if hasattr(state, "runs_changed"):
            state.runs_changed.connect(self._runs_changed)
        self.add_column("shown")
        self.add_column("size")
        self._full_changed(state.full_tokenizer)

    def _build(self) -> None:
        self.editor = QPlainTextEdit(DEFAULT_TEXT)
        font = QFont(self.editor.font())
        font.setPointSize(13)
        self.editor.setFont(font)
        self.editor.setMaximumHeight(72)
        self.editor.textChanged.connect(self._text_edited)
        self.follow = QCheckBox(self.tr("Follow Segmentation"))
        self.follow.setToolTip(
            self.tr("Compare whatever is typed in the Segmentation panel; typing here stops following")
        )
        self.follow.setChecked(True)
        self.follow.toggled.connect(self._follow_toggled)
        self.add_button = QPushButton(self.tr("Add tokenizer"))
        self.add_button.clicked.connect(lambda: self.add_column("full"))
        self.stats_over = QComboBox()
        self.stats_over.addItem(self.tr("Statistics over the text above"), "text")
        self.stats_over.addItem(
            self.tr("Statistics over the corpus's {0:,} most frequent words").format(CORPUS_WORDS), "corpus"
        )
        self.stats_over.currentIndexChanged.connect(lambda _i: self._schedule())
        # subtle: a combo box is as wide as its longest item unless told otherwise, and the
        # panel's minimum width becomes the main window's
        self.stats_over.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.stats_over.setMinimumContentsLength(14)
        self.cap_note = QLabel()
        self.cap_note.setObjectName("hint")
        self.cap_note.hide()
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Text:")))
        top.addWidget(self.follow)
        # the combo takes the row's free width (its minimum stays small): a narrow tab read
        # "Statistics over the te" with a fixed width
        top.addWidget(self.stats_over, 1)
        top.addWidget(self.add_button)

        self.columns_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.columns_splitter.setChildrenCollapsible(False)

        self.table = QTableWidget(len(METRICS), 0)
        self.table.setVerticalHeaderLabels(
            [QCoreApplication.translate("Labels", label) for _, label, _ in METRICS]
        )
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # "17.65%" fits 48 px: two columns beside the labels fit the half of a narrow tab
        self.table.horizontalHeader().setMinimumSectionSize(48)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setDefaultSectionSize(22)

        self.plots = pg.GraphicsLayoutWidget()
        self.plots.setMinimumHeight(110)
        self.plots.installEventFilter(self)  # re-arranged on resize: one row when wide, 2 x 2 when not
        self._plot_items = []
        self._plots_per_row = 0
        for _key, label, _scale in PLOTTED:
            plot = pg.PlotItem()
            plot.setTitle(QCoreApplication.translate("Labels", label), size="9pt")
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            plot.showGrid(y=True, alpha=0.2)
            plot.getAxis("left").setWidth(30)
            bars = pg.BarGraphItem(x=[], height=[], width=0.7)
            plot.addItem(bars)
            self._plot_items.append((plot, bars))
        self._arrange_plots(4)

        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(self.table)
        bottom.addWidget(self.plots)
        bottom.setStretchFactor(0, 1)
        bottom.setStretchFactor(1, 1)
        # the table first: its labels and two columns of figures must fit a 600-px dock
        bottom.setSizes([560, 440])
        # the report card: every measure of core.measures over the corpus, computed on request
        self.report_card = ReportCardView(self)
        self.bottom_tabs = QTabWidget()
        self.bottom_tabs.setDocumentMode(True)
        self.bottom_tabs.addTab(bottom, self.tr("Statistics"))
        self.bottom_tabs.addTab(self.report_card, self.tr("Report card"))

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.columns_splitter)
        self.splitter.addWidget(self.bottom_tabs)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([450, 300])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.editor)
        layout.addWidget(self.cap_note)  # its own row: beside the combo it clipped the combo's label
        layout.addWidget(self.splitter, 1)

    def _arrange_plots(self, per_row: int) -> None:
        if per_row == self._plots_per_row:
            return
        self._plots_per_row = per_row
        layout = self.plots.ci
        for plot, _bars in self._plot_items:
            if plot.scene() is not None:
                layout.removeItem(plot)
        for n, (plot, _bars) in enumerate(self._plot_items):
            layout.addItem(plot, row=n // per_row, col=n % per_row)
        # subtle: a GraphicsLayoutWidget does not grow to its plots' minimum width; in a narrow
        # tab the right-hand plots were cut off. Asking for it makes the splitter give it.
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        need = layout.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
        self.plots.setMinimumWidth(int(need) + 4 if per_row == 2 else 0)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if obj is self.plots and event.type() == event.Type.Resize:
            size = event.size()
            self._arrange_plots(4 if size.width() > 2.4 * size.height() and size.width() >= 600 else 2)
        return super().eventFilter(obj, event)

    # -- columns ----------------------------------------------------------------------
    def add_column(self, source="full") -> CompareColumn:
        used = {c.letter for c in self.columns}
        n = next(i for i in range(26) if chr(65 + i) not in used)
        column = CompareColumn(self, chr(65 + n), COLUMN_COLOURS[n % len(COLUMN_COLOURS)], source)
        column.changed.connect(self._schedule)
        column.remove_requested.connect(self.remove_column)
        self.columns.append(column)
        self.columns_splitter.addWidget(column)
        self._update_remove_buttons()
        self._schedule()
        return column

    def add_run_column(self, run) -> CompareColumn:
        """A column showing ``run`` (or the existing one that already does)."""
        for c in self.columns:
            if c.source_key() == f"run:{run.id}":
                return c
        return self.add_column(("run", run.id))

    def _runs_changed(self) -> None:
        for c in self.columns:
            c.fill_sources()

    def remove_column(self, column: CompareColumn) -> None:
        if len(self.columns) <= 1:
            return
        self.columns.remove(column)
        column.setParent(None)
        column.deleteLater()
        # the columns left are named A, B, C... again, as the table and plots list them (the
        # Korean study's three runs, added before the two columns it replaced, read C, D, E)
        for n, c in enumerate(self.columns):
            c.set_letter(chr(65 + n), COLUMN_COLOURS[n % len(COLUMN_COLOURS)])
        self._update_remove_buttons()
        self._schedule()

    def _update_remove_buttons(self) -> None:
        for c in self.columns:
            c.remove.setEnabled(len(self.columns) > 1)

    def _full_changed(self, full) -> None:
        if not on_screen(self):
            # subtle: cutting a 32 k model for the "size" column costs tens of milliseconds
            # as the trained model lands; a hidden panel does it when shown
            self._full_pending = (full,)
            self._stale = True
            return
        self._full_pending = None
        self._apply_full(full)

    def _apply_full(self, full) -> None:
        for c in self.columns:
            if c.source_key() == "size" and full is not None and can_truncate(full):
                # a fresh model: start the cut half-way between its smallest and full size
                low, high = min_vocab_size(full), full.model.vocab_size
                c.size.blockSignals(True)
                c.size.setRange(min(low, high), high)
                c.size.setValue(low + (high - low) // 2)
                c.size.blockSignals(False)
        self._resolve_all()

    def _resolve_all(self, only: str | None = None) -> None:
        if getattr(self, "_full_pending", None) is not None:
            return  # the whole panel resolves when shown
        for c in self.columns:
            if only is None or c.source_key() == only:
                c._resolve()

    # -- comparing ----------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Compare ``text`` (and stop following the Segmentation text)."""
        self.editor.setPlainText(text)
        self.compare()

    def text(self) -> str:
        return self.editor.toPlainText()

    def _segmentation_text(self, text: str) -> None:
        self._last_segmentation_text = text
        if not on_screen(self):
            # subtle: copying a pasted 100,000-character word into a hidden editor costs Qt a
            # layout per keystroke; a hidden panel takes the latest text when shown
            self._mirror_pending = self.follow.isChecked()
            return
        self._mirror_pending = False
        if self.follow.isChecked() and text != self.editor.toPlainText():
            self._mirroring = True
            try:
                # a word thousands of letters long has no word boundary to wrap at: Qt's
                # search for one costs seconds, so such a text wraps anywhere
                long_line = any(len(line) >= LONG_LINE for line in text.split("\n"))
                self.editor.setWordWrapMode(
                    QTextOption.WrapMode.WrapAnywhere
                    if long_line
                    else QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
                )
                self.editor.setPlainText(text)
            finally:
                self._mirroring = False
            self._schedule()

    def _text_edited(self) -> None:
        if not self._mirroring and self.follow.isChecked():
            self.follow.setChecked(False)  # the user typed here: this text is theirs now
        self._schedule()

    def _follow_toggled(self, on: bool) -> None:
        if on and self._last_segmentation_text is not None:
            self._segmentation_text(self._last_segmentation_text)

    def corpus_words(self) -> list[tuple[str, int]] | None:
        """The corpus's most frequent words with their counts (None without a corpus)."""
        corpus = self.state.corpus
        words = getattr(corpus, "words", None) if corpus is not None else None
        if not words:
            return None
        if self._top_words is None or self._top_words[0] is not corpus:
            top = heapq.nlargest(CORPUS_WORDS, words.items(), key=lambda kv: kv[1])
            self._top_words = (corpus, top)
        return self._top_words[1]

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self.catch_up()

    def catch_up(self) -> None:
        """Shown (or its dock tab selected): do what waited while it was hidden."""
        if not self.isVisible():
            return
        pending = getattr(self, "_full_pending", None)
        if pending is not None:
            self._full_pending = None
            self._apply_full(pending[0])
        if getattr(self, "_mirror_pending", False) and self._last_segmentation_text is not None:
            self._segmentation_text(self._last_segmentation_text)
        if self._stale:
            self._timer.start()

    def _schedule(self) -> None:
        self._stale = True
        if on_screen(self):
            self._timer.start()

    def compare(self) -> None:
        """Encode the text under every column's tokenizer and redraw (called when shown)."""
        self._timer.stop()
        tokenizers = [c.tokenizer for c in self.columns]
        if loading_analysers(tokenizers):  # a column's morpheme analyser is still loading apart
            self._stale = True
            self._timer.start()
            return
        self._stale = False
        text = self.text()
        lines = capped_lines(text)
        # every column encodes on the GUI thread: a pasted 100,000-character word would freeze
        # the window for seconds, so Compare takes the beginning and says so
        self.cap_note.setVisible(len(text) > COMPARE_MAX_CHARS)
        self.cap_note.setText(
            self.tr("Compared: the first {0:,} of these {1:,} characters.").format(
                COMPARE_MAX_CHARS, len(text)
            )
        )
        results = compare_lines(tokenizers, lines)
        for column, result in zip(self.columns, results):
            column.show_result(result)
        corpus_words = self.corpus_words() if self.stats_over.currentData() == "corpus" else None
        self.stats = []
        for tok, result in zip(tokenizers, results):
            if tok is None:
                self.stats.append(None)
            elif corpus_words is not None:
                self.stats.append(word_count_stats(tok, corpus_words))
            else:
                self.stats.append(stats_of_encodings(tok, [(ln.text, ln.encoding) for ln in result.lines]))
        self._show_stats()
        self.compared.emit()

    def _show_stats(self) -> None:
        self.table.setColumnCount(len(self.columns))
        for j, (column, stats) in enumerate(zip(self.columns, self.stats)):
            head = QTableWidgetItem(column.letter)
            head.setForeground(QBrush(QColor(column.colour)))
            font = QFont(self.table.font())
            font.setBold(True)
            head.setFont(font)
            self.table.setHorizontalHeaderItem(j, head)
            for i, (key, _label, fmt) in enumerate(METRICS):
                value = "—" if stats is None else fmt.format(getattr(stats, key))
                item = QTableWidgetItem(value)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, j, item)
        self._fit_columns_to_figures()
        xs = list(range(len(self.columns)))
        brushes = [pg.mkBrush(c.colour) for c in self.columns]
        ticks = [[(x, c.letter) for x, c in zip(xs, self.columns)]]
        for (plot, bars), (key, _label, scale) in zip(self._plot_items, PLOTTED):
            heights = [0.0 if s is None else getattr(s, key) * scale for s in self.stats]
            bars.setOpts(x=xs, height=heights, width=0.7, brushes=brushes, pen=pg.mkPen(None))
            plot.getAxis("bottom").setTicks(ticks)
            plot.setXRange(-0.6, len(xs) - 0.4, padding=0)
            top = max(heights + [0.0])
            plot.setYRange(0, top * 1.15 if top > 0 else 1, padding=0)

    def _fit_columns_to_figures(self) -> None:
        """No figure is elided ("100.00%" and "1,827,403" were cut to "100.0…" in a narrow tab): the
        columns share the table's width but none gets narrower than its widest figure (the table
        scrolls sideways when they cannot all fit)."""
        metrics = self.table.fontMetrics()
        margin = 2 * (
            self.table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.table) + 1
        )
        widest = max(
            (
                metrics.horizontalAdvance(item.text())
                for j in range(self.table.columnCount())
                for i in range(self.table.rowCount())
                if (item := self.table.item(i, j)) is not None
            ),
            default=0,
        )
        # "17.65%" fits 48 px: two columns beside the labels fit the half of a narrow tab
        self.table.horizontalHeader().setMinimumSectionSize(max(48, widest + margin + 4))

    def stat(self, column: int, key: str):
        """One statistic of one column (tests, the README's figures)."""
        s = self.stats[column]
        return None if s is None else getattr(s, key)
