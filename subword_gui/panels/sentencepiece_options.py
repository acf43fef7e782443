"""The Training panel's collapsible "SentencePiece options" group: spm_train's options for the
``sentencepiece-bpe`` and ``sentencepiece-unigram`` algorithms (``core.sentencepiece_training``).

Folded by default so the common options stay simple; the panel shows the group only for those
two algorithms. The values are ``TrainOptions.extra`` keys, spelled as spm_train spells them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.sentencepiece_training import DEFAULTS


class SentencePieceOptions(QWidget):
    """A fold-out form: byte fallback, character coverage, split digits, longest piece,
    user-defined symbols, whitespace as suffix, dummy prefix."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.toggle = QToolButton()
        self.toggle.setText(self.tr("SentencePiece options"))
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolTip(self.tr("spm_train's options (SentencePiece, Kudo and Richardson 2018)"))
        self.body = QWidget()
        self.byte_fallback = QCheckBox(self.tr("Byte fallback"))
        self.byte_fallback.setToolTip(
            self.tr(
                "Add the 256 byte pieces <0x00>…<0xFF>: a character without a piece is spelled in its UTF-8 bytes, never <unk>"
            )
        )
        self.coverage = QDoubleSpinBox()
        self.coverage.setDecimals(4)
        self.coverage.setRange(0.98, 1.0)
        self.coverage.setSingleStep(0.0005)
        self.coverage.setToolTip(
            self.tr("Share of the corpus's characters the alphabet covers; rarer characters are unknown")
        )
        self.split_digits = QCheckBox(self.tr("Split digits"))
        self.split_digits.setToolTip(self.tr("Every digit is a piece of its own"))
        self.max_length = QSpinBox()
        self.max_length.setRange(1, 512)
        self.max_length.setToolTip(self.tr("Longest piece, in characters"))
        self.user_defined = QLineEdit()
        self.user_defined.setPlaceholderText(self.tr("e.g. <sep>,<cls>"))
        self.user_defined.setToolTip(
            self.tr("User-defined symbols, comma-separated: always one piece, never split")
        )
        self.suffix = QCheckBox(self.tr("Whitespace as suffix"))
        self.suffix.setToolTip(self.tr("▁ ends a word instead of starting it"))
        self.dummy_prefix = QCheckBox(self.tr("Dummy prefix"))
        self.dummy_prefix.setToolTip(
            self.tr("Put ▁ before each line, so a line's first word is spelled as any other")
        )
        form = QFormLayout(self.body)
        form.setContentsMargins(16, 0, 0, 0)
        form.setVerticalSpacing(4)
        form.addRow(self.byte_fallback)
        form.addRow(self.tr("Character coverage"), self.coverage)
        form.addRow(self.split_digits)
        form.addRow(self.tr("Longest piece"), self.max_length)
        form.addRow(self.tr("User-defined symbols"), self.user_defined)
        form.addRow(self.suffix)
        form.addRow(self.dummy_prefix)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)
        self.body.setVisible(False)
        self.toggle.toggled.connect(self.set_expanded)
        self.set_extra({})

    def set_expanded(self, expanded: bool) -> None:
        self.toggle.setChecked(expanded)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)

    def extra(self) -> dict:
        """The options as ``TrainOptions.extra`` keys; those at spm_train's default are left out."""
        values = {
            "byte_fallback": self.byte_fallback.isChecked(),
            "character_coverage": round(self.coverage.value(), 4),
            "split_digits": self.split_digits.isChecked(),
            "max_sentencepiece_length": self.max_length.value(),
            "user_defined_symbols": [s.strip() for s in self.user_defined.text().split(",") if s.strip()],
            "treat_whitespace_as_suffix": self.suffix.isChecked(),
            "add_dummy_prefix": self.dummy_prefix.isChecked(),
        }
        return {
            k: v
            for k, v in values.items()
            if v != DEFAULTS[k] and not (k == "user_defined_symbols" and not v)
        }

    def set_extra(self, extra: dict) -> None:
        """Show ``extra``'s SentencePiece keys (spm_train's defaults for the others)."""
        values = {**DEFAULTS, **{k: v for k, v in extra.items() if k in DEFAULTS}}
        self.byte_fallback.setChecked(bool(values["byte_fallback"]))
        self.coverage.setValue(float(values["character_coverage"]))  # type: ignore[arg-type]
        self.split_digits.setChecked(bool(values["split_digits"]))
        self.max_length.setValue(int(values["max_sentencepiece_length"]))  # type: ignore[call-overload]
        symbols = values["user_defined_symbols"]
        self.user_defined.setText(symbols if isinstance(symbols, str) else ",".join(symbols))  # type: ignore[arg-type]
        self.suffix.setChecked(bool(values["treat_whitespace_as_suffix"]))
        self.dummy_prefix.setChecked(bool(values["add_dummy_prefix"]))
