"""Visible token rendering (render.py) and the span palette (palette.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.bytelevel import bytes_to_chars
from subword_gui.tokens import palette
from subword_gui.tokens.render import TokenStyle, render_html, render_parts, render_token, token_bytes

BYTES = TokenStyle(byte_level=True)


def test_byte_level_tokens_show_the_text_their_bytes_spell():
    assert render_token(bytes_to_chars(b" hello"), BYTES) == "␣hello"
    assert render_token(bytes_to_chars("한국".encode()), BYTES) == "한국"
    assert render_token(bytes_to_chars(b"\n"), BYTES) == "↵"


def test_stray_bytes_are_shown_as_hex():
    # 한 is ED 95 9C; a token holding only its first two bytes cannot be shown as text
    assert render_parts(bytes_to_chars(b"\xed\x95"), BYTES) == [("⟨ED 95⟩", "byte")]
    # text followed by the first byte of the next character
    assert render_parts(bytes_to_chars(b"a" + b"\xec"), BYTES) == [("a", "text"), ("⟨EC⟩", "byte")]
    assert render_parts("<0xE2>") == [("<0xE2>", "byte")]


def test_markers_spaces_and_invisible_characters():
    assert render_parts("##ug", TokenStyle(prefix="##")) == [("##", "marker"), ("ug", "text")]
    assert render_parts("low</w>", TokenStyle(suffix="</w>")) == [("low", "text"), ("</w>", "marker")]
    assert render_parts("▁hug") == [("▁", "space"), ("hug", "text")]
    assert render_parts(" the") == [("␣", "space"), ("the", "text")]
    assert render_token("a\u200bb") == "a⟨U+200B⟩b"
    assert render_token("\t") == "⇥"
    assert render_token("") == "∅"
    # "##" alone is a token, not a prefix of nothing
    assert render_parts("##", TokenStyle(prefix="##")) == [("##", "text")]


def test_token_bytes():
    assert token_bytes(bytes_to_chars(b" a"), BYTES) == b" a"
    assert token_bytes("<0x0A>") == b"\n"
    assert token_bytes("##한", TokenStyle(prefix="##")) == "한".encode()
    assert token_bytes("▁a") == "▁a".encode()


def test_html_escapes_and_colours():
    html = render_html("<b>")
    assert "&lt;b&gt;" in html
    assert "color:#888888" in render_html("##a", TokenStyle(prefix="##"))


# a loaded machine (the suite on 2 shared cores) made input generation trip the too-slow check
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=300_000), max_size=200))
def test_neighbouring_tokens_never_share_a_colour(ids):
    colours = [c.name() for c in palette.token_colours(ids)]
    assert all(a != b for a, b in zip(colours, colours[1:]))
    # and the colour depends on the id (and the neighbour), not on the position alone
    keys = palette.colour_keys(ids)
    assert all(k[0] == palette.hue_index(i) for k, i in zip(keys, ids))


def test_palette_colours_avoid_the_reserved_styles():
    reserved = {
        palette.UNKNOWN_BACKGROUND.name(),
        palette.SPECIAL_BACKGROUND.name(),
        palette.SHARED_BACKGROUND.name(),
    }
    for hue in range(len(palette.LIGHT_HUES)):
        for shade in (0, 1):
            assert palette.colour_of((hue, shade)).name() not in reserved


def test_an_emoji_of_several_code_points_is_one_visible_character():
    # a skin tone modifier and a family joined by U+200D (invisible on its own)
    for emoji in ("👋🏽", "👨\u200d👩\u200d👧"):
        assert render_parts(f"a{emoji}b") == [(f"a{emoji}b", "text")]
    # a lone joiner is still made visible
    assert render_token("a\u200d") == "a⟨U+200D⟩"
    # byte-level pieces that split an emoji show their stray bytes, like any split character
    assert render_parts(bytes_to_chars("👋🏽".encode()[:6]), BYTES) == [("👋", "text"), ("⟨F0 9F⟩", "byte")]


def test_the_ui_fonts_fall_back_to_a_colour_emoji_font(qapp):
    from PySide6.QtGui import QFontDatabase

    from subword_gui.style import theme

    if theme.EMOJI_FAMILY not in QFontDatabase.families():
        pytest.skip("fonts-noto-color-emoji is not installed (.ci/setup.sh installs it)")
    assert theme.EMOJI_FAMILY in theme.ui_font().families()
    assert theme.EMOJI_FAMILY in theme.mono_font().families()
