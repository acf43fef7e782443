"""The explorer's file dialogs: their filters, from the format table, and a wider Size column.

    >>> widen_next_file_dialog()   # just before a static QFileDialog.get... call
    >>> path, _ = QFileDialog.getOpenFileName(None, "Open tokenizer", "", tokenizer_filter())  # or a window

The main window and the Compare panel both open tokenizers, so the helpers live here
rather than in either of them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QTreeView

from core.formats.registry import (
    format_named,
    open_dialog_filters,
    save_dialog_filters,
    save_format_for_suffix,
)
from subword_gui.engine_text import localized_filter


def widen_next_file_dialog() -> None:
    """Give the file dialog about to open a Size column wide enough for "91.4 KiB".

    Qt's own dialog (used where the desktop offers no native one) sizes that column
    for a few digits, so sizes read "91.…KiB". Called just before a static
    ``QFileDialog.get…`` call: the timer fires inside the dialog's event loop. A native
    dialog has no such view, and is left alone.
    """

    def widen() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QFileDialog):
            polish_file_dialog(dialog)

    QTimer.singleShot(0, widen)


def polish_file_dialog(dialog: QFileDialog) -> None:
    """What :func:`widen_next_file_dialog` does to Qt's own file dialog once it is open."""
    # Qt 6 writes these two labels "&Look in:" and "Files of &type:", which its Korean
    # catalogue lacks (it has them without the "&"): the Korean interface showed English
    for name, source in (("lookInLabel", "Look in:"), ("fileTypeLabel", "Files of type:")):
        label = dialog.findChild(QLabel, name)
        translated = QCoreApplication.translate("QFileDialog", source)
        if label is not None and translated != source:
            label.setText(translated)
    view = dialog.findChild(QTreeView, "treeView")
    if view is None:
        return
    fm = view.fontMetrics()
    header = view.header()
    header.resizeSection(1, fm.horizontalAdvance("1,023.9 KiB") + 28)
    header.resizeSection(0, max(header.sectionSize(0), fm.horizontalAdvance("n" * 36)))
    header.resizeSection(2, fm.horizontalAdvance("plain text document") + 20)
    dialog.resize(max(dialog.width(), 900), max(dialog.height(), 520))


# (file-dialog filter, format of core.formats.detect.save_tokenizer), from the format table.
SAVE_FILTERS = save_dialog_filters()


def tokenizer_filter() -> str:
    """The filters of a dialog that opens any tokenizer, in the interface's language."""
    return ";;".join(map(localized_filter, open_dialog_filters()))


def save_format_for(path: str, chosen_filter: str) -> str:
    """The save format a dialog's chosen filter (or else the file name) asks for.

    A file name typed with another format's ending wins over the filter: the dialog preselects
    tokenizer.json, and "x.model" written as JSON could not be reopened as a SentencePiece model.

    >>> save_format_for("x.model", ""), save_format_for("x.model", SAVE_FILTERS[0][0])
    ('sentencepiece', 'sentencepiece')
    """
    by_name = save_format_for_suffix(Path(path).name, default="")
    for label, fmt in SAVE_FILTERS:
        if chosen_filter in (label, localized_filter(label)):  # (as the dialog showed it)
            suffix = format_named(fmt, saving=True).save_suffix
            if by_name and suffix and not path.lower().endswith(suffix):
                return by_name
            return fmt
    return by_name or save_format_for_suffix(Path(path).name)
