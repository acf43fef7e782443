"""The file dialogs' helpers (subword_gui/file_dialogs.py)."""

from __future__ import annotations

import doctest

from PySide6.QtWidgets import QFileDialog

import subword_gui.file_dialogs as file_dialogs


def test_the_modules_example_runs(qapp, monkeypatch):
    """Its example called the dialog with a ``parent`` it never defined (issue 29, item 8)."""
    asked = []

    def answer(parent, caption, folder, filters):
        asked.append(filters)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(answer))  # no dialog opens
    result = doctest.testmod(file_dialogs, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0
    assert asked and "*.model" in asked[0]
