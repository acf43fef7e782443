"""Acceptance: subword regularization with a SentencePiece unigram ``.model`` draws segmentations
with SentencePiece's own frequencies (Kudo 2018: ``encode(..., enable_sampling=True, alpha=a,
nbest_size=-1)`` samples from the whole lattice, a path with probability ∝ ``exp(a · score)``).

A small model is trained in the test; for a few words with several segmentations, both sides draw
``DRAWS`` samples and their frequencies must agree within sampling noise (total variation
distance, and each frequent segmentation on its own)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

spm = pytest.importorskip("sentencepiece")

from conftest import CORPORA  # noqa: E402

from core.formats.detect import open_tokenizer  # noqa: E402
from core.sampling import sample_segmentations  # noqa: E402

DRAWS = 4000
WORDS = ["together", "understand", "schoolmaster"]


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spm-sampling")
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:3000]
    (folder / "corpus.txt").write_text("\n".join(lines), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(folder / "corpus.txt"), model_prefix=str(folder / "m"), model_type="unigram",
        vocab_size=400, minloglevel=2,
    )  # fmt: skip
    return spm.SentencePieceProcessor(model_file=str(folder / "m.model")), open_tokenizer(folder / "m.model")


@pytest.mark.parametrize("alpha", [0.1, 0.5])
@pytest.mark.parametrize("word", WORDS)
def test_unigram_sample_frequencies_match_sentencepiece(model, word, alpha):
    sp, loaded = model
    tok = loaded.tokenizer
    assert tok.model.can_sample()
    # the explorer's Samples tab draws through core.sampling, with the same model.sample
    samples = sample_segmentations(tok, word, 3, alpha, seed=1)
    assert samples.method == "unigram" and samples == sample_segmentations(tok, word, 3, alpha, seed=1)
    (piece,) = [p.normalized for p in tok.pieces(word)]
    rng = random.Random(2018)
    spm.set_random_generator_seed(2018)  # both sides seeded: the test never flickers
    ours = Counter(tuple(t.value for t in tok.model.sample(piece, alpha, rng)) for _ in range(DRAWS))
    theirs = Counter(
        tuple(sp.encode(word, out_type=str, enable_sampling=True, alpha=alpha, nbest_size=-1))
        for _ in range(DRAWS)
    )
    assert len(theirs) > 3, "the word should have several segmentations to compare"
    support = set(ours) | set(theirs)
    tv = 0.5 * sum(abs(ours[s] - theirs[s]) for s in support) / DRAWS
    # two samples of the same distribution: TV ≈ sqrt(k / (2π·n)) for k outcomes; 0.08 leaves room
    assert tv < 0.08, (tv, ours.most_common(5), theirs.most_common(5))
    for seg, n in theirs.most_common(3):
        p = n / DRAWS
        sd = (2 * p * (1 - p) / DRAWS) ** 0.5
        assert abs(ours[seg] / DRAWS - p) < 5 * sd + 1e-9, (seg, ours[seg], n)
