"""Tokenization models: turn one pre-token into tokens. Trainers live in `core.trainers`."""

from core.models.base import Model, Token

__all__ = ["Model", "Token"]
