"""Subword Explorer engine: train, inspect and apply subword tokenizers.

Pure Python (plus `regex`); never imports Qt. The pipeline follows the
Hugging Face `tokenizers` shape: normalizer -> pre-tokenizer -> model -> decoder,
with offsets into the original text carried from the first stage to the last.
"""

__version__ = "0.1.0"
