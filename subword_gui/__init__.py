"""Subword Explorer's desktop front end (PySide6 + pyqtgraph) on top of `core`.

Where things live:

- ``app.py``         — the ``subword-explorer`` entry point (launch, ``--screenshot``); also
  ``python -m subword_gui`` (``__main__.py``).
- ``main_window.py`` — the window: docks, menus, shortcuts, settings; reads like a table of contents.
- ``state.py``       — the one shared state panels subscribe to (corpus, full and cut tokenizer, text).
- ``panels/``        — the docked panels a user works in: Corpus, Training, Vocab size, Segmentation,
  Vocabulary, Compare, and the Qt item models behind their tables.
- ``tokens/``        — drawing tokens: colours, coloured spans and chips, how a token is rendered,
  and the "why" view of a split.
- ``background/``    — long work off the GUI thread: Qt-free job generators and the worker process
  that runs them and delivers coalesced events.
- ``style/``         — the look: Fusion palette, fonts that cover Korean/Japanese, the style sheet.
- ``resources/``     — bundled files (sample corpus, Examples, icon); the top-level ``resources/``
  folder of the source tree, installed inside this package.
"""
