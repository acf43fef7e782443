"""The explorer's look: Fusion style, a calm light or dark palette, fonts that render Korean and Japanese.

    >>> from PySide6.QtWidgets import QApplication
    >>> app = QApplication.instance()
    >>> _ = apply_theme(app); mode()          # once, right after QApplication(): follows the system
    'system'
    >>> apply_theme(app, "dark") is DARK      # View › Theme › Dark
    True
    >>> current().muted                       # colours for rich text and painting, of the theme in use
    '#9198a1'
    >>> _ = apply_theme(app, "light")         # View › Theme › Light (as the GUI tests leave it)

"system" follows the desktop: Qt's colour-scheme hint when the platform gives one,
else the lightness of the palette the platform handed the application before
ours replaced it; a change of the desktop's scheme is followed while the app runs.

Fonts: the UI font is a family *list* so Hangul and kana fall back to Noto CJK
and emoji to Noto Color Emoji instead of drawing boxes (Qt only falls back
within the list and the platform's defaults, which offscreen has none of).

Token colours (``tokens/palette.py``) are pale backgrounds behind black text in both
themes: a chip is a coloured label, not text on the window.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from string import Template

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

# Noto Color Emoji last but one: 👋🏽 and 👨‍👩‍👧 draw in colour instead of as boxes.
EMOJI_FAMILY = "Noto Color Emoji"
UI_FAMILIES = ["Noto Sans", "Noto Sans CJK KR", "Noto Sans CJK JP", "DejaVu Sans", EMOJI_FAMILY, "Sans Serif"]
MONO_FAMILIES = ["Noto Sans Mono CJK KR", "DejaVu Sans Mono", EMOJI_FAMILY, "Monospace"]
UI_POINT_SIZE = 10
THEMES = ("system", "light", "dark")


@dataclass(frozen=True)
class Colours:
    """One theme's colours (names as in the style sheet template, ``$window`` …)."""

    dark: bool
    window: str
    base: str
    alt: str
    text: str
    muted: str
    border: str
    button: str
    title: str  # dock titles, tabs, headers, status bar
    separator: str
    hover: str
    pressed: str
    accent: str
    accent_hover: str
    accent_disabled: str
    selection: str  # a selected table row (text keeps its colour)
    disabled: str
    tooltip: str
    error: str
    tie: str  # a merge-log row decided by the tie rule
    stage: str  # a merge-log row where a trainer's next stage begins (SuperBPE's superwords)
    removed: str  # a merge-log row of a removal (PickyBPE), and a removed token's text
    superword: str  # a token that spans a space (SuperBPE): its mark in tables, chips and text


LIGHT = Colours(
    dark=False,
    window="#f6f7f9",
    base="#ffffff",
    alt="#f3f5f8",
    text="#1f2328",
    muted="#656d76",
    border="#c4ccd5",
    button="#ffffff",
    title="#eceff3",
    separator="#e3e7ec",
    hover="#f1f4f8",
    pressed="#e4e9ef",
    accent="#2f6feb",
    accent_hover="#2a62d0",
    accent_disabled="#a9c1f5",
    selection="#dbe7ff",
    disabled="#9aa0a6",
    tooltip="#fffbe6",
    error="#b42318",
    tie="#fff4d6",
    stage="#dcefe6",
    removed="#b42318",
    superword="#7a3fb8",
)
DARK = Colours(
    dark=True,
    window="#1d2125",
    base="#15181b",
    alt="#1b1f23",
    text="#e6edf3",
    muted="#9198a1",
    border="#3d444d",
    button="#262c33",
    title="#262c33",
    separator="#30363d",
    hover="#2f363e",
    pressed="#383f48",
    accent="#4c8dff",
    accent_hover="#3a7af0",
    accent_disabled="#2b4470",
    selection="#1f3a66",
    disabled="#6e7681",
    tooltip="#2b3036",
    error="#ff7b72",
    tie="#4a3f1c",
    stage="#1f3d33",
    removed="#ff8a80",
    superword="#c49bf0",
)

# Plot colours (Okabe–Ito, colour-blind safe); readable on both backgrounds.
PLOT_BLUE = "#0072B2"
PLOT_ORANGE = "#E69F00"
PLOT_GREEN = "#009E73"
PLOT_VERMILLION = "#D55E00"

# The light theme's names, kept for code that reads them directly.
ACCENT = LIGHT.accent
WINDOW_BG = LIGHT.window
BASE_BG = LIGHT.base
ALT_BG = LIGHT.alt
TEXT = LIGHT.text
MUTED = LIGHT.muted
BORDER = LIGHT.border

_current = LIGHT
_mode = "system"
_system_palette: QPalette | None = None  # what the platform gave, before ours replaced it
_following = False


def current() -> Colours:
    """The colours of the theme in use."""
    return _current


def mode() -> str:
    """ "system", "light" or "dark": what the user chose."""
    return _mode


def _available(families: list[str]) -> list[str]:
    known = set(QFontDatabase.families())
    chosen = [f for f in families if f in known]
    return chosen or families


def ui_font(point_size: int = UI_POINT_SIZE) -> QFont:
    font = QFont()
    font.setFamilies(_available(UI_FAMILIES))
    font.setPointSize(point_size)
    return font


def mono_font(point_size: int = UI_POINT_SIZE) -> QFont:
    font = QFont()
    font.setFamilies(_available(MONO_FAMILIES) + _available(UI_FAMILIES))
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSize(point_size)
    return font


def palette_of(c: Colours) -> QPalette:
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: c.window,
        QPalette.ColorRole.WindowText: c.text,
        QPalette.ColorRole.Base: c.base,
        QPalette.ColorRole.AlternateBase: c.alt,
        QPalette.ColorRole.Text: c.text,
        QPalette.ColorRole.Button: c.button,
        QPalette.ColorRole.ButtonText: c.text,
        QPalette.ColorRole.BrightText: "#ffffff",
        QPalette.ColorRole.Highlight: c.accent,
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: c.tooltip,
        QPalette.ColorRole.ToolTipText: c.text,
        QPalette.ColorRole.PlaceholderText: c.muted,
        QPalette.ColorRole.Link: c.accent,
        QPalette.ColorRole.Light: c.hover,
        QPalette.ColorRole.Midlight: c.separator,
        QPalette.ColorRole.Mid: c.border,
        QPalette.ColorRole.Dark: c.border,
        QPalette.ColorRole.Shadow: "#000000",
    }
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(c.disabled))
    return p


def style_sheet(c: Colours = LIGHT) -> str:
    """The style sheet template (``explorer.qss``) filled with a theme's colours."""
    path = Path(__file__).with_name("explorer.qss")
    if not path.is_file():
        return ""
    from subword_gui.resources import resource_path

    # a check box's tick, drawn white on the accent (the style sheet draws the box itself: Fusion's
    # box was dark grey on dark grey in the dark theme)
    check = resource_path("icons", "check.svg").as_posix()
    return Template(path.read_text(encoding="utf-8")).safe_substitute(asdict(c), check=check)


def system_prefers_dark(app: QGuiApplication | None = None) -> bool:
    """Does the desktop ask for dark? Qt's colour-scheme hint, else the platform palette."""
    app = app or QGuiApplication.instance()
    if app is None:
        return False
    scheme = app.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    base = _system_palette if _system_palette is not None else app.palette()
    return base.color(QPalette.ColorRole.Window).lightness() < 128


def colours_for(choice: str, app: QGuiApplication | None = None) -> Colours:
    """The colours ``choice`` ("system", "light", "dark") stands for on this desktop."""
    if choice == "dark" or (choice == "system" and system_prefers_dark(app)):
        return DARK
    return LIGHT


def apply_theme(app: QApplication, choice: str = "system") -> Colours:
    """Fusion, the palette, the fonts and the style sheet of ``choice``; returns its colours."""
    global _current, _mode, _system_palette, _following
    if _system_palette is None:
        _system_palette = QPalette(app.palette())
    _mode = choice if choice in THEMES else "system"
    _current = colours_for(_mode, app)
    app.setStyle("Fusion")
    app.setPalette(palette_of(_current))
    app.setFont(ui_font())
    app.setStyleSheet(style_sheet(_current))
    if "pyqtgraph" in sys.modules:  # else configured when the first plot is built
        configure_plots()
    if not _following:
        _following = True
        # the desktop switched between light and dark while we run: follow it if asked to
        app.styleHints().colorSchemeChanged.connect(
            lambda _s: _mode == "system" and apply_theme(app, "system")
        )
    return _current


def configure_plots() -> None:
    """pyqtgraph's colours to match the theme (for plots built from now on);
    called just before the first plot is built (importing pyqtgraph costs about half a
    second, so not at start-up)."""
    try:
        import pyqtgraph as pg
    except Exception:  # noqa: BLE001 - plots fall back to their defaults
        return
    pg.setConfigOptions(background=_current.base, foreground=_current.muted, antialias=True)


def restyle_plot(widget) -> None:
    """Give a built pyqtgraph PlotWidget, or every plot of a GraphicsLayoutWidget (Compare's bar
    charts), the current theme's background, axes and title colour."""
    import pyqtgraph as pg

    widget.setBackground(_current.base)
    if isinstance(widget, pg.GraphicsLayoutWidget):
        for item in list(widget.ci.items):
            if isinstance(item, pg.PlotItem):
                _restyle_plot_item(item)
    else:
        _restyle_plot_item(widget.getPlotItem())


def _restyle_plot_item(item) -> None:
    import pyqtgraph as pg

    c = _current
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen(c.muted))
        axis.setTextPen(pg.mkPen(c.muted))
    title = item.titleLabel
    if title is not None and title.text:
        title.setText(title.text, color=c.text)
