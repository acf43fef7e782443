"""WordLevel: ``model.py``, each pre-token one token (no trainer: a word count cut at a size)."""
