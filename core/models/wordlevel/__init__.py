"""WordLevel: ``model.py``, each pre-token one token (no trainer: a word count cut at a size);
``sentencepiece.py``, SentencePiece's char and word models (one piece per character or per word)."""
