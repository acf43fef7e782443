"""The explorer's look: ``theme.py`` (Fusion style, palette, fonts that render Korean and Japanese,
plot defaults) and ``explorer.qss`` (the style sheet it loads)."""
