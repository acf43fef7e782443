"""The one module that knows every model: a kind's name to its class or its trainer.

    >>> model_class("WordPiece")
    <class 'core.models.wordpiece.model.WordPiece'>
    >>> model_kind(model_class("BPE")({"u": 0, "g": 1, "ug": 2}, [("u", "g")]))
    'BPE'

Everything else names a kind, never a class: the file readers (``core.formats``) build the
model their file names, training (``core.training``) runs the trainer its options name, and the
rest asks a model what it can do through ``core.models.base.ModelBase``. A class is imported
when it is first asked for, so a job pays only for the algorithm it uses. This is SentencePiece's
``model_factory.cc`` and `tokenizers`' ``ModelWrapper`` (``tokenizers/src/models/mod.rs``).

To add an algorithm: give it a package ``core/models/<algorithm>/`` (``model.py`` subclassing
``ModelBase``, ``trainer.py``), then one line here in :data:`MODELS` (its ``tokenizer.json``
type) and, if it trains, one in :data:`TRAINERS` (and its options in ``core.options``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

# tokenizer.json's model "type" -> "module:Class"
MODELS: dict[str, str] = {
    "BPE": "core.models.bpe.model:BPE",
    "WordPiece": "core.models.wordpiece.model:WordPiece",
    "Unigram": "core.models.unigram.model:Unigram",
    "WordLevel": "core.models.wordlevel.model:WordLevel",
    "PickyBPE": "core.models.bpe.picky_model:PickyBPE",  # our own type (core.formats.hf_compat has its stand-in)
}

# SentencePiece's model_type -> "module:Class"; each is made as ``Class(pieces, byte_fallback=...)``
SENTENCEPIECE_MODELS: dict[str, str] = {
    "unigram": "core.models.unigram.sentencepiece:SentencePieceUnigram",
    "bpe": "core.models.bpe.sentencepiece:SentencePieceBPE",
    "char": "core.models.wordlevel.sentencepiece:SentencePieceChar",
    "word": "core.models.wordlevel.sentencepiece:SentencePieceWord",
}

# algorithm -> "module:function" of its trainer generator, one per core.options.ALGORITHMS
TRAINERS: dict[str, str] = {
    "bpe": "core.models.bpe.trainer:train_bpe",
    "bytelevel-bpe": "core.models.bpe.trainer:train_bpe",
    "picky-bpe": "core.models.bpe.picky:train_picky_bpe",
    "superbpe": "core.models.bpe.superbpe:train_superbpe",
    "wordpiece": "core.models.wordpiece.trainer:train_wordpiece",
    "unigram": "core.models.unigram.trainer:train_unigram",
    "sentencepiece-bpe": "core.models.bpe.sentencepiece_trainer:train_sentencepiece_bpe",
    "sentencepiece-unigram": "core.models.unigram.sentencepiece_trainer:train_sentencepiece_unigram",
}


def _load(target: str) -> Any:
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def model_class(kind: str) -> type:
    """The class of a ``tokenizer.json`` model type (a key of :data:`MODELS`; KeyError otherwise)."""
    return _load(MODELS[kind])


def sentencepiece_model_class(model_type: str) -> type:
    """The class of a SentencePiece ``model_type`` (a key of :data:`SENTENCEPIECE_MODELS`)."""
    return _load(SENTENCEPIECE_MODELS[model_type])


def trainer(algorithm: str) -> Callable:
    """The trainer generator of ``algorithm`` (a key of :data:`TRAINERS`; KeyError otherwise)."""
    return _load(TRAINERS[algorithm])


def model_kind(model: object) -> str | None:
    """The :data:`MODELS` type of ``model``'s class or the nearest class it derives from; None
    for a model none of them is (a SentencePiece or rank-file model, a test's own).

        >>> model_kind(model_class("Unigram")([("<unk>", 0.0)]))
        'Unigram'
    """
    kinds = {target: kind for kind, target in MODELS.items()}
    for cls in type(model).__mro__:
        kind = kinds.get(f"{cls.__module__}:{cls.__qualname__}")
        if kind is not None:
            return kind
    return None
