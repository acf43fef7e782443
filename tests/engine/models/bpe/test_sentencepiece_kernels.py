"""The compiled SentencePiece BPE merge loop (core/models/bpe/sentencepiece_kernels.py) against the
readable one (``learn_pieces_reference``), piece for piece and merge for merge, on random small
corpora full of ties, for each build of the kernels: the plain shared library, the extension built
ahead of time (both made by ``python -m core.build``) and numba's JIT."""

from __future__ import annotations

import random

import pytest

from core.events import MergeEvent, drain
from core.models.bpe import sentencepiece_trainer as trainer
from core.options import TrainOptions, pre_tokenize_lines
from core.sentencepiece_training import (
    BOUNDARY,
    UNK_CHAR,
    SentencePieceSettings,
    mask_rare_chars,
    piece_table,
    required_chars,
    sorted_chars,
)
from core.training import train_from_counts

KERNELS = "core.models.bpe.sentencepiece_kernels"
# few letters (many ties and "aaa"-style splits), a digit and a full-width one, Hangul, kana and Han
# (one script), a combining mark (inherited script), the unknown character, a user-defined
# symbol's boundary and ▁ anywhere
ALPHABET = "aaabbbc1\uff12한국カ漢\u0301" + UNK_CHAR + BOUNDARY + "▁▁"


def _builds():
    from core.jit import load_ahead_of_time, load_plain_library
    from core.models.bpe import sentencepiece_kernels
    from core.models.bpe.flat_arrays import NumpyArrays, PlainArrays

    plain = load_plain_library(KERNELS)
    ahead = load_ahead_of_time(KERNELS)
    return {
        "plain": (plain, PlainArrays) if plain else None,
        "ahead": (ahead, NumpyArrays) if ahead else None,
        "jit": (sentencepiece_kernels, NumpyArrays),
    }


@pytest.fixture(scope="module")
def builds():
    return _builds()


def _corpus(rng: random.Random) -> dict[str, int]:
    words: dict[str, int] = {}
    letters = rng.sample(ALPHABET, rng.randint(2, len(ALPHABET)))
    for _ in range(rng.randint(1, 25)):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(1, 10)))
        if rng.random() < 0.6:
            word = "▁" + word
        words[word] = words.get(word, 0) + rng.choice([1, 1, 2, 3, 5])
    return words


def _settings(rng: random.Random) -> SentencePieceSettings:
    return SentencePieceSettings(
        split_digits=rng.random() < 0.5,
        treat_whitespace_as_suffix=rng.random() < 0.3,
        max_sentencepiece_length=rng.choice([2, 3, 5, 16]),
    )


def _events(gen) -> list[tuple]:
    out = []
    try:
        while True:
            event = next(gen)
            if isinstance(event, MergeEvent):
                out.append((event.left, event.right, event.new_token, event.count))
    except StopIteration as stop:
        return [out, stop.value]


@pytest.mark.parametrize("build", ["plain", "ahead", "jit"])
def test_the_kernel_merges_as_the_readable_loop(builds, build):
    if builds[build] is None:
        pytest.skip(f"the {build} build is not made here (python -m core.build)")
    kernels, arrays = builds[build]
    rng = random.Random(31)
    for case in range(600):
        words, settings = _corpus(rng), _settings(rng)
        size = rng.randint(1, 70)  # often past what the counts give: the count-0 pieces
        expected = _events(trainer.learn_pieces_reference(words, size, settings))
        got = _events(trainer.learn_pieces(words, size, settings, kernels, arrays()))
        assert got == expected, (case, words, settings, size)


def test_the_kernel_grows_its_arrays_mid_training(builds):
    # first merges listing more positions than the arrays start with (1024); then more distinct
    # pairs than a quarter of the positions (the pair arrays fill while counting)
    rng = random.Random(5)
    ab = {
        "▁" + "".join(rng.choice("ab") for _ in range(rng.randint(2, 40))): rng.randint(1, 3)
        for _ in range(400)
    }
    han = {
        "".join(chr(0x4E00 + rng.randrange(300)) for _ in range(rng.randint(2, 30))): 1 for _ in range(600)
    }
    for words in (ab, han):
        settings = SentencePieceSettings(max_sentencepiece_length=8)
        expected = drain(trainer.learn_pieces_reference(words, 300, settings))
        for build in builds.values():
            if build is not None:
                assert drain(trainer.learn_pieces(words, 300, settings, build[0], build[1]())) == expected


@pytest.mark.parametrize(
    "extra",
    [
        {"byte_fallback": True, "character_coverage": 0.98},
        {"user_defined_symbols": ["ab", "<x>"], "split_digits": True},
        {"treat_whitespace_as_suffix": True, "max_sentencepiece_length": 4},
    ],
    ids=["byte-fallback", "user-defined+digits", "suffix"],
)
def test_training_gives_the_readable_loops_pieces(extra):
    """The whole trainer (required characters counted and the others masked in the kernels, byte
    pieces, boundaries of user-defined symbols) against the same steps written plainly:
    ``required_chars``, ``mask_rare_chars`` and the readable loop."""
    rng = random.Random(7)
    vocab = "ab abab ab1 12 x<x>y 한국어 한 カタ漢字 é ß zzq ☃".split()
    lines = [" ".join(rng.choice(vocab) for _ in range(rng.randint(1, 8))) for _ in range(300)]
    options = TrainOptions("sentencepiece-bpe", vocab_size=400, extra=extra)
    counts = pre_tokenize_lines(lines, options)
    settings = SentencePieceSettings.from_extra(extra)

    got = [p.piece for p in drain(train_from_counts(counts, options)).model.pieces]
    meta = settings.meta_pieces("<unk>", ["<s>", "</s>"])
    chars = required_chars(counts, settings.character_coverage)
    size = 400 - len(meta) - len(chars)
    learned = drain(trainer.learn_pieces_reference(mask_rare_chars(counts, chars), size, settings))
    assert got == [p.piece for p in piece_table(meta, learned, sorted_chars(chars))]
