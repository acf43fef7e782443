"""The Segmentation panel's Samples tab: several segmentations of the typed text, side by side.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> view = SamplesView(); view.set_tokenizer(hug_bpe); view.set_text("hugs pugs")
    >>> view.resample_now()          # drawn after a pause while the tab is shown; this draws now
    >>> view.result.method, view.result.strength, len(view.result.samples)
    ('dropout', 0.1, 5)
    >>> view.result.deterministic.tokens
    ('hug', 's', 'pug', 's')
    >>> [len(s) for s in view.result.samples]      # p = 0.1 happens to skip no merge of these two words
    [4, 4, 4, 4, 4]
    >>> view.strength.setValue(0.5); view.resample_now(); [" ".join(s.tokens) for s in view.result.samples]
    ['hug s p u g s', 'h u g s p ug s', 'h ug s p u g s', 'hug s p ug s', 'hug s p u g s']

For a BPE model, BPE-dropout with its ``p``; for a Unigram model (a SentencePiece unigram
``.model`` too), sampling from the lattice with its ``alpha`` (``core.sampling``). The first row
is the deterministic segmentation, then one row of chips per sample; a chip that begins where
the deterministic segmentation has no boundary is marked, and a line gives the average length
inflation. The draws are seeded: the same seed gives the same rows, "Resample" takes the next.
A model that can do neither says so in one line.

The text box shows the Text tab's own document (typing in either edits both).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.errors import SubwordError
from core.sampling import MAX_SAMPLES, Samples, Segmentation, sample_segmentations, sampling_method
from subword_gui.tokens import palette
from subword_gui.tokens.render import is_superword, render_parts_cached, style_for
from subword_gui.tokens.token_view import Chip, TokenStrip

DEFAULT_SAMPLES = 5
DEFAULT_STRENGTH = {"dropout": 0.1, "unigram": 0.1}  # the papers' usual p and alpha
MAX_TEXT = 2000  # characters sampled (the rest of a long text is left out, and the view says so)
DELAY_MS = 120  # a pause in typing before the samples are drawn again


def sample_chips(seg: Segmentation, style, marks: set | None = None) -> list[Chip]:
    """Chips of one segmentation, coloured by id as in the Text tab; with ``marks`` (the
    deterministic segmentation's token starts) a chip that starts elsewhere is marked."""
    keys = palette.colour_keys(list(seg.ids))
    chips = []
    previous_piece = None
    for token, tid, key, start in zip(seg.tokens, seg.ids, keys, seg.starts):
        piece = start[:2]
        chips.append(
            Chip(
                parts=list(render_parts_cached(token, style)),
                caption=str(tid),
                background=palette.colour_of(key),
                new_word=piece != previous_piece,
                mark_before=marks is not None and start not in marks,
                superword=is_superword(token, style),
            )
        )
        previous_piece = piece
    return chips


class SamplesView(QWidget):
    """Seeded samples of the text under the shown model (see the module)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tokenizer = None
        self.result: Samples | None = None
        self._text = ""
        self._method: str | None = None
        self._strength = dict(DEFAULT_STRENGTH)
        self._timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self._timer.timeout.connect(self.resample_now)
        self._build()

    def _build(self) -> None:
        self.editor = QPlainTextEdit()
        self.editor.setMaximumHeight(96)
        self.editor.setPlaceholderText(self.tr("Type text here: its samples are drawn as you type."))

        self.strength_label = QLabel()
        self.strength = QDoubleSpinBox()
        self.strength.setDecimals(2)
        self.strength.setSingleStep(0.05)
        self.strength.valueChanged.connect(self._strength_changed)
        self.count = QSpinBox()
        self.count.setRange(1, MAX_SAMPLES)
        self.count.setValue(DEFAULT_SAMPLES)
        self.count.valueChanged.connect(self._schedule)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip(self.tr("The same seed draws the same samples again"))
        self.seed.valueChanged.connect(self._schedule)
        self.resample = QPushButton(self.tr("Resample"))
        self.resample.setToolTip(self.tr("Draw new samples (the next seed)"))
        self.resample.clicked.connect(lambda: self.seed.setValue(self.seed.value() + 1))
        controls = QHBoxLayout()
        controls.addWidget(self.strength_label)
        controls.addWidget(self.strength)
        controls.addSpacing(12)
        controls.addWidget(QLabel(self.tr("samples")))
        controls.addWidget(self.count)
        controls.addSpacing(12)
        controls.addWidget(QLabel(self.tr("seed")))
        controls.addWidget(self.seed)
        controls.addWidget(self.resample)
        controls.addStretch(1)
        self.controls = QWidget()
        self.controls.setLayout(controls)
        controls.setContentsMargins(0, 0, 0, 0)

        self.summary = QLabel()
        self.summary.setObjectName("hint")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)

        self.rows = QWidget()
        self.rows_layout = QVBoxLayout(self.rows)
        self.rows_layout.setContentsMargins(0, 0, 0, 0)
        self.rows_layout.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.rows)
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.strips: list[TokenStrip] = []

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor)
        layout.addWidget(self.controls)
        layout.addWidget(self.summary)
        layout.addWidget(self.scroll, 1)

    # -- inputs ---------------------------------------------------------------------
    def share_document(self, document) -> None:
        """Edit the Text tab's document here too (its colours come along)."""
        self.editor.setDocument(document)
        document.contentsChanged.connect(self._text_changed)

    def _text_changed(self) -> None:
        # subtle: every keystroke in the Text tab lands here; the text (a pasted 100,000
        # characters, maybe) is read only while the tab is shown
        if self.isVisible():
            self.set_text(self.editor.toPlainText())

    def set_text(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self._schedule()

    def set_tokenizer(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        method = sampling_method(getattr(tokenizer, "model", None))
        if method != self._method:
            self._method = method
            self.strength.blockSignals(True)
            if method == "dropout":
                self.strength_label.setText(self.tr("BPE-dropout p"))
                self.strength.setRange(0.0, 1.0)
                self.strength.setToolTip(
                    self.tr("each merge is skipped with this probability (Provilkov et al. 2020)")
                )
            elif method == "unigram":
                self.strength_label.setText(self.tr("Unigram sampling α"))
                self.strength.setRange(0.01, 10.0)
                self.strength.setToolTip(
                    self.tr(
                        "a segmentation is drawn with probability ∝ exp(α·score) (Kudo 2018): small α, more variety"
                    )
                )
            if method is not None:
                self.strength.setValue(self._strength[method])
            self.strength.blockSignals(False)
        self.controls.setVisible(method is not None)
        self._schedule()

    def _strength_changed(self, value: float) -> None:
        if self._method is not None:
            self._strength[self._method] = value
        self._schedule()

    def _schedule(self, *_) -> None:
        # drawn only while the tab is shown (typing in the Text tab must not pay for it);
        # the Segmentation panel draws them when the tab is opened
        if self.isVisible():
            self._timer.start()

    # -- drawing ----------------------------------------------------------------------
    def resample_now(self) -> None:
        """Draw the samples for the current text, model and controls (now, not after the pause)."""
        self._timer.stop()
        tok = self.tokenizer
        text = self._text[:MAX_TEXT]
        self.result = None
        if tok is None:
            self._show_rows([])
            self.summary.setText(self.tr("Train or open a tokenizer to see its samples."))
            return
        if self._method is None:
            self._show_rows([])
            self.summary.setText(
                self.tr(
                    "A {0} model cannot sample: BPE-dropout needs a BPE model, sampling a Unigram model."
                ).format(type(tok.model).__name__)
            )
            return
        if not text.strip():
            self._show_rows([])
            self.summary.setText(self.tr("Type some text to see its samples."))
            return
        try:
            result = sample_segmentations(
                tok, text, self.count.value(), self.strength.value(), self.seed.value()
            )
        except SubwordError as e:
            self._show_rows([])
            self.summary.setText(str(e))
            return
        self.result = result
        style = style_for(tok)
        det = result.deterministic
        starts = set(det.starts)
        rows = [(self.tr("deterministic: {0} tokens").format(len(det)), sample_chips(det, style))]
        for i, seg in enumerate(result.samples, start=1):
            rows.append(
                (self.tr("sample {0}: {1} tokens").format(i, len(seg)), sample_chips(seg, style, starts))
            )
        self._show_rows(rows)
        mean = sum(len(s) for s in result.samples) / len(result.samples)
        what = (
            self.tr("BPE-dropout p = {0:g}").format(result.strength)
            if result.method == "dropout"
            else self.tr("Unigram sampling α = {0:g}").format(result.strength)
        )
        line = self.tr(
            "{0}, seed {1}: on average {2:.1f} tokens against {3} deterministic, <b>{4:+.1%}</b> length "
            "inflation. A mark before a chip: a boundary the deterministic cut does not have."
        ).format(what, result.seed, mean, len(det), result.inflation)
        if len(self._text) > MAX_TEXT:
            line += " " + self.tr("(the first {0:,} characters)").format(MAX_TEXT)
        self.summary.setText(line)

    def _show_rows(self, rows: list[tuple[str, list[Chip]]]) -> None:
        # the rows' widgets are kept and reused (a keystroke redraws them all)
        while len(self.strips) < len(rows):
            label, strip = QLabel(), TokenStrip()
            label.setObjectName("hint")
            strip.setFont(self.editor.font())
            at = self.rows_layout.count() - 1  # before the stretch
            self.rows_layout.insertWidget(at, label)
            self.rows_layout.insertWidget(at + 1, strip)
            self.strips.append(strip)
        for i, strip in enumerate(self.strips):
            label = self.rows_layout.itemAt(2 * i).widget()
            shown = i < len(rows)
            label.setVisible(shown)
            strip.setVisible(shown)
            if shown:
                label.setText(rows[i][0])
                strip.set_chips(rows[i][1])

    def texts(self) -> list[str]:
        """Each row's tokens as plain text (tests, copying)."""
        if self.result is None:
            return []
        return [" ".join(s.tokens) for s in (self.result.deterministic, *self.result.samples)]
