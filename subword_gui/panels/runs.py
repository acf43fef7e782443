"""The Runs panel: every training run of the session, to show again, compare, rename, save or discard.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.runs import Run
    >>> from subword_gui.state import AppState
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> state = AppState()
    >>> for size in (11, 13):                # two runs, as two trainings leave them
    ...     options = TrainOptions("bpe", vocab_size=size)
    ...     state.add_run(Run(0, f"BPE {size}", drain(train_from_counts(counts, options)), options), show=True)
    >>> panel = RunsPanel(state)         # lists state.runs; follows state.runs_changed
    >>> names = lambda: [panel.model.index(row, 0).data() for row in range(panel.model.rowCount())]
    >>> names()                          # the shown run is marked (and bold)
    ['BPE 11', '● BPE 13']
    >>> panel.select(state.runs[0]); panel.show_selected()      # the run's tokenizer is shown everywhere
    >>> state.tokenizer.vocab_size, names()
    (11, ['● BPE 11', 'BPE 13'])

One row per run (oldest first): its name (double-click or F2 to rename), the
algorithm and vocabulary size, the corpus, how long training took and the final
figures measured on held-out text. The run the other panels show is bold and
marked ●. The buttons act on the selected row; Compare asks the main window to
add the run as a Compare column, Save… to save it (any format the File menu has).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from subword_gui.engine_text import localize
from subword_gui.panels.progress import format_duration
from subword_gui.panels.training import ALGORITHM_LABELS
from subword_gui.runs import DEFAULT_KEEP_MB, Run

NAME_MAX_WIDTH = 260  # the Name column grows to fit its names up to this
_BOLD = QFont()
_BOLD.setBold(True)


def options_summary(options) -> str:
    """The options that differ between runs, in one line.

    >>> from core.options import TrainOptions
    >>> options_summary(TrainOptions("wordpiece", vocab_size=3000, normalizer="nfkc"))   # bert: the default
    'nfkc · bert · min. freq. 0'
    >>> options_summary(TrainOptions("wordpiece", 3000, pre_tokenizer="whitespace", continuing_subword_prefix="##"))
    'no normalizer · whitespace · min. freq. 0 · prefix ##'
    """
    if options is None:
        return QCoreApplication.translate("RunsModel", "opened from a file")
    return " · ".join(options_parts(options))


def options_parts(options) -> list[str]:
    """The parts of :func:`options_summary`, one per option (``options`` is not None)."""
    parts = [
        options.normalizer or QCoreApplication.translate("RunsModel", "no normalizer"),
        options.pre_tokenizer or QCoreApplication.translate("RunsModel", "default pre-tokenizer"),
    ]
    parts.append(QCoreApplication.translate("RunsModel", "min. freq. {0}").format(options.min_frequency))
    if options.continuing_subword_prefix:
        parts.append(
            QCoreApplication.translate("RunsModel", "prefix {0}").format(options.continuing_subword_prefix)
        )
    if options.end_of_word_suffix:
        parts.append(QCoreApplication.translate("RunsModel", "suffix {0}").format(options.end_of_word_suffix))
    for key, value in sorted((options.extra or {}).items()):
        if key != "tau" or options.algorithm != "picky-bpe":  # (PickyBPE's τ is in its label)
            parts.append(f"{key}={value}")
    return parts


def algorithm_label(run: Run) -> str:
    """The run's algorithm as the Runs table names it; PickyBPE and SuperBPE with their settings,
    as their papers write them ("PickyBPE τ=0.9", "SuperBPE t=1,800")."""
    label = ALGORITHM_LABELS.get(run.algorithm, run.algorithm)
    if run.algorithm == "picky-bpe" and run.options is not None:
        from core.options import picky_tau

        label += f" τ={picky_tau(run.options.extra or {}):g}"
    if run.algorithm == "superbpe" and run.options is not None:
        from core.errors import ConfigError
        from core.options import superbpe_settings

        try:
            label += f" t={superbpe_settings(run.options)[0]:,}"
        except ConfigError:
            pass
    if run.algorithm.startswith("sentencepiece-") and run.options is not None:
        if (run.options.extra or {}).get("byte_fallback"):
            label += " " + QCoreApplication.translate("RunsModel", "+ byte fallback")
    return label


def _describing_parts(run: Run) -> list[str]:
    parts = [algorithm_label(run), f"{run.vocab_size:,}"]
    if run.corpus:
        parts.append(Path(run.corpus).name)
    if run.options is None:
        return parts + [options_summary(None)]
    return parts + options_parts(run.options)


def what_sets_apart(run: Run, runs: list[Run]) -> list[str]:
    """What tells ``run`` from the session's other runs that its name does not already say:
    its algorithm, size, corpus and options that not every other run shares.

    Two runs named "Run 1: BPE 1,000" and "Run 2: BPE 1,000", one on the whitespace
    pre-tokenizer and one on metaspace, differ only in the options, which a 1280-wide
    window elided: ``what_sets_apart(run2, runs) == ["metaspace"]``.
    """
    others = [_describing_parts(r) for r in runs if r is not run]
    if not others:
        return []
    return [
        p for p in _describing_parts(run) if not all(p in other for other in others) and p not in run.name
    ]


class RunsModel(QAbstractTableModel):
    """``state.runs`` as a table; the Name column is editable (renames the run)."""

    COLUMNS = [
        QT_TRANSLATE_NOOP("RunsModel", "Name"),
        QT_TRANSLATE_NOOP("RunsModel", "Algorithm"),
        QT_TRANSLATE_NOOP("RunsModel", "Vocab"),
        QT_TRANSLATE_NOOP("RunsModel", "Tokens/word"),
        QT_TRANSLATE_NOOP("RunsModel", "Chars/token"),
        QT_TRANSLATE_NOOP("RunsModel", "Time"),
        QT_TRANSLATE_NOOP("RunsModel", "Corpus"),
        QT_TRANSLATE_NOOP("RunsModel", "Options"),
    ]
    # the figures first: in a narrow tab what is cut off is the corpus and the options (both in the
    # row's tooltip), never the figures; columns 3 and 4 break their header after the slash
    NUMERIC = (2, 3, 4, 5)
    CORPUS = 6
    OPTIONS = 7

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self._renaming = False
        state.runs_changed.connect(self._reset)

    def _reset(self) -> None:
        if self._renaming:
            # subtle: a reset under the name editor's commit drops the editor before the view is
            # done with it (Qt warned "commitData called with an editor that does not belong to
            # this view"); a rename changes no row, so the rows' data changing is enough
            last = self.index(self.rowCount() - 1, self.columnCount() - 1)
            self.dataChanged.emit(self.index(0, 0), last)
            return
        self.beginResetModel()
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.state.runs)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def run_at(self, row: int) -> Run | None:
        return self.state.runs[row] if 0 <= row < len(self.state.runs) else None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole:
            if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.COLUMNS):
                text = QCoreApplication.translate("RunsModel", self.COLUMNS[section])
                return text.replace("/", "/\n", 1) if section in (3, 4) else text
            if orientation == Qt.Orientation.Vertical:
                return str(section + 1)
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 0:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        run = self.run_at(index.row()) if index.isValid() else None
        if run is None:
            return None
        col = index.column()
        shown = run is self.state.shown_run
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(run, col, shown)
        if role == Qt.ItemDataRole.EditRole and col == 0:
            return run.name
        if role == Qt.ItemDataRole.FontRole and shown:
            return _BOLD
        if role == Qt.ItemDataRole.TextAlignmentRole and col in self.NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(run, shown)
        return None

    def _text(self, run: Run, col: int, shown: bool) -> str:
        figures = run.figures or {}
        if col == 0:
            # subtle: a second line with what sets the run apart, which the Options column (last,
            # and elided in a 1280-wide window) hid; the name itself may be elided, the tooltip
            # gives it whole
            apart = what_sets_apart(run, self.state.runs)
            return ("● " if shown else "") + run.name + ("\n" + " · ".join(apart) if apart else "")
        if col == 1:
            return algorithm_label(run)
        if col == 2:
            return f"{run.vocab_size:,}"
        if col == 3:
            return f"{figures['tokens_per_word']:.2f}" if "tokens_per_word" in figures else "—"
        if col == 4:
            return f"{figures['chars_per_token']:.2f}" if "chars_per_token" in figures else "—"
        if col == 5:
            return format_duration(run.duration_s) if run.duration_s else "—"
        if col == self.CORPUS:
            return Path(run.corpus).name if run.corpus else "—"
        if run.options is None:
            return options_summary(None)
        # the options that set the run apart first: the column elides at its right end
        parts = options_parts(run.options)
        apart = set(what_sets_apart(run, self.state.runs))
        return " · ".join(sorted(parts, key=lambda p: p not in apart))

    def _tooltip(self, run: Run, shown: bool) -> str:
        lines = [run.name + (self.tr("  (shown)") if shown else "")]
        if run.corpus:
            if run.corpus_words:
                lines.append(self.tr("Corpus: {0}, {1} words").format(run.corpus, f"{run.corpus_words:,}"))
            else:
                lines.append(self.tr("Corpus: {0}").format(run.corpus))
        lines.append(self.tr("Options: {0}").format(options_summary(run.options)))
        if run.stop_reason:
            lines.append(self.tr("Stopped early: {0}").format(localize(run.stop_reason)))
        if run.figures.get("on"):
            lines.append(self.tr("Figures measured on {0}").format(run.figures["on"]))
        if run.restored:
            kept_log = run.merge_events or run.round_events
            lines.append(
                self.tr("Restored from the last session")
                if kept_log or run.options is None  # (a model opened from a file never had a log)
                else self.tr("Restored from the last session (kept without its log by an older version)")
            )
        if run.saved_to:
            lines.append(self.tr("Saved to {0}").format(run.saved_to))
        return "\n".join(lines)

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        run = self.run_at(index.row()) if index.isValid() else None
        if run is None or index.column() != 0 or role != Qt.ItemDataRole.EditRole:
            return False
        if not str(value).strip():
            return False
        self._renaming = True
        try:
            self.state.rename_run(run, str(value))
        finally:
            self._renaming = False
        return True


class _ElideRightDelegate(QStyledItemDelegate):
    """Elide at the right end whatever the view's mode (the Options column)."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


class RunsPanel(QWidget):
    """The runs table and its buttons: Show, Compare, Rename, Save…, Discard."""

    compare_requested = Signal(object)  # Run
    save_requested = Signal(object)  # Run

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.model = RunsModel(state, self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setVisible(False)
        # the name and, under it, what sets the run apart, wrapped whole rather than elided
        # (Korean descriptions were cut to "정규화기…")
        self.view.setWordWrap(True)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 160)
        header.setSectionResizeMode(RunsModel.CORPUS, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(RunsModel.CORPUS, 120)
        header.setStretchLastSection(True)
        # a long run or corpus name keeps its start and its end ("sample…-en.txt"); the
        # options keep their start, where the ones that set the run apart are
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.view.setItemDelegateForColumn(RunsModel.OPTIONS, _ElideRightDelegate(self.view))
        # a name and, under it, what sets the run apart
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.view.doubleClicked.connect(lambda index: self.show_selected() if index.column() else None)

        self.hint = QLabel(self.tr("Every training run of this session appears here. Train one to start."))
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        self.show_button = QPushButton(self.tr("Show"))
        self.show_button.setToolTip(self.tr("Make this run's tokenizer the one every panel shows"))
        self.compare_button = QPushButton(self.tr("Compare"))
        self.compare_button.setToolTip(self.tr("Add this run as a column of the Compare panel"))
        self.rename_button = QPushButton(self.tr("Rename"))
        self.rename_button.setToolTip(self.tr("Rename the run (F2)"))
        self.save_button = QPushButton(self.tr("Save…"))
        self.save_button.setToolTip(self.tr("Save this run's tokenizer, uncut, in any format"))
        self.discard_button = QPushButton(self.tr("Discard"))
        self.discard_button.setToolTip(self.tr("Forget this run (Delete)"))
        self.show_button.clicked.connect(self.show_selected)
        self.compare_button.clicked.connect(lambda: self._emit_for_selected(self.compare_requested))
        self.rename_button.clicked.connect(self.rename_selected)
        self.save_button.clicked.connect(lambda: self._emit_for_selected(self.save_requested))
        self.discard_button.clicked.connect(self.discard_selected)
        # right-click a run: the same five actions (a desktop table's habit)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for button in self._buttons():
            action = QAction(button.text(), self.view)
            action.triggered.connect(button.click)
            button.setProperty("menu_action", action)
            self.view.addAction(action)
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.view)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.discard_selected)

        buttons = QHBoxLayout()
        for b in self._buttons():
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.hint)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        # how much of the disk the runs kept between launches may take (oldest dropped first)
        keep_row = QHBoxLayout()
        self.keep_label = QLabel(self.tr("Keep runs between launches up to"))
        self.keep_box = QSpinBox()
        self.keep_box.setObjectName("keepRunsMb")
        self.keep_box.setRange(0, 100_000)
        self.keep_box.setSingleStep(50)
        self.keep_box.setSuffix(self.tr(" MB"))
        self.keep_box.setValue(DEFAULT_KEEP_MB)
        self.keep_box.setToolTip(
            self.tr(
                "Every run comes back after quitting and launching again, as long as all of them fit "
                "in this size on disk; the oldest are dropped first (0: keep only the shown run)"
            )
        )
        self.keep_label.setBuddy(self.keep_box)
        keep_row.addWidget(self.keep_label)
        keep_row.addWidget(self.keep_box)
        keep_row.addStretch(1)
        layout.addLayout(keep_row)

        # the columns are fitted once Qt has sized the figures' columns to their contents
        self._fit_timer = QTimer(self, singleShot=True, interval=0)
        self._fit_timer.timeout.connect(self._fit_columns)
        header.sectionResized.connect(
            lambda column, *_: self._fit_timer.start() if 1 <= column <= 5 else None
        )
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.model.modelReset.connect(self._after_reset)
        self._selected_run: Run | None = None
        self._shown_before: Run | None = None  # the shown run at the last reset
        self._update_buttons()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_timer.start()

    def _fit_columns(self) -> None:
        """In a narrow tab (the Runs dock of a 1280-wide window) the Corpus and Options columns give
        way, so the figures and the time are in view without a horizontal scroll: both are in the
        row's tooltip, and what sets a run apart is under its name."""
        header = self.view.horizontalHeader()
        view = self.view
        figures = sum(header.sectionSize(c) for c in range(1, 6))  # sized to their contents
        wanted_extra = 120 + 160  # the Corpus and Options columns' useful least
        room = view.viewport().width()
        narrow = header.sectionSize(0) + figures + wanted_extra > room
        for column in (RunsModel.CORPUS, RunsModel.OPTIONS):
            header.setSectionHidden(column, narrow)
        header.setStretchLastSection(not narrow)
        if narrow:  # the Name column takes what the figures leave (its text wraps)
            header.resizeSection(0, max(120, room - figures - 2))

    # -- selection ---------------------------------------------------------------------------
    def selected_run(self) -> Run | None:
        rows = self.view.selectionModel().selectedRows()
        return self.model.run_at(rows[0].row()) if rows else None

    def select(self, run: Run) -> None:
        if run in self.state.runs:
            self.view.selectRow(self.state.runs.index(run))

    def _after_reset(self) -> None:
        # a reset drops the selection: keep the run that was selected (or the newest one), unless
        # another run came to be shown (trained, restored): the selection goes to it, so the
        # highlighted row and the ● agree
        runs = self.state.runs
        shown = self.state.shown_run
        keep = self._selected_run if self._selected_run in runs else (runs[-1] if runs else None)
        if shown is not None and shown is not self._shown_before and shown in runs:
            keep = shown
        self._shown_before = shown
        if keep is not None:
            self.select(keep)
        self.hint.setVisible(not runs)
        self._update_buttons()
        # the Name column grows to its longest name (bold when shown), up to a cap, never
        # shrinking what the user chose: at 160 px "Run 4: WordPiece 6,000" lost its algorithm
        header = self.view.horizontalHeader()
        wanted = min(self.view.sizeHintForColumn(0), NAME_MAX_WIDTH)
        if wanted > header.sectionSize(0):
            header.resizeSection(0, wanted)
        self._fit_timer.start()

    def _buttons(self) -> list[QPushButton]:
        return [
            self.show_button,
            self.compare_button,
            self.rename_button,
            self.save_button,
            self.discard_button,
        ]

    def _update_buttons(self) -> None:
        run = self.selected_run()
        if run is not None or not self.state.runs:
            self._selected_run = run
        for b in (self.compare_button, self.rename_button, self.save_button, self.discard_button):
            b.setEnabled(run is not None)
        self.show_button.setEnabled(run is not None and run is not self.state.shown_run)
        for b in self._buttons():
            action = b.property("menu_action")
            if action is not None:
                action.setEnabled(b.isEnabled())

    # -- actions -----------------------------------------------------------------------------
    def show_selected(self) -> None:
        run = self.selected_run()
        if run is not None:
            self.state.show_run(run)

    def rename_selected(self) -> None:
        rows = self.view.selectionModel().selectedRows()
        if rows:
            self.view.edit(self.model.index(rows[0].row(), 0))

    def discard_selected(self) -> None:
        run = self.selected_run()
        if run is not None:
            self._selected_run = None
            self.state.discard_run(run)

    def _emit_for_selected(self, signal) -> None:
        run = self.selected_run()
        if run is not None:
            signal.emit(run)
