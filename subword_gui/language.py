"""The interface language: English as the code writes it, or Korean, through Qt's translators.

    >>> from subword_gui.main_window import MainWindow
    >>> app = QCoreApplication.instance()
    >>> install_translators(app, "ko")     # before any window is built
    'ko'
    >>> window = MainWindow(open_sample=False)
    >>> window.menuBar().actions()[0].text()
    '파일(&F)'
    >>> window.training_panel.shutdown(); window.close(); install_translators(app, "en")
    True
    'en'

The choice lives in QSettings under ``language``: ``"system"`` (the default: Korean when the
system locale's language is Korean, else English), ``"en"`` or ``"ko"``. View › Language sets it;
like most desktop programs, the new language applies at the next start (the menu offers to restart
now). Every user-visible string goes through ``self.tr`` / ``QCoreApplication.translate``; the
Korean catalogue is ``translations/subword_explorer_ko.ts`` (edit it with ``pyside6-linguist``,
refresh it with ``bash subword_gui/translations/update.sh``), compiled to the ``.qm`` beside it.
Qt's own strings (standard buttons, file dialogs) come from the ``qtbase`` catalogue PySide6 ships.
A count in a sentence is Qt's numerus form: ``self.tr("{0} merge(s)", None, n).format(n)``; the
English catalogue ``subword_explorer_en.ts`` holds only those messages, with their two forms
("1 merge", "2 merges"), and Korean gives its one.

Leaves out: switching language without a restart (every panel would have to rebuild its texts).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

LANGUAGES = {"en": "English", "ko": "한국어"}  # each language names itself, as language menus do
SETTINGS_KEY = "language"
TRANSLATIONS = Path(__file__).with_name("translations")
CATALOGUE = "subword_explorer"


def chosen_language(settings: QSettings | None = None, locale: QLocale | None = None) -> str:
    """``"en"`` or ``"ko"``: the saved choice, or the system locale's language when it is ``system``."""
    choice = str((settings or QSettings()).value(SETTINGS_KEY, "system") or "system")
    if choice in LANGUAGES:
        return choice
    name = (locale or QLocale.system()).name()  # e.g. "ko_KR"
    return "ko" if name.split("_")[0] == "ko" else "en"


def install_translators(app: QCoreApplication, language: str) -> str:
    """Install the explorer's and Qt's own catalogues for ``language``; the language in force."""
    for old in getattr(app, "_subword_translators", []):
        app.removeTranslator(old)
    installed: list[QTranslator] = []
    if language == "en":
        # English needs a catalogue for its plurals only: tr("{0} merge(s)...", None, n) reads
        # "1 merge" or "2 merges" through the numerus forms of translations/subword_explorer_en.ts
        plurals = QTranslator(app)
        if plurals.load(f"{CATALOGUE}_en", str(TRANSLATIONS)):
            app.installTranslator(plurals)
            installed.append(plurals)
    else:
        ours = QTranslator(app)
        if not ours.load(f"{CATALOGUE}_{language}", str(TRANSLATIONS)):
            app.setProperty("subword_language", "en")
            return "en"  # no catalogue for it: the interface stays English
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        for translator in (ours, _qt_catalogue(app, language, qt_dir)):
            if translator is not None:
                app.installTranslator(translator)
                installed.append(translator)
    app._subword_translators = installed  # type: ignore[attr-defined]  # keep them alive
    app.setProperty("subword_language", language)
    return language


def current_language() -> str:
    """The language :func:`install_translators` put in force (``"en"`` before it ran)."""
    app = QCoreApplication.instance()
    return str(app.property("subword_language") or "en") if app is not None else "en"


def localized(entry: dict, key: str) -> str:
    """``entry[key + "_" + language]`` when a data file carries one (the Examples do), else ``entry[key]``.

    >>> entry = {"title": "Four sentences", "title_ko": "네 문장"}
    >>> app = QCoreApplication.instance()
    >>> install_translators(app, "ko")
    'ko'
    >>> localized(entry, "title")   # Korean in force
    '네 문장'
    >>> install_translators(app, "en")
    'en'
    >>> localized(entry, "title"), localized({"title": "Hangul"}, "title")
    ('Four sentences', 'Hangul')
    """
    return str(entry.get(f"{key}_{current_language()}") or entry.get(key) or "")


def _qt_catalogue(app: QCoreApplication, language: str, qt_dir: str) -> QTranslator | None:
    qt = QTranslator(app)
    return qt if qt.load(f"qtbase_{language}", qt_dir) else None
