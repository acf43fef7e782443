"""GUI test fixtures: offscreen Qt, settings isolated per test, a window driven like a user.

Every test gets its own QSettings (an INI file under ``tmp_path``, and the
default paths redirected there too) and its own app data dir, so nothing leaks between tests or into the
user's real settings. The ``window`` fixture replaces the blocking-looking
message box with a recorder (``window.messages``); tests that want the real,
non-blocking box use ``raw_window``.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QSettings

# Lines of Korean and English with enough variety for a few hundred merges.
_KO = [
    "영화",
    "정말",
    "재미",
    "있었어요",
    "배우",
    "연기",
    "좋았어요",
    "최고의",
    "토크나이저",
    "문장을",
    "작은",
    "조각으로",
    "나눕니다",
    "철수는",
    "치킨을",
    "먹고",
    "있다",
    "볶음밥을",
    "감독",
    "음악",
]
_EN = [
    "the",
    "tokenizer",
    "cuts",
    "text",
    "into",
    "pieces",
    "tokens",
    "have",
    "ids",
    "and",
    "merges",
    "learned",
    "from",
    "a",
    "corpus",
    "lower",
    "newest",
    "widest",
    "hugs",
    "bun",
]


def make_lines(n: int) -> list[str]:
    """``n`` deterministic mixed Korean/English lines (a small corpus for tests)."""
    lines = []
    for i in range(n):
        words = [_KO[(i * 7 + j * 3) % len(_KO)] for j in range(1 + i % 5)]
        words += [_EN[(i * 5 + j * 11) % len(_EN)] for j in range(1 + (i // 3) % 4)]
        lines.append(" ".join(words))
    return lines


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, monkeypatch):
    # the app's data dir (the last run kept for the next launch) lives under tmp_path too
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    # and so is its cache (the counts of the corpora opened)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(tmp_path / "qsettings"))
    yield


@pytest.fixture(autouse=True)
def english_interface(qapp):
    """The English interface as the explorer installs it (its catalogue of plural forms), unless a
    test installs Korean; a Korean test's fixture puts English back."""
    from subword_gui import language

    if language.current_language() == "en" and not getattr(qapp, "_subword_translators", None):
        language.install_translators(qapp, "en")


@pytest.fixture
def settings_path(tmp_path):
    return tmp_path / "explorer.ini"


@pytest.fixture
def settings(settings_path):
    return QSettings(str(settings_path), QSettings.Format.IniFormat)


@pytest.fixture
def small_corpus(tmp_path):
    path = tmp_path / "small-ko-en.txt"
    path.write_text("\n".join(make_lines(400)) + "\n", encoding="utf-8")
    return path


# how long the tests that drive a window wait for a corpus to load or a training to finish
LONG_JOB_MS = 60_000


@pytest.fixture
def loaded(qtbot, window, monkeypatch, small_corpus):
    """``window`` with ``small_corpus`` opened as a user opens it (File › Open corpus)."""
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(small_corpus), ""))
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=LONG_JOB_MS):
        window.open_corpus_action.trigger()
    return window


def place_cursor(panel, position: int) -> None:
    """Put the text cursor of a segmentation panel's editor at ``position`` (in Qt's UTF-16
    units), as a click there does."""
    cursor = panel.editor.textCursor()
    cursor.setPosition(position)
    panel.editor.setTextCursor(cursor)


def train_in_window(qtbot, window, options):
    """Train ``options`` with the window's Train action; what the training panel's
    ``training_finished`` carries."""
    panel = window.training_panel
    panel.set_options(options)
    with qtbot.waitSignal(panel.training_finished, timeout=LONG_JOB_MS) as blocker:
        window.train_action.trigger()
    return blocker.args[0]


def _make_window(qtbot, settings, record: bool):
    from subword_gui.main_window import MainWindow

    window = MainWindow(settings=settings, open_sample=False)
    window.messages = []
    if record:
        window._show_message_box = lambda title, message: window.messages.append((title, message))
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    return window


@pytest.fixture
def window(qtbot, settings):
    w = _make_window(qtbot, settings, record=True)
    yield w
    w.training_panel.shutdown()
    if w.corpus_panel.job is not None:
        w.corpus_panel.job.kill()


@pytest.fixture
def raw_window(qtbot, settings):
    w = _make_window(qtbot, settings, record=False)
    yield w
    w.training_panel.shutdown()
