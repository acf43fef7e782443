"""One entry point to train any algorithm: what the CLI and the GUI call.

    >>> tok = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=11)))
    >>> tok.encode("pug").tokens

Each algorithm module provides a trainer generator
``train_xxx(word_counts: dict[str, int], options: TrainOptions) -> Generator[event, None, Model]``
where ``word_counts`` are *pre-tokens* (already normalized and pre-tokenized:
``▁``-prefixed for metaspace, byte-mapped for byte-level). This module wraps
the returned model into a :class:`~core.tokenizer.Tokenizer` with the pipeline
and decoder the options describe.

A trained model may offer ``truncated(vocab_size) -> Model`` (the explorer's
vocab-size slider) and ``min_vocab_size`` (the smallest size it can be cut to).
"""

from __future__ import annotations

import importlib
from collections.abc import Generator, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from core import decoders
from core.errors import ConfigError
from core.normalizers import normalizer_from_names
from core.pre_tokenizers import pre_tokenizer_from_name
from core.tokenizer import AddedToken, Tokenizer

# algorithm -> "module:function" of its trainer generator (imported lazily).
TRAINERS: dict[str, str] = {
    "bpe": "core.trainers.bpe:train_bpe",
    "bytelevel-bpe": "core.trainers.bpe:train_bpe",
    "wordpiece": "core.trainers.wordpiece:train_wordpiece",
    "unigram": "core.trainers.unigram:train_unigram",
}

DEFAULT_PRE_TOKENIZER = {
    "bpe": "whitespace",
    "bytelevel-bpe": "bytelevel",
    "wordpiece": "bert",
    "unigram": "metaspace",
}

DEFAULT_SPECIAL_TOKENS = {
    "bpe": ["<unk>"],
    "bytelevel-bpe": [],
    "wordpiece": ["[UNK]"],
    "unigram": ["<unk>"],
}


@dataclass
class TrainOptions:
    """Everything a training run needs besides the corpus. Unused fields are ignored
    by algorithms they do not apply to; ``extra`` holds algorithm-specific settings
    (e.g. ``{"score": "frequency"}`` for WordPiece, ``{"textbook": True}`` for Unigram)."""

    algorithm: str = "bpe"
    vocab_size: int = 8000
    min_frequency: int = 0
    special_tokens: list[str] | None = None  # None -> DEFAULT_SPECIAL_TOKENS[algorithm]
    unk_token: str | None = None  # None -> the first special token that looks like an unknown token
    normalizer: str | None = None  # e.g. "nfkc,lowercase"
    pre_tokenizer: str | None = None  # None -> DEFAULT_PRE_TOKENIZER[algorithm]
    limit_alphabet: int | None = None
    end_of_word_suffix: str | None = None
    continuing_subword_prefix: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.algorithm not in TRAINERS:
            raise ConfigError(f"unknown algorithm {self.algorithm!r}; choose from {', '.join(TRAINERS)}")
        if self.special_tokens is None:
            self.special_tokens = list(DEFAULT_SPECIAL_TOKENS[self.algorithm])
        if self.pre_tokenizer is None:
            self.pre_tokenizer = DEFAULT_PRE_TOKENIZER[self.algorithm]
        if self.unk_token is None:
            self.unk_token = next((t for t in self.special_tokens if "unk" in t.lower()), None)
        if not isinstance(self.vocab_size, int) or self.vocab_size < 1:
            raise ConfigError(f"vocab size must be a positive whole number, not {self.vocab_size!r}")
        if self.vocab_size > 10_000_000:
            raise ConfigError(f"vocab size {self.vocab_size} is absurd (at most 10,000,000)")
        if self.min_frequency < 0:
            raise ConfigError("minimum frequency cannot be negative")
        if self.algorithm == "bytelevel-bpe" and self.pre_tokenizer != "bytelevel":
            raise ConfigError("byte-level BPE needs the bytelevel pre-tokenizer")

    @property
    def byte_level(self) -> bool:
        return self.algorithm == "bytelevel-bpe"

    def to_dict(self) -> dict:
        return asdict(self)


def build_normalizer(options: TrainOptions):
    return normalizer_from_names(options.normalizer)


def build_pre_tokenizer(options: TrainOptions):
    return pre_tokenizer_from_name(options.pre_tokenizer)


def build_decoder(options: TrainOptions):
    if options.pre_tokenizer == "bytelevel":
        return decoders.ByteLevel()
    if options.algorithm == "wordpiece":
        return decoders.WordPiece(options.continuing_subword_prefix or "##")
    if options.pre_tokenizer == "metaspace":
        return decoders.Metaspace()
    if options.end_of_word_suffix:
        return decoders.BPEDecoder(options.end_of_word_suffix)
    return None


def trainer_for(algorithm: str):
    module, func = TRAINERS[algorithm].split(":")
    return getattr(importlib.import_module(module), func)


def wrap_model(model, options: TrainOptions) -> Tokenizer:
    """Put a trained model into the tokenizer pipeline its options describe."""
    added = []
    for t in options.special_tokens or []:
        i = model.token_to_id(t)
        if i is not None:
            added.append(AddedToken(t, i, special=True))
    return Tokenizer(
        model,
        normalizer=build_normalizer(options),
        pre_tokenizer=build_pre_tokenizer(options),
        decoder=build_decoder(options),
        added_tokens=added,
    )


def train_from_counts(
    word_counts: dict[str, int], options: TrainOptions
) -> Generator[object, None, Tokenizer]:
    """Train on pre-token counts (already through the options' normalizer and pre-tokenizer)."""
    model = yield from trainer_for(options.algorithm)(word_counts, options)
    return wrap_model(model, options)


def pre_tokenize_counts(word_counts: dict[str, int], options: TrainOptions) -> dict[str, int]:
    """Run raw word counts (e.g. from a word-count file) through the options' pipeline."""
    normalizer = build_normalizer(options)
    pre = build_pre_tokenizer(options)
    out: dict[str, int] = {}
    for word, n in word_counts.items():
        if normalizer is not None:
            word = normalizer.normalize_str(word)
        for piece in pre.split_words(word):
            out[piece] = out.get(piece, 0) + n
    return out


def pre_tokenize_lines(lines: Iterable[str], options: TrainOptions) -> dict[str, int]:
    """Count pre-tokens of in-memory lines (small corpora, tests, examples)."""
    normalizer = build_normalizer(options)
    pre = build_pre_tokenizer(options)
    out: dict[str, int] = {}
    for line in lines:
        if normalizer is not None:
            line = normalizer.normalize_str(line)
        for piece in pre.split_words(line):
            out[piece] = out.get(piece, 0) + 1
    return out
