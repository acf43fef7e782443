"""Subword Explorer's desktop front end (PySide6 + pyqtgraph) on top of `core`."""

from subword_gui import qt_workarounds as _qt_workarounds  # noqa: F401 (see that module)
