"""Acceptance: a rank file built from a byte-level BPE trained here (with `tokenizers`)
encodes in ours exactly as ``tiktoken.Encoding`` with the same ranks and pattern, every line."""

from __future__ import annotations

import base64

import pytest

tiktoken = pytest.importorskip("tiktoken")
tokenizers = pytest.importorskip("tokenizers")

from conftest import CORPORA

from core.bytelevel import CHAR_TO_BYTE
from core.formats.tiktoken_ranks import load_tiktoken, read_ranks, write_ranks
from core.pre_tokenizers import TIKTOKEN_PATTERNS

KO_EVERY = 40
PROBES = ["", " ", "😀 이모지 👍🏽", "   many   spaces\t\ttabs\r\n", "I'M SHOUTING'S", "12345678 ９９"]


def _lines(name: str) -> list[str]:
    lines = (CORPORA / name).read_text(encoding="utf-8").splitlines()
    return lines[::KO_EVERY] if name.startswith("ko-") else lines


@pytest.fixture(scope="module")
def rank_files(tmp_path_factory):
    """corpus name -> a rank file from a byte-level BPE trained on it (ids as ranks)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    out = {}
    d = tmp_path_factory.mktemp("tiktoken")
    for name in ("en-botchan.txt", "ja-wagahaiwa.txt", "ko-movie-reviews.txt"):
        corpus = d / name
        corpus.write_text("\n".join(_lines(name)), encoding="utf-8")
        hf = Tokenizer(models.BPE())
        hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(
            vocab_size=3000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
        )
        hf.train([str(corpus)], trainer)
        ranks = {bytes(CHAR_TO_BYTE[c] for c in token): id for token, id in hf.get_vocab().items()}
        assert len(ranks) == 3000 and all(bytes([b]) in ranks for b in range(256))
        write_ranks(ranks, d / f"{name}.tiktoken")
        out[name] = d / f"{name}.tiktoken"
    return out


CASES = [
    ("en-botchan.txt", "gpt2"),
    ("en-botchan.txt", "cl100k_base"),
    ("ja-wagahaiwa.txt", "cl100k_base"),
    ("ja-wagahaiwa.txt", "o200k_base"),
    ("ko-movie-reviews.txt", "o200k_base"),
    ("ko-movie-reviews.txt", "gpt2"),
]


@pytest.mark.slow
@pytest.mark.parametrize("corpus, pattern", CASES)
def test_ids_equal_tiktoken_on_every_line(rank_files, corpus, pattern):
    path = rank_files[corpus]
    # tiktoken gets the ranks as read by its own rules (base64 token, rank), not ours
    theirs_ranks = {}
    for line in path.read_bytes().splitlines():
        token, rank = line.split()
        theirs_ranks[base64.b64decode(token)] = int(rank)
    assert theirs_ranks == read_ranks(path)
    theirs = tiktoken.Encoding(
        f"test-{pattern}", pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=theirs_ranks, special_tokens={}
    )
    ours = load_tiktoken(path, pattern)
    mismatches = []
    for i, line in enumerate(_lines(corpus) + PROBES):
        expected = theirs.encode_ordinary(line)
        got = ours.encode(line).ids
        if got != expected:
            mismatches.append((i, line[:60], expected[:12], got[:12]))
    assert not mismatches, f"{len(mismatches)} lines differ, first: {mismatches[:3]}"
    # the ids fast path (plain strings, cached pieces, pair scan on short pieces) too
    lines = _lines(corpus) + PROBES
    fast = ours.encode_batch_ids(lines)
    differ = [line for line, got in zip(lines, fast) if got != theirs.encode_ordinary(line)]
    assert not differ, f"encode_batch_ids: {len(differ)} lines differ, first: {differ[0]!r}"
    assert ours.decode(ours.encode("한국어 text").ids) == "한국어 text"


def test_special_tokens_match_like_allowed_special_all(rank_files):
    path = rank_files["en-botchan.txt"]
    ranks = read_ranks(path)
    specials = {"<|endoftext|>": len(ranks), "<|fim|>": len(ranks) + 1}
    theirs = tiktoken.Encoding(
        "test-specials",
        pat_str=TIKTOKEN_PATTERNS["cl100k_base"],
        mergeable_ranks=ranks,
        special_tokens=specials,
    )
    ours = load_tiktoken(path, "cl100k_base", special_tokens=specials)
    for text in ["a<|endoftext|>b", "<|fim|><|endoftext|>", "x <|endoftext|> y<|fim", "no specials here"]:
        assert ours.encode(text).ids == theirs.encode(text, allowed_special="all"), text
        assert ours.encode_ids(text) == theirs.encode(text, allowed_special="all"), text


def test_whole_texts_in_one_call_with_special_tokens(rank_files):
    # each text's pieces and its special tokens' ids go to the compiled merge together (no cache
    # of pieces), one text at a time and in a batch, empty texts and texts of specials only too
    path = rank_files["ko-movie-reviews.txt"]
    ranks = read_ranks(path)
    specials = {"<|endoftext|>": len(ranks), "<|fim|>": len(ranks) + 1}
    theirs = tiktoken.Encoding(
        "test-texts", pat_str=TIKTOKEN_PATTERNS["gpt2"], mergeable_ranks=ranks, special_tokens=specials
    )
    for ours_specials in ({}, specials):
        ours = load_tiktoken(path, "gpt2", special_tokens=ours_specials)
        assert ours._ids_plan().texts is not None  # the whole-text way is the one taken
        texts = _lines("ko-movie-reviews.txt")[:300] + PROBES
        if ours_specials:
            texts += ["<|endoftext|>", "영화<|fim|> 최고<|endoftext|>", "", "<|fim|><|fim|>"]
        expected = [theirs.encode(t, allowed_special="all" if ours_specials else set()) for t in texts]
        assert ours.encode_batch_ids(texts) == expected
        assert [ours.encode_ids(t) for t in texts] == expected
