"""One entry point to train any algorithm: what the CLI and the GUI call.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> tok = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=11)))
    >>> tok.encode("hug pug").tokens
    ['hug', 'pug']

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
from core.options import (
    SENTENCEPIECE_ALGORITHMS,
    TrainOptions,
    build_decoder,
    build_normalizer,
    build_pre_tokenizer,
)
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
    if options.algorithm in SENTENCEPIECE_ALGORITHMS:
        return _sentencepiece_tokenizer(model, options)
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


def _sentencepiece_tokenizer(model, options: TrainOptions) -> Tokenizer:
    """A model trained as spm_train trains it, in the pipeline its ``.model`` file opens to
    (``core.formats.sentencepiece_model.tokenizer_from_proto``): SentencePiece's normalizer
    (identity rules), its segmentation of the whole sentence and its decoder.
    ``extra["sentencepiece_training"]`` holds what the file's specs need besides the pieces."""
    from collections import Counter

    from core.decoders import SentencePieceDecoder
    from core.normalizers_sentencepiece import SentencePieceNormalizer
    from core.sentencepiece_pieces import CONTROL, PIECE_TYPE_NAMES
    from core.sentencepiece_training import SentencePieceSettings

    settings = SentencePieceSettings.from_extra(options.extra)
    ids = {p.piece: i for i, p in enumerate(model.pieces)}
    unk = options.unk_token or "<unk>"
    controls = [t for t in options.special_tokens or [] if t != unk]
    normalizer = SentencePieceNormalizer(
        b"",
        add_dummy_prefix=settings.add_dummy_prefix,
        treat_whitespace_as_suffix=settings.treat_whitespace_as_suffix,
        user_defined=model.user_defined,
        name="identity",
    )
    decoder = SentencePieceDecoder(
        {p.piece for p in model.pieces if p.type == CONTROL},
        model.unk_token,
        " \u2047 ",
        drop_first_space=True,
        drop_leading_spaces=True,
    )
    tok = Tokenizer(model, normalizer=normalizer, pre_tokenizer=None, decoder=decoder)
    model_type = SENTENCEPIECE_ALGORITHMS[options.algorithm]
    special_ids = {
        "unk": ids[unk],
        "bos": ids[controls[0]] if len(controls) > 0 else -1,
        "eos": ids[controls[1]] if len(controls) > 1 else -1,
        "pad": -1,
    }
    tok.extra["sentencepiece_training"] = {
        "model_type": model_type,
        "special_ids": special_ids,
        "special_pieces": {
            "unk": unk,
            "bos": controls[0] if controls else "<s>",
            "eos": controls[1] if len(controls) > 1 else "</s>",
        },
        **{
            k: getattr(settings, k)
            for k in (
                "byte_fallback",
                "add_dummy_prefix",
                "treat_whitespace_as_suffix",
                "split_digits",
                "character_coverage",
            )
        },
    }
    kinds = Counter(p.type for p in model.pieces)  # (one pass, not one per type)
    tok.extra["sentencepiece"] = {
        "model_type": model_type,
        "normalizer": "identity",
        "byte_fallback": settings.byte_fallback,
        "special_ids": special_ids,
        "piece_types": {PIECE_TYPE_NAMES[k]: kinds.get(k, 0) for k in PIECE_TYPE_NAMES},
    }
    return tok


def train_from_counts(
    word_counts: dict[str, int], options: TrainOptions
) -> Generator[object, None, Tokenizer]:
    """Train on pre-token counts (already through the options' normalizer and pre-tokenizer)."""
    check_word_counts(word_counts)
    model = yield from trainer_for(options.algorithm)(word_counts, options)
    return wrap_model(model, options)
