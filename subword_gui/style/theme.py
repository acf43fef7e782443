"""The explorer's look: Fusion style, a calm light palette, fonts that render Korean and Japanese.

    >>> apply_theme(app)     # once, right after QApplication()

Fonts: the UI font is a family *list* so Hangul and kana fall back to Noto CJK
and emoji to Noto Color Emoji instead of drawing boxes when the first family lacks them (Qt only falls back
within the list and the platform's defaults, which offscreen has none of).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QFont, QFontDatabase, QPalette
from PySide6.QtWidgets import QApplication

# Noto Color Emoji last but one: 👋🏽 and 👨‍👩‍👧 draw in colour instead of as boxes.
EMOJI_FAMILY = "Noto Color Emoji"
UI_FAMILIES = ["Noto Sans", "Noto Sans CJK KR", "Noto Sans CJK JP", "DejaVu Sans", EMOJI_FAMILY, "Sans Serif"]
MONO_FAMILIES = ["Noto Sans Mono CJK KR", "DejaVu Sans Mono", EMOJI_FAMILY, "Monospace"]
UI_POINT_SIZE = 10

ACCENT = "#2f6feb"
WINDOW_BG = "#f6f7f9"
BASE_BG = "#ffffff"
ALT_BG = "#f3f5f8"
TEXT = "#1f2328"
MUTED = "#6b7280"
BORDER = "#d0d7de"

# Plot colours (Okabe–Ito, colour-blind safe).
PLOT_BLUE = "#0072B2"
PLOT_ORANGE = "#E69F00"
PLOT_GREEN = "#009E73"
PLOT_VERMILLION = "#D55E00"


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


def _palette() -> QPalette:
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: WINDOW_BG,
        QPalette.ColorRole.WindowText: TEXT,
        QPalette.ColorRole.Base: BASE_BG,
        QPalette.ColorRole.AlternateBase: ALT_BG,
        QPalette.ColorRole.Text: TEXT,
        QPalette.ColorRole.Button: "#eef1f4",
        QPalette.ColorRole.ButtonText: TEXT,
        QPalette.ColorRole.Highlight: ACCENT,
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: "#fffbe6",
        QPalette.ColorRole.ToolTipText: TEXT,
        QPalette.ColorRole.PlaceholderText: MUTED,
        QPalette.ColorRole.Link: ACCENT,
    }
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(MUTED))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(MUTED))
    return p


def style_sheet() -> str:
    path = Path(__file__).with_name("explorer.qss")
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def apply_theme(app: QApplication) -> None:
    app.setStyle("Fusion")
    app.setPalette(_palette())
    app.setFont(ui_font())
    app.setStyleSheet(style_sheet())


def configure_plots() -> None:
    """pyqtgraph's colours to match the theme; called just before the first plot is built
    (importing pyqtgraph costs about half a second, so not at start-up)."""
    try:
        import pyqtgraph as pg

        pg.setConfigOptions(background=BASE_BG, foreground=MUTED, antialias=True)
    except Exception:  # noqa: BLE001 - plots fall back to their defaults
        pass
