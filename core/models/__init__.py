"""Tokenization models: turn one pre-token into tokens.

One package per algorithm (``bpe``, ``unigram``, ``wordpiece``, ``wordlevel``), each holding its
model, trainer, kernels and readable reference; ``base`` holds what every model offers.
"""

from core.models.base import Model, Token

__all__ = ["Model", "Token"]
