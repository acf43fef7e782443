"""Subword Explorer's desktop front end (PySide6 + pyqtgraph) on top of `core`."""
