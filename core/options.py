"""Training options and the pipeline they describe: what counting and training both read.

    >>> options = TrainOptions("unigram", vocab_size=8000)
    >>> options.pre_tokenizer, options.special_tokens
    ('metaspace', ['<unk>'])
    >>> pre_tokenize_lines(["hug pug"], TrainOptions("bpe"))
    {'hug': 1, 'pug': 1}

:class:`TrainOptions` names the algorithm and the pipeline stages; the
``build_*`` functions make those stages (normalizer, pre-tokenizer, decoder);
``pre_tokenize_counts``/``pre_tokenize_lines`` run words or lines through them.
Counting (``core.corpus``) and training (``core.training``) both sit above this
module, so neither has to import the other for the options.

Leaves out: running a trainer (``core.training``) and reading files (``core.corpus``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.errors import ConfigError, CorpusError
from core.normalizers import normalizer_from_names
from core.pre_tokenizers import pre_tokenizer_from_name
from core.records import Record

# The algorithms a TrainOptions may name (core.models.factory.TRAINERS has a trainer for each).
ALGORITHMS: tuple[str, ...] = (
    "bpe",
    "bytelevel-bpe",
    "picky-bpe",
    "superbpe",
    "wordpiece",
    "unigram",
    "sentencepiece-bpe",
    "sentencepiece-unigram",
)
# The algorithms trained as spm_train trains them, saved as SentencePiece models.
SENTENCEPIECE_ALGORITHMS: dict[str, str] = {
    "sentencepiece-bpe": "bpe",
    "sentencepiece-unigram": "unigram",
}  # -> SentencePiece's model_type

DEFAULT_PRE_TOKENIZER = {
    "bpe": "whitespace",
    "bytelevel-bpe": "bytelevel",
    "picky-bpe": "metaspace",  # the reference's words are "▁" + each space-separated word
    "superbpe": "superbpe",  # stage 2's pieces: the trainer cuts them again for stage 1
    "wordpiece": "bert",
    "unigram": "metaspace",
    "sentencepiece-bpe": "sentencepiece",  # core.pre_tokenizers.SentencePieceWords
    "sentencepiece-unigram": "sentencepiece",
}

# ``TrainOptions.extra`` keys that belong to one algorithm: given to another, they are
# a mistake (``--shrinking-factor 5 -a bpe``), not something to ignore. Keys not listed
# here are passed through untouched.
ALGORITHM_EXTRAS: dict[str, tuple[str, ...]] = {
    "unigram": (
        "textbook",
        "shrinking_factor",
        "max_piece_length",
        "seed_size",
        "n_sub_iterations",
        "percent_to_remove",
    ),
    "wordpiece": ("score", "max_input_chars_per_word", "alphabet_order"),
    "picky-bpe": ("tau",),
    "superbpe": ("transition", "max_words", "colon_rule"),
}
# spm_train's options (core.sentencepiece_training.DEFAULTS), shared by its algorithms
SENTENCEPIECE_EXTRAS: tuple[str, ...] = (
    "byte_fallback",
    "character_coverage",
    "split_digits",
    "max_sentencepiece_length",
    "user_defined_symbols",
    "treat_whitespace_as_suffix",
    "add_dummy_prefix",
)
# The pre-tokenizers SuperBPE's stage 2 may use (its split rule): byte-level, not split at spaces.
SUPERBPE_PRE_TOKENIZERS = ("superbpe", "superbpe-unsplit")

DEFAULT_SPECIAL_TOKENS = {
    "bpe": ["<unk>"],
    "bytelevel-bpe": [],
    "picky-bpe": ["<unk>"],
    "superbpe": [],
    "wordpiece": ["[UNK]"],
    "unigram": ["<unk>"],
    "sentencepiece-bpe": ["<unk>", "<s>", "</s>"],  # spm_train's ids 0, 1, 2
    "sentencepiece-unigram": ["<unk>", "<s>", "</s>"],
}


# PickyBPE's threshold τ when none is given: the reference README's example
# (pchizhov/picky_bpe: `bpe_trainer.py ... --threshold 0.9`).
PICKY_TAU = 0.9


DEFAULT_MAX_WORDS = 4  # the reference's "mw4"


SUPERBPE_TRANSITION_PERCENT = 90  # t as a share of the vocabulary (Liu et al. 2025: t = 180k for 200k)


def superbpe_settings(options) -> tuple[int, int, bool]:
    """``(transition, max_words, colon_rule)`` from ``options.extra``; ConfigError if out of range.

    >>> superbpe_settings(TrainOptions("superbpe", vocab_size=1000, extra={"transition": 800}))
    (800, 4, True)
    """
    extra = options.extra
    t = extra.get("transition")
    if t is None:
        t = options.vocab_size * SUPERBPE_TRANSITION_PERCENT // 100
    if isinstance(t, bool) or not isinstance(t, int) or not 0 < t <= options.vocab_size:
        raise ConfigError(
            f"the SuperBPE transition must be a vocabulary size from 1 to {options.vocab_size:,}, not {t!r}"
        )
    max_words = extra.get("max_words", DEFAULT_MAX_WORDS)
    if isinstance(max_words, bool) or not isinstance(max_words, int) or max_words < 0:
        raise ConfigError(f"the SuperBPE word limit must be a whole number >= 0 (0: none), not {max_words!r}")
    colon = extra.get("colon_rule", True)
    if not isinstance(colon, bool):
        raise ConfigError(f"the SuperBPE colon rule is on or off (True/False), not {colon!r}")
    return t, max_words, colon


def picky_tau(extra: dict) -> float:
    """PickyBPE's τ from ``extra["tau"]`` (default :data:`PICKY_TAU`); ConfigError unless a number above 0.

    >>> picky_tau({}), picky_tau({"tau": 1})
    (0.9, 1.0)
    """
    tau = extra.get("tau", PICKY_TAU)
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not tau > 0:
        raise ConfigError(
            f"PickyBPE's threshold τ must be a number above 0 (1 or more: plain BPE), not {tau!r}"
        )
    return float(tau)


class TrainOptions(Record):
    """Everything a training run needs besides the corpus. Unused fields are ignored
    by algorithms they do not apply to; ``extra`` holds algorithm-specific settings
    (e.g. ``{"score": "frequency"}`` for WordPiece, ``{"textbook": True}`` for Unigram).
    ``options._replace(vocab_size=16000)`` is a copy with a field changed, checked again."""

    def __init__(
        self,
        algorithm: str = "bpe",
        vocab_size: int = 8000,
        min_frequency: int = 0,
        special_tokens: list[str] | None = None,  # None -> DEFAULT_SPECIAL_TOKENS[algorithm]
        unk_token: str | None = None,  # None -> the first special token that looks like an unknown token
        normalizer: str | None = None,  # e.g. "nfkc,lowercase"
        pre_tokenizer: str | None = None,  # None -> DEFAULT_PRE_TOKENIZER[algorithm]
        limit_alphabet: int | None = None,
        end_of_word_suffix: str | None = None,
        continuing_subword_prefix: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.algorithm = algorithm
        self.vocab_size = vocab_size
        self.min_frequency = min_frequency
        self.special_tokens = special_tokens
        self.unk_token = unk_token
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.limit_alphabet = limit_alphabet
        self.end_of_word_suffix = end_of_word_suffix
        self.continuing_subword_prefix = continuing_subword_prefix
        self.extra: dict[str, Any] = {} if extra is None else extra
        self._check()

    def _check(self) -> None:
        """Fill in the defaults that depend on the algorithm, and refuse what cannot train."""
        if self.algorithm not in ALGORITHMS:
            raise ConfigError(f"unknown algorithm {self.algorithm!r}; choose from {', '.join(ALGORITHMS)}")
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
        if self.algorithm == "superbpe":
            if self.pre_tokenizer not in SUPERBPE_PRE_TOKENIZERS:
                raise ConfigError(
                    f"SuperBPE's stage 2 splits with {' or '.join(SUPERBPE_PRE_TOKENIZERS)}, "
                    f"not {self.pre_tokenizer!r}"
                )
            superbpe_settings(self)
        if self.pre_tokenizer == "sentencepiece" and self.algorithm not in SENTENCEPIECE_ALGORITHMS:
            # spm_train's words only count a corpus: the model it trains has no pre-tokenizer to keep
            raise ConfigError(
                "the sentencepiece pre-tokenizer is spm_train's word count; train with "
                "sentencepiece-bpe or sentencepiece-unigram, or choose metaspace"
            )
        self._check_extra()

    def _check_extra(self) -> None:
        """Options of another algorithm, and Unigram settings out of range, fail now, not after counting."""
        if not isinstance(self.extra, dict):
            raise ConfigError(f"extra options must be a dict, not {type(self.extra).__name__}")
        for owner, keys in ALGORITHM_EXTRAS.items():
            if owner == self.algorithm:
                continue
            for key in keys:
                if key in self.extra:
                    raise ConfigError(
                        f"{key!r} is a {owner} option; the {self.algorithm} trainer does not use it"
                    )
        extra = self.extra
        if self.algorithm in SENTENCEPIECE_ALGORITHMS:
            from core.sentencepiece_training import SentencePieceSettings

            SentencePieceSettings.from_extra(extra)
        else:
            for key in SENTENCEPIECE_EXTRAS:
                if key in extra:
                    raise ConfigError(
                        f"{key!r} is a SentencePiece option; the {self.algorithm} trainer does not use it"
                    )
        if "shrinking_factor" in extra and not _number_in(extra["shrinking_factor"], 0, 1):
            raise ConfigError(
                f"shrinking factor must be between 0 and 1 (exclusive), not {extra['shrinking_factor']!r}"
            )
        if "tau" in extra:
            picky_tau(extra)
        if "max_piece_length" in extra and not _whole_in(extra["max_piece_length"], 1, 256):
            raise ConfigError(
                f"max piece length must be between 1 and 256, not {extra['max_piece_length']!r}"
            )

    @property
    def byte_level(self) -> bool:
        return self.algorithm in ("bytelevel-bpe", "superbpe")

    def to_dict(self) -> dict:
        return self._asdict()


def _number_in(value, low: float, high: float) -> bool:
    """``low < value < high`` for a real number (not a bool, not NaN)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low < value < high


def _whole_in(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def build_normalizer(options: TrainOptions):
    return normalizer_from_names(options.normalizer)


def build_pre_tokenizer(options: TrainOptions):
    if options.algorithm in SENTENCEPIECE_ALGORITHMS and options.pre_tokenizer == "sentencepiece":
        from core.pre_tokenizers import SentencePieceWords

        extra = options.extra
        symbols = extra.get("user_defined_symbols") or ()
        if isinstance(symbols, str):
            symbols = [t for t in symbols.split(",") if t]
        return SentencePieceWords(
            add_dummy_prefix=extra.get("add_dummy_prefix", True),
            treat_whitespace_as_suffix=extra.get("treat_whitespace_as_suffix", False),
            meta_pieces=[
                *(options.special_tokens or []),
                *symbols,
                *(f"<0x{b:02X}>" for b in range(256) if extra.get("byte_fallback")),
            ],
            mark_line_end=options.algorithm == "sentencepiece-unigram",
        )
    return pre_tokenizer_from_name(options.pre_tokenizer or DEFAULT_PRE_TOKENIZER[options.algorithm])


def build_decoder(options: TrainOptions):
    """The decoder that undoes the options' pipeline; a ``jamo`` normalizer adds ``JamoCompose`` last."""
    decoder = _base_decoder(options)
    if "jamo" in _normalizer_names(options.normalizer):
        decoders = _decoders()
        return (
            decoders.JamoCompose()
            if decoder is None
            else decoders.Sequence([decoder, decoders.JamoCompose()])
        )
    return decoder


def _base_decoder(options: TrainOptions):
    if options.pre_tokenizer == "bytelevel" or options.byte_level:
        return _decoders().ByteLevel()
    if options.algorithm == "wordpiece":
        return _decoders().WordPiece(options.continuing_subword_prefix or "##")
    # ko-morph and ja-morph mark word starts with ▁ exactly as metaspace does (core.morphemes)
    if options.pre_tokenizer in ("metaspace", "ko-morph", "ja-morph"):
        return _decoders().Metaspace()
    if options.end_of_word_suffix:
        return _decoders().BPEDecoder(options.end_of_word_suffix)
    return None


def _decoders():
    """core.decoders, imported when there is a decoder to make: plain BPE has none, and a short
    training job spent ~0.7 ms importing it."""
    from core import decoders

    return decoders


def _normalizer_names(names) -> list[str]:
    if not names:
        return []
    if isinstance(names, str):
        names = names.split(",")
    return [n.strip().lower() for n in names]


def counting_pipeline(options) -> dict:
    """What makes pre-tokens of text: ``{"normalizer": "nfkc,lowercase", "pre_tokenizer": "metaspace"}``."""
    names = [n.strip().lower() for n in (options.normalizer or "").split(",") if n.strip()]
    return {"normalizer": ",".join(names) or None, "pre_tokenizer": options.pre_tokenizer}


def pre_tokenize_counts(word_counts: dict[str, int], options: TrainOptions) -> dict[str, int]:
    """Run raw word counts (e.g. from a word-count file) through the options' pipeline.

    Counts read from a file that ``subword count`` wrote are pre-tokens already
    (``core.corpus.WordCounts.counted_with``): they are used as they are when
    that pipeline is the options' own, and refused when it is not.
    """
    counted_with = getattr(word_counts, "counted_with", None)
    if counted_with is not None:
        wanted = counting_pipeline(options)
        if counted_with != wanted:
            had = f"--pre-tokenizer {counted_with['pre_tokenizer']} --normalizer {counted_with['normalizer'] or 'none'}"
            raise CorpusError(
                f"the word counts are pre-tokens of '{had}', not of the training's "
                f"'--pre-tokenizer {wanted['pre_tokenizer']} --normalizer {wanted['normalizer'] or 'none'}': "
                "train with the former, or count the corpus again with the latter"
            )
        return dict(word_counts)
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
