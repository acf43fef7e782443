"""Doctest set-up of the GUI package (pytest reads this file; the explorer never imports it).

subword_gui's docstring examples are Qt glue, so each of its doctests gets what the GUI tests give
a test (tests/gui/conftest.py): an offscreen QApplication, and Qt settings and app data under the
test's own temporary folder, never the user's; and the static file dialogs answer "cancelled" at
once (file_dialogs' example calls one, and a modal dialog would wait for a user forever); the
explorer's top-level widgets an example made are closed and deleted after it. The file sits here,
not at the root, because a root conftest.py would make ruff sort the tests' ``from conftest
import ...`` (tests/conftest.py) as first-party."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _gui_doctest_environment(request, tmp_path, monkeypatch):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QEvent, QSettings
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(tmp_path / "qsettings"))
    cancelled = {
        "getOpenFileName": ("", ""),
        "getSaveFileName": ("", ""),
        "getOpenFileNames": ([], ""),
        "getExistingDirectory": "",
    }
    for name, answer in cancelled.items():
        monkeypatch.setattr(QFileDialog, name, staticmethod(lambda *a, _answer=answer, **k: _answer))
    app = request.getfixturevalue("qapp")
    before = set(app.topLevelWidgets())
    yield
    # subtle: a window or panel an example made outlives the example's names (signal connections
    # to lambdas keep panels alive, and the explorer freezes long-lived objects out of the
    # collector's sight), and kept its timers and its share of every later restyle (the theme's
    # example took 1.6 s over 5,000 leftover widgets). Closed and deleted here, as pytest-qt's
    # qtbot does for the widgets a test registers: only the explorer's own top-level widgets
    # (deleting pyqtgraph's parentless menus and widgets under it crashed the interpreter).
    for widget in app.topLevelWidgets():
        if (
            widget not in before
            and widget.parent() is None
            and type(widget).__module__.startswith("subword_gui.")
        ):
            widget.close()
            widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
