"""One entry point to train any algorithm: what the CLI and the GUI call.

    >>> tok = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=11)))
    >>> tok.encode("pug").tokens

Each algorithm module provides a trainer generator
``train_xxx(word_counts: dict[str, int], options: TrainOptions) -> Generator[event, None, Model]``
where ``word_counts`` are *pre-tokens* (already normalized and pre-tokenized:
``▁``-prefixed for metaspace, byte-mapped for byte-level). This module wraps
the returned model into a :class:`~core.tokenizer.Tokenizer` with the pipeline
and decoder the options describe (``core.options``: the options and the stages they build,
which counting reads too).

A trained model may offer ``truncated(vocab_size) -> Model`` (the explorer's
vocab-size slider) and ``min_vocab_size`` (the smallest size it can be cut to).
"""

from __future__ import annotations

import re
from collections.abc import Generator

from core.errors import CorpusError, SubwordError
from core.models import factory
from core.options import TrainOptions, build_decoder, build_normalizer, build_pre_tokenizer
from core.tokenizer import AddedToken, Tokenizer

_LONE_SURROGATE = "[\ud800-\udfff]"  # (compiled on first use, by re's cache: ASCII words never need it)


def check_word_counts(word_counts) -> dict[str, int]:
    """``word_counts`` if it maps strings to positive whole numbers; CorpusError naming the first bad entry.

    The same rule as a word-count file read by the command line (``core.corpus.read_word_counts``),
    and the same rule for text as ``Tokenizer.encode`` (``core.text.check_text``).

    >>> check_word_counts({"hug": 10})
    {'hug': 10}
    """
    from core.text import check_text

    if not isinstance(word_counts, dict):
        raise CorpusError(f"word counts must be a dict of word -> count, not {type(word_counts).__name__}")
    # The common case in one pass each (a corpus has ~10^6 words): all strings,
    # all positive ints, no lone surrogate anywhere; the loops below name a culprit.
    counts = word_counts.values()
    if (
        set(map(type, word_counts)) <= {str}  # (map in C: ~2x faster than a generator of `is`)
        and set(map(type, counts)) <= {int}
        and (not counts or min(counts) > 0)
    ):
        joined = "".join(word_counts)
        if joined.isascii() or not re.search(_LONE_SURROGATE, joined):
            return word_counts
    for word, n in word_counts.items():
        if not isinstance(word, str):
            raise CorpusError(
                f"word counts: the word {word!r} is of type {type(word).__name__}, not a string"
            )
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise CorpusError(
                f"word counts: the count of {word!r} must be a positive whole number, not {n!r}"
            )
    for word in word_counts:
        if not word.isascii():
            try:
                check_text(word, "a counted word")
            except SubwordError as e:
                raise CorpusError(f"word counts: {e}") from None
    return word_counts


def trainer_for(algorithm: str):
    """The trainer generator of ``algorithm`` (``core.models.factory.TRAINERS``)."""
    return factory.trainer(algorithm)


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
    check_word_counts(word_counts)
    model = yield from trainer_for(options.algorithm)(word_counts, options)
    return wrap_model(model, options)
