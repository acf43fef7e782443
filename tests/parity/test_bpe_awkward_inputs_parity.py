"""Acceptance: every BPE-by-rank path (BPE and byte-level BPE ``tokenizer.json``, a tiktoken rank
file, a SentencePiece BPE ``.model`` with byte fallback) gives the peer's ids on the inputs that
stress a merge loop: runs of one symbol, alternating symbols, empty and one-character text,
characters outside the vocabulary, and words of tens of thousands of characters — through
``encode``, ``encode_ids`` and ``encode_batch_ids`` (the compiled, batched merge)."""

from __future__ import annotations

import pytest

tokenizers = pytest.importorskip("tokenizers")
tiktoken = pytest.importorskip("tiktoken")
spm = pytest.importorskip("sentencepiece")

from conftest import CORPORA

from core.bytelevel import CHAR_TO_BYTE
from core.formats.hf_json import load_tokenizer_json
from core.formats.sentencepiece_model import load_sentencepiece
from core.formats.tiktoken_ranks import load_tiktoken, write_ranks
from core.pre_tokenizers import TIKTOKEN_PATTERNS

RUNS = ["a" * n for n in (1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 24, 25, 26, 31, 64, 65, 257, 1000)]
AWKWARD = [
    "",
    "a",
    "한",
    *RUNS,
    "ab" * 40,
    "aab" * 30 + "ba" * 31,
    "ㅋ" * 300,
    "ㅋㅋ ㅋㅋㅋ ㅋ" * 50,
    "😀👍🏽 \x00\x07 ٩(◕‿◕)۶",  # outside the vocabulary: bytes, <unk> or dropped
    "영화" * 2000,  # 4,000 characters, 12,000 bytes
    "영화😀재밌" * 200,  # a long word with characters outside the vocabulary inside it
]


def _training_lines() -> list[str]:
    korean = (CORPORA / "ko-movie-reviews.txt").read_text(encoding="utf-8").splitlines()[:3000]
    # runs of one letter in the training text give merges such as "aa", "aaaa", "ㅋㅋ"
    return korean + ["a" * n + " " + "ab" * n + " " + "ㅋ" * n for n in range(1, 40)] * 3


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    d = tmp_path_factory.mktemp("awkward")
    corpus = d / "corpus.txt"
    corpus.write_text("\n".join(_training_lines()) + "\n", encoding="utf-8")
    bpe = Tokenizer(models.BPE(unk_token="[UNK]"))
    bpe.normalizer = normalizers.NFC()
    bpe.pre_tokenizer = pre_tokenizers.Whitespace()
    bpe.train(
        [str(corpus)], trainers.BpeTrainer(vocab_size=3000, special_tokens=["[UNK]"], show_progress=False)
    )
    bpe.save(str(d / "bpe.json"))
    byte_level = Tokenizer(models.BPE())
    byte_level.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(vocab_size=3000, initial_alphabet=alphabet, show_progress=False)
    byte_level.train([str(corpus)], trainer)
    byte_level.save(str(d / "bytelevel.json"))
    ranks = {bytes(CHAR_TO_BYTE[c] for c in t): i for t, i in byte_level.get_vocab().items()}
    write_ranks(ranks, d / "ranks.tiktoken")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(d / "sp"),
        vocab_size=3000,
        model_type="bpe",
        byte_fallback=True,
        minloglevel=2,
        num_threads=1,
    )
    return d, ranks


def _pair(files, name):
    """(ours, the peer's ``text -> ids``)."""
    d, ranks = files
    if name in ("bpe", "bytelevel"):
        theirs = tokenizers.Tokenizer.from_file(str(d / f"{name}.json"))
        return load_tokenizer_json(
            d / f"{name}.json"
        ), lambda t: theirs.encode(t, add_special_tokens=False).ids
    if name.startswith("tiktoken"):
        pattern = name.split("-")[1]
        enc = tiktoken.Encoding(
            name, pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=ranks, special_tokens={}
        )
        return load_tiktoken(d / "ranks.tiktoken", pattern), enc.encode_ordinary
    sp = spm.SentencePieceProcessor(model_file=str(d / "sp.model"))
    return load_sentencepiece(d / "sp.model"), sp.encode


@pytest.mark.parametrize("name", ["bpe", "bytelevel", "tiktoken-gpt2", "tiktoken-cl100k_base", "sp-bpe"])
def test_awkward_inputs_give_the_peers_ids_on_every_path(files, name):
    ours, theirs = _pair(files, name)
    expected = [theirs(t) for t in AWKWARD]
    assert any(len(e) > 1000 for e in expected)  # the long words really are long
    assert ours.encode_batch_ids(AWKWARD) == expected
    assert [ours.encode_ids(t) for t in AWKWARD] == expected
    fresh, _ = _pair(files, name)  # caches empty: every word merged by encode itself
    assert [fresh.encode(t).ids for t in AWKWARD] == expected


@pytest.mark.parametrize("name", ["bpe", "tiktoken-cl100k_base", "sp-bpe"])
def test_one_word_of_100000_characters(files, name):
    ours, theirs = _pair(files, name)
    word = ("영화는재밌" * 20_000)[:100_000]
    expected = theirs(word)
    assert ours.encode_ids(word) == expected
    assert ours.encode_batch_ids([word, word[:99_999]]) == [expected, theirs(word[:99_999])]
