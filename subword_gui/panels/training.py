"""Panel 2, Training: options, Train / Step / Cancel, a live merge log and live plots.

    >>> from PySide6.QtCore import QEventLoop
    >>> from subword_gui.state import AppState
    >>> state = AppState(); state.corpus_source = ("lines", ["hug hug pug pun bun hugs"])   # as the Corpus panel sets it
    >>> panel = TrainingPanel(state); panel.set_options(TrainOptions("bpe", vocab_size=13))
    >>> panel.train()          # returns at once; panel.training_finished(tokenizer) fires later, then curve_ready
    >>> loop = QEventLoop(); _ = panel.job.ended.connect(loop.quit)
    >>> loop.exec()            # the window's event loop does this wait (here about half a second)
    0
    >>> state.full_tokenizer.model.merge_list(), panel.busy
    ([('u', 'g'), ('h', 'ug'), ('u', 'n'), ('b', 'un'), ('p', 'ug')], False)
    >>> [panel.merge_model.index(row, 3).data() for row in range(panel.merge_model.rowCount())]   # the merge log
    ['ug', 'hug', 'un', 'bun', 'pug']

How a run flows:
1. The corpus is counted under the chosen normalizer and pre-tokenizer (the worker
   caches them on disk per corpus and pipeline, so retraining at another size skips it), keeping
   one line in twenty out as held-out text.
2. The trainer runs in a worker process; its events arrive in batches every
   ~50 ms: the merge log appends them in one insert, the plots call ``setData``.
3. On success the tokenizer becomes ``state.full_tokenizer``; the same worker
   then measures tokens per word and characters per token on the held-out lines
   at ~10 vocab sizes (the model cut with ``truncated``) for the curve.
Cancel stops the worker and puts the previous run's log back: the previous
model was never replaced. Step starts a run that stops after every merge (or
Unigram round); each click lets one more through; Train then runs to the end.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import tempfile
import time

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QStyle,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.errors import ConfigError
from core.models.factory import TRAINERS
from core.normalizers import NORMALIZER_NAMES, normalizer_from_names
from core.options import (
    DEFAULT_PRE_TOKENIZER,
    DEFAULT_SPECIAL_TOKENS,
    PICKY_TAU,
    SENTENCEPIECE_ALGORITHMS,
    SENTENCEPIECE_EXTRAS,
    SUPERBPE_TRANSITION_PERCENT,
    TrainOptions,
    build_normalizer,
    build_pre_tokenizer,
)
from core.pre_tokenizers import PRE_TOKENIZER_NAMES, pre_tokenizer_from_name
from core.step_preview import step_preview
from subword_gui.background import jobs
from subword_gui.background.analysers import POLL_MS, loading_analysers
from subword_gui.background.workers import Job, next_turn
from subword_gui.engine_text import localize, phase_label
from subword_gui.panels.item_models import MERGE_LOG_WIDEST, MergeLogModel, UnigramRoundModel, log_marks
from subword_gui.panels.progress import ProgressRow, TrainingProgress, format_time_left
from subword_gui.panels.sentencepiece_options import SentencePieceOptions
from subword_gui.state import on_screen
from subword_gui.style import theme
from subword_gui.tokens.render import TokenStyle, style_for

ALGORITHM_LABELS = {
    "bpe": "BPE",
    "bytelevel-bpe": "Byte-level BPE",
    "picky-bpe": "PickyBPE",
    "superbpe": "SuperBPE",
    "wordpiece": "WordPiece",
    "unigram": "Unigram",
    "sentencepiece-bpe": "SentencePiece BPE",
    "sentencepiece-unigram": "SentencePiece Unigram",
}
NORMALIZER_CHOICES = ["none", "nfc", "nfkc", "nfkc,lowercase", "nfd", "lowercase", "jamo", "nfkc,jamo"]
# What the less obvious choices do (tooltips of the boxes' items).
CHOICE_TIPS = {
    "jamo": "Hangul syllables to jamo (자모): BPE learns over ~70 letters instead of thousands of syllables",
    "nfkc,jamo": "NFKC first (ㅋ and full-width forms), then Hangul syllables to jamo",
    "ko-morph": "Korean morphemes (kiwipiepy) cut each word first: no token crosses a morpheme "
    "(Park et al. 2020); ▁ marks word starts as metaspace does",
    "ja-morph": "Japanese morphemes (SudachiPy, core dictionary) cut the text first; ▁ marks spaces",
}
MAX_VOCAB = 1_000_000
PLOTS_DELAY_MS = 150
CUT_FOLLOW_MS = 40  # the log and plots follow a slider move this long after (as the Vocabulary)
# The merge plot re-plots every point it has (tens of thousands); redrawing it on each
# ~50 ms flush of the merge log cost the event loop more than the log itself.
PLOT_REDRAW_S = 0.25


def available_algorithms() -> list[str]:
    """Algorithms whose trainer module exists in this checkout."""
    out = []
    for name, target in TRAINERS.items():
        module = target.split(":")[0]
        try:
            if importlib.util.find_spec(module) is not None:
                out.append(name)
        except (ImportError, ValueError):
            pass
    return out


def whole_number_ticks(levels: list) -> list:
    """Keep only whole-number ticks (merge steps, EM rounds and vocab sizes have no halves):
    ``levels`` is pyqtgraph's ``[(spacing, [values])]``, major level first.

    >>> whole_number_ticks([(1.0, [1.0, 2.0, 3.0]), (0.5, [1.5, 2.5])])
    [(1.0, [1.0, 2.0, 3.0])]
    >>> whole_number_ticks([(0.5, [0.5, 1.0, 1.5])])
    [(1.0, [1.0])]
    """
    out = []
    for spacing, values in levels:
        whole = [v for v in values if float(v).is_integer()]
        if spacing >= 1 and whole:
            out.append((spacing, whole))
    if not out:  # a span under one: the whole numbers in it, one apart
        whole = sorted({v for _, values in levels for v in values if float(v).is_integer()})
        out = [(1.0, whole)] if whole else []
    return out


def _whole_number_axis(orientation: str):
    import pyqtgraph as pg

    class WholeNumberAxis(pg.AxisItem):
        def tickValues(self, minVal, maxVal, size):  # noqa: N802, N803 - pyqtgraph's names
            return whole_number_ticks(super().tickValues(minVal, maxVal, size))

    return WholeNumberAxis(orientation)


def _decade_axis(orientation: str):
    """An axis whose log scale labels only the decades (1, 10, 100 …): pyqtgraph also labels
    the 2·10¹ … 9·10¹ between them when a plot spans few decades, which in a plot 150 px
    tall piled up on top of each other (the first merges of an Example). Linear: unchanged."""
    import pyqtgraph as pg

    class DecadeAxis(pg.AxisItem):
        def tickValues(self, minVal, maxVal, size):  # noqa: N802, N803 - pyqtgraph's names
            levels = super().tickValues(minVal, maxVal, size)
            if not self.logMode or any(s is not None and s >= 1.0 for s, _ in levels):
                return levels
            # subtle: a span of about one decade (counts 20, 16, 15) gets only pyqtgraph's dense
            # minor level, which it leaves unlabelled, decades included: the decades come first
            decades = [float(v) for v in range(math.ceil(minVal), math.floor(maxVal) + 1)]
            if not decades:
                return levels
            rest = [(s, [v for v in vals if not float(v).is_integer()]) for s, vals in levels]
            return [(1.0, decades)] + rest

        def logTickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
            labels = super().logTickStrings(values, scale, spacing)
            return [text if float(v).is_integer() else "" for v, text in zip(values, labels)]

    return DecadeAxis(orientation)


def _plot(title: str, left: str, bottom: str):
    import pyqtgraph as pg

    w = pg.PlotWidget(axisItems={"bottom": _whole_number_axis("bottom"), "left": _decade_axis("left")})
    w.setTitle(title, color=theme.current().text, size="10pt")
    w.setLabel("left", left)
    w.setLabel("bottom", bottom)
    w.showGrid(x=True, y=True, alpha=0.15)
    w.setMenuEnabled(False)
    for name in ("left", "bottom", "right"):
        # subtle: one point (the Unigram seed) made pyqtgraph zoom to ±0.4 and label the
        # axis "round (x0.001)"; plain numbers always
        w.getAxis(name).enableAutoSIPrefix(False)
    _fit(w, has_data=False)
    w.setMinimumHeight(150)
    return w


# What an empty plot shows (x range, y range; log10 for the merge plot): a few plain
# ticks instead of pyqtgraph's default of crowded fractions.
EMPTY_RANGE = ((0.0, 100.0), (0.0, 3.0))


def _fit(plot, has_data: bool, min_x_span: float = 0.0) -> None:
    """Autorange a plot with data (at least ``min_x_span`` wide, so a lone point is not
    zoomed in on); an empty one shows EMPTY_RANGE."""
    if has_data:
        plot.enableAutoRange()
        if min_x_span:
            lo, hi = plot.getViewBox().childrenBounds()[0] or (0.0, 0.0)
            if hi - lo < min_x_span:
                plot.setXRange(lo, lo + min_x_span, padding=0.05)
    else:
        plot.setXRange(*EMPTY_RANGE[0], padding=0)
        plot.setYRange(*EMPTY_RANGE[1], padding=0)


def _live_range(shown, steps: list, heights: list, last_step_hint: int, log_y: bool):
    """The (x, y) view range of the merge plot while a run is training: ``shown`` (the range
    set before) as long as the data stays inside it, else one with room to grow: x to the
    step the target vocab size should be reached at, y to whole decades down to a count of 1
    (log scale) or a tenth of the span either side. Keeping the range keeps pyqtgraph from
    re-laying out and re-drawing both axes on every redraw (50-100 ms a time on a busy machine).

    >>> _live_range(None, [1, 2], [900.0, 40.0], 100, log_y=True)
    ((0.0, 100.0), (0.0, 3.0))
    >>> _live_range(((0.0, 100.0), (0.0, 3.0)), [1, 2, 3], [900.0, 40.0, 12.0], 100, log_y=True)
    ((0.0, 100.0), (0.0, 3.0))
    """
    x_max = steps[-1]
    y_lo, y_hi = min(heights), max(heights)
    if log_y:
        lo, hi = math.log10(max(y_lo, 1e-9)), math.log10(max(y_hi, 1e-9))
    else:
        lo, hi = y_lo, y_hi
    if shown is not None:
        (x0, x1), (y0, y1) = shown
        # subtle: strictly inside on x: a step on the right edge (stepping's second click)
        # drew its point on the frame with no tick under it
        if x_max < x1 and y0 <= lo and hi <= y1:
            return shown
    x_end = float(max(last_step_hint, x_max + max(1, x_max // 2)))
    if log_y:
        # counts fall as merging goes on, towards the minimum frequency: room down to a count of 1
        bottom = min(0, math.floor(lo))
        y_range = (float(bottom), float(max(math.ceil(hi), bottom + 1)))
    else:
        pad = (hi - lo) / 10 or abs(hi) / 10 or 1.0
        y_range = (lo - pad, hi + pad)
    return (0.0, x_end), y_range


def decade_span(heights: list[float]) -> tuple[float, float]:
    """The log10 range of whole decades around ``heights`` (at least one decade).

    >>> decade_span([20.0, 16.0, 15.0]), decade_span([90_000.0, 180.0])
    ((1.0, 2.0), (2.0, 5.0))
    """
    lo = math.floor(math.log10(max(min(heights), 1e-9)))
    hi = math.ceil(math.log10(max(max(heights), 1e-9)))
    return float(lo), float(max(hi, lo + 1))


def _round_position(event, earlier: list[float]) -> float:
    """Where a UnigramRound sits on the plot's x axis: EM rounds at their number (as the
    table numbers them), the seed at 0, prune and final steps half a round after the EM
    round before them.

    >>> from core.events import UnigramRound
    >>> _round_position(UnigramRound("prune", 1, 3697, 9.0), [0.0, 1.0, 2.0])
    2.5
    """
    if event.phase == "em":
        return float(event.round)
    if event.phase == "seed" or not earlier:
        return 0.0
    last_em = max((x for x in earlier if x == int(x)), default=0.0)
    return last_em + 0.5


def _merge_height(e) -> float:
    """What the merge plot shows for one merge: the score that ranked it (the pair count for BPE,
    the likelihood score for WordPiece); kept above zero for the log scale."""
    value = e.score if e.score != e.count else e.count
    return value if value > 0 else 1e-9


def _count_kept(rows: list, k: int) -> int:
    """How many merge events have ``vocab_size <= k`` (sizes grow with the step: binary search).

    >>> from core.events import MergeEvent
    >>> _count_kept([MergeEvent(1, "a", "b", "ab", 3, 5, 3.0), MergeEvent(2, "ab", "c", "abc", 2, 6, 2.0)], 5)
    1
    """
    lo, hi = 0, len(rows)
    while lo < hi:
        mid = (lo + hi) // 2
        if rows[mid].vocab_size <= k:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _file_state(path) -> tuple | None:
    """What changes when a file's contents change: ``(device, inode, size, mtime_ns, ctime_ns)``."""
    try:
        st = os.stat(path)
    except OSError:
        return None  # counting will say why
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class _Plots:
    """The panel's pyqtgraph plots: merge counts (log y), Unigram loss and vocab size, the curve."""

    def __init__(self, pages: list[QWidget]):
        import pyqtgraph as pg

        theme.configure_plots()
        self.pg = pg
        dash = pg.mkPen(theme.PLOT_VERMILLION, style=Qt.PenStyle.DashLine)
        self.merge_plot = _plot(
            QCoreApplication.translate("TrainingPanel", "Pair count of each merge"),
            QCoreApplication.translate("TrainingPanel", "count"),
            QCoreApplication.translate("TrainingPanel", "merge step"),
        )
        self.merge_plot.setLogMode(x=False, y=True)
        self.merge_curve = self.merge_plot.plot(pen=pg.mkPen(theme.PLOT_BLUE, width=1.5))
        self.merge_curve.setDownsampling(auto=True, method="peak")
        self.merge_curve.setClipToView(True)
        self.merge_scored = False
        self.merge_cut_line = pg.InfiniteLine(angle=90, pen=dash)
        self.merge_cut_line.setVisible(False)
        self.merge_plot.addItem(self.merge_cut_line)

        self.unigram_plot = _plot(
            QCoreApplication.translate(
                "TrainingPanel",
                "Unigram per round: <span style='color:{0}'>● loss</span> (left) and <span style='color:{1}'>■ vocab size</span> (right)",
            ).format(theme.PLOT_BLUE, theme.PLOT_ORANGE),
            QCoreApplication.translate("TrainingPanel", "loss"),
            QCoreApplication.translate("TrainingPanel", "EM round (prune steps between)"),
        )
        self.loss_curve = self.unigram_plot.plot(
            pen=pg.mkPen(theme.PLOT_BLUE, width=2), symbol="o", symbolSize=5, name="loss"
        )
        # Vocab size on its own right-hand axis: a second ViewBox linked on x.
        self.vocab_box = pg.ViewBox()
        self.unigram_plot.showAxis("right")
        self.unigram_plot.scene().addItem(self.vocab_box)
        self.unigram_plot.getAxis("right").linkToView(self.vocab_box)
        self.unigram_plot.getAxis("right").setLabel(QCoreApplication.translate("TrainingPanel", "vocab size"))
        self.vocab_box.setXLink(self.unigram_plot)
        self.vocab_curve = pg.PlotDataItem(
            pen=pg.mkPen(theme.PLOT_ORANGE, width=2), symbol="s", symbolSize=5, name="vocab size"
        )
        self.vocab_box.addItem(self.vocab_curve)
        self.unigram_plot.getViewBox().sigResized.connect(self._sync_vocab_box)

        # Colour-keyed titles instead of legends: a legend box would sit on the curves.
        self.curve_plot = _plot(
            QCoreApplication.translate(
                "TrainingPanel",
                "Held-out text: <span style='color:{0}'>● tokens per word</span> and <span style='color:{1}'>▼ characters per token</span>",
            ).format(theme.PLOT_BLUE, theme.PLOT_GREEN),
            QCoreApplication.translate("TrainingPanel", "ratio"),
            QCoreApplication.translate("TrainingPanel", "vocab size"),
        )
        self.tpw_curve = self.curve_plot.plot(
            pen=pg.mkPen(theme.PLOT_BLUE, width=2), symbol="o", symbolSize=6, name="tokens per word"
        )
        self.cpt_curve = self.curve_plot.plot(
            pen=pg.mkPen(theme.PLOT_GREEN, width=2), symbol="t", symbolSize=6, name="characters per token"
        )
        self.curve_cut_line = pg.InfiniteLine(angle=90, pen=dash)
        self.curve_cut_line.setVisible(False)
        self.curve_plot.addItem(self.curve_cut_line)

        for page, plot in zip(pages, (self.merge_plot, self.unigram_plot, self.curve_plot)):
            page.layout().insertWidget(0, plot, 1)
        # The curve page had a stretch standing in for the plot.
        stretch = pages[2].layout().itemAt(1)
        if stretch is not None and stretch.spacerItem() is not None:
            pages[2].layout().removeItem(stretch)

    def _sync_vocab_box(self) -> None:
        self.vocab_box.setGeometry(self.unigram_plot.getViewBox().sceneBoundingRect())
        self.vocab_box.linkedViewChanged(self.unigram_plot.getViewBox(), self.vocab_box.XAxis)


class TrainingPanel(QWidget):
    training_started = Signal()
    training_finished = Signal(object)  # the full Tokenizer
    training_failed = Signal(str)
    training_cancelled = Signal()
    curve_ready = Signal(list)  # [jobs.CurvePoint]
    busy_changed = Signal(bool)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.job: Job | None = None
        self._phase = "idle"  # "training" | "curve" (the model is out, the curve is measured) | "idle"
        self._trained = None
        self._stopped = None
        self._cut = None
        self.held_out: list[str] = []
        self.held_out_kind = ""
        self._cache_dir: tempfile.TemporaryDirectory | None = None
        self.stepping = False
        self.last_run_facts: dict = {}
        self.curve: list = []
        self._options: TrainOptions | None = None
        self._alphabet = None  # the run's TrainingAlphabet (see _clear_run)
        self._extra: dict[str, dict] = {}
        self._merge_x: list[int] = []
        self._merge_y: list[int] = []
        self._shown_range = None  # the merge plot's range while a run trains (see _live_range)
        self._round_x: list[int] = []
        self._round_loss: list[float] = []
        self._round_vocab: list[int] = []
        self._follow_pending = False
        self._followed = None  # (tokenizer, run) the panel last described
        self._landed = None  # the tokenizer this panel's own last run handed to the others
        self._create_widgets()
        self._layout()
        self._connect()
        self._on_algorithm_changed()

    # -- construction -----------------------------------------------------------------------
    def _create_widgets(self) -> None:
        self.algorithm_box = QComboBox()
        for name in available_algorithms():
            self.algorithm_box.addItem(ALGORITHM_LABELS.get(name, name), name)
        self.normalizer_box = QComboBox()
        self.normalizer_box.setEditable(True)
        self.normalizer_box.addItems(NORMALIZER_CHOICES)
        self.normalizer_box.setToolTip(self.tr("Comma-separated: {0}").format(", ".join(NORMALIZER_NAMES)))
        self.pre_tokenizer_box = QComboBox()
        self.pre_tokenizer_box.addItems(list(PRE_TOKENIZER_NAMES))
        for box in (self.normalizer_box, self.pre_tokenizer_box):
            for i in range(box.count()):
                if box.itemText(i) in CHOICE_TIPS:
                    box.setItemData(i, CHOICE_TIPS[box.itemText(i)], Qt.ItemDataRole.ToolTipRole)
            # the one word among the names: "none" reads in the interface's language ("없음")
            box.setItemText(box.findText("none"), self._none_label())
        self.vocab_spin = QSpinBox()
        self.vocab_spin.setRange(1, MAX_VOCAB)
        self.vocab_spin.setValue(2000)
        self.vocab_spin.setGroupSeparatorShown(True)
        self.vocab_spin.setSingleStep(100)
        self.min_freq_spin = QSpinBox()
        self.min_freq_spin.setRange(0, 1_000_000)
        self.special_edit = QLineEdit()
        # the hint must fit the field at 1280x800; the whole rule is the tooltip
        self.special_edit.setPlaceholderText(self.tr("e.g. <unk>,<s>"))
        self.special_edit.setToolTip(
            self.tr("Special tokens, comma-separated (e.g. <unk>,<s>,</s>): each is added whole, never split")
        )
        self.prefix_edit = QLineEdit()
        self.prefix_edit.setPlaceholderText(self.tr("e.g. ##"))
        self.suffix_edit = QLineEdit()
        self.suffix_edit.setPlaceholderText(self.tr("e.g. </w>"))
        self.tau_spin = QDoubleSpinBox()  # PickyBPE's threshold (shown for that algorithm only)
        self.tau_spin.setRange(0.05, 1.0)
        self.tau_spin.setSingleStep(0.05)
        self.tau_spin.setValue(PICKY_TAU)
        self.tau_spin.setToolTip(
            self.tr(
                "PickyBPE removes a merged token once more than this share of its occurrences sit in "
                "one merge (intersection over self); 1 is plain BPE"
            )
        )
        self.transition_spin = QSpinBox()  # SuperBPE's transition point t, as a share of the vocabulary
        self.transition_spin.setRange(1, 100)
        self.transition_spin.setValue(SUPERBPE_TRANSITION_PERCENT)
        self.transition_spin.setSuffix(" %")
        self.transition_spin.setToolTip(
            self.tr(
                "SuperBPE learns ordinary subwords up to this share of the vocabulary (the transition "
                "point t), then superwords that cross spaces; 100 % is plain byte-level BPE"
            )
        )

        # spm_train's options, folded (shown for the SentencePiece algorithms only)
        self.sentencepiece_options = SentencePieceOptions()

        self.train_button = QPushButton(self.tr("Train"))
        self.train_button.setObjectName("primary")
        self.train_button.setToolTip(self.tr("Train on the loaded corpus (Ctrl+T)"))
        self.step_button = QPushButton(self.tr("Step"))
        self.step_button.setToolTip(self.tr("Advance one merge at a time (Ctrl+Shift+T)"))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop training; the previous model stays (Esc)"))
        self.cancel_button.setEnabled(False)
        # the run's overall progress across its phases, and the time left (see TrainingProgress)
        self.progress_row = ProgressRow()
        self.progress = self.progress_row.bar
        self.overall_label = self.progress_row.label
        self._overall: TrainingProgress | None = None
        # the time left moves on between events too (a long phase may send none for seconds)
        self._overall_timer = QTimer(self, interval=1000)
        self._overall_timer.timeout.connect(self._show_overall)
        self.status = QLabel(self.tr("Ready to train"))
        self.status.setObjectName("hint")
        # subtle: an unwrapped label is as wide as its longest message ("stopped early: …"), and
        # the dock then took that width from the text for good; wrapped, it takes the dock's
        self.status.setWordWrap(True)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        self.merge_model = MergeLogModel(self)
        self.merge_view = QTableView()
        self.merge_view.setModel(self.merge_model)
        self.round_model = UnigramRoundModel(self)
        self.round_view = QTableView()
        self.round_view.setModel(self.round_model)
        for view in (self.merge_view, self.round_view):
            view.setAlternatingRowColors(True)
            view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            view.verticalHeader().setVisible(False)
            view.verticalHeader().setDefaultSectionSize(22)
            view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
            view.setWordWrap(False)
        header = self.merge_view.horizontalHeader()
        # the new token takes the spare width: with Left, Right and it sharing it, a
        # 500-pixel tab clipped the header to "New toke"
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        # numbers must be read whole: a numeric column is as wide as its widest value (in this font)
        padding = 2 * self.merge_view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 12
        for col, width in ((0, 62), (1, 72), (2, 72), (4, 66), (5, 62), (6, 62)):
            widest = MERGE_LOG_WIDEST.get(col)
            if widest is not None:
                width = max(width, self.merge_view.fontMetrics().horizontalAdvance(widest) + padding)
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        self.round_view.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.follow_log = True

        self.plots = None  # _Plots, built on first need (pyqtgraph is slow to import)
        self._plot_pages = [QWidget(), QWidget(), QWidget()]
        for page in self._plot_pages:
            QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
        self.curve_label = QLabel("")
        self.curve_label.setObjectName("hint")
        # says when the corpus's characters alone fill the vocab size (a Japanese novel has
        # 3,000 of them: at the default 2,000 training learned nothing, and said so only after)
        self.room_hint = QLabel("")
        self.room_hint.setObjectName("errorLabel")
        self.room_hint.setWordWrap(True)
        self.room_hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.room_hint.hide()

    def _layout(self) -> None:
        form_left = QFormLayout()
        form_left.setVerticalSpacing(6)
        form_left.addRow(self.tr("Algorithm"), self.algorithm_box)
        form_left.addRow(self.tr("Normalizer"), self.normalizer_box)
        form_left.addRow(self.tr("Pre-tokenizer"), self.pre_tokenizer_box)
        form_left.addRow(self.tr("Special tokens"), self.special_edit)
        form_right = QFormLayout()
        form_right.setVerticalSpacing(6)
        form_right.addRow(self.tr("Vocab size"), self.vocab_spin)
        form_right.addRow(self.tr("Min. frequency"), self.min_freq_spin)
        form_right.addRow(self.tr("Subword prefix"), self.prefix_edit)
        form_right.addRow(self.tr("Word suffix"), self.suffix_edit)
        form_right.addRow(self.tr("PickyBPE τ"), self.tau_spin)
        form_right.addRow(self.tr("SuperBPE t"), self.transition_spin)
        self._form_right = form_right
        forms = QHBoxLayout()
        forms.setSpacing(18)
        forms.addLayout(form_left, 3)
        forms.addLayout(form_right, 2)

        buttons = QHBoxLayout()
        buttons.addWidget(self.train_button)
        buttons.addWidget(self.step_button)
        buttons.addWidget(self.cancel_button)
        buttons.addSpacing(8)
        buttons.addWidget(self.progress_row, 1)
        status = QVBoxLayout()
        status.addWidget(self.status)
        status.addWidget(self.room_hint)

        self.log_tabs = QTabWidget()
        self.log_tabs.setDocumentMode(True)
        self.log_tabs.addTab(self.merge_view, self.tr("Merge log"))
        self.log_tabs.addTab(self.round_view, self.tr("Unigram rounds"))

        self._plot_pages[2].layout().addStretch(1)
        self._plot_pages[2].layout().addWidget(self.curve_label)
        self.plot_tabs = QTabWidget()
        self.plot_tabs.setDocumentMode(True)
        for page, title in zip(
            self._plot_pages, (self.tr("Merge counts"), self.tr("Unigram"), self.tr("Held-out curve"))
        ):
            self.plot_tabs.addTab(page, title)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.log_tabs)
        split.addWidget(self.plot_tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([420, 260])
        split.setChildrenCollapsible(False)

        root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 8)
        root.setSpacing(8)
        root.addLayout(forms)
        root.addWidget(self.sentencepiece_options)
        root.addLayout(buttons)
        root.addLayout(status)
        root.addWidget(split, 1)

    def _connect(self) -> None:
        self.algorithm_box.currentIndexChanged.connect(self._on_algorithm_changed)
        self.algorithm_box.currentIndexChanged.connect(self._update_room_hint)
        self.vocab_spin.valueChanged.connect(self._update_room_hint)
        self.normalizer_box.currentTextChanged.connect(self._update_room_hint)
        self.state.corpus_changed.connect(self._update_room_hint)
        self.pre_tokenizer_box.currentTextChanged.connect(self._check_pre_tokenizer)
        self.train_button.clicked.connect(self.train)
        self.step_button.clicked.connect(self.step)
        self.cancel_button.clicked.connect(self.cancel)
        # subtle: a slider move greys the merge log and moves the plots' cut lines a moment after
        # the Segmentation repaints (latest size only): their repaint was a third of each move
        self._cut_next = None
        self._cut_timer = QTimer(self, singleShot=True, interval=CUT_FOLLOW_MS)
        self._cut_timer.timeout.connect(lambda: self._on_cut(self._cut_next))
        self.state.vocab_size_changed.connect(self._follow_cut)
        self.state.full_tokenizer_changed.connect(self._on_full_tokenizer)
        # a model shown without this panel training it (a run shown again, restored, from a file)
        self.state.full_tokenizer_changed.connect(self._schedule_follow)
        self.state.runs_changed.connect(self._schedule_follow)
        self.merge_view.verticalScrollBar().valueChanged.connect(self._on_log_scrolled)

    def _update_room_hint(self, *_) -> None:
        """Warn before training when the characters of the corpus the training will use alone
        reach the vocab size (BPE and WordPiece start from every character; byte-level from 256
        bytes, and Unigram keeps characters by coverage).

        That corpus is the one loaded (``state.corpus``, counted from ``state.corpus_source``)
        seen through the normalizer in the box: the training counts it under that normalizer, and
        jamo turns 3,217 Hangul syllables into ~70 letters. The hint names the file, so a warning
        is never read as being about another corpus."""
        corpus = getattr(self.state, "corpus", None)
        size = self.vocab_spin.value()
        if corpus is None or self.algorithm not in ("bpe", "wordpiece"):
            self.room_hint.hide()
            return
        normalizer = self._name_in(self.normalizer_box)
        n = self._distinct_characters(corpus, normalizer)
        if n is None or n < size:
            self.room_hint.hide()
            return
        suggestion = -(-(n + 1000) // 1000) * 1000
        path = getattr(self.state, "corpus_path", None)
        name = os.path.basename(path) if path else self.tr("This corpus")
        if normalizer in ("", "none"):
            text = self.tr(
                "⚠ {0} has {1:,} distinct characters: a vocab size of {2:,} leaves no room for "
                "merges. Try {3:,} or more."
            ).format(name, n, size, suggestion)
        else:
            text = self.tr(
                "⚠ {0} has {1:,} distinct characters under the {2} normalizer: a vocab size of {3:,} "
                "leaves no room for merges. Try {4:,} or more."
            ).format(name, n, normalizer, size, suggestion)
        self.room_hint.setText(text)
        self.room_hint.show()

    def _distinct_characters(self, corpus, normalizer: str) -> int | None:
        """How many distinct characters ``corpus`` has under ``normalizer`` (None: a name the
        engine does not know, said elsewhere). Each distinct character is normalized on its own
        (a few thousand calls), whitespace left out, kept per corpus and normalizer."""
        key = (id(corpus), normalizer)
        known = getattr(self, "_chars_known", None)
        if known is not None and known[0] == key and known[1] is corpus:
            return known[2]
        chars = getattr(corpus, "chars", None) or {}
        if not chars:  # (a corpus counted without its characters)
            n = getattr(corpus, "distinct_chars", 0)
        else:
            try:
                norm = normalizer_from_names(normalizer)
            except ConfigError:
                return None
            seen: set[str] = set()
            for c in chars:
                seen.update(norm.normalize_str(c) if norm is not None else c)
            # spaces separate words: no pre-tokenizer keeps them as letters of the alphabet
            n = sum(1 for c in seen if not c.isspace())
        self._chars_known = (key, corpus, n)
        return n

    # -- options ------------------------------------------------------------------------------
    def _none_label(self) -> str:
        return self.tr("none", "no normalizer or pre-tokenizer")

    def _name_in(self, box: QComboBox) -> str:
        """The engine's name a normalizer or pre-tokenizer box shows: "none" for its translation."""
        text = box.currentText().strip()
        return "none" if text == self._none_label() else text

    def _show_name(self, box: QComboBox, name: str) -> None:
        box.setCurrentText(self._none_label() if name == "none" else name)

    @property
    def algorithm(self) -> str:
        return self.algorithm_box.currentData() or "bpe"

    def _on_algorithm_changed(self, *_):
        algo = self.algorithm
        self._show_name(self.pre_tokenizer_box, DEFAULT_PRE_TOKENIZER.get(algo, "whitespace"))
        self.special_edit.setText(",".join(DEFAULT_SPECIAL_TOKENS.get(algo, [])))
        self.prefix_edit.setText("##" if algo == "wordpiece" else "")
        self._form_right.setRowVisible(self.tau_spin, algo == "picky-bpe")
        self._form_right.setRowVisible(self.transition_spin, algo == "superbpe")
        self.sentencepiece_options.setVisible(algo in SENTENCEPIECE_ALGORITHMS)
        unigram = algo in ("unigram", "sentencepiece-unigram")
        self.log_tabs.setCurrentIndex(1 if unigram else 0)
        self.plot_tabs.setCurrentIndex(1 if unigram else 0)

    def _check_pre_tokenizer(self, *_) -> None:
        """A morpheme analyser that is not installed is said at once, with the package to install."""
        try:
            pre_tokenizer_from_name(self._name_in(self.pre_tokenizer_box))
        except ConfigError as exc:
            self.status.setText(self.tr("⚠ {0}").format(localize(exc)))

    def options(self) -> TrainOptions:
        """The options the widgets describe (raises ConfigError for bad ones)."""
        specials = [t.strip() for t in self.special_edit.text().split(",") if t.strip()]
        normalizer = self._name_in(self.normalizer_box)
        options = TrainOptions(
            algorithm=self.algorithm,
            vocab_size=self.vocab_spin.value(),
            min_frequency=self.min_freq_spin.value(),
            special_tokens=specials,
            normalizer=None if normalizer in ("", "none") else normalizer,
            pre_tokenizer=self._name_in(self.pre_tokenizer_box),
            end_of_word_suffix=self.suffix_edit.text().strip() or None,
            continuing_subword_prefix=self.prefix_edit.text().strip() or None,
            extra=self._algorithm_extra(),
        )
        # a bad name or a missing analyser fails here, before a corpus is counted
        build_normalizer(options)
        build_pre_tokenizer(options)
        return options

    def _algorithm_extra(self) -> dict:
        extra = dict(self._extra.get(self.algorithm, {}))
        if self.algorithm == "picky-bpe":
            extra["tau"] = round(self.tau_spin.value(), 4)
        if self.algorithm == "superbpe":
            vocab, percent, kept = (
                self.vocab_spin.value(),
                self.transition_spin.value(),
                extra.get("transition"),
            )
            if not (isinstance(kept, int) and 0 < kept <= vocab and round(100 * kept / vocab) == percent):
                extra["transition"] = max(1, vocab * percent // 100)  # (a t set exactly elsewhere is kept)
        if self.algorithm in SENTENCEPIECE_ALGORITHMS:
            for key in SENTENCEPIECE_EXTRAS:
                extra.pop(key, None)
            extra.update(self.sentencepiece_options.extra())
        return extra

    def set_options(self, options: TrainOptions) -> None:
        i = self.algorithm_box.findData(options.algorithm)
        if i < 0:
            raise ConfigError(f"the {options.algorithm} trainer is not available in this build")
        self.algorithm_box.setCurrentIndex(i)
        self._on_algorithm_changed()
        self.vocab_spin.setValue(options.vocab_size)
        self.min_freq_spin.setValue(options.min_frequency)
        self._show_name(self.normalizer_box, options.normalizer or "none")
        self._show_name(
            self.pre_tokenizer_box, options.pre_tokenizer or DEFAULT_PRE_TOKENIZER[options.algorithm]
        )
        self.special_edit.setText(",".join(options.special_tokens or []))
        # WordPiece's continuing prefix defaults to "##": show what will be used.
        self.prefix_edit.setText(
            options.continuing_subword_prefix or ("##" if options.algorithm == "wordpiece" else "")
        )
        self.suffix_edit.setText(options.end_of_word_suffix or "")
        # Algorithm-specific settings (e.g. an example's {"textbook": True}) have no widget,
        # but PickyBPE's τ
        self._extra = {options.algorithm: dict(options.extra or {})}
        if options.algorithm == "picky-bpe":
            self.tau_spin.setValue(float((options.extra or {}).get("tau", PICKY_TAU)))
        if options.algorithm == "superbpe":
            t = (options.extra or {}).get("transition")
            percent = (
                SUPERBPE_TRANSITION_PERCENT if not isinstance(t, int) else round(100 * t / options.vocab_size)
            )
            self.transition_spin.setValue(min(100, max(1, percent)))
        if options.algorithm in SENTENCEPIECE_ALGORITHMS:
            self.sentencepiece_options.set_extra(options.extra or {})

    def options_dict(self) -> dict:
        return {
            "algorithm": self.algorithm,
            "vocab_size": self.vocab_spin.value(),
            "min_frequency": self.min_freq_spin.value(),
            "normalizer": self._name_in(self.normalizer_box),
            "pre_tokenizer": self._name_in(self.pre_tokenizer_box),
            "special_tokens": self.special_edit.text(),
            "prefix": self.prefix_edit.text(),
            "suffix": self.suffix_edit.text(),
            "tau": self.tau_spin.value(),
            "transition_percent": self.transition_spin.value(),
            "sentencepiece": self.sentencepiece_options.extra(),
        }

    def apply_options_dict(self, d: dict) -> None:
        """Restore what ``options_dict`` saved; unknown or stale values are skipped."""
        try:
            i = self.algorithm_box.findData(d.get("algorithm"))
            if i >= 0:
                self.algorithm_box.setCurrentIndex(i)
                self._on_algorithm_changed()
            self.vocab_spin.setValue(int(d.get("vocab_size", self.vocab_spin.value())))
            self.min_freq_spin.setValue(int(d.get("min_frequency", 0)))
            if d.get("normalizer"):
                self._show_name(self.normalizer_box, str(d["normalizer"]))
            if d.get("pre_tokenizer") in PRE_TOKENIZER_NAMES:
                self._show_name(self.pre_tokenizer_box, d["pre_tokenizer"])
            for key, edit in (
                ("special_tokens", self.special_edit),
                ("prefix", self.prefix_edit),
                ("suffix", self.suffix_edit),
            ):
                if key in d:
                    edit.setText(str(d[key]))
            if "tau" in d:
                self.tau_spin.setValue(float(d["tau"]))
            if "transition_percent" in d:
                self.transition_spin.setValue(int(d["transition_percent"]))
            if isinstance(d.get("sentencepiece"), dict):
                self.sentencepiece_options.set_extra(d["sentencepiece"])
        except (TypeError, ValueError):
            pass

    # -- running ---------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """A run is training (the held-out curve measured after it does not count)."""
        return self.job is not None and self.job.running and self._phase == "training"

    def train(self) -> None:
        """Train to the end (or, during a stepped run, let it run to the end)."""
        self._land()  # a model still on its way to the panels gets there first
        if self.busy:
            if self.stepping:
                self.stepping = False
                self.job.run()
                self.status.setText(self.tr("Running to the end…"))
            return
        self._start(stepping=False)

    def step(self) -> None:
        """Advance one merge (starting a stepped run if none is going)."""
        if self.busy:
            if self.stepping:
                self.job.step()
            return
        self._start(stepping=True)

    def cancel(self) -> None:
        if self.job is not None and self.job.running:
            self.job.cancel()

    def _cache_file(self, source: tuple, options: TrainOptions) -> str:
        """Where the worker keeps this corpus's counts under this pipeline, between runs.

        subtle: a file is known by its identity and state (device, inode, size,
        modification and change times), not only its path: a corpus rewritten in
        place and reopened must be counted again, never trained on its old counts.
        """
        ident = repr(source[1:]) if source[0] != "lines" else repr(sorted(source[1]))
        if source[0] in ("file", "counts_file"):
            ident += repr(_file_state(source[1]))
        key = repr((source[0], ident, options.normalizer, options.pre_tokenizer, jobs.HELD_OUT_EVERY))
        if self._cache_dir is None:
            self._cache_dir = tempfile.TemporaryDirectory(prefix="subword-explorer-counts-")
        name = hashlib.sha1(key.encode("utf-8")).hexdigest()[:16] + ".pickle"
        return os.path.join(self._cache_dir.name, name)

    def _start(self, stepping: bool) -> None:
        source = getattr(self.state, "corpus_source", None)
        if source is None:
            self.training_failed.emit(self.tr("Load a corpus first (File › Open corpus…)."))
            return
        try:
            options = self.options()
        except ConfigError as exc:
            self.training_failed.emit(str(exc))
            return
        if self.job is not None and self.job.running:  # only the previous run's curve: drop it
            self.job.kill()
        self._options = options
        self._started_at = time.monotonic()
        cache = self._cache_file(source, options)
        self.stepping = stepping
        self._phase = "training"
        self._trained = None
        self._clear_run()
        self._previewed = False
        self._shown_before_steps = (self.state.tokenizer, self.state.vocab_size)
        self.merge_model.set_style(_style_of_options(options))
        # a morpheme analyser loads beside the training (seconds), so the model can show when it lands
        loading_analysers([build_pre_tokenizer(options)])
        store = getattr(self.state, "counts_dir", None)
        self.job = Job(jobs.train_job, source, options, cache, True, store, parent=self)
        self.job.events.connect(self._on_events)
        self.job.finished.connect(self._on_finished)
        self.job.failed.connect(self._on_failed)
        self.job.cancelled.connect(self._on_cancelled)
        self._set_busy(True)
        counted = os.path.isfile(cache) or jobs.counts_known(source, options, store)
        self._overall = TrainingProgress(options, counting=not counted, now=time.monotonic())
        # as wide as its widest text from the start: the bar beside it kept changing width as
        # "3% · about 2 min 47 s left" became "25% · about 50 s left"
        widest = self.tr("{0:.0%} · about {1} left").format(1.0, format_time_left(599))
        self.overall_label.setMinimumWidth(self.overall_label.fontMetrics().horizontalAdvance(widest) + 4)
        self._show_overall()
        self.status.setText(
            self.tr("Training…") if counted else self.tr("Counting the corpus under this pipeline…")
        )
        self.training_started.emit()
        self.job.start(stepping=stepping)

    def _show_overall(self) -> None:
        """The bar and its label: how far the whole run is (all its phases), and the time left."""
        estimate = self._overall
        if estimate is None:
            return
        self.progress_row.set_fraction(estimate.fraction)
        left = estimate.seconds_left(time.monotonic())
        self.overall_label.setText(
            self.tr("{0:.0%}").format(estimate.fraction)
            if left is None
            else self.tr("{0:.0%} · about {1} left").format(estimate.fraction, format_time_left(left))
        )

    def _set_busy(self, busy: bool) -> None:
        if busy:
            self._overall_timer.start()
        else:  # (trained, failed or cancelled: the label's estimate is over)
            self._overall_timer.stop()
            self._overall = None
            self.overall_label.setText("")
            self.overall_label.setMinimumWidth(0)
        self.cancel_button.setEnabled(busy)
        self.algorithm_box.setEnabled(not busy)
        for w in (
            self.normalizer_box,
            self.pre_tokenizer_box,
            self.vocab_spin,
            self.min_freq_spin,
            self.special_edit,
            self.prefix_edit,
            self.suffix_edit,
        ):
            w.setEnabled(not busy)
        self.busy_changed.emit(busy)

    def _clear_run(self) -> None:
        self.merge_model.clear()
        self.merge_view.clearSpans()
        self._spanned = 0
        self._alphabet = None  # (this run's TrainingAlphabet arrives with its first events)
        self.round_model.clear()
        self._merge_x, self._merge_y = [], []
        self._round_x, self._round_loss, self._round_vocab = [], [], []
        self._cut = None
        self._merge_plot_drawn_at = 0.0
        self._shown_range = None
        self._redraw_plots(curve=False)
        self.progress.setValue(0)
        self.follow_log = True

    def _on_log_scrolled(self, value: int) -> None:
        bar = self.merge_view.verticalScrollBar()
        self.follow_log = value >= bar.maximum() - 2

    def _on_events(self, events: list) -> None:
        target = self._options.vocab_size if self._options else 1
        last_progress = None
        trained = None
        for e in events:
            name = type(e).__name__
            if name == "MergeEvent":
                self._merge_x.append(e.step)
                self._merge_y.append(_merge_height(e))
            elif name == "UnigramRound":
                self._round_x.append(_round_position(e, self._round_x))
                self._round_loss.append(e.loss)
                self._round_vocab.append(e.vocab_size)
            elif name == "Progress":
                last_progress = e
            elif name == "TrainingStopped":
                self._stopped = e
            elif name == "Warning_":
                self.state.status_message.emit(localize(e.message))
            elif name == "Trained":
                trained = e
            elif name == "TrainingAlphabet":
                self._alphabet = e
        follow = self.follow_log
        merged = self.merge_model.append_events(events)
        self._span_marks()
        now = time.monotonic()
        finished = self._stopped is not None or trained is not None
        if (
            (merged or finished)
            and len(self._merge_x) != getattr(self, "_merge_points_drawn", -1)
            # a step is a click: each is drawn, however quickly the clicks come
            and (
                finished or self.stepping or now - getattr(self, "_merge_plot_drawn_at", 0.0) >= PLOT_REDRAW_S
            )
        ):
            self._merge_plot_drawn_at = now
            self._merge_points_drawn = len(self._merge_x)
            self._redraw_plots(rounds=False, curve=False)
        if self._overall is not None and self._phase == "training":
            self._overall.feed(events)
            self._show_overall()
        if merged:
            last = self.merge_model.rows[-1]
            # whole sentences to translate: "Stepped to" alone stayed English in the Korean interface
            line = (
                self.tr("Stepped to step {0:,}: {1} + {2} → {3}  (vocab {4:,} of {5:,})")
                if self.stepping
                else self.tr("Merging… step {0:,}: {1} + {2} → {3}  (vocab {4:,} of {5:,})")
            )
            self.status.setText(
                line.format(last.step, last.left, last.right, last.new_token, last.vocab_size, target)
            )
            if follow:
                self.merge_view.scrollToBottom()
            if self.stepping and trained is None:
                self._show_step_preview()
                if last.vocab_size >= target and self.job is not None:
                    self.job.step()  # the size asked for is reached: finish without one more click
        if self.round_model.append_events(events):
            self._redraw_plots(merges=False, curve=False)
            last = self.round_model.rows[-1]
            self.status.setText(
                self.tr("Unigram {0} round {1}: vocab {2:,}, loss {3:,.1f}").format(
                    phase_label(last.phase), last.round, last.vocab_size, last.loss
                )
            )
            self.round_view.scrollToBottom()
        elif last_progress is not None and self._phase == "training" and not self.merge_model.rows:
            # the whole run's progress, as the bar says: each phase's own went to 100 % again
            # and again in a long Unigram training
            done = (
                self._overall.fraction
                if self._overall is not None
                else last_progress.done / max(last_progress.total, 1)
            )
            self.status.setText(self.tr("{0}… {1:.0%}").format(phase_label(last_progress.phase), done))
        if trained is not None:
            self._on_trained(trained)

    def _span_marks(self) -> None:
        """A mark row of the merge log (SuperBPE's stage 2, a PickyBPE removal) reads across
        the row: its text spans every column after the step."""
        marks = self.merge_model.mark_rows()
        done = getattr(self, "_spanned", 0)
        for row in marks[done:]:
            self.merge_view.setSpan(row, 1, 1, self.merge_model.columnCount() - 1)
        self._spanned = len(marks)

    def _show_step_preview(self) -> None:
        """While stepping, the other panels segment with the merges learned so far."""
        try:
            preview = step_preview(self.state.corpus, self._options, self.merge_model.rows, self._alphabet)
        except Exception:  # noqa: BLE001 - a preview is an extra; the merge log is already shown
            return
        if preview is not None:
            self._previewed = True
            self.state.set_tokenizer(preview)

    def shows_step_preview(self) -> bool:
        """Is the shown model a stepped run's merges so far (see :meth:`_show_step_preview`)?"""
        return self.stepping and getattr(self, "_previewed", False)

    def size_shown_before_steps(self) -> int | None:
        """Where the slider stood before the stepped run began (None: no model was shown)."""
        return getattr(self, "_shown_before_steps", (None, None))[1]

    def _undo_step_preview(self) -> None:
        """A stepped run that did not finish: show again what was shown before it."""
        if not getattr(self, "_previewed", False):
            return
        self._previewed = False
        tok, vocab_size = self._shown_before_steps
        if tok is not None:
            self.state.set_tokenizer(tok, vocab_size)
        else:
            self.state.tokenizer, self.state.vocab_size = None, None
            self.state.tokenizer_changed.emit(None)

    def _on_trained(self, event) -> None:
        """The model is ready (the worker goes on to measure the held-out curve)."""
        self._phase = "curve"
        self._set_busy(False)
        self.stepping = False
        self.held_out = event.held_out
        self.held_out_kind = event.held_out_kind
        tok = event.tokenizer
        stopped = getattr(self, "_stopped", None)
        label = ALGORITHM_LABELS.get(self._options.algorithm, self._options.algorithm)
        msg = self.tr("Trained {0}: {1:,} tokens").format(label, tok.vocab_size)
        # said also when the alphabet alone overshot the size asked for (no merge at all: an
        # empty merge log and "3,175 tokens" for 2,000 asked, with nothing saying why)
        told = stopped is not None and (
            not stopped.reached_target or stopped.vocab_size > stopped.requested_vocab_size
        )
        if told:
            msg += self.tr(" (stopped early: {0})").format(localize(stopped.reason))
        # what the Runs list keeps of this run (read on training_finished)
        self.last_run_facts = {
            "duration_s": time.monotonic() - getattr(self, "_started_at", time.monotonic()),
            "stop_reason": stopped.reason if told else None,
            "held_out_kind": event.held_out_kind,
        }
        self._stopped = None
        self.status.setText(msg)
        self.progress.setValue(1000)
        self.curve = []
        self._redraw_plots(merges=False, rounds=False)
        self.curve_label.setText(
            self.tr("Measuring {0:,} {1} at ~10 vocab sizes…").format(
                len(event.held_out), event.held_out_kind
            )
            if event.held_out
            else self.tr("No held-out text for this corpus.")
        )
        # subtle: the model reaches the other panels on the next event-loop turn, so the
        # turn that unpickled it (tens of ms for 32 k merges) repaints before they re-render
        # (next_turn, not QTimer.singleShot(0): that ran in this very turn)
        self._landing = (tok, self._options, self.merge_model.rows)
        next_turn(self, self._land)

    def _land(self) -> None:
        """Hand the trained model to every panel (state.set_full_tokenizer), once its morpheme
        analyser answers, if it has one (started with the training; loaded in a process of
        its own: see subword_gui.background.analysers)."""
        landing = getattr(self, "_landing", None)
        if landing is None:
            return
        tok, options, rows = landing
        if loading_analysers([tok]):
            QTimer.singleShot(POLL_MS, self._land)
            return
        self._landing = None
        self._landed = tok
        self.state.set_full_tokenizer(tok, options, rows, list(self.round_model.rows))
        self.training_finished.emit(tok)
        # the merge plot fits its data again (it kept a range while training), in a turn of its own
        next_turn(self, lambda: self._redraw_plots(rounds=False, curve=False))

    def _on_finished(self, result) -> None:
        self._land()  # the curve may arrive in the same turn as the model
        if getattr(self, "_landing", None) is not None:  # the model waits for its analyser: so does its curve
            QTimer.singleShot(POLL_MS, lambda: self._on_finished(result))
            return
        self._phase = "idle"
        self._on_curve(result.points, result.n_lines, result.kind)

    def _on_failed(self, message: str) -> None:
        if self._phase == "curve":
            self._phase = "idle"
            self.curve_label.setText(self.tr("Could not measure the curve: {0}").format(message))
            return
        self._phase = "idle"
        self._set_busy(False)
        self.stepping = False
        self._undo_step_preview()
        self._restore_previous_run()
        self.status.setText(self.tr("Training failed"))
        self.training_failed.emit(message)

    def _on_cancelled(self) -> None:
        if self._phase == "curve":
            self._phase = "idle"
            self.curve_label.setText(self.tr("Curve not measured (cancelled)."))
            return
        self._phase = "idle"
        self._set_busy(False)
        self.stepping = False
        self._undo_step_preview()
        # the boxes and the plots are the shown model's again, not the cancelled run's (its
        # options stayed in the boxes, and its algorithm decided the plots' scale)
        previous = getattr(self.state, "train_options", None)
        if previous is not None and self.state.full_tokenizer is not None:
            self._options = previous
            try:
                self.set_options(previous)
            except ConfigError:
                pass
        self._restore_previous_run()
        origin = self.origin_text() if not (self.merge_model.rows or self.round_model.rows) else ""
        self.status.setText(
            self.tr("Cancelled; the previous model is unchanged") + (f". {origin}" if origin else "")
        )
        self.training_cancelled.emit()

    def _restore_previous_run(self) -> None:
        """Show the last finished run's log again (the one ``state`` still holds)."""
        self._show_log(self.state.merge_events, getattr(self.state, "round_events", []), self._state_marks())
        if self.plots is not None:  # the axes fit the restored log, not the cancelled run's last range
            for plot in (self.plots.merge_plot, self.plots.unigram_plot, self.plots.vocab_box):
                plot.enableAutoRange()
        self._on_cut(self.state.vocab_size)

    def _state_marks(self) -> list:
        """The marks of the shown model's merge log (see ``item_models.log_marks``)."""
        return log_marks(self.state.full_tokenizer, self.state.train_options, self.state.merge_events)

    def _show_log(self, merges, rounds, marks=()) -> None:
        """Put a finished run's merge log and Unigram rounds (and their plots) on screen."""
        self._clear_run()
        self.merge_model.append_events(list(merges))
        self.merge_model.set_marks(marks)
        self._span_marks()
        self.round_model.append_events(list(rounds))
        self._merge_x = [e.step for e in self.merge_model.rows]
        self._merge_y = [_merge_height(e) for e in self.merge_model.rows]
        for e in self.round_model.rows:
            self._round_x.append(_round_position(e, self._round_x))
            self._round_loss.append(e.loss)
            self._round_vocab.append(e.vocab_size)
        self._redraw_plots(curve=False)

    # -- the slider's cut and the held-out curve -----------------------------------------------
    def _on_full_tokenizer(self, tokenizer) -> None:
        if tokenizer is None or self.state.merge_events is self.merge_model.rows or self.busy:
            return  # (while training, the log is the live run's)
        rounds = list(getattr(self.state, "round_events", []))
        if list(self.state.merge_events) != self.merge_model.rows or rounds != self.round_model.rows:
            # A tokenizer opened from a file (no log of ours), or another run shown again
            # from the Runs list (its own merge log or Unigram rounds).
            self.merge_model.set_style(style_for(tokenizer))
            self._show_log(self.state.merge_events, rounds, self._state_marks())

    def _schedule_follow(self, *_) -> None:
        if not self._follow_pending:
            self._follow_pending = True
            # once both signals of a change (the model, then the shown run) have arrived
            QTimer.singleShot(0, self.follow_shown_model)

    def follow_shown_model(self) -> None:
        """A model arrived without this panel training it (a run shown again from the Runs list or
        restored from the last session, the Korean study, a tokenizer file): the option boxes take
        its options, the held-out curve is its own, and the status line says where it came from.
        (Its merge log or Unigram rounds are shown by ``_on_full_tokenizer``.)"""
        self._follow_pending = False
        tok, run = self.state.full_tokenizer, self.state.shown_run
        if tok is None or self.busy or (tok, run) == self._followed:
            return
        self._followed = (tok, run)
        if tok is self._landed and run is not None and run is self.state.runs[-1]:
            return  # this panel's own newest run: its status and curve are already here
        options = self.state.train_options
        try:
            note = ""
            if options is not None:
                self.set_options(options)
            else:
                note = self._follow_model_kind(tok)
        except ConfigError:
            pass  # an algorithm this build cannot train: the boxes stay as they were
        self.curve = list(run.curve) if run is not None else []
        self._redraw_plots(merges=False, rounds=False)
        self.curve_label.setText(
            self.tr("Held-out curve of {0}.").format(run.name)
            if self.curve
            else self.tr("No held-out curve was measured for this model.")
        )
        self.status.setText(" ".join(filter(None, (self.origin_text(), note))))
        self.progress.setValue(0)
        self._on_cut(self.state.vocab_size)

    def _follow_model_kind(self, tok) -> str:
        """A tokenizer opened from a file has no training options: the boxes show what it does
        (algorithm, size, normalizer, pre-tokenizer, special tokens, prefix and suffix), the
        nearest choice where none is exact; returns a note naming what is not exact ("" if all is)."""
        kind = type(tok.model).__name__.lower()
        algorithm = {
            "wordpiece": "wordpiece",
            "unigram": "unigram",
            # a SentencePiece .model is what the SentencePiece algorithms train (it showed "BPE")
            "sentencepiecebpe": "sentencepiece-bpe",
            "sentencepieceunigram": "sentencepiece-unigram",
        }.get(kind, "bpe")
        if algorithm == "bpe" and style_for(tok).byte_level:
            algorithm = "bytelevel-bpe"
        i = self.algorithm_box.findData(algorithm)
        if i < 0 and algorithm in SENTENCEPIECE_ALGORITHMS:  # (a build without them: the nearest)
            i = self.algorithm_box.findData(algorithm.split("-")[1])
        if i >= 0 and i != self.algorithm_box.currentIndex():
            self.algorithm_box.setCurrentIndex(i)
        self.vocab_spin.setValue(min(tok.vocab_size, MAX_VOCAB))
        normalizer, exact = normalizer_choice(tok.normalizer)
        self._show_name(self.normalizer_box, normalizer)
        pre_tokenizer = pre_tokenizer_choice(tok.pre_tokenizer)
        if self.algorithm in SENTENCEPIECE_ALGORITHMS:
            # its words are cut as spm_train cuts them (the pre-tokenizer of these algorithms), and
            # its byte fallback is one of its options
            pre_tokenizer = DEFAULT_PRE_TOKENIZER[self.algorithm]
            self.sentencepiece_options.set_extra(
                {"byte_fallback": bool(getattr(tok.model, "byte_fallback", False))}
            )
        if pre_tokenizer is not None:
            self._show_name(self.pre_tokenizer_box, pre_tokenizer)
        self.special_edit.setText(",".join(t.content for t in tok.added_tokens if t.special))
        model = tok.model.to_dict()
        self.prefix_edit.setText(model.get("continuing_subword_prefix") or "")
        self.suffix_edit.setText(model.get("end_of_word_suffix") or "")
        if exact:
            return ""
        from core.formats.common import describe

        return self.tr("Its normalizer ({0}) has no exact choice here: the nearest is shown.").format(
            describe(tok.normalizer)
        )

    def origin_text(self) -> str:
        """One line: which model the panels show and where it came from.

        >>> from core.events import MergeEvent, drain
        >>> from core.options import TrainOptions
        >>> from core.training import train_from_counts
        >>> from subword_gui.runs import Run
        >>> from subword_gui.state import AppState
        >>> state = AppState(); panel = TrainingPanel(state)
        >>> panel.origin_text()
        'Ready to train'
        >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
        >>> options, events = TrainOptions("bpe", vocab_size=13), []
        >>> hug_bpe = drain(train_from_counts(counts, options), events.append)
        >>> log = [e for e in events if isinstance(e, MergeEvent)]
        >>> state.add_run(Run(0, "Run 1: BPE 13", hug_bpe, options, merge_events=log, restored=True), show=True)
        >>> panel.origin_text()
        'Showing Run 1: BPE 13, restored from the last session with its log.'
        """
        run = self.state.shown_run
        has_log = bool(self.state.merge_events or self.state.round_events)
        if run is not None:
            if run.restored:
                if has_log:
                    return self.tr("Showing {0}, restored from the last session with its log.").format(
                        run.name
                    )
                if run.options is None:  # opened from a file, which never had a log
                    return self.tr(
                        "Showing {0}, restored from the last session: it was opened from a file, "
                        "and a tokenizer file keeps no log of how it was trained."
                    ).format(run.name)
                return self.tr(
                    "Showing {0}, restored from the last session (kept without its log by an older version)."
                ).format(run.name)
            if has_log:
                return self.tr("Showing {0}, trained this session.").format(run.name)
            return self.tr("Showing {0}: no log was kept for this run.").format(run.name)
        origin = getattr(self.state, "model_origin", "")
        if self.state.full_tokenizer is not None and origin:
            return self.tr(
                "Showing {0}, opened from a file: a tokenizer file keeps no log of how it was trained."
            ).format(os.path.basename(origin.rstrip("/")) or origin)
        return self.tr("Ready to train")

    def _follow_cut(self, k) -> None:
        self._cut_next = k
        self._cut_timer.start()

    def _on_cut(self, k) -> None:
        self._cut_timer.stop()
        if k is None or not self.merge_model.rows:
            self.merge_model.set_cut(None)
        else:
            rows = self.merge_model.rows
            full = self.state.full_tokenizer
            model = getattr(full, "model", None)
            at_step = None if model is None else model.step_for_size(k)  # (PickyBPE: sizes go up and down)
            cut = k < (full.vocab_size if at_step is not None else rows[-1].vocab_size)
            step = at_step if cut else None
            self.merge_model.set_cut(k if cut else None, step)
            if cut and on_screen(self):
                # Show where the cut falls: the last merge still in the shown model.
                kept = _count_kept(rows, k) if step is None else step
                target = self.merge_model.index(self.merge_model.table_row(max(kept - 1, 0)), 0)
                self.merge_view.scrollTo(target, QAbstractItemView.ScrollHint.PositionAtCenter)
                self.follow_log = False
        self._cut = k
        self._redraw_cut()

    # -- plots ----------------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.plots is None:
            # subtle: after the first paint, so the window shows before pyqtgraph loads.
            QTimer.singleShot(PLOTS_DELAY_MS, self.ensure_plots)

    def ensure_plots(self) -> _Plots:
        """Build the plots now if they are not there yet (they load lazily)."""
        if self.plots is None:
            self.plots = _Plots(self._plot_pages)
            self._redraw_plots()
        return self.plots

    def _redraw_plots(self, merges: bool = True, rounds: bool = True, curve: bool = True) -> None:
        """Give the plots the panel's data (one ``setData`` per curve); nothing if not built yet."""
        p = self.plots
        if p is None:
            return
        if merges:
            import numpy as np

            rows = self.merge_model.rows
            # WordPiece ranks by a score (unless told to rank by frequency), BPE by the count
            wordpiece = self._options is not None and self._options.algorithm == "wordpiece"
            by_frequency = wordpiece and (self._options.extra or {}).get("score") == "frequency"
            scored = bool(rows) and (
                (wordpiece and not by_frequency) or any(e.score != e.count for e in rows[:50])
            )
            if scored != p.merge_scored:  # WordPiece ranks by a score, not by the count
                p.merge_scored = scored
                p.merge_plot.setTitle(
                    self.tr("Score of each merge (what ranked it)")
                    if scored
                    else self.tr("Pair count of each merge"),
                    color=theme.current().text,
                    size="10pt",
                )
                # pair counts span decades (log scale); WordPiece scores sit within one,
                # where a log axis labels every minor tick on top of each other
                p.merge_plot.setLogMode(x=False, y=not scored)
                p.merge_plot.setLabel("left", self.tr("score") if scored else self.tr("count"))
                self.plot_tabs.setTabText(0, self.tr("Merge scores") if scored else self.tr("Merge counts"))
            p.merge_curve.setData(
                np.asarray(self._merge_x, dtype=float), np.asarray(self._merge_y, dtype=float)
            )
            if self._phase == "training" and self._merge_x and self.merge_model.rows:
                first = self.merge_model.rows[0]
                target = self._options.vocab_size if self._options else first.vocab_size
                # stepping goes one merge a click: a range out to the target would squeeze
                # the few merges shown into its first percent
                hint = 0 if self.stepping else first.step + max(0, target - first.vocab_size)
                shown = _live_range(self._shown_range, self._merge_x, self._merge_y, hint, not scored)
                if shown != self._shown_range:
                    self._shown_range = shown
                    p.merge_plot.setXRange(*shown[0], padding=0)
                    p.merge_plot.setYRange(*shown[1], padding=0)
            else:
                self._shown_range = None
                _fit(p.merge_plot, bool(self._merge_x))
                if self._merge_y and not scored:
                    # whole decades, as while training: the counts of an example (20, 16, 15)
                    # sit within one, where the decade-only axis labelled no tick at all.
                    # subtle: a quarter decade more each side, as pyqtgraph hides a label that
                    # would stick out of the axis (one on the range's edge)
                    lo, hi = decade_span(self._merge_y)
                    p.merge_plot.setYRange(lo - 0.25, hi + 0.25, padding=0)
        if rounds:
            p.loss_curve.setData(self._round_x, self._round_loss)
            p.vocab_curve.setData(self._round_x, self._round_vocab)
            _fit(p.unigram_plot, bool(self._round_x), min_x_span=4.0)
        if curve:
            xs = [pt.vocab_size for pt in self.curve]
            p.tpw_curve.setData(xs, [pt.tokens_per_word for pt in self.curve])
            p.cpt_curve.setData(xs, [pt.chars_per_token for pt in self.curve])
            _fit(p.curve_plot, bool(xs))
        self._redraw_cut()

    def _redraw_cut(self) -> None:
        p, k = self.plots, self._cut
        if p is None:
            return
        rows = self.merge_model.rows
        if k is not None and rows and k < rows[-1].vocab_size:
            p.merge_cut_line.setValue(rows[0].step + (k - rows[0].vocab_size))
            p.merge_cut_line.setVisible(True)
        else:
            p.merge_cut_line.setVisible(False)
        p.curve_cut_line.setVisible(k is not None and bool(self.curve))
        if k is not None:
            p.curve_cut_line.setValue(k)

    def _on_curve(self, points: list, n_lines: int, kind: str) -> None:
        self.curve = points
        self._redraw_plots(merges=False, rounds=False)
        if points:
            last = points[-1]
            self.curve_label.setText(
                self.tr(
                    "On {0:,} {1}: at {2:,} tokens, {3:.2f} tokens per word, {4:.2f} characters per token"
                ).format(n_lines, kind, last.vocab_size, last.tokens_per_word, last.chars_per_token)
            )
        self._on_cut(self.state.vocab_size)
        self.curve_ready.emit(points)

    def shutdown(self) -> None:
        if self.job is not None and self.job.running:
            self.job.kill()
        if self._cache_dir is not None:
            self._cache_dir.cleanup()
            self._cache_dir = None


def normalizer_choice(normalizer) -> tuple[str, bool]:
    """The normalizer box's text for what an opened file's ``normalizer`` does, and whether it
    is exact (else it is the nearest choice).

    >>> from core.normalizers import NFKC, BertNormalizer, Lowercase, Sequence
    >>> normalizer_choice(Sequence([NFKC(), Lowercase()]))
    ('nfkc,lowercase', True)
    >>> normalizer_choice(BertNormalizer(lowercase=True, strip_accents=False))  # a Korean uncased vocab.txt
    ('lowercase', False)
    """
    from core.normalizers import BertNormalizer, Sequence, normalizer_from_names

    if normalizer is None:
        return "none", True
    by_class = {cls: name for name, cls in NORMALIZER_NAMES.items()}
    names, exact = [], True
    for part in normalizer.normalizers if isinstance(normalizer, Sequence) else [normalizer]:
        if isinstance(part, BertNormalizer):
            strips = part.lowercase if part.strip_accents is None else part.strip_accents
            if part.lowercase and strips:
                names.append("bert")  # what the name "bert" builds
                continue
            # subtle: "bert" would strip accents, and so cut every Hangul syllable into jamo
            exact = False
            names += (["lowercase"] if part.lowercase else []) + (["strip-accents"] if strips else [])
        elif type(part) in by_class:
            name = by_class[type(part)]
            names.append(name)
            exact = exact and normalizer_from_names(name).to_dict() == part.to_dict()
        else:
            exact = False  # e.g. SentencePiece's precompiled rules: no name builds them
    return ",".join(names) or "none", exact


def pre_tokenizer_choice(pre_tokenizer) -> str | None:
    """The pre-tokenizer box's name for an opened file's ``pre_tokenizer`` (None: no name builds it).

    >>> from core.pre_tokenizers import BertPreTokenizer
    >>> pre_tokenizer_choice(BertPreTokenizer()), pre_tokenizer_choice(None)
    ('bert', 'none')
    """
    if pre_tokenizer is None:
        return "none"
    return next(
        (
            name
            for name, cls in PRE_TOKENIZER_NAMES.items()
            if isinstance(cls, type) and type(pre_tokenizer) is cls
        ),
        None,
    )


def _style_of_options(options: TrainOptions) -> TokenStyle:
    """How the tokens of a run will look, known before its model exists (the merge log
    fills while training): byte-level runs spell ``Ġ`` as ``␣`` like every other panel.

    >>> _style_of_options(TrainOptions("bytelevel-bpe", 300)).byte_level
    True
    """
    byte_level = options.byte_level or (options.pre_tokenizer or "") == "bytelevel"
    return TokenStyle(
        byte_level=byte_level,
        prefix=options.continuing_subword_prefix or None,
        suffix=options.end_of_word_suffix or None,
    )
