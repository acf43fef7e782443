"""BPE training parity with Hugging Face `tokenizers`' BpeTrainer.

Whole corpora (slow, still in CI): on each file of ../shared/corpora, vocab 8000,
``<unk>`` the only special token, the same pre-tokenizer on both sides
(Whitespace for plain BPE; ByteLevel without prefix space plus its 256-byte
initial alphabet for byte-level BPE). Our merge list and vocabulary must be
*identical* to theirs, and our encoding of every line (ids, and offsets for plain
BPE) must equal theirs.

Same input on both sides: we count the file with ``core.corpus.count_words`` (our
real reader); `tokenizers` trains on the lines Python's text mode decodes from
the same file with ``utf-8-sig`` (BOM dropped; CRLF and lone CR end a line), which
is what our reader does too. If the readers disagreed, the merge lists would.

Small inputs (fast): random word counts and the seeds' examples, trained by both.

Each test runs three times: on the merge loop compiled ahead of time, on numba's JIT of it, and
on the plain Python loop of small jobs (the ``bpe_kernels_build`` fixture in tests/conftest.py).
"""

from __future__ import annotations

import json
import random

import pytest

tokenizers = pytest.importorskip("tokenizers")
from tokenizers import models as hm  # noqa: E402
from tokenizers import pre_tokenizers as hp
from tokenizers import trainers as ht

from core.corpus import count_words  # noqa: E402
from core.events import drain  # noqa: E402
from core.models.bpe.trainer import train_bpe  # noqa: E402
from core.options import TrainOptions  # noqa: E402
from core.training import train_from_counts  # noqa: E402

CORPUS_FILES = ["en-botchan.txt", "ja-wagahaiwa.txt", "ko-movie-reviews.txt"]

# Every test here runs on each path of the merge loop: compiled ahead of time, JIT, plain Python.
pytestmark = pytest.mark.usefixtures("bpe_kernels_build")


def _hf_train(lines, algorithm: str, vocab_size: int, **trainer_kw):
    tok = tokenizers.Tokenizer(hm.BPE(unk_token="<unk>"))
    if algorithm == "bytelevel-bpe":
        tok.pre_tokenizer = hp.ByteLevel(add_prefix_space=False)
        trainer_kw["initial_alphabet"] = hp.ByteLevel.alphabet()
    elif algorithm == "whitespace-split":
        tok.pre_tokenizer = hp.WhitespaceSplit()
    else:
        tok.pre_tokenizer = hp.Whitespace()
    trainer = ht.BpeTrainer(
        vocab_size=vocab_size, special_tokens=["<unk>"], show_progress=False, **trainer_kw
    )
    tok.train_from_iterator(lines, trainer)
    model = json.loads(tok.to_str())["model"]
    return tok, [tuple(m) for m in model["merges"]], model["vocab"]


# -- small inputs ---------------------------------------------------------------


def _random_counts(rnd: random.Random) -> dict[str, int]:
    alphabet = rnd.choice(["ab", "abc", "abcd", "aabbcde", "가나다", "xyz가"])
    counts: dict[str, int] = {}
    for _ in range(rnd.randint(1, 14)):
        w = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 10)))
        counts[w] = counts.get(w, 0) + rnd.randint(1, 6)
    return counts


@pytest.mark.parametrize("seed", range(60))
def test_random_word_counts_match_tokenizers(seed):
    # Small alphabets make ties (and repeated tokens built two ways) very common,
    # so this exercises the tie rule and the heap's lazy updates hard.
    rnd = random.Random(seed)
    counts = _random_counts(rnd)
    vocab_size = rnd.randint(3, 45)
    min_frequency = rnd.choice([0, 0, 2, 4])
    lines = [w for w, n in counts.items() for _ in range(n)]
    _, hf_merges, hf_vocab = _hf_train(lines, "whitespace-split", vocab_size, min_frequency=min_frequency)
    ours = drain(
        train_bpe(
            counts,
            TrainOptions(
                "bpe",
                vocab_size=vocab_size,
                min_frequency=min_frequency,
                special_tokens=["<unk>"],
                pre_tokenizer="whitespace-split",
            ),
        )
    )
    assert ours.ranked_merges() == hf_merges
    assert ours.get_vocab() == hf_vocab


@pytest.mark.parametrize(
    "counts,vocab_size",
    [
        ({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, 11),
        ({"철수는": 10, "치킨을": 9, "먹고": 11, "볶음밥을": 5, "있다": 2}, 20),
        ({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 20),
        ({"aab": 3, "cd": 3}, 20),
        ({"zzb": 4, "aab": 4, "zz": 1}, 20),
    ],
)
def test_seed_examples_match_tokenizers(counts, vocab_size):
    lines = [w for w, n in counts.items() for _ in range(n)]
    hf, hf_merges, hf_vocab = _hf_train(lines, "whitespace-split", vocab_size)
    opts = TrainOptions("bpe", vocab_size=vocab_size, pre_tokenizer="whitespace-split")
    ours = drain(train_from_counts(counts, opts))
    assert ours.model.ranked_merges() == hf_merges and ours.model.get_vocab() == hf_vocab
    text = " ".join(counts) + " pug bug mug 먹고있다 lowest"
    assert ours.encode(text).tokens == hf.encode(text).tokens


@pytest.mark.parametrize(
    "counts",
    [
        pytest.param({"a": 7}, id="one character"),
        pytest.param({"aaaa": 3, "aaaaaaa": 2, "aa": 1, "a": 5}, id="repeated symbols"),
        pytest.param({"ab": 1, "cd": 1, "ef": 1, "ba": 1, "dc": 1, "fe": 1}, id="all pairs tie"),
        pytest.param({"ab" * 3000 + "c": 2, "abc" * 2000: 1, "ca" * 500: 3}, id="very long words"),
        pytest.param({"abab": 2, "baba": 2, "aabb": 2, "bbaa": 2}, id="overlapping ties"),
    ],
)
def test_awkward_inputs_match_tokenizers(counts):
    # The compiled merge loop against tokenizers on inputs that stress in-place rewriting
    # (a a a a), the heap's tie order, and words thousands of symbols long. (With a "##"
    # prefix tokenizers numbers its forms in hash order: tests/parity/test_wordpiece_parity.py
    # replays that order.)
    lines = [w for w, n in counts.items() for _ in range(n)]
    _, hf_merges, hf_vocab = _hf_train(lines, "whitespace-split", 60)
    opts = TrainOptions("bpe", vocab_size=60, special_tokens=["<unk>"], pre_tokenizer="whitespace-split")
    ours = drain(train_bpe(counts, opts))
    assert ours.ranked_merges() == hf_merges
    assert ours.get_vocab() == hf_vocab


# -- whole corpora ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe"])
@pytest.mark.parametrize("name", CORPUS_FILES)
def test_corpus_parity(corpora_dir, name, algorithm, bpe_kernels_build):
    if bpe_kernels_build != "ahead-of-time" and name == "ko-movie-reviews.txt":
        pytest.skip("the Korean corpus runs on the default build only (the small ones cover the others)")
    path = corpora_dir / name
    opts = TrainOptions(algorithm, vocab_size=8000, special_tokens=["<unk>"])
    ours = drain(train_from_counts(drain(count_words(path, opts)).words, opts))

    with open(path, encoding="utf-8-sig") as f:  # text mode: CRLF and CR become "\n"
        lines = [line.removesuffix("\n") for line in f]
    hf, hf_merges, hf_vocab = _hf_train(lines, algorithm, 8000)

    merges = ours.model.ranked_merges()
    assert len(merges) == len(hf_merges)
    first_diff = next((i for i, (a, b) in enumerate(zip(merges, hf_merges)) if a != b), None)
    assert first_diff is None, (
        f"merge {first_diff}: ours {merges[first_diff]} vs tokenizers {hf_merges[first_diff]}"
    )
    assert ours.model.get_vocab() == hf_vocab

    mismatches = []
    for number, (line, theirs) in enumerate(zip(lines, hf.encode_batch(lines)), start=1):
        enc = ours.encode(line)
        same = enc.ids == theirs.ids and (algorithm == "bytelevel-bpe" or enc.offsets == theirs.offsets)
        if not same:
            mismatches.append((number, line[:60], enc.tokens[:8], theirs.tokens[:8]))
    assert not mismatches, f"{len(mismatches)} lines differ, first: {mismatches[:3]}"
