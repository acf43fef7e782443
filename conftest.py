"""Doctest set-up of the GUI package: subword_gui's docstring examples run with the suite (pyproject
``testpaths``), as core's do. Those modules are Qt glue, so each of their doctests gets what the GUI
tests give a test (tests/gui/conftest.py): an offscreen QApplication and Qt settings and app data
under the test's own temporary folder, never the user's."""

from __future__ import annotations

import os

import pytest

GUI_PACKAGE = "subword_gui"


@pytest.fixture(autouse=True)
def _gui_doctest_environment(request, tmp_path, monkeypatch):
    if not (isinstance(request.node, pytest.DoctestItem) and GUI_PACKAGE in request.node.path.parts):
        yield
        return
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(tmp_path / "qsettings"))
    request.getfixturevalue("qapp")
    yield
