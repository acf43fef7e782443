"""Several segmentations of one text: BPE-dropout and Unigram sampling, seeded.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> tokenizer = drain(train_from_counts({"hug": 10, "hugs": 2}, TrainOptions("bpe", vocab_size=9)))
    >>> s = sample_segmentations(tokenizer, "hugs", n=3, strength=0.5, seed=0)
    >>> s.method, len(s.samples)
    ('dropout', 3)

Two ways a model can cut a text other than its best way (what training with subword
regularization shows a model):

- **BPE-dropout** (Provilkov, Emelianenko and Voita, ACL 2020): each merge is skipped with
  probability ``p`` while encoding (``BPE.with_dropout``, as `tokenizers`' ``BPE(dropout=p)``);
  ``p = 0`` is the usual segmentation, ``p = 1`` characters (or bytes).
- **Unigram sampling** (Kudo, ACL 2018): a segmentation drawn from the whole lattice with
  probability ∝ ``exp(alpha · score)`` (``model.sample``, as SentencePiece's
  ``encode(..., enable_sampling=True, alpha=a, nbest_size=-1)``); a small ``alpha`` is near
  uniform over segmentations, a large one near the best path.

Which one a model offers is what it declares (``can_sample``, ``can_dropout``); a model that
offers neither has no samples (:func:`sampling_method` is None). The draws come from one
``random.Random(seed)`` (or the dropout model's own seeded stream), so a seed gives the same
samples again.

The text is cut into pre-tokens by the tokenizer (added tokens left out), each line on its own;
``inflation`` is the samples' mean length over the deterministic length, less one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.errors import ConfigError

MAX_SAMPLES = 50


@dataclass(frozen=True, slots=True)
class Segmentation:
    """One way the text was cut: per token, its string, its id, and the (line, piece, start in
    the piece) where it begins."""

    tokens: tuple[str, ...]
    ids: tuple[int, ...]
    starts: tuple[tuple[int, int, int], ...]

    def __len__(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True, slots=True)
class Samples:
    """The deterministic segmentation and ``n`` samples of one text."""

    method: str  # "dropout" or "unigram"
    strength: float  # p (dropout) or alpha (unigram)
    seed: int
    deterministic: Segmentation
    samples: tuple[Segmentation, ...]

    @property
    def inflation(self) -> float:
        """Mean sampled length over the deterministic length, less one (0.25: 25 % more tokens)."""
        if not self.samples or not len(self.deterministic):
            return 0.0
        mean = sum(len(s) for s in self.samples) / len(self.samples)
        return mean / len(self.deterministic) - 1.0


def sampling_method(model) -> str | None:
    """``"unigram"``, ``"dropout"`` or None: how ``model`` draws other segmentations."""
    if model is None:
        return None
    if model.can_sample():
        return "unigram"
    if model.can_dropout():
        return "dropout"
    return None


def _segmentation(pieces_by_line, tokenize) -> Segmentation:
    tokens, ids, starts = [], [], []
    for line, pieces in enumerate(pieces_by_line):
        for n, piece in enumerate(pieces):
            for t in tokenize(piece):
                tokens.append(t.value)
                ids.append(t.id)
                starts.append((line, n, t.start))
    return Segmentation(tuple(tokens), tuple(ids), tuple(starts))


def sample_segmentations(tokenizer, text: str, n: int, strength: float, seed: int) -> Samples:
    """``n`` seeded samples of ``text`` under ``tokenizer`` (see the module); ConfigError when
    the model cannot sample or ``strength`` is out of range (p in [0, 1], alpha > 0)."""
    model = tokenizer.model
    method = sampling_method(model)
    if method is None:
        raise ConfigError(f"a {type(model).__name__} model cannot sample segmentations")
    if not 1 <= n <= MAX_SAMPLES:
        raise ConfigError(f"samples: from 1 to {MAX_SAMPLES}, not {n}")
    pieces_by_line = [[p.normalized for p in tokenizer.pieces(line)] for line in text.split("\n")]
    # a model loaded with dropout on (a tokenizer.json may say so) is cut without it here
    base = model if model.deterministic or method != "dropout" else model.with_dropout(None)
    deterministic = _segmentation(pieces_by_line, base.tokenize)
    if method == "dropout":
        if not 0.0 <= strength <= 1.0:
            raise ConfigError(f"BPE-dropout p is a probability from 0 to 1, not {strength}")
        drop = model.with_dropout(strength, seed)
        samples = [_segmentation(pieces_by_line, drop.tokenize) for _ in range(n)]
    else:
        if not strength > 0:
            raise ConfigError(f"the sampling alpha must be above 0, not {strength}")
        rng = random.Random(seed)
        samples = [_segmentation(pieces_by_line, lambda p: model.sample(p, strength, rng)) for _ in range(n)]
    return Samples(method, strength, seed, deterministic, tuple(samples))
