"""A tokenizer made of the merges a stepped training has learned so far.

    >>> from core.corpus import count_lines
    >>> from core.events import MergeEvent
    >>> ug = MergeEvent(1, "u", "g", "ug", count=2, vocab_size=9, score=2.0)
    >>> step_preview(count_lines(["hug pug"]), TrainOptions("bpe", 9), [ug]).encode("hug").tokens
    ['h', 'ug']

A trainer's own model exists only at its end; the explorer, stepping through a run, segments
text with the merges of its merge log up to now. The preview reads words exactly as the trainer's
model would at that size (tests/engine/test_step_preview.py trains that far to compare).

Leaves out: Unigram (its rounds are not merges: no preview).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.options import TrainOptions, build_normalizer, build_pre_tokenizer

if TYPE_CHECKING:
    from core.tokenizer import Tokenizer


def step_preview(corpus, options: TrainOptions, merges: list, alphabet=None) -> Tokenizer | None:
    """A tokenizer made of the merges learned so far, for segmenting while stepping
    (the trainer's own model exists only at the end). BPE: ids follow the trainer's order
    (special tokens, the alphabet by code point, then each merge's result); the alphabet
    is the run's (``alphabet``: the characters of the words trained on, ``starts`` those that
    begin a word and ``inner`` those inside one, as the explorer's worker reports them), else the corpus's characters through the normalizer; all 256 bytes when
    byte-level.
    WordPiece: the alphabet bare and with the ``##`` prefix, then each merge's token, read
    greedily longest-first as the finished model reads them. None for Unigram (its rounds
    are not merges).

    >>> from core.corpus import count_lines
    >>> from core.events import MergeEvent
    >>> ug = MergeEvent(1, "u", "g", "ug", count=2, vocab_size=9, score=2.0)
    >>> step_preview(count_lines(["hug pug"]), TrainOptions("bpe", 9), [ug]).encode("hug").tokens
    ['h', 'ug']
    >>> hu = MergeEvent(1, "h", "##u", "hu", count=2, vocab_size=9, score=0.5)
    >>> step_preview(count_lines(["hug hu"]), TrainOptions("wordpiece", 9), [hu]).encode("hug").tokens
    ['hu', '##g']
    """
    if corpus is None:
        return None
    if options.algorithm == "wordpiece":
        return _wordpiece_step_preview(corpus, options, merges, alphabet)
    if options.algorithm not in ("bpe", "bytelevel-bpe"):
        return None
    return _bpe_step_preview(corpus, options, merges, alphabet)


def _corpus_alphabet(corpus, options: TrainOptions) -> set[str]:
    """The corpus's characters through the run's normalizer (spaces left out)."""
    normalizer = build_normalizer(options)
    alphabet: set[str] = set()
    for c in corpus.chars:
        text = normalizer.normalize_str(c) if normalizer is not None else c
        alphabet.update(ch for ch in text if not ch.isspace())
    return alphabet


_INITIAL_CHARS_CACHE: dict = {}  # (corpus, normalizer, pre-tokenizer) -> (word-initial, inner) characters
_INITIAL_CHARS_MAX_WORDS = 200_000  # beyond this, a preview is not worth the wait


def _word_positions(corpus, options: TrainOptions) -> tuple[set[str], set[str]] | None:
    """The characters that start a word and those that occur inside one, under the run's
    pipeline, or None when finding them would be slow (a morpheme analyser, a very large
    corpus). Cached per corpus and pipeline: every step of a run asks again.

    >>> from core.corpus import count_lines
    >>> [sorted(s) for s in _word_positions(count_lines(["hug, pug"]), TrainOptions("wordpiece", 9))]
    [[',', 'h', 'p'], ['g', 'u']]
    """
    key = (id(corpus), options.normalizer, options.pre_tokenizer)
    hit = _INITIAL_CHARS_CACHE.get(key)
    if hit is not None and hit[0] is corpus:
        return hit[1]
    if len(corpus.words) > _INITIAL_CHARS_MAX_WORDS or (options.pre_tokenizer or "").endswith("-morph"):
        return None
    normalizer, pre_tokenizer = build_normalizer(options), build_pre_tokenizer(options)
    starts: set[str] = set()
    inner: set[str] = set()
    for word in corpus.words:
        text = normalizer.normalize_str(word) if normalizer is not None else word
        for piece in pre_tokenizer.split_words(text):
            if piece:
                starts.add(piece[0])
                inner.update(piece[1:])
    _INITIAL_CHARS_CACHE.clear()  # one corpus at a time
    _INITIAL_CHARS_CACHE[key] = (corpus, (starts, inner))
    return starts, inner


def _wordpiece_step_preview(corpus, options: TrainOptions, merges: list, trained_on=None):
    from core.models.factory import model_class
    from core.training import wrap_model

    prefix = "##" if options.continuing_subword_prefix is None else options.continuing_subword_prefix
    unk = options.unk_token or "[UNK]"
    if trained_on is not None:
        alphabet = sorted(trained_on.starts | trained_on.inner)
        positions: tuple | None = (trained_on.starts, trained_on.inner)
    else:
        alphabet = sorted(_corpus_alphabet(corpus, options))
        positions = _word_positions(corpus, options)
    bare, inner = alphabet, alphabet
    if positions is not None:
        # as the trainer: characters inside a word get a ## form; with the likelihood score
        # (the textbook's alphabet) only characters that start a word stand bare
        if (options.extra or {}).get("score", "likelihood") == "likelihood":
            bare = [c for c in alphabet if c in positions[0]]
        inner = [c for c in alphabet if c in positions[1]]
    vocab: dict[str, int] = {}
    for t in [unk, *(options.special_tokens or []), *bare, *(prefix + c for c in inner)]:
        vocab.setdefault(t, len(vocab))
    for m in merges:
        for t in (m.left, m.right, m.new_token):
            vocab.setdefault(t, len(vocab))
    max_chars = (options.extra or {}).get("max_input_chars_per_word", 100)
    return wrap_model(model_class("WordPiece")(vocab, unk, prefix, max_chars), options)


def _bpe_step_preview(corpus, options: TrainOptions, merges: list, trained_on=None):
    from core.bytelevel import bytes_to_chars
    from core.models.factory import model_class
    from core.training import wrap_model

    if options.algorithm == "bytelevel-bpe" or options.pre_tokenizer == "bytelevel":
        alphabet = set(bytes_to_chars(bytes(range(256))))
    elif trained_on is not None:
        alphabet = set(trained_on.starts | trained_on.inner)
    else:
        alphabet = _corpus_alphabet(corpus, options)
    vocab: dict[str, int] = {}
    for t in list(options.special_tokens or []) + sorted(alphabet):
        vocab.setdefault(t, len(vocab))
    prefix, suffix = options.continuing_subword_prefix or "", options.end_of_word_suffix or ""
    if prefix or suffix:
        for c in sorted(alphabet):
            for form in {prefix + c, c + suffix, prefix + c + suffix} - {c}:
                vocab.setdefault(form, len(vocab))
    for m in merges:
        for t in (m.left, m.right, m.left + m.right[len(prefix) :]):
            vocab.setdefault(t, len(vocab))
    model = model_class("BPE")(
        vocab,
        [(m.left, m.right) for m in merges],
        unk_token=options.unk_token if options.unk_token in vocab else None,
        continuing_subword_prefix=prefix or None,
        end_of_word_suffix=suffix or None,
    )
    return wrap_model(model, options)
