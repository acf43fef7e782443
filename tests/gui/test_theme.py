"""The look: light and dark themes from one style sheet template, View › Theme, following the system."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from subword_gui.style import theme


@pytest.fixture
def restore_theme(qapp):
    yield
    theme.apply_theme(qapp, "light")


def _distinct_colours(image) -> int:
    return len({image.pixel(x, y) for x in range(image.width()) for y in range(image.height())})


@pytest.mark.parametrize("colours", [theme.LIGHT, theme.DARK])
def test_the_style_sheet_is_filled_for_both_themes(colours):
    sheet = theme.style_sheet(colours)
    assert "$" not in sheet and colours.window in sheet and colours.text in sheet


def test_view_theme_dark_switches_the_palette_and_is_remembered(window, settings, restore_theme):
    window.theme_actions["dark"].trigger()
    palette = QApplication.instance().palette()
    assert palette.color(QPalette.ColorRole.Window).lightness() < 80
    assert palette.color(QPalette.ColorRole.WindowText).lightness() > 180
    assert theme.current() is theme.DARK and window.theme_actions["dark"].isChecked()
    assert settings.value("view/theme") == "dark"
    window.theme_actions["light"].trigger()
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).lightness() > 200


def test_system_follows_a_dark_desktop_palette(qapp, monkeypatch, restore_theme):
    dark = QPalette()
    dark.setColor(QPalette.ColorRole.Window, theme.DARK.window)
    monkeypatch.setattr(theme, "_system_palette", dark)
    if qapp.styleHints().colorScheme() != theme.Qt.ColorScheme.Unknown:
        pytest.skip("this platform states its colour scheme; the palette is not consulted")
    assert theme.colours_for("system", qapp) is theme.DARK
    assert theme.colours_for("light", qapp) is theme.LIGHT


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_a_combo_popup_draws_its_current_item(qtbot, window, choice, restore_theme):
    """The Algorithm box's popup: the current item's text is drawn (it was blank)."""
    window.set_theme(choice)
    combo = window.training_panel.algorithm_box
    combo.showPopup()
    view = combo.view()
    qtbot.waitUntil(view.isVisible, timeout=2000)
    rect = view.visualRect(combo.model().index(combo.currentIndex(), 0))
    image = view.viewport().grab(rect).toImage()
    combo.hidePopup()
    assert _distinct_colours(image) > 4  # text over the highlight, not a flat bar


def test_compare_bar_charts_follow_a_theme_switch(window, restore_theme):
    window.finish_startup()  # builds Compare (pyqtgraph is imported after the first paint)
    plots = window.compare_panel.plots
    window.theme_actions["dark"].trigger()
    assert plots.backgroundBrush().color().name() == theme.DARK.base.lower()
    window.theme_actions["light"].trigger()
    assert plots.backgroundBrush().color().name() == theme.LIGHT.base.lower()


def test_a_check_box_is_drawn_plainly_in_the_dark_theme(qtbot, qapp, restore_theme):
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QCheckBox

    theme.apply_theme(qapp, "dark")
    box = QCheckBox("Follow Segmentation")
    qtbot.addWidget(box)
    box.show()
    for checked in (True, False):
        box.setChecked(checked)
        image = box.grab().toImage()
        # the box itself, left of the text: the accent when checked, a light frame when not
        pixels = [
            QColor(image.pixel(x, y)) for x in range(min(22, image.width())) for y in range(image.height())
        ]
        if checked:
            accent = QColor(theme.DARK.accent)
            assert sum(abs(p.hue() - accent.hue()) < 12 and p.saturation() > 80 for p in pixels) > 40
        else:
            background = QColor(theme.DARK.window).lightness()
            assert max(p.lightness() for p in pixels) - background > 60


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_a_disabled_line_edit_looks_disabled(qtbot, qapp, choice, restore_theme):
    """While training, the Special tokens box is disabled like the combo boxes beside it."""
    from PySide6.QtWidgets import QLineEdit

    theme.apply_theme(qapp, choice)
    edit = QLineEdit("<unk>")
    qtbot.addWidget(edit)
    edit.resize(120, 28)
    edit.show()
    enabled = edit.grab().toImage().pixelColor(60, 3)
    edit.setEnabled(False)
    disabled = edit.grab().toImage().pixelColor(60, 3)
    assert enabled != disabled
