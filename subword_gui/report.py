"""A report the user can read whole: what a save lost, what an opened file did not say.

    >>> dialog = ReportDialog(None)      # the main window in the explorer
    >>> dialog.show_report("Saved with losses", "tokenizer.json keeps …", ["no normalizer …"])
    >>> dialog.items()
    ['no normalizer …']
    >>> dialog.close()
    True

The status bar has room for one line, elided in the middle: a loss report there could not
be read. The dialog lists each item as a paragraph, wrapped, selectable, and stays open
beside the window (not modal). For a tiktoken rank file, which does not store its split
pattern, it offers the explorer's own way to choose one: a combo of the known patterns;
``pattern_chosen`` fires with the name picked. For a bare BERT vocab.txt, which does not say
whether it lowercases, the same combo offers the two casings (``lowercase``, ``cased``).
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

REPORT_WIDTH = 760  # px: a paragraph of about a hundred characters a line
REPORT_MIN_HEIGHT = 200
REPORT_MIN_BODY = 80  # px the list keeps when the dialog is made smaller by hand
REPORT_SCREEN_SHARE = 0.85  # of the screen's free area, at most


class ReportDialog(QDialog):
    pattern_chosen = Signal(str)  # a split pattern's name, picked in the combo

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("reportDialog")
        self.setModal(False)
        self._items: list[str] = []
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body = QTextBrowser()
        self.body.setOpenLinks(False)
        self.pattern_row = QWidget()
        row = QHBoxLayout(self.pattern_row)
        row.setContentsMargins(0, 0, 0, 0)
        self.pattern_label = QLabel(self.tr("Split pattern:"))
        self.pattern_box = QComboBox()
        self.pattern_box.setObjectName("patternBox")
        self.pattern_label.setBuddy(self.pattern_box)
        row.addWidget(self.pattern_label)
        row.addWidget(self.pattern_box, 1)
        self.pattern_row.setVisible(False)
        self.pattern_box.activated.connect(self._on_pattern)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        buttons.accepted.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.body, 1)
        layout.addWidget(self.pattern_row)
        layout.addWidget(buttons)

    def show_report(
        self,
        title: str,
        heading: str,
        items: list[str],
        patterns: list[tuple[str, str]] | None = None,
        chosen: str | None = None,
        choice_label: str | None = None,
    ) -> None:
        """Show ``items`` (each a paragraph) under ``heading``; ``patterns`` = ``[(name, label)]``
        offers a choice (of split pattern, unless ``choice_label`` names another), ``chosen`` selected."""
        self.setWindowTitle(title)
        self.pattern_label.setText(choice_label or self.tr("Split pattern:"))
        self.heading.setText(heading)
        self._items = list(items)
        self.body.setHtml("".join(f"<p>{html.escape(item)}</p>" for item in items))
        self.pattern_box.clear()
        for name, label in patterns or []:
            self.pattern_box.addItem(label, name)
        if chosen is not None:
            self.pattern_box.setCurrentIndex(max(0, self.pattern_box.findData(chosen)))
        self.pattern_row.setVisible(bool(patterns))
        self._fit()
        self.show()
        self.raise_()

    def _fit(self) -> None:
        """Size the dialog to its report, read whole without scrolling where the screen has room.

        subtle: measured on the document at the width it gets (fonts and languages differ);
        at most REPORT_SCREEN_SHARE of the screen's free area, so a long report scrolls instead
        of running off the screen. (A fixed 640x320 showed two of a vocab.txt save's five items.)
        """
        screen = self.screen() if self.parentWidget() is None else self.parentWidget().screen()
        free = screen.availableGeometry()
        width = min(REPORT_WIDTH, int(free.width() * REPORT_SCREEN_SHARE))
        # subtle: before the first show the style sheet's font is not applied yet (the document
        # measured in the default font, and the report scrolled)
        self.ensurePolished()
        self.body.ensurePolished()
        layout = self.layout()
        margins = layout.contentsMargins()
        frame = 2 * self.body.frameWidth()
        doc = self.body.document()
        # (room for a vertical scroll bar, should the screen be too short after all)
        scroll = self.body.verticalScrollBar().sizeHint().width()
        doc.setTextWidth(width - margins.left() - margins.right() - frame - scroll)
        self.body.setMinimumHeight(math.ceil(doc.size().height()) + frame)
        layout.invalidate()
        # (the minimum, not the height for the width: that takes the list's default size hint)
        need = layout.totalMinimumSize().height()
        self.body.setMinimumHeight(REPORT_MIN_BODY)
        height = min(max(need, REPORT_MIN_HEIGHT), int(free.height() * REPORT_SCREEN_SHARE))
        self.resize(width, height)
        if self.isVisible():  # (grown while open: keep it on the screen)
            geometry = self.frameGeometry()
            self.move(
                max(free.left(), min(geometry.left(), free.right() - geometry.width())),
                max(free.top(), min(geometry.top(), free.bottom() - geometry.height())),
            )

    def items(self) -> list[str]:
        return list(self._items)

    def text(self) -> str:
        """Everything the dialog says, as plain text (for tests and the clipboard)."""
        return "\n".join([self.heading.text(), *self._items])

    def choose_pattern(self, name: str) -> None:
        """Pick ``name`` in the combo as a user would."""
        index = self.pattern_box.findData(name)
        if index >= 0:
            self.pattern_box.setCurrentIndex(index)
            self._on_pattern(index)

    def _on_pattern(self, index: int) -> None:
        name = self.pattern_box.itemData(index)
        if isinstance(name, str):
            self.pattern_chosen.emit(name)


# The engine's rank-file warning speaks to the command line ("choose with --pattern"); the
# explorer says the same with its own way to choose (see core.formats.tiktoken_ranks).
_RANK_FILE_GUESS = re.compile(
    r"(?P<name>[^\n;]+?) does not store its split pattern: assumed (?P<guess>\S+) \((?P<why>[^\n]*); "
    r"choose with --pattern\)"
)


# The engine's BERT vocab.txt warning speaks to the command line ("choose with --lowercase or
# --cased"); the explorer says which casing it chose and offers the other (core.formats.bert_vocab).
_BERT_CASING_GUESS = re.compile(
    r"(?P<name>[^\n;]+?) holds no normalizer settings: assumed BERT's, with lowercase=(?P<lowercase>\w+) "
    r"\((?P<why>[^\n]*); choose with --lowercase or --cased\) and strip_accents=(?P<strip>\w+) \([^\n]*\)"
)


def casings() -> list[tuple[str, str]]:
    """``(name, label)`` of the two ways to read a bare BERT vocab.txt."""
    return [
        ("lowercase", QCoreApplication.translate("ReportDialog", "lowercase (an uncased vocabulary)")),
        ("cased", QCoreApplication.translate("ReportDialog", "cased (capitals kept)")),
    ]


def split_patterns() -> list[tuple[str, str]]:
    """``(name, label)`` of tiktoken's split patterns, one per distinct regex.

    >>> split_patterns()[0]
    ('gpt2', 'gpt2 (also r50k_base, p50k_base)')
    """
    from core.pre_tokenizers import TIKTOKEN_PATTERNS

    by_regex: dict[str, list[str]] = {}
    for name, regex_text in TIKTOKEN_PATTERNS.items():
        by_regex.setdefault(regex_text, []).append(name)
    rows = []
    for first, *others in by_regex.values():
        label = (
            first
            if not others
            else QCoreApplication.translate("ReportDialog", "{0} (also {1})").format(first, ", ".join(others))
        )
        rows.append((first, label))
    return rows


def opening_notes(
    loaded, pattern: str | None = None
) -> tuple[list[str], list[tuple[str, str]] | None, str | None]:
    """What to tell about a file just opened: ``(items, patterns, chosen)``; ``patterns`` is the
    choice of split pattern of a rank file, or of casing of a BERT vocab.txt (see :func:`casings`;
    None for other formats), ``chosen`` the one used.
    Items are the engine's warnings in the interface's language; a rank file's guess of its
    pattern is said with the explorer's own way to choose another (``pattern``: the one the
    user chose, which the engine then does not guess)."""
    from subword_gui.engine_text import localize

    items: list[str] = []
    patterns = None
    chosen = None
    if getattr(loaded, "format", "") == "tiktoken":
        patterns = split_patterns()
        extra = getattr(loaded.tokenizer, "extra", {}) or {}
        chosen = (extra.get("tiktoken") or {}).get("pattern") or pattern
        if pattern is not None:
            items.append(
                QCoreApplication.translate(
                    "ReportDialog",
                    "{0} does not store its split pattern: {1} is the one you chose. "
                    "Choose another below; the text is encoded again.",
                ).format(Path(loaded.path).name, pattern)
            )
    if getattr(loaded, "format", "") == "bert":
        patterns = casings()
        norm = getattr(loaded.tokenizer, "normalizer", None)
        chosen = "lowercase" if getattr(norm, "lowercase", True) else "cased"
    for warning in getattr(loaded, "warnings", []) or []:
        found = _RANK_FILE_GUESS.fullmatch(warning)
        casing = _BERT_CASING_GUESS.fullmatch(warning)
        if casing is not None:
            fields = casing.groupdict()
            fields["why"] = localize(fields["why"])
            if fields["why"].startswith("as asked"):
                text = QCoreApplication.translate(
                    "ReportDialog",
                    "{name} holds no normalizer settings: BERT's is applied with lowercase={lowercase}, "
                    "the casing you chose, and strip_accents={strip}. Choose the other casing below; "
                    "the text is encoded again.",
                )
            else:
                text = QCoreApplication.translate(
                    "ReportDialog",
                    "{name} holds no normalizer settings: BERT's is applied with lowercase={lowercase}, "
                    "as guessed ({why}), and strip_accents={strip}. Choose the other casing below if "
                    "the guess is wrong; the text is encoded again.",
                )
            items.append(text.format(**fields))
        elif found is not None:
            items.append(
                QCoreApplication.translate(
                    "ReportDialog",
                    "{name} does not store its split pattern: assumed {guess} ({why}). "
                    "Choose another below; the text is encoded again.",
                ).format(**{**found.groupdict(), "why": localize(found["why"])})
            )
        else:
            items.append(localize(warning))
    return items, patterns, chosen
