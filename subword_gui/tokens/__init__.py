"""Drawing tokens: how a token looks, where its colour comes from, and why it was cut there.

- ``palette.py``    colours: stable per token id, never the same for two neighbours.
- ``render.py``     a token's visible form (byte-level ``Ġ`` as ``␣``, ``##``, ``▁``, bytes) — Qt-free.
- ``token_view.py`` coloured spans over the editor's text, chips, tooltips.
- ``why_view.py``   the "why" of a split: BPE merges, WordPiece matches, the Unigram lattice.
"""
