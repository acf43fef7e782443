"""The explorer's main window: dockable panels, menus, shortcuts, status bar, settings.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory(); path = f"{folder.name}/explorer.ini"
    >>> window = MainWindow(settings=QSettings(path, QSettings.Format.IniFormat), open_sample=False)
    >>> window.show()            # open_sample (the default): opens the last corpus or the bundled sample
    >>> [dock.windowTitle() for dock in window.findChildren(QDockWidget)]
    ['Corpus', 'Vocab size', 'Segmentation', 'Compare', 'Vocabulary', 'Runs', 'Training']
    >>> window.training_panel.origin_text()
    'Ready to train'
    >>> window.close()           # keeps the layout in the settings for the next launch
    True
    >>> QSettings(path, QSettings.Format.IniFormat).contains("window/geometry")
    True
    >>> folder.cleanup()

Panels are docks (restorable from QSettings): Corpus and Training (ours),
the vocab-size slider, and Segmentation, Vocabulary and Compare (hosted
here, built by their own modules, added only if those modules import).
Default layout: Corpus | Training | Compare tabs on the left; the slider,
Segmentation (most of the height) and Vocabulary on the right. A panel behind
a dock tab defers its work and catches up when its tab is selected.
Every error (corrupt file, wrong encoding, empty corpus) goes through
``report_error``: a message box naming the file and the problem, and a red note
in the status bar; nothing already loaded is replaced.
"""

from __future__ import annotations

import gc
import json
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from core.errors import SubwordError
from core.formats.registry import (
    format_for_name,
)
from subword_gui.background.analysers import after_analysers
from subword_gui.background.beside import run_beside
from subword_gui.engine_text import localize, localized_filter
from subword_gui.file_dialogs import SAVE_FILTERS, save_format_for, tokenizer_filter, widen_next_file_dialog
from subword_gui.language import localized
from subword_gui.panels.corpus import CorpusPanel
from subword_gui.panels.runs import RunsPanel
from subword_gui.panels.segmentation import SegmentationPanel
from subword_gui.panels.slider import VocabSizeSlider
from subword_gui.panels.training import ALGORITHM_LABELS, TrainingPanel
from subword_gui.panels.vocabulary import VocabularyPanel
from subword_gui.report import opening_notes
from subword_gui.resources import resource_path
from subword_gui.runs import (
    KEEP_SETTING,
    Run,
    default_run_name,
    forget_last_run,
    load_last_run,
    next_run_number,
    save_last_run,
    write_run_project,
)
from subword_gui.state import AppState
from subword_gui.status_bar import ElidedLabel, StatusBar, wrapped_tooltip
from subword_gui.style import theme

if TYPE_CHECKING:
    from subword_gui.panels.compare import ComparePanel

APP_NAME = "Subword Explorer"
SAMPLE_CORPUS = resource_path("sample", "sample-ko-en.txt")
EXAMPLES_FILE = resource_path("examples", "examples.json")
KOREAN_STUDY_VOCAB = 2000  # the sample has ~1,000 distinct characters: room for ~1,000 merges
ICON_FILE = resource_path("icons", "subword-explorer.svg")
SETTINGS_VERSION = 3  # 3: the text column on the left, the other panels as tabs on the right
TEXT_SHARE = 0.58  # of the window's width, for the text column of the default layout
MAX_RECENT = 8
DEFAULT_SIZE = (1400, 900)
LATE_PANELS_DELAY_MS = 150
# How long the window must have had no corpus opening before the compiled encoders load beside it
# (see MainWindow.load_engine_beside); a training starting loads them at once.
ENGINE_QUIET_MS = 1000

TOKENIZER_SUFFIXES = {".json", ".model", ".tiktoken", ".vocab", ".bpe"}
COUNTS_SUFFIXES = {".tsv", ".counts", ".wc"}
_COUNT_LINE = re.compile(r"^\S+\t[0-9]+$")

# Every format of core.formats.registry: one filter for all of them, then one per format.


def detect_kind(path: str | Path) -> str:
    """Guess what a dropped or command-line file is: "tokenizer", "counts" or "corpus".

    >>> detect_kind("tokenizer.json"), detect_kind("words.tsv")
    ('tokenizer', 'counts')
    """
    p = Path(path)
    if p.is_dir():
        return "tokenizer"
    named_as_tokenizer = p.suffix.lower() in TOKENIZER_SUFFIXES or format_for_name(p.name) is not None
    if named_as_tokenizer and not _plain_text_named_json(p):
        return "tokenizer"
    if p.suffix.lower() in COUNTS_SUFFIXES:
        return "counts"
    try:
        with open(p, "rb") as f:
            head = f.read(4096).decode("utf-8", errors="replace").splitlines()[:5]
    except OSError:
        return "corpus"
    lines = [line for line in head if line.strip()]
    if lines and all(_COUNT_LINE.match(line.rstrip("\r")) for line in lines):
        return "counts"
    try:
        from core.formats.tiktoken_ranks import looks_like_rank_file

        if looks_like_rank_file(p):
            return "tokenizer"
    except Exception:  # noqa: BLE001 - detection is a best guess
        pass
    return "corpus"


def _plain_text_named_json(p: Path) -> bool:
    """Whether a ``.json`` file is plainly not JSON (text whose first character is not ``{``
    or ``[``): a corpus saved under the wrong name opens as a corpus, not as a broken
    tokenizer. Any other name, or a file that cannot be read, is not judged here."""
    if p.suffix.lower() != ".json" or not p.is_file():
        return False
    try:
        with open(p, "rb") as f:
            head = f.read(4096).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    except OSError:
        return False
    return bool(head) and head[0] not in "{["


def first_size(available) -> tuple[int, int]:
    """The window's size on a first start: DEFAULT_SIZE, grown to 80 % of a large screen,
    never larger than the screen's free area (a 1280x800 laptop gets all of it).

    >>> from PySide6.QtCore import QSize
    >>> first_size(QSize(1280, 770)), first_size(QSize(1920, 1050))
    ((1280, 770), (1536, 900))
    """
    w = min(available.width(), max(DEFAULT_SIZE[0], int(available.width() * 0.8)))
    h = min(available.height(), max(DEFAULT_SIZE[1], int(available.height() * 0.8)))
    return w, h


def about_file(path: str | Path, problem: object) -> str:
    """An error message naming the file once: engine errors often name it already.

    >>> about_file("/c/a.txt", "/c/a.txt: unrecognised tokenizer file")
    '/c/a.txt: unrecognised tokenizer file'
    >>> about_file("/c/a.txt", "unrecognised tokenizer file")
    '/c/a.txt: unrecognised tokenizer file'
    """
    text = str(problem)
    if str(path) in text or (Path(path).name and Path(path).name in text):
        return text
    return f"{path}: {text}"


def _catch_up(dock: QDockWidget) -> None:
    panel = dock.widget()
    if panel is not None and hasattr(panel, "catch_up"):
        panel.catch_up()


class MainWindow(QMainWindow):
    error_reported = Signal(str, str)  # title, message
    run_restored = Signal(object)  # the Run of the last session, once it is back (None: there was none)
    _last_run_loaded = Signal(object)  # (Run, shown size) | None | Exception, from the loading thread

    def __init__(
        self,
        state: AppState | None = None,
        settings: QSettings | None = None,
        open_sample: bool = True,
        data_dir: str | Path | None = None,
        cache_dir: str | Path | None = None,
        restore_runs: bool | None = None,
    ):
        """``open_sample``: open the last corpus (else the bundled sample) once shown;
        ``restore_runs``: bring back the last session's runs (default: with ``open_sample``)."""
        super().__init__()
        self.state = state or AppState(self)
        self.settings = settings or QSettings("SubwordExplorer", "Subword Explorer")
        # where the last run is kept between sessions (a project folder; see subword_gui.runs)
        self.data_dir = Path(
            data_dir or QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        )
        # where counts of text files are kept between launches (see background.counts_store)
        self.cache_dir = Path(
            cache_dir or QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)
        )
        self.state.counts_dir = str(self.cache_dir / "counts")
        self.last_error: tuple[str, str] | None = None
        self.last_saved: tuple[str, str, list[str]] | None = None
        # The user's own training options while an example has set its own (None: no example open).
        # Settings keep these, not the example's, and a real corpus brings them back.
        self._options_before_example: dict | None = None
        self._save_target: tuple | None = None  # (path, format, tokenizer) of the last save: Ctrl+S
        self.guide = None  # the User guide window, made on first F1
        self._opened_tokenizer: tuple | None = None  # (Tokenizer, path) of the last opened file
        self.report_dialog = None  # subword_gui.report.ReportDialog: losses and notes, read whole
        self._reopen_with_pattern = None  # what choosing a split pattern in it does
        self._restore_pending = False  # the last session's run is being read
        self._corpus_to_remember: tuple | None = None  # (kind, path, in Recent files) until it loads
        self._restart_runs: (
            list | Exception
        ) = []  # the other runs kept by the last quit, read with the last run
        self._dropped_runs: list[str] = []  # names of the oldest runs the last quit could not keep
        self._runs_kept = False  # the other runs are written for the next launch (by a restart)
        self._kept: tuple | None = None  # (tokenizer, name, cut) the data dir holds: unchanged, not rewritten
        self._busy = {"training": False, "corpus": False}  # what Cancel (Esc) would stop
        self._engine_timer: QTimer | None = None  # counts the quiet time before the encoders load
        self._engine_loading = False  # the helper loading them has started
        self.setWindowTitle(APP_NAME)
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self._set_icon()
        self._create_panels()
        self._create_actions()
        self._create_menus()
        self._create_docks()
        self._create_status_bar()
        self._connect_state()
        self._read_settings()
        # subtle: the window's few hundred thousand long-lived objects would otherwise be
        # rescanned by every full garbage collection (100+ ms pauses while data streams in).
        gc.freeze()
        if open_sample:
            QTimer.singleShot(0, self.open_initial_corpus)
        if open_sample if restore_runs is None else restore_runs:
            # after the first paint: the last run is read on a thread and lands when ready
            QTimer.singleShot(LATE_PANELS_DELAY_MS, self.restore_last_run)

    # -- construction: the table of contents ----------------------------------------------------
    def _set_icon(self) -> None:
        if ICON_FILE.is_file():
            from PySide6.QtGui import QIcon

            self.setWindowIcon(QIcon(str(ICON_FILE)))

    def _create_panels(self) -> None:
        self.corpus_panel = CorpusPanel(self.state)
        self.training_panel = TrainingPanel(self.state)
        self.slider = VocabSizeSlider(self.state)
        self.segmentation_panel = SegmentationPanel(self.state)
        self.vocabulary_panel = VocabularyPanel(self.state)
        self.runs_panel = RunsPanel(self.state)
        # Compare imports pyqtgraph (slow): it is built right after the window first shows.
        self.compare_panel: ComparePanel | None = None
        self.korean_study = None  # panels.korean_study.KoreanStudy, made on first use
        self._compare_pending = True

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        return action

    def _create_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.open_corpus_action = self._action(
            self.tr("Open &corpus…"),
            self.open_corpus_dialog,
            K.Open,
            self.tr("Count a text file (UTF-8, CP949 or EUC-KR)"),
        )
        self.open_counts_action = self._action(
            self.tr("Open &word counts…"),
            self.open_counts_dialog,
            "Ctrl+Shift+W",
            self.tr("Open a word<TAB>count file"),
        )
        self.open_tokenizer_action = self._action(
            self.tr("Open &tokenizer…"),
            self.open_tokenizer_dialog,
            "Ctrl+Shift+O",
            self.tr("Open tokenizer.json, a SentencePiece model, vocab.json+merges.txt…"),
        )
        self.save_action = self._action(
            self.tr("&Save tokenizer"),
            self.save_tokenizer,
            K.Save,
            self.tr("Save the shown tokenizer again where it was last saved (else ask where)"),
        )
        self.save_tokenizer_action = self._action(
            self.tr("&Save tokenizer as…"),
            self.save_tokenizer_dialog,
            K.SaveAs,
            self.tr("Save the shown tokenizer (cut to the slider's size)"),
        )
        self.export_log_action = self._action(
            self.tr("&Export merge log…"),
            self.export_merge_log_dialog,
            "Ctrl+E",
            self.tr("Write the merge log as CSV or JSON lines"),
        )
        self.quit_action = self._action(self.tr("&Quit"), self.close, K.Quit)
        self.train_action = self._action(
            self.tr("&Train"), self.training_panel.train, "Ctrl+T", self.tr("Train on the loaded corpus")
        )
        self.step_action = self._action(
            self.tr("&Step one merge"),
            self.training_panel.step,
            "Ctrl+Shift+T",
            self.tr("Advance one merge at a time"),
        )
        self.cancel_action = self._action(
            self.tr("&Cancel"), self.cancel_work, "Esc", self.tr("Cancel counting or training (Esc)")
        )
        # Esc is also what closes popups and stops an edit: the action takes it only while
        # there is something to cancel (a disabled action leaves the key to the widget).
        self.cancel_action.setShortcuts([QKeySequence("Esc"), QKeySequence("Ctrl+.")])
        self.cancel_action.setEnabled(False)
        self.copy_tokens_action = self._action(
            self.tr("Copy &tokens"),
            lambda: self.copy_encoding("tokens"),
            "Ctrl+Shift+C",
            self.tr("Copy the tokens of the Segmentation text (a JSON list per line)"),
        )
        self.copy_ids_action = self._action(
            self.tr("Copy &ids"),
            lambda: self.copy_encoding("ids"),
            "Ctrl+Shift+I",
            self.tr("Copy the token ids of the Segmentation text (a JSON list per line)"),
        )
        # the usual Edit items, acting on whichever text field has the focus (the text box, the
        # vocabulary search, an option): a focused field takes their keys itself, so the menu
        # matters where the keys are not known, and for the mouse
        self.text_edit_actions = [
            self._action(text, lambda _=False, m=method: self._edit_focused(m), key)
            for text, method, key in (
                (self.tr("&Undo"), "undo", K.Undo),
                (self.tr("&Redo"), "redo", K.Redo),
                (self.tr("Cu&t"), "cut", K.Cut),
                (self.tr("&Copy"), "copy", K.Copy),
                (self.tr("&Paste"), "paste", K.Paste),
                (self.tr("Select &all"), "selectAll", K.SelectAll),
            )
        ]
        self.guide_action = self._action(
            self.tr("&User guide"), self.show_guide, K.HelpContents, self.tr("A short illustrated guide")
        )
        self.about_action = self._action(self.tr("&About Subword Explorer"), self.show_about)
        self.save_action.setEnabled(False)
        self.save_tokenizer_action.setEnabled(False)
        self.export_log_action.setEnabled(False)

    def _create_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        for a in (self.open_corpus_action, self.open_counts_action, self.open_tokenizer_action):
            file_menu.addAction(a)
        self.recent_menu = file_menu.addMenu(self.tr("&Recent files"))
        file_menu.addSeparator()
        file_menu.addAction(self.save_action)
        file_menu.addAction(self.save_tokenizer_action)
        file_menu.addAction(self.export_log_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        edit_menu = bar.addMenu(self.tr("&Edit"))
        for action in self.text_edit_actions:
            edit_menu.addAction(action)
            if action is self.text_edit_actions[1] or action is self.text_edit_actions[4]:
                edit_menu.addSeparator()
        edit_menu.addSeparator()
        edit_menu.addAction(self.copy_tokens_action)
        edit_menu.addAction(self.copy_ids_action)

        train_menu = bar.addMenu(self.tr("&Train"))
        for a in (self.train_action, self.step_action, self.cancel_action):
            train_menu.addAction(a)

        self.examples_menu = bar.addMenu(self.tr("E&xamples"))
        self._fill_examples_menu()
        self.view_menu = bar.addMenu(self.tr("&View"))
        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addAction(self.guide_action)
        help_menu.addAction(self.about_action)

    def _dock(self, name: str, title: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"{name}Dock")
        dock.setWidget(widget)
        # a dock's tab selected: its panel catches up on work it deferred (see state.on_screen)
        dock.visibilityChanged.connect(
            lambda shown, d=dock: shown and QTimer.singleShot(0, lambda: _catch_up(d))
        )
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(area, dock)
        self.docks[name] = dock
        return dock

    def _create_docks(self) -> None:
        """Default layout: the text first. On the left, most of the width, the vocab-size
        slider over Segmentation (the text, its tokens and the why view); on the right, one
        click away, the tabs Corpus | Training | Runs | Vocabulary | Compare, Training raised
        (a newcomer's next step). Proportions follow the window (``_fit_default_layout``)."""
        L, R = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.docks: dict[str, QDockWidget] = {}
        central = QWidget()
        central.setMaximumSize(0, 0)  # the docks are the window
        self.setCentralWidget(central)
        corpus = self._dock("corpus", self.tr("Corpus"), self.corpus_panel, R)
        training = self._dock("training", self.tr("Training"), self.training_panel, R)
        self.tabifyDockWidget(corpus, training)
        vocab = self._dock("vocab", self.tr("Vocab size"), self.slider, L)
        vocab.setFeatures(vocab.features() & ~QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        segmentation = self._dock("segmentation", self.tr("Segmentation"), self.segmentation_panel, L)
        placeholder = QLabel(self.tr("Loading…"))
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        compare = self._dock("compare", self.tr("Compare"), placeholder, R)
        vocabulary = self._dock("vocabulary", self.tr("Vocabulary"), self.vocabulary_panel, R)
        runs = self._dock("runs", self.tr("Runs"), self.runs_panel, R)
        self.tabifyDockWidget(training, runs)
        self.tabifyDockWidget(runs, vocabulary)
        self.tabifyDockWidget(vocabulary, compare)
        self.splitDockWidget(vocab, segmentation, Qt.Orientation.Vertical)
        # subtle: without a cap the slider's dock takes a share of the spare height.
        vocab.setMaximumHeight(self.slider.sizeHint().height() + 34)
        self._fit_default_layout(*DEFAULT_SIZE)
        training.raise_()
        for n, dock in enumerate(self.docks.values(), start=1):
            action = dock.toggleViewAction()
            action.setShortcut(QKeySequence(f"Alt+{n}"))
            self.view_menu.addAction(action)
        self.view_menu.addSeparator()
        self._create_theme_menu()
        self.view_menu.addAction(self._action(self.tr("Reset &layout"), self.reset_layout))
        self._create_language_menu()

    def _create_language_menu(self) -> None:
        """View › Language: system default, English, 한국어 (applies at the next start)."""
        from PySide6.QtGui import QActionGroup

        from subword_gui.language import LANGUAGES, SETTINGS_KEY

        self.language_menu = self.view_menu.addMenu(self.tr("&Language"))
        group = QActionGroup(self)
        current = str(self.settings.value(SETTINGS_KEY, "system") or "system")
        for code, name in [("system", self.tr("System default")), *LANGUAGES.items()]:
            action = self.language_menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(code == current)
            action.setData(code)
            group.addAction(action)
        group.triggered.connect(self.choose_language)

    def choose_language(self, action) -> None:
        """Save the chosen interface language; offer to restart so it applies."""

        from subword_gui.language import SETTINGS_KEY

        self.settings.setValue(SETTINGS_KEY, action.data())
        self.settings.sync()
        self.statusBar().showMessage(
            self.tr("The language changes when Subword Explorer starts again."), 8000
        )
        if self._ask_restart():
            self.restart()

    def _ask_restart(self) -> bool:
        from PySide6.QtWidgets import QMessageBox

        kept = len(self.other_runs())
        text = self.tr("The language changes when Subword Explorer starts again. Restart now?")
        if kept == 1:
            text += "\n\n" + self.tr("This session's other run comes back with it.")
        elif kept:
            text += "\n\n" + self.tr("This session's {0} other runs come back with it.").format(kept)
        answer = QMessageBox.question(
            self,
            self.tr("Language"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        return answer == QMessageBox.StandardButton.Yes

    def other_runs(self) -> list[Run]:
        """The session's runs besides the shown one (which :meth:`save_last_run` keeps): every
        quit keeps them for the next launch (:meth:`keep_runs_for_restart`), oldest first."""
        return [r for r in self.state.runs if r is not self.state.shown_run]

    def restart(self) -> None:
        """Close (which saves the settings, the shown run and the others) and start this program
        again; nothing happens if the runs could not be kept (:meth:`keep_runs_for_restart`)."""
        import sys

        from PySide6.QtCore import QProcess

        if not self.keep_runs_for_restart():
            return
        self._runs_kept = True
        if self.close():
            QProcess.startDetached(sys.executable, sys.argv)
        else:  # the window stays: what was kept for a new start must not come back at a later one
            from subword_gui.runs import forget_restart_runs

            self._runs_kept = False
            forget_restart_runs(self.data_dir)

    def keep_runs_for_restart(self) -> bool:
        """Write :meth:`other_runs` for the next launch to bring back, within the size set in the
        Runs panel (the oldest dropped first; the next launch says which); False (and a message)
        if they could not be written."""
        from subword_gui.runs import forget_restart_runs, save_restart_runs

        if self._restore_pending:  # the last session's runs are not in yet: they stay as kept
            return True
        others = self.other_runs()
        try:
            if not others:
                forget_restart_runs(self.data_dir)
                return True
            save_restart_runs(others, self.data_dir, self.runs_panel.keep_box.value() * 1_000_000)
        except (SubwordError, OSError, ValueError) as exc:
            self.report_error(
                self.tr("Restart"), self.tr("Could not keep this session's runs: {0}").format(exc)
            )
            return False
        return True

    def _fit_default_layout(self, width: int, height: int) -> None:
        """The text column takes TEXT_SHARE of the width (whatever the screen: 1280x800 up
        to 1920x1080 and beyond), the tabs the rest."""
        text_w = int(width * TEXT_SHARE)
        self.resizeDocks(
            [self.docks["segmentation"], self.docks["training"]],
            [text_w, width - text_w],
            Qt.Orientation.Horizontal,
        )

    def _create_theme_menu(self) -> None:
        """View › Theme: follow the system (the default), or light, or dark."""
        from PySide6.QtGui import QActionGroup

        menu = self.view_menu.addMenu(self.tr("&Theme"))
        group = QActionGroup(self)
        group.setExclusive(True)
        self.theme_actions: dict[str, QAction] = {}
        labels = {"system": self.tr("&System"), "light": self.tr("&Light"), "dark": self.tr("&Dark")}
        for choice in theme.THEMES:
            action = menu.addAction(labels[choice])
            action.setCheckable(True)
            action.setChecked(choice == theme.mode())
            group.addAction(action)
            action.triggered.connect(lambda _=False, c=choice: self.set_theme(c))
            self.theme_actions[choice] = action
        app = QApplication.instance()
        if app is not None:
            # the desktop switched light/dark: theme.apply_theme follows it; the plots and
            # painted views redraw once it has
            # (a bound method: the connection dies with the window)
            app.styleHints().colorSchemeChanged.connect(self._on_color_scheme)

    def _on_color_scheme(self, _scheme) -> None:
        if theme.mode() == "system":
            QTimer.singleShot(0, self.restyle)

    def set_theme(self, choice: str) -> None:
        """Switch to the "system", "light" or "dark" theme now, and remember it."""
        app = QApplication.instance()
        if app is None:
            return
        theme.apply_theme(app, choice)
        self.theme_actions[theme.mode()].setChecked(True)
        self.settings.setValue("view/theme", theme.mode())
        self.restyle()

    def restyle(self) -> None:
        """Views that paint with the theme's colours redraw in the new ones."""
        try:
            import pyqtgraph as pg
        except ImportError:
            pg = None
        if pg is not None:
            for plot in [*self.findChildren(pg.PlotWidget), *self.findChildren(pg.GraphicsLayoutWidget)]:
                theme.restyle_plot(plot)
        self.segmentation_panel.refresh()
        self.segmentation_panel.explain_at_cursor()
        for w in self.findChildren(QWidget):
            w.update()

    def _create_status_bar(self) -> None:
        # a long message or failure line is elided in the middle, its whole text the tooltip
        bar = StatusBar(self)
        self.setStatusBar(bar)
        self.corpus_fact = QLabel(self.tr("No corpus"))
        self.model_fact = QLabel(self.tr("No model"))
        self.error_label = ElidedLabel("")
        self.error_label.setObjectName("errorLabel")
        self.error_label.setVisible(False)
        bar.addWidget(self.error_label, 1)
        bar.addPermanentWidget(self.corpus_fact)
        bar.addPermanentWidget(self.model_fact)

    def _connect_state(self) -> None:
        s = self.state
        s.corpus_changed.connect(self._on_corpus)
        s.tokenizer_changed.connect(self._on_tokenizer)
        s.status_message.connect(lambda m: self.statusBar().showMessage(m, 8000))
        self.corpus_panel.failed.connect(self._on_corpus_failed)
        self.corpus_panel.loaded.connect(lambda _r: self.error_label.setVisible(False))
        self.corpus_panel.loaded.connect(lambda _r: self._remember_loaded_corpus())
        self.training_panel.training_failed.connect(
            lambda m: self.report_error(self.tr("Training failed"), m)
        )
        self.training_panel.training_started.connect(lambda: self.docks["training"].raise_())
        self.training_panel.training_finished.connect(self._keep_run)
        self._last_run_loaded.connect(self._on_last_run_loaded, Qt.ConnectionType.QueuedConnection)
        self.training_panel.busy_changed.connect(lambda busy: self._update_cancel("training", busy))
        self.corpus_panel.busy_changed.connect(lambda busy: self._update_cancel("corpus", busy))
        self.training_panel.curve_ready.connect(self._run_figures)
        self.runs_panel.compare_requested.connect(self.compare_run)
        self.runs_panel.save_requested.connect(self.save_run_dialog)

    # -- settings ------------------------------------------------------------------------------
    def _read_settings(self) -> None:
        s = self.settings
        self._default_state = self.saveState(SETTINGS_VERSION)
        chosen = s.value("view/theme")
        if isinstance(chosen, str) and chosen in theme.THEMES and chosen != theme.mode():
            app = QApplication.instance()
            if app is not None:
                theme.apply_theme(app, chosen)
                self.theme_actions[theme.mode()].setChecked(True)
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(*first_size(self.screen().availableGeometry().size()))
        dock_state = s.value("window/state")
        # the default layout is fitted to the window when it first shows, unless one was restored
        self._fit_on_show = not (
            isinstance(dock_state, QByteArray)
            and not dock_state.isEmpty()
            and self.restoreState(dock_state, SETTINGS_VERSION)
        )
        options = s.value("training/options")
        if isinstance(options, str) and options:
            try:
                self.training_panel.apply_options_dict(json.loads(options))
            except ValueError:
                pass
        text = s.value("segmentation/text")
        if isinstance(text, str) and text:
            self.segmentation_panel.set_text(text)
        keep_mb = s.value(KEEP_SETTING)
        if keep_mb is not None:
            try:
                self.runs_panel.keep_box.setValue(int(keep_mb))
            except (TypeError, ValueError):
                pass
        encoding = s.value("corpus/encoding")
        if isinstance(encoding, str) and self.corpus_panel.encoding_box.findText(encoding) >= 0:
            self.corpus_panel.encoding_box.setCurrentText(encoding)
        self._rebuild_recent_menu()

    def write_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState(SETTINGS_VERSION))
        options = self._options_before_example or self.training_panel.options_dict()
        s.setValue("training/options", json.dumps(options))
        s.setValue("corpus/encoding", self.corpus_panel.encoding_box.currentText())
        s.setValue("segmentation/text", self.segmentation_panel.text())
        s.setValue(KEEP_SETTING, self.runs_panel.keep_box.value())
        src = self.state.corpus_source
        real = self._options_before_example is None  # an example's corpus is not reopened
        if real and src and src[0] in ("file", "counts_file") and self.state.corpus_path:
            s.setValue(
                "corpus/last",
                json.dumps(["counts" if src[0] == "counts_file" else "corpus", self.state.corpus_path]),
            )
        s.sync()

    def reset_layout(self) -> None:
        self.restoreState(self._default_state, SETTINGS_VERSION)
        for dock in self.docks.values():
            dock.show()
        self._fit_default_layout(self.width(), self.height())
        self.docks["training"].raise_()

    def closeEvent(self, event) -> None:
        self.write_settings()
        self.save_last_run()
        if not self._runs_kept:  # (a restart kept them already)
            self.keep_runs_for_restart()
        self.training_panel.shutdown()
        if self.corpus_panel.job is not None and self.corpus_panel.job.running:
            self.corpus_panel.job.kill()
        if self.compare_panel is not None:
            self.compare_panel.report_card.shutdown()  # a report card still computing
        super().closeEvent(event)

    # -- recent files --------------------------------------------------------------------------
    def recent_files(self) -> list[tuple[str, str]]:
        raw = self.settings.value("recent/files")
        try:
            items = json.loads(raw) if isinstance(raw, str) else []
            return [(str(k), str(p)) for k, p in items][:MAX_RECENT]
        except (ValueError, TypeError):
            return []

    def _remember(self, kind: str, path: str) -> None:
        path = str(Path(path).resolve())
        items = [(k, p) for k, p in self.recent_files() if p != path]
        items.insert(0, (kind, path))
        self.settings.setValue("recent/files", json.dumps(items[:MAX_RECENT]))
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        items = self.recent_files()
        for n, (kind, path) in enumerate(items, start=1):
            action = self.recent_menu.addAction(self.tr("&{0} {1}  ({2})").format(n, Path(path).name, kind))
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, k=kind, p=path: self.open_path(p, k))
        self.recent_menu.setEnabled(bool(items))

    # -- examples -------------------------------------------------------------------------------
    def examples(self) -> list[dict]:
        try:
            data = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        items = data.get("examples", data) if isinstance(data, dict) else data
        return [e for e in items if isinstance(e, dict) and e.get("file")]

    def _fill_examples_menu(self) -> None:
        self.examples_menu.clear()
        items = self.examples()
        for ex in items:
            title = localized(ex, "title") or ex.get("name") or Path(ex["file"]).stem
            action = self.examples_menu.addAction(title)
            if ex.get("description"):
                action.setStatusTip(localized(ex, "description"))
            action.triggered.connect(lambda _=False, e=ex: self.load_example(e))
        if not items:
            self.examples_menu.addAction(self.tr("(no examples bundled)")).setEnabled(False)
        self.examples_menu.addSeparator()
        # the corpus the explorer opens on at first: one click back to it after trying others
        self.sample_corpus_action = self.examples_menu.addAction(
            self.tr("The bundled sample corpus ({0})").format(SAMPLE_CORPUS.name)
        )
        self.sample_corpus_action.setEnabled(SAMPLE_CORPUS.is_file())
        self.sample_corpus_action.triggered.connect(
            lambda _=False: self.open_path(str(SAMPLE_CORPUS), "corpus", remember=False)
        )
        self.korean_study_action = self.examples_menu.addAction(
            self.tr("Korean study: syllable, jamo and morpheme-aware BPE (sample corpus)")
        )
        self.korean_study_action.setStatusTip(
            self.tr("Train BPE three ways on the bundled Korean sample at one vocab size and compare them")
        )
        self.korean_study_action.triggered.connect(lambda _=False: self.open_korean_study())

    def open_korean_study(self, vocab_size: int = KOREAN_STUDY_VOCAB):
        """Examples › Korean study: three BPE pipelines on the bundled sample (see panels.korean_study)."""
        from subword_gui.panels.korean_study import KoreanStudy

        try:
            lines = SAMPLE_CORPUS.read_text(encoding="utf-8-sig").splitlines()
        except OSError as exc:
            self.report_error(self.tr("Korean study"), about_file(SAMPLE_CORPUS, exc))
            return None
        if self.korean_study is None:
            self.korean_study = KoreanStudy(self)
        self.korean_study.start(lines, vocab_size, SAMPLE_CORPUS.name)
        return self.korean_study

    def load_example(self, ex: dict) -> None:
        """Load a textbook example and set the training options it was worked with.

        The user's own options are kept aside (and are what settings save); opening a
        real corpus afterwards brings them back."""
        from core.options import TrainOptions

        if self._options_before_example is None:
            self._options_before_example = self.training_panel.options_dict()

        path = (EXAMPLES_FILE.parent / ex["file"]).resolve()
        try:
            options = TrainOptions(
                algorithm=ex.get("algorithm", "bpe"),
                vocab_size=int(ex.get("vocab_size", 100)),
                pre_tokenizer=ex.get("pre_tokenizer") or ex.get("pre-tokenizer"),
                normalizer=ex.get("normalizer"),
                special_tokens=ex.get("special_tokens"),
                end_of_word_suffix=ex.get("end_of_word_suffix"),
                continuing_subword_prefix=ex.get("continuing_subword_prefix"),
                min_frequency=int(ex.get("min_frequency", 0)),
                extra=dict(ex.get("extra") or {}),
            )
            self.training_panel.set_options(options)
        except (SubwordError, ValueError, TypeError) as exc:
            self.report_error(self.tr("Example"), self.tr("{0}: {1}").format(path.name, exc))
            return
        kind = ex.get("kind", "text")
        if kind == "counts":
            self.corpus_panel.open_word_counts(str(path))
        else:
            try:
                lines = path.read_text(encoding="utf-8-sig").splitlines()
            except OSError as exc:
                self.report_error(self.tr("Example"), about_file(path, exc))
                return
            self.corpus_panel.open_lines(lines, str(path))
        self.docks["training"].raise_()
        label = ALGORITHM_LABELS.get(options.algorithm, options.algorithm)
        self.statusBar().showMessage(
            self.tr(
                "The example set its own training options ({label}, {size} tokens); "
                "yours come back when you open a corpus"
            ).format(label=label, size=f"{options.vocab_size:,}"),
            12000,
        )

    # -- opening and saving --------------------------------------------------------------------------
    def open_initial_corpus(self) -> None:
        """The last corpus if it is still there, else the bundled sample."""
        raw = self.settings.value("corpus/last")
        try:
            kind, path = json.loads(raw) if isinstance(raw, str) else (None, None)
        except (ValueError, TypeError):
            kind, path = None, None
        if path and Path(path).is_file():
            self.open_path(path, "counts" if kind == "counts" else "corpus", remember=False)
        elif SAMPLE_CORPUS.is_file():
            self.corpus_panel.open_text(str(SAMPLE_CORPUS))

    def _ask_open(self, title: str, filters: str) -> str | None:
        shown = self.state.corpus_path
        own = shown and Path(shown).resolve() != SAMPLE_CORPUS.resolve()
        # the folder of the user's own corpus, else where they last opened something (not the
        # app's bundled resources)
        start = str(Path(shown).parent) if own else self._dialog_folder("dialogs/open_dir")
        widen_next_file_dialog()
        path, _ = QFileDialog.getOpenFileName(self, title, start, filters)
        if path:
            self.settings.setValue("dialogs/open_dir", str(Path(path).parent))
        return path or None

    def _dialog_folder(self, key: str) -> str:
        """Where a file dialog starts: the folder last used for it, else the user's Documents
        (or home) folder, never the process's working directory."""
        last = self.settings.value(key)
        if isinstance(last, str) and Path(last).is_dir():
            return last
        documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return documents if documents and Path(documents).is_dir() else str(Path.home())

    def _ask_save(self, title: str, name: str, filters: str) -> tuple[str, str]:
        widen_next_file_dialog()
        path, chosen = QFileDialog.getSaveFileName(
            self, title, str(Path(self._dialog_folder("dialogs/save_dir")) / name), filters
        )
        if path:
            self.settings.setValue("dialogs/save_dir", str(Path(path).parent))
        return path, chosen

    def open_corpus_dialog(self) -> None:
        path = self._ask_open(
            self.tr("Open corpus"), self.tr("Text files (*.txt *.text *.tsv *.csv);;All files (*)")
        )
        if path:
            self.open_path(path, "corpus")

    def open_counts_dialog(self) -> None:
        path = self._ask_open(
            self.tr("Open word counts"), self.tr("Word counts (*.tsv *.counts *.txt);;All files (*)")
        )
        if path:
            self.open_path(path, "counts")

    def open_tokenizer_dialog(self) -> None:
        path = self._ask_open(self.tr("Open tokenizer"), tokenizer_filter())
        if path:
            self.open_path(path, "tokenizer")

    def open_path(self, path: str, kind: str | None = None, remember: bool = True) -> None:
        """Open a corpus, word-count file or tokenizer (``kind`` None: detect it)."""
        p = Path(path)
        if not p.exists():
            self.report_error(self.tr("Cannot open"), self.tr("{0}: no such file or folder").format(path))
            return
        kind = kind or detect_kind(p)
        if kind == "tokenizer":
            self.open_tokenizer(str(p))
            return
        if p.is_dir():
            self.report_error(
                self.tr("Cannot open"), self.tr("{0} is a folder, not a corpus file").format(path)
            )
            return
        # remembered (Recent files, what a relaunch reopens) once it has loaded: a file refused
        # as binary or unreadable must not come back
        self._corpus_to_remember = (kind, str(p), remember)
        self._leave_example()
        if kind == "counts":
            self.corpus_panel.open_word_counts(str(p))
        else:
            self.corpus_panel.open_text(str(p))
        self.docks["corpus"].raise_()

    def _leave_example(self) -> None:
        """A real corpus replaces an example: the user's own training options come back."""
        if self._options_before_example is not None:
            options, self._options_before_example = self._options_before_example, None
            self.training_panel.apply_options_dict(options)
            self.statusBar().showMessage(
                self.tr("Training options are yours again (the example had set its own)"), 8000
            )

    def open_tokenizer(self, path: str, pattern: str | None = None, lowercase: bool | None = None) -> None:
        """Open a tokenizer file; ``pattern`` is a rank file's split pattern, ``lowercase`` a BERT
        vocab.txt's casing (else guessed; the report dialog offers the others)."""
        try:
            from core.formats.detect import open_tokenizer
        except ImportError:
            self.report_error(
                self.tr("Open tokenizer"),
                self.tr("Opening tokenizer files is not available in this build yet."),
            )
            return
        try:
            loaded = open_tokenizer(path, pattern=pattern, lowercase=lowercase)
        except (SubwordError, OSError, ValueError) as exc:
            self.report_error(self.tr("Cannot open tokenizer"), about_file(path, exc))
            return
        self._remember("tokenizer", path)
        self.error_label.setVisible(False)  # an earlier failure is stale once a file opens
        self.state.set_full_tokenizer(loaded.tokenizer, origin=str(path))
        self._opened_tokenizer = (loaded.tokenizer, path)  # kept for the next launch if still shown
        fmt = getattr(loaded, "format", "")
        note = self.tr("Opened {0} ({1})").format(Path(path).name, fmt)
        count = self.show_opening_report(loaded, path, pattern, self.open_tokenizer)
        if count:
            note = self.tr("{0}: {1}, shown in the dialog").format(note, count)
        self.statusBar().showMessage(note, 10000)

    def show_opening_report(self, loaded, path, pattern: str | None, opener) -> str:
        """The report dialog of a file just opened (here or in a Compare column), if the file
        leaves anything unsaid; choosing a split pattern or casing in it calls
        ``opener(path, pattern=…)`` or ``opener(path, lowercase=…)`` (``open_tokenizer`` or a
        column's ``load_file``). Returns "1 note"/"N notes", or "" when there was nothing to say."""
        fmt = getattr(loaded, "format", "")
        items, patterns, chosen = opening_notes(loaded, pattern)
        if not items:
            return ""
        # read whole in a dialog (the status bar's one line was elided in the middle)
        self._show_report(
            self.tr("Opened {0}").format(Path(path).name),
            self.tr("What {0} does not say, and what was assumed:").format(Path(path).name),
            items,
            patterns,
            chosen,
            reopen=_reopen_choice(opener, str(path), fmt),
            choice_label=self.tr("Casing:") if fmt == "bert" else None,
        )
        return self.tr("1 note") if len(items) == 1 else self.tr("{0} notes").format(len(items))

    def _show_report(
        self,
        title: str,
        heading: str,
        items: list[str],
        patterns=None,
        chosen=None,
        reopen=None,
        choice_label: str | None = None,
    ):
        """The report dialog (one, reused, not modal) with ``items`` read whole; ``reopen(name)``
        runs when a split pattern (or casing: ``choice_label``) is chosen in it."""
        from subword_gui.report import ReportDialog

        if self.report_dialog is None:
            self.report_dialog = ReportDialog(self)
            self.report_dialog.pattern_chosen.connect(lambda name: self._reopen_with(name))
        self._reopen_with_pattern = reopen
        self.report_dialog.show_report(title, heading, items, patterns, chosen, choice_label)

    def _reopen_with(self, name: str) -> None:
        if self._reopen_with_pattern is not None:
            self._reopen_with_pattern(name)

    def save_tokenizer_dialog(self) -> None:
        """File › Save tokenizer as…: the shown tokenizer (cut to the slider's size), any format."""
        tok = self.state.tokenizer
        if tok is None:
            self.report_error(
                self.tr("Save tokenizer"), self.tr("There is no tokenizer to save: train or open one first.")
            )
            return
        title = self.tr("Save tokenizer as")
        if self._save_dialog(tok, self.state.train_options, self._corpus_list(), title, self.state.shown_run):
            self._save_target = (self.last_saved[0], self.last_saved[1], tok)

    def _corpus_list(self) -> list[str]:
        run = self.state.shown_run
        if run is not None and run.corpus:
            return [run.corpus]
        return [self.state.corpus_path] if self.state.corpus_path else []

    def save_run_dialog(self, run: Run) -> None:
        """Runs › Save…: one run's whole (uncut) tokenizer, any format."""
        if self._save_dialog(
            run.tokenizer,
            run.options,
            [run.corpus] if run.corpus else [],
            self.tr("Save “{0}” as").format(run.name),
            run,
        ):
            run.saved_to = self.last_saved[0]
            self.state.runs_changed.emit()

    def _save_dialog(self, tok, options, corpus: list[str], title: str, run: Run | None = None) -> bool:
        filters = ";;".join(localized_filter(f) for f, _ in SAVE_FILTERS)
        path, chosen = self._ask_save(title, "tokenizer.json", filters)
        if not path:
            return False
        return self._write_tokenizer(tok, path, save_format_for(path, chosen), options, corpus, run)

    def _write_tokenizer(
        self, tok, path: str, fmt: str, options, corpus: list[str], run: Run | None = None
    ) -> bool:
        """Save ``tok``; a project folder of a whole run (``run``, not cut by the slider) keeps its
        merge log, why it stopped, its size and figures too, as a relaunch keeps the run."""
        try:
            from core.formats.detect import save_tokenizer
        except ImportError:
            self.report_error(
                self.tr("Save tokenizer"),
                self.tr("Saving tokenizer files is not available in this build yet."),
            )
            return False
        try:
            if fmt == "project" and run is not None and tok is run.tokenizer:
                write_run_project(run, Path(path))
                losses: list[str] = []
            else:
                record = None
                if fmt == "project" and options is not None:
                    from core.formats.project import TrainingRecord

                    record = TrainingRecord.from_run(corpus, options)
                losses = save_tokenizer(tok, path, fmt, record)
        except (SubwordError, OSError, ValueError) as exc:
            self.report_error(self.tr("Cannot save tokenizer"), about_file(path, exc))
            return False
        self.last_saved = (path, fmt, list(losses or []))
        self.error_label.setVisible(False)
        msg = self.tr("Saved {0} ({1})").format(Path(path).name, fmt)
        if losses:
            count = (
                self.tr("1 thing not kept")
                if len(losses) == 1
                else self.tr("{0} things not kept").format(len(losses))
            )
            msg = self.tr("{0} — {1}, listed in the dialog").format(msg, count)
            self._show_report(
                self.tr("Saved {0}").format(Path(path).name),
                self.tr("Saved {0} ({1}). The file does not keep:").format(Path(path).name, fmt),
                [localize(loss) for loss in losses],
            )
        self.statusBar().showMessage(msg, 15000)
        return True

    def export_merge_log_dialog(self) -> None:
        events = self.state.merge_events
        if not events:
            self.report_error(
                self.tr("Export merge log"),
                self.tr("There is no merge log: train a BPE or WordPiece model first."),
            )
            return
        try:
            from core.formats import merge_log
        except ImportError:
            self.report_error(
                self.tr("Export merge log"),
                self.tr("Exporting the merge log is not available in this build yet."),
            )
            return
        path, _ = self._ask_save(
            self.tr("Export merge log"), "merges.csv", self.tr("CSV (*.csv);;JSON lines (*.jsonl)")
        )
        if not path:
            return
        try:
            merge_log.save_merge_log(events, path)
        except (SubwordError, OSError, ValueError) as exc:
            self.report_error(self.tr("Cannot export merge log"), about_file(path, exc))
            return
        self.statusBar().showMessage(
            self.tr("Wrote {0:,} merges to {1}").format(len(events), Path(path).name), 10000
        )

    # -- runs ---------------------------------------------------------------------------------------
    def _keep_run(self, tok) -> None:
        """A training run finished: keep it in the Runs list, as the shown run; one that only
        repeats a run of the list (same options, same corpus, same vocabulary) shows that run
        again instead of adding a copy of it, and says so."""
        options = self.state.train_options
        facts = self.training_panel.last_run_facts
        counts = self.state.corpus
        same = self._same_run(tok, options, self.state.corpus_path or "", getattr(counts, "n_words", 0) or 0)
        if same is not None:
            self.state.show_run(same)
            self.statusBar().showMessage(
                self.tr(
                    "Same options, corpus and result as “{0}”: showing it again instead of adding a copy"
                ).format(same.name),
                12000,
            )
            return
        label = ALGORITHM_LABELS.get(options.algorithm, options.algorithm) if options else "?"
        template = self.tr("Run {0}: {1} {2}")
        default_name = (next_run_number([r.name for r in self.state.runs], template), label, tok.vocab_size)
        run = Run(
            id=0,
            name=default_run_name(*default_name, template),
            default_name=default_name,
            tokenizer=tok,
            options=options,
            corpus=self.state.corpus_path or "",
            corpus_words=getattr(counts, "n_words", 0) or 0,
            duration_s=float(facts.get("duration_s", 0.0)),
            stop_reason=facts.get("stop_reason"),
            merge_events=list(self.state.merge_events),
            round_events=list(self.state.round_events),
            figures={"on": facts["held_out_kind"]} if facts.get("held_out_kind") else {},
        )
        self.state.add_run(run, show=True)

    def _same_run(self, tok, options, corpus: str, corpus_words: int) -> Run | None:
        """The run of the list that ``tok`` repeats, if one does (trainings are deterministic)."""
        if options is None:
            return None
        vocab = None
        for run in reversed(self.state.runs):
            if run.options != options or run.corpus != corpus or run.corpus_words != corpus_words:
                continue
            if vocab is None:
                vocab = tok.get_vocab()
            if run.tokenizer.get_vocab() == vocab:
                return run
        return None

    def _run_figures(self, points: list) -> None:
        """The held-out curve of the newest run arrived: its last point is the run's final figures."""
        run = self.state.shown_run
        if not points or run is None or not self.state.runs or run is not self.state.runs[-1]:
            return
        last = max(points, key=lambda p: p.vocab_size)
        run.figures.update(tokens_per_word=last.tokens_per_word, chars_per_token=last.chars_per_token)
        run.curve = list(points)
        self.state.runs_changed.emit()

    def compare_run(self, run: Run) -> None:
        """Add ``run`` as a Compare column and bring Compare forward."""
        self.finish_startup()
        if self.compare_panel is not None:
            self.compare_panel.add_run_column(run)
            self.raise_panel("compare")

    def save_last_run(self) -> Path | None:
        """Keep the shown run, or the tokenizer file opened last if that is what is shown, and
        where the slider stands, for the next launch; None if there is no model.

        With nothing to keep (every run discarded) the kept one is forgotten too, unless the
        last session's run is still on its way in (quitting right after launch keeps it)."""
        run = self.state.shown_run
        opened = self._opened_tokenizer
        if run is None and opened is not None and opened[0] is self.state.full_tokenizer:
            run = Run(0, Path(opened[1]).name, opened[0], None, saved_to=opened[1])
        if run is None:
            if not self._restore_pending and (self._kept is not None or self.state.discarded_any):
                forget_last_run(self.data_dir)
                self._kept = None
            return None
        shown_size = self.state.vocab_size
        if self.training_panel.shows_step_preview():
            # the slider shows a stepped run's merges so far (a few tokens), not a cut of this model:
            # kept with it, the next launch showed the model cut to its alphabet
            shown_size = self.training_panel.size_shown_before_steps()
        kept = (run.tokenizer, run.name, shown_size)
        if self._kept == kept:  # what the data dir already holds (e.g. the run restored at launch)
            return None
        try:
            folder = save_last_run(run, self.data_dir, shown_size)
            self._kept = kept
            return folder
        except (SubwordError, OSError, ValueError) as exc:
            self.statusBar().showMessage(
                self.tr("Could not keep the run for the next launch: {0}").format(exc), 8000
            )
            return None

    def load_engine_beside(self) -> None:
        """Import the engine's compiled encoders on a helper thread, at a quiet moment.

        Not a doctest: the encoders load on a helper thread once the window has been quiet
        for ``ENGINE_QUIET_MS`` (a second), which an example would have to wait for::

            window.show(); window.load_engine_beside()   # the launcher; loads ~1 s later

        Without it the first text that needs them (a pasted paragraph: many new words go
        through numba's kernels at once) loaded them inside the event loop (0.4 s frozen,
        ``benchmarks/bench_gui_responsiveness.py --sample``). The launcher calls this; tests
        that build windows by the hundred do not pay for it.

        subtle: not at once. The helper holds the interpreter lock in pieces of up to 10-15 ms
        for ~0.5 s (numba's modules and cached kernels), and every call of the window's thread
        back into Python waits for it: turns that overlapped it ran 1.5-2.5x longer, and the
        opening's longest gaps were those of its first 0.2 s. So it waits until no corpus has
        been opening for ``ENGINE_QUIET_MS``, or until a training starts (the worker then
        counts for seconds while the window only shows progress). Typing needs none of it
        (a few new words are merged in Python: tests/gui/test_main_window.py)."""
        if self._engine_timer is not None or self._engine_loading:
            return
        timer = self._engine_timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(ENGINE_QUIET_MS)
        timer.timeout.connect(self._load_engine_now)
        self._engine_wait()

    def _engine_wait(self, started: str | None = None) -> None:
        """Count the quiet time afresh, stop counting while a corpus opens, or load at once
        when a training has ``started``."""
        timer = self._engine_timer
        if timer is None or self._engine_loading:
            return
        if started == "training":
            self._load_engine_now()
        elif self._busy["corpus"]:
            timer.stop()
        else:
            timer.start()

    def _load_engine_now(self) -> None:
        if self._engine_loading:
            return
        self._engine_loading = True
        if self._engine_timer is not None:
            self._engine_timer.stop()

        def load() -> None:
            from core.warmup import load_compiled_encoders
            from subword_gui.background.preload import preload_llvm

            preload_llvm()  # LLVM's 200 ms of start-up with the interpreter lock free
            load_compiled_encoders()
            # subtle: the first Tokenizer.encode of a new model imports the chunk planner; at
            # the landing that import was 10 ms of the window's turn (cProfile, 2026-11-24)
            import core.encode_chunks  # noqa: F401

        run_beside(load, name="load compiled encoders")

    def restore_last_run(self) -> None:
        """Bring back the run the last session showed, cut where its slider stood.

        The folder is read on a thread (a 32 k-token tokenizer.json takes a while to parse);
        ``run_restored`` fires when the run is in the Runs list. If the user trained or opened
        another model meanwhile, the restored run joins the list without replacing it."""

        def load() -> None:
            from subword_gui.runs import take_kept_runs

            try:
                result: object = load_last_run(self.data_dir)
            except (SubwordError, OSError, ValueError) as exc:
                result = exc
            try:  # the other runs of a session restarted for its language, if it was
                self._restart_runs, self._dropped_runs = take_kept_runs(self.data_dir)
            except (SubwordError, OSError, ValueError) as exc:
                self._restart_runs = exc
            self._last_run_loaded.emit(result)

        self._restore_pending = True
        threading.Thread(target=load, daemon=True, name="restore-last-run").start()

    def _on_last_run_loaded(self, result) -> None:
        # a morpheme-aware run waits for its analyser, which loads apart for a few seconds
        runs = [result[0]] if isinstance(result, tuple) else []
        if isinstance(self._restart_runs, list):
            runs += self._restart_runs
        after_analysers(
            [run.tokenizer for run in runs],
            lambda: self._restore_loaded(result),
            waiting=self.state.say_analysers_loading,
        )

    def _restore_loaded(self, result) -> None:
        self._restore_pending = False
        self.state.analysers_answered()  # (the run may not be shown: another model came first)
        others, self._restart_runs = self._restart_runs, []
        if isinstance(others, Exception):
            self.report_error(self.tr("Cannot restore the last run"), str(others))
        else:
            for run in others:  # back in the Runs list, in their order; the shown run comes last
                self._name_in_this_language(run)
                self.state.add_run(run, show=False)
        if isinstance(result, Exception):
            self.report_error(self.tr("Cannot restore the last run"), str(result))
            self.run_restored.emit(None)
            return
        if result is None:
            self._say_dropped_runs()
            self.run_restored.emit(None)
            return
        run, shown_size = result
        if run.restore_warning:
            self.report_error(self.tr("The last run is restored in part"), run.restore_warning)
        self._name_in_this_language(run)
        show = self.state.full_tokenizer is None
        if show:
            self._kept = (run.tokenizer, run.name, shown_size or run.vocab_size)
        self.state.add_run(run, show=show)
        if show and shown_size is not None and shown_size != run.vocab_size:
            self.slider.set_vocab_size(shown_size)
        self.statusBar().showMessage(
            self.tr("Restored the last session's tokenizer: {0}").format(run.name), 8000
        )
        self._say_dropped_runs()
        self.run_restored.emit(run)

    def _say_dropped_runs(self) -> None:
        """The last quit kept fewer runs than there were (the size set in the Runs panel): say which."""
        dropped, self._dropped_runs = self._dropped_runs, []
        if dropped:
            self.statusBar().showMessage(
                self.tr("Not kept since the last session, to stay within {0:,} MB (Runs panel): {1}").format(
                    self.runs_panel.keep_box.value(), ", ".join(dropped)
                ),
                20000,
            )
            self.runs_panel.hint.setText(
                self.tr("The oldest runs did not fit in the size kept between launches: {0}").format(
                    ", ".join(dropped)
                )
            )
            self.runs_panel.hint.setVisible(True)

    def _name_in_this_language(self, run: Run) -> None:
        """A restored run's default name in the interface's language ("Run 2: BPE 300" comes back
        as "실행 2: BPE 300" after View › Language › 한국어); a name the user gave stays."""
        if run.default_name is not None:
            run.name = default_run_name(*run.default_name, self.tr("Run {0}: {1} {2}"))

    def _update_cancel(self, what: str, busy: bool) -> None:
        self._busy[what] = busy
        self.cancel_action.setEnabled(any(self._busy.values()))
        self._engine_wait(what if busy else None)

    def copy_encoding(self, what: str) -> str:
        """Edit › Copy tokens / Copy ids: the Segmentation text's encoding on the clipboard,
        one JSON list per line (tokens as the vocabulary spells them). Returns what was copied.

        >>> from core.events import drain
        >>> from core.options import TrainOptions
        >>> from core.training import train_from_counts
        >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
        >>> window = MainWindow(open_sample=False)
        >>> window.state.set_full_tokenizer(drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13))))
        >>> window.segmentation_panel.set_text("hugs pug\\nbun")
        >>> window.copy_encoding("tokens")
        '["hug", "s", "pug"]\\n["b", "un"]'
        >>> window.copy_encoding("ids"), QApplication.clipboard().text()
        ('[10, 6, 12]\\n[1, 9]', '[10, 6, 12]\\n[1, 9]')
        """
        lines = self.segmentation_panel.lines()
        if self.state.tokenizer is None or not lines:
            self.statusBar().showMessage(self.tr("Nothing to copy: train or open a tokenizer first"), 5000)
            return ""
        rows = [list(getattr(line.encoding, what)) for line in lines]
        text = "\n".join(json.dumps(row, ensure_ascii=False) for row in rows)
        QApplication.clipboard().setText(text)
        n = sum(len(r) for r in rows)
        self.statusBar().showMessage(self.tr("Copied {n} {what}").format(n=f"{n:,}", what=what), 5000)
        return text

    def save_tokenizer(self) -> None:
        """File › Save (Ctrl+S): the shown tokenizer again where it was last saved, else Save as."""
        target = self._save_target
        if target is None or target[2] is not self.state.tokenizer:
            self.save_tokenizer_dialog()
            return
        path, fmt, _tok = target
        self._write_tokenizer(self.state.tokenizer, path, fmt, self.state.train_options, self._corpus_list())

    def show_guide(self, section: str | None = None):
        """Help › User guide (F1): the guide window (one, raised if already open)."""
        from subword_gui.guide import GuideDialog

        if self.guide is None:
            self.guide = GuideDialog(self)
        self.guide.show()
        self.guide.raise_()
        self.guide.activateWindow()
        if isinstance(section, str):
            self.guide.show_section(section)
        return self.guide

    def cancel_work(self) -> None:
        self.training_panel.cancel()
        self.corpus_panel.cancel()
        if self.korean_study is not None:
            self.korean_study.cancel()

    # -- errors and status ---------------------------------------------------------------------------
    def report_error(self, title: str, message: str) -> None:
        """Tell the user what went wrong (a message box and the status bar); change nothing else."""
        message = localize(message)  # the engine's English, in the interface's language
        self.last_error = (title, message)
        self.error_label.setText(self.tr("⚠ {0}").format(message))
        self.error_label.setToolTip(wrapped_tooltip(message))
        self.error_label.setVisible(True)
        self.error_reported.emit(title, message)
        self._show_message_box(title, message)

    def _show_message_box(self, title: str, message: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # window-modal, returns at once

    def _on_corpus_failed(self, path: str, message: str) -> None:
        self._corpus_to_remember = None
        self.report_error(self.tr("Cannot open corpus"), about_file(path, message))

    def _remember_loaded_corpus(self) -> None:
        if self._corpus_to_remember is None:
            return
        kind, path, recent = self._corpus_to_remember
        self._corpus_to_remember = None
        if self.state.corpus_path != path:  # another corpus (an example) landed meanwhile
            return
        if recent:
            self._remember(kind, path)
        # the corpus a relaunch reopens (an example opened later does not replace it)
        self.settings.setValue("corpus/last", json.dumps(["counts" if kind == "counts" else "corpus", path]))

    def _on_corpus(self, counts) -> None:
        name = Path(self.state.corpus_path).name if self.state.corpus_path else "corpus"
        self.corpus_fact.setText(
            self.tr("{0} · {1:,} lines · {2:,} words · {3:,} distinct").format(
                name, counts.lines, counts.n_words, counts.distinct_words
            )
        )
        self.setWindowTitle(self.tr("{0} — {1}").format(name, APP_NAME))

    def _on_tokenizer(self, tok) -> None:
        if tok is None:  # a stepped run was cancelled before any model existed
            self.model_fact.setText(self.tr("No model"))
            self.slider.show_stepping(None)
            return
        full = self.state.full_tokenizer
        opts = self.state.train_options
        algo = ALGORITHM_LABELS.get(opts.algorithm, opts.algorithm) if opts else type(tok.model).__name__
        text = self.tr("{0} · {1:,} tokens").format(algo, tok.vocab_size)
        stepping = self.training_panel.shows_step_preview()
        self.slider.show_stepping(tok.vocab_size if stepping else None)
        if stepping:  # the merges learned so far, not a cut of the (previous) full model
            text += self.tr(" (stepping)")
        elif full is not None and tok is not full:
            text += self.tr(" (cut from {0:,})").format(full.vocab_size)
        self.model_fact.setText(text)
        self.save_tokenizer_action.setEnabled(True)
        self.save_action.setEnabled(True)
        self.export_log_action.setEnabled(bool(self.state.merge_events))

    def _edit_focused(self, method: str) -> None:
        """Edit › Undo … Select all: the same on the focused text field (the text box if none)."""
        target = QApplication.focusWidget()
        if not callable(getattr(target, method, None)):
            target = self.segmentation_panel.editor
        getattr(target, method)()

    def show_about(self) -> None:
        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<h3>{APP_NAME}</h3><p>Train, inspect and compare subword tokenizers — BPE, byte-level BPE, "
            "WordPiece and Unigram — step by step, in Korean, English and Japanese.</p>"
            "<p>Drop a corpus or a tokenizer file on the window to open it.</p>",
        )

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_fit_on_show", False):
            self._fit_on_show = False
            self._fit_default_layout(self.width(), self.height())
        if self._compare_pending:
            QTimer.singleShot(LATE_PANELS_DELAY_MS, self.finish_startup)

    def finish_startup(self) -> None:
        """Build what was left for after the first paint (idempotent; tests and screenshots call it)."""
        if self._compare_pending:
            self._compare_pending = False
            theme.configure_plots()
            from subword_gui.panels.compare import ComparePanel  # pyqtgraph: imported after the first paint

            self.compare_panel = ComparePanel(self.state)
            # the text typed (or restored) before Compare existed: it follows it from the start
            self.compare_panel._segmentation_text(self.segmentation_panel.text())  # noqa: SLF001
            self.docks["compare"].setWidget(self.compare_panel)
        self.training_panel.ensure_plots()
        # subtle: pyqtgraph's modules and the plots are long-lived; unfrozen, the first full
        # collection walked them inside a corpus's opening (20 ms, --sample, 2026-11-24). The
        # encoders' helper froze them as a side effect while it loaded at once at start-up.
        gc.freeze()

    # -- panels -------------------------------------------------------------------------------------
    def raise_panel(self, name: str) -> bool:
        dock = self.docks.get(name.lower())
        if dock is None:
            return False
        dock.show()
        dock.raise_()
        return True

    # -- drag and drop ---------------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return


__all__ = ["MainWindow", "detect_kind", "theme"]


def _reopen_choice(opener, path: str, fmt: str):
    """What choosing in the report dialog does: ``opener`` opens ``path`` again with that casing
    (a BERT vocab.txt) or split pattern (a rank file)."""
    if fmt == "bert":
        return lambda name: opener(path, lowercase=name == "lowercase")
    return lambda name: opener(path, pattern=name)
