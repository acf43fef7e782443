"""Panel 1, Corpus: count a text or word-count file off the GUI thread and show what it holds.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from PySide6.QtCore import QEventLoop
    >>> from subword_gui.state import AppState
    >>> folder = tempfile.TemporaryDirectory(); path = Path(folder.name) / "reviews.txt"
    >>> _ = path.write_text("hug pug pun\\nbun hugs hug\\n", encoding="utf-8")
    >>> state = AppState(); panel = CorpusPanel(state)
    >>> loop = QEventLoop(); _ = panel.loaded.connect(loop.quit), panel.failed.connect(loop.quit)
    >>> panel.open_text(str(path))       # returns at once: a worker process counts it
    >>> loop.exec()                      # ... panel.loaded fires (here about half a second)
    0
    >>> corpus = state.corpus            # the new CorpusCounts
    >>> corpus.lines, corpus.n_words, corpus.encoding, sorted(corpus.words.items())
    (2, 6, 'utf-8', [('bun', 1), ('hug', 2), ('hugs', 1), ('pug', 1), ('pun', 1)])
    >>> folder.cleanup()

Shows lines, characters, words, distinct words and characters, replaced bytes
and the encoding used (with a chooser: auto, utf-8, cp949, euc-kr); a word
table that sorts and searches 500 k rows without stalling (see
``models.WordFrequencyModel``); a character table; the first lines.

A failed or cancelled count changes nothing: the previous corpus stays loaded.
"""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from subword_gui.background import jobs
from subword_gui.background.beside import collector_paused
from subword_gui.background.workers import Job
from subword_gui.engine_text import localize, phase_label
from subword_gui.panels.item_models import CharTableModel, WordFrequencyModel
from subword_gui.panels.progress import ProgressRow
from subword_gui.style.theme import mono_font

ENCODINGS = ["auto", "utf-8", "cp949", "euc-kr"]
SEARCH_DELAY_MS = 150

FACTS = [
    ("lines", QT_TRANSLATE_NOOP("Labels", "Lines")),
    ("characters", QT_TRANSLATE_NOOP("Labels", "Characters")),
    ("n_words", QT_TRANSLATE_NOOP("Labels", "Words")),
    ("distinct_words", QT_TRANSLATE_NOOP("Labels", "Distinct words")),
    ("distinct_chars", QT_TRANSLATE_NOOP("Labels", "Distinct characters")),
    ("replaced_bytes", QT_TRANSLATE_NOOP("Labels", "Replaced bytes")),
    ("encoding", QT_TRANSLATE_NOOP("Labels", "Encoding")),
]


def _table(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setDefaultSectionSize(22)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.setWordWrap(False)
    return view


class CorpusPanel(QWidget):
    loaded = Signal(object)  # jobs.CorpusResult, after state.set_corpus
    failed = Signal(str, str)  # path, message
    busy_changed = Signal(bool)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.job: Job | None = None
        self.result: jobs.CorpusResult | None = None
        self._pending: tuple | None = None  # (kind, path) being counted
        self._create_widgets()
        self._layout()
        self._connect()

    # -- construction ------------------------------------------------------------------
    def _create_widgets(self) -> None:
        self.path_label = QLabel(self.tr("No corpus"))
        self.path_label.setObjectName("factValue")
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.encoding_box = QComboBox()
        self.encoding_box.addItems(ENCODINGS)
        self.encoding_box.setToolTip(self.tr("Text encoding of the corpus file (auto: UTF-8, else CP949)"))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop counting; the loaded corpus stays (Esc)"))
        self._busy_row = ProgressRow(cancel=self.cancel_button)
        self.progress = self._busy_row.bar
        self.progress_label = self._busy_row.label
        self.fact_labels: dict[str, QLabel] = {}
        for key, _ in FACTS:
            lab = QLabel("–")
            lab.setObjectName("factValue")
            lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.fact_labels[key] = lab

        self.word_model = WordFrequencyModel(self)
        self.word_view = _table(self.word_model)
        self.word_view.setSortingEnabled(True)
        self.word_view.horizontalHeader().setProperty("sortable", True)
        self.word_view.horizontalHeader().setSortIndicator(1, Qt.SortOrder.DescendingOrder)
        self.word_view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search words…"))
        self.search.setClearButtonEnabled(True)
        self.match_label = QLabel("")
        self.match_label.setObjectName("hint")

        self.char_model = CharTableModel(self)
        self.char_view = _table(self.char_model)
        self.char_view.setSortingEnabled(True)
        self.char_view.horizontalHeader().setProperty("sortable", True)
        self.char_view.sortByColumn(3, Qt.SortOrder.DescendingOrder)
        self.char_view.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)

        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.preview.setFont(mono_font())

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.path_label, 1)
        enc = QLabel(self.tr("Encoding"))
        enc.setObjectName("factName")
        top.addWidget(enc)
        top.addWidget(self.encoding_box)

        self._busy_row.setVisible(False)

        facts = QGridLayout()
        facts.setHorizontalSpacing(16)
        facts.setVerticalSpacing(4)
        for n, (key, title) in enumerate(FACTS):
            name = QLabel(QCoreApplication.translate("Labels", title))
            name.setObjectName("factName")
            r, c = divmod(n, 2)
            facts.addWidget(name, r, 2 * c)
            facts.addWidget(self.fact_labels[key], r, 2 * c + 1)
        facts.setColumnStretch(1, 1)
        facts.setColumnStretch(3, 1)

        words = QWidget()
        wl = QVBoxLayout(words)
        wl.setContentsMargins(0, 6, 0, 0)
        sr = QHBoxLayout()
        sr.addWidget(self.search, 1)
        sr.addWidget(self.match_label)
        wl.addLayout(sr)
        wl.addWidget(self.word_view)

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(words, self.tr("Words"))
        self.tabs.addTab(self.char_view, self.tr("Characters"))
        self.tabs.addTab(self.preview, self.tr("First lines"))

        root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 8)
        root.setSpacing(8)
        root.addLayout(top)
        root.addWidget(self._busy_row)
        root.addLayout(facts)
        root.addWidget(self.tabs, 1)

    def _connect(self) -> None:
        self.cancel_button.clicked.connect(self.cancel)
        self.search.textChanged.connect(lambda _: self._search_timer.start())
        self._search_timer.timeout.connect(self._apply_search)
        self.encoding_box.activated.connect(self._on_encoding_chosen)

    # -- actions -------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self.job is not None and self.job.running

    def open_text(self, path: str, encoding: str | None = None) -> None:
        """Count a text file off the GUI thread (the previous corpus stays until it succeeds)."""
        encoding = encoding or self.encoding_box.currentText()
        store = getattr(self.state, "counts_dir", None)
        self._start(("file", str(path), encoding), jobs.count_corpus_job, str(path), encoding, store)

    def open_word_counts(self, path: str) -> None:
        self._start(("counts", str(path)), jobs.load_counts_job, str(path))

    def open_lines(self, lines: list[str], name: str) -> None:
        """In-memory lines (a textbook example): counted at once, they are tiny."""
        from core.events import drain

        try:
            result = drain(jobs.counts_from_lines_job(list(lines), name))
        except Exception as exc:  # noqa: BLE001
            self.failed.emit(name, str(exc))
            return
        self._pending = ("lines", name, list(lines))
        self._on_finished(result)

    def cancel(self) -> None:
        if self.busy:
            self.job.cancel()

    def _start(self, pending: tuple, func, *args) -> None:
        if self.busy:
            self.job.kill()
        self._pending = pending
        self.job = Job(func, *args, parent=self)
        self.job.events.connect(self._on_events)
        self.job.finished.connect(self._on_finished)
        self.job.failed.connect(lambda msg: self._on_failed(pending[1], msg))
        self.job.cancelled.connect(self._on_cancelled)
        self._chunks: dict[str, list] = {}
        self.progress.setValue(0)
        self.progress_label.setText(self.tr("Reading {0}…").format(Path(pending[1]).name))
        self._busy_row.setVisible(True)
        self.busy_changed.emit(True)
        self.job.start()

    def _idle(self) -> None:
        self._busy_row.setVisible(False)
        self.busy_changed.emit(False)

    def _on_events(self, events: list) -> None:
        for e in events:
            if type(e).__name__ == "Chunk":
                if e.name == "pairs":  # grow the word dict slice by slice: no long stall at the end
                    self._chunks.setdefault("pairs", {}).update(e.items)
                    # and the table's two columns (~30 ms for half a million words, built at the end)
                    self._chunks.setdefault("words", []).extend([w for w, _ in e.items])
                    self._chunks.setdefault("frequencies", []).extend([n for _, n in e.items])
                else:
                    self._chunks[e.name] = e.items
        for e in reversed(events):
            if type(e).__name__ == "Progress":
                if e.total:
                    self.progress.setValue(int(1000 * e.done / e.total))
                label = phase_label(e.phase)
                name = Path(self._pending[1]).name if self._pending else ""
                # the file's name stays in view: the figures above are still the previous corpus's
                self.progress_label.setText(
                    self.tr("{0}: {1}… {2:.0%}").format(name, label, e.done / max(e.total, 1))
                    if e.phase == "count"
                    else self.tr("{0}: {1}…").format(name, label)
                )
                break
        for e in events:
            if type(e).__name__ == "Warning_":
                self.state.status_message.emit(localize(e.message))

    def _on_finished(self, result) -> None:
        # subtle: no collection inside: a young-generation pass here walked every object the
        # count's slices had just made (10-15 ms, in set_counts); they are frozen below
        with collector_paused():
            self._finish_loading(result)

    def _finish_loading(self, result) -> None:
        self._idle()
        pending = self._pending
        result.receive(getattr(self, "_chunks", {}))
        self._chunks = {}
        self.result = result
        counts = result.counts
        if pending[0] == "file":
            source = ("file", pending[1], counts.encoding or "utf-8")
        elif pending[0] == "counts":
            source = ("counts_file", pending[1])
        else:
            source = ("lines", pending[2])
        self.state.corpus_source = source
        self._show(result, pending[1])
        self.state.set_corpus(counts, pending[1])
        # subtle: the word list, the counts and the row orders (half a million entries each) are
        # new, so the next young-generation collection would walk them item by item (about
        # 10 ms each, on the window's thread); they live as long as the corpus: out of its sight
        gc.freeze()
        self.loaded.emit(result)

    def _on_failed(self, path: str, message: str) -> None:
        self._idle()
        self.failed.emit(path, message)

    def _on_cancelled(self) -> None:
        self._idle()
        self.state.status_message.emit(self.tr("Counting cancelled; the previous corpus is still loaded."))

    def _on_encoding_chosen(self, _index: int) -> None:
        src = getattr(self.state, "corpus_source", None)
        if src and src[0] == "file" and not self.busy:
            self.open_text(src[1], self.encoding_box.currentText())

    def _apply_search(self) -> None:
        self.word_model.set_filter(self.search.text().strip())
        self._update_match_label()

    def _update_match_label(self) -> None:
        n = self.word_model.matching_rows
        total = len(self.word_model.words)
        self.match_label.setText(
            self.tr("{0:,} of {1:,}").format(n, total)
            if self.search.text().strip()
            else self.tr("{0:,} words").format(total)
        )

    # -- display ---------------------------------------------------------------------------
    def _show(self, result, name: str) -> None:
        counts = result.counts
        self.path_label.setText(Path(name).name if name else self.tr("corpus"))
        self.path_label.setToolTip(str(name))
        for key, _ in FACTS:
            value = getattr(counts, key, None)
            if key == "encoding" and not value:
                value = "in memory"
            self.fact_labels[key].setText(f"{value:,}" if isinstance(value, int) else str(value))
        self.word_model.set_result(result)
        header = self.word_view.horizontalHeader()
        self.word_model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        self.word_model.set_filter(self.search.text().strip())
        self._update_match_label()
        self.char_model.set_counts(counts.chars)
        self.preview.setPlainText("\n".join(counts.preview))
