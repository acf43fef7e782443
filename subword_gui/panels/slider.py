"""The vocab-size slider: cut the trained model to its first k tokens, live.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.state import AppState
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> state = AppState(); state.set_full_tokenizer(drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=11))))
    >>> slider = VocabSizeSlider(state)      # follows state.full_tokenizer
    >>> slider.set_vocab_size(9)             # state.tokenizer is now the full one cut to 9
    >>> state.tokenizer.model.vocab_size, state.tokenizer.model.merge_list(), state.full_tokenizer.model.vocab_size
    (9, [('u', 'g')], 11)

A slider and a spin box, from the model's smallest size (alphabet plus special
tokens) to its full size. Moving either sets ``state.set_tokenizer`` to the full
tokenizer with its model ``truncated(k)`` (BPE: first k merges; WordPiece and
Unigram: the snapshot kept during training), so segmentation, vocabulary and
statistics follow. A drag is coalesced: the cut runs on the next idle event-loop
turn for the latest value only (``set_vocab_size`` itself is synchronous).
Disabled when the model cannot be cut (e.g. a tokenizer file whose model does not
offer ``truncated``).

Sizes are the whole vocabulary's: a file's added tokens outside its model (CLIP's
``<|startoftext|>`` and ``<|endoftext|>``: 49,406 merges and letters + 2 = 49,408) count
too, and stay in every cut; the model itself is cut to the size less those.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QSlider, QSpinBox, QWidget

from subword_gui.background.beside import run_beside
from subword_gui.background.jobs import can_truncate, min_vocab_size, truncate_tokenizer

CACHE_SIZE = 16  # recently shown sizes: sliding back and forth costs nothing
WARM_DELAY_MS = 300  # after a model lands, when its cut tables are built


class VocabSizeSlider(QWidget):
    cut_changed = Signal(int)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self._cache: OrderedDict[int, object] = OrderedDict()
        self._updating = False
        self._stepping = False  # a stepped run's preview is shown (see show_stepping)
        self._outside = 0  # the full tokenizer's added tokens outside its model (kept in every cut)

        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("vocabSlider")
        self.slider.setToolTip(
            self.tr("Cut the trained model to its first k tokens (PageUp/PageDown, Home/End)")
        )
        self.spin = QSpinBox()
        self.spin.setObjectName("vocabSpin")
        self.spin.setGroupSeparatorShown(True)
        self.spin.setMinimumWidth(96)
        self.spin.setKeyboardTracking(False)
        self.spin.setRange(0, 0)
        self.spin.setSpecialValueText("–")  # shown while there is no model (value 0)
        self.full_button = QPushButton(self.tr("Full"))
        self.full_button.setToolTip(self.tr("Back to the full trained vocabulary"))
        self.range_label = QLabel(self.tr("train or open a model to slide its vocabulary"))
        self.range_label.setObjectName("hint")

        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 10, 4)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        row.setSpacing(10)
        row.addWidget(self.slider, 1)
        row.addWidget(self.spin)
        row.addWidget(self.full_button)
        row.addWidget(self.range_label)

        # subtle: a drag emits a value per pixel; the cut waits for the event loop to be
        # free, and only the latest value is shown (the two widgets follow at once).
        self._pending: int | None = None
        self._move_timer = QTimer(self, singleShot=True, interval=0)
        self._move_timer.timeout.connect(self._apply_pending)
        self.slider.valueChanged.connect(self._moved)
        self.spin.valueChanged.connect(self._moved)
        self.full_button.clicked.connect(lambda: self.set_vocab_size(self.slider.maximum()))
        state.full_tokenizer_changed.connect(self._on_full_tokenizer)
        self._set_enabled(False)

    def show_stepping(self, vocab_size: int | None) -> None:
        """While a run is stepped, the shown model is the merges learned so far, not a cut of
        the full model: the slider stands aside and says so. ``None``: the stepping is over,
        the slider is the full model's again (at the shown size)."""
        if vocab_size is not None:
            self._stepping = True
            self._set_enabled(False)
            self.range_label.setText(self.tr("stepping: {0:,} tokens so far").format(vocab_size))
            # the spin box said the last full model's size (2,000 beside "10 tokens so far"):
            # a dash, as with no model, until the stepping is over
            self._updating = True
            try:
                self.spin.setSpecialValueText("–")
                self.spin.setValue(self.spin.minimum())
            finally:
                self._updating = False
            return
        if not self._stepping:
            return
        self._stepping = False
        full = self.state.full_tokenizer
        if full is None:
            self.range_label.setText(self.tr("train or open a model to slide its vocabulary"))
            return
        self._on_full_tokenizer(full)
        shown = self.state.vocab_size
        if shown is not None and self.slider.minimum() <= shown <= self.slider.maximum():
            self._updating = True
            try:
                self.slider.setValue(shown)
                self.spin.setValue(shown)
            finally:
                self._updating = False

    def _set_enabled(self, on: bool) -> None:
        for w in (self.slider, self.spin, self.full_button):
            w.setEnabled(on)

    def _on_full_tokenizer(self, tokenizer) -> None:
        self._stepping = False
        self._cache.clear()
        self._updating = True
        try:
            if not can_truncate(tokenizer):
                size = tokenizer.vocab_size if tokenizer is not None else 0
                self.slider.setRange(size, size)
                self.spin.setRange(size, size)
                self.spin.setSpecialValueText("")
                self.slider.setValue(size)
                self.spin.setValue(size)
                self._set_enabled(False)
                self.range_label.setText(self.tr("{0:,} tokens (this model cannot be cut)").format(size))
                return
            self._outside = tokenizer.vocab_size - tokenizer.model.vocab_size
            low, high = min_vocab_size(tokenizer), tokenizer.model.vocab_size
            low, high = min(low, high) + self._outside, high + self._outside
            self.spin.setSpecialValueText("")
            for w in (self.slider, self.spin):
                w.setRange(low, high)
                w.setValue(high)
            self.slider.setPageStep(max(1, (high - low) // 20))
            self._set_enabled(high > low)
            self.range_label.setText(self.tr("{0:,} … {1:,}").format(low, high))
            if high > low:
                # the model's first cut builds its cut tables: do it after the model landed
                # (on a helper thread), not on the user's first slider move
                k = high - self._outside - 1  # the model's size, one below full
                QTimer.singleShot(WARM_DELAY_MS, lambda t=tokenizer, k=k: self._warm(t, k))
        finally:
            self._updating = False

    def _warm(self, tokenizer, k: int) -> None:
        if self.state.full_tokenizer is tokenizer:
            # subtle: on a helper thread: at 32 k merges the tables take 60-140 ms to build, one
            # event-loop turn that long; a move before they are ready builds them itself
            run_beside(tokenizer.model.truncated, k, name="cut-tables")

    @property
    def value(self) -> int:
        return self.spin.value()

    def _moved(self, k: int) -> None:
        """The user moved the slider or spin box: sync the other, cut on the next idle turn."""
        if self._updating:
            return
        self._updating = True
        try:
            self.slider.setValue(k)
            self.spin.setValue(k)
        finally:
            self._updating = False
        self._pending = k
        self._move_timer.start()

    def _apply_pending(self) -> None:
        k, self._pending = self._pending, None
        if k is not None:
            self.set_vocab_size(k)

    def set_vocab_size(self, k: int) -> None:
        """Show the full tokenizer cut to ``k`` tokens (clamped to the range)."""
        full = self.state.full_tokenizer
        if self._updating or full is None or not can_truncate(full):
            return
        self._move_timer.stop()
        self._pending = None
        k = max(self.slider.minimum(), min(int(k), self.slider.maximum()))
        self._updating = True
        try:
            self.slider.setValue(k)
            self.spin.setValue(k)
        finally:
            self._updating = False
        if k == self.state.vocab_size and self.state.tokenizer is not None:
            return
        tok = self._cache.pop(k, None)
        if tok is None:
            tok = truncate_tokenizer(full, k - self._outside)
        self._cache[k] = tok
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        self.state.set_tokenizer(tok, k)
        self.cut_changed.emit(k)
