"""Acceptance: text holding surrogates encodes with a rank file as ``tiktoken.Encoding.encode``
takes it (tiktoken's own ``test_encode_surrogate_pairs``): a surrogate pair is its character,
a lone surrogate is U+FFFD; other tokenizers still refuse a lone surrogate with one line."""

from __future__ import annotations

import pytest

tiktoken = pytest.importorskip("tiktoken")

from core.errors import InputError  # noqa: E402
from core.formats.tiktoken_ranks import load_tiktoken, write_ranks  # noqa: E402
from core.pre_tokenizers import TIKTOKEN_PATTERNS  # noqa: E402

TEXTS = [
    "\ud83d\udc4d",  # 👍 as a UTF-16 pair in a Python str
    "👍",
    "a\ud83d\udc4db hello",
    "\ud83d",  # lone high
    "x\udc4d y",  # lone low
    "\ud800\ud800 \udfff\ud800",
    "hello \ud83d\udc4d\ud83d 철수",
    "👍 \ud83d\udc4d",
    "plain text",
]


@pytest.fixture(scope="module")
def rank_file(tmp_path_factory):
    ranks = {bytes([b]): b for b in range(256)}
    for token in [b"\xf0\x9f", b"\xf0\x9f\x91", b"\xf0\x9f\x91\x8d", b"he", b"hel", b"hell", b"hello", b" y"]:
        ranks[token] = len(ranks)
    path = tmp_path_factory.mktemp("ranks") / "test.tiktoken"
    write_ranks(ranks, path)
    return path, ranks


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k_base"])
def test_surrogates_encode_as_tiktoken(rank_file, pattern):
    path, ranks = rank_file
    theirs = tiktoken.Encoding(
        f"surrogates-{pattern}", pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=ranks, special_tokens={}
    )
    assert theirs.encode("\ud83d\udc4d") == theirs.encode("👍")  # tiktoken's own test, on these ranks
    assert theirs.encode("\ud83d") == theirs.encode("\ufffd")
    ours = load_tiktoken(path, pattern)
    for text in TEXTS:
        expected = theirs.encode(text)
        assert ours.encode(text).ids == expected, ascii(text)
        assert ours.encode_ids(text) == expected, ascii(text)
    assert ours.encode_batch_ids(TEXTS) == [theirs.encode(t) for t in TEXTS]
    assert [e.ids for e in ours.encode_batch(TEXTS)] == [theirs.encode(t) for t in TEXTS]


def test_offsets_point_into_the_text_as_given(rank_file):
    path, _ = rank_file
    ours = load_tiktoken(path, "cl100k_base")
    text = "a\ud83d\udc4db \ud83d z"
    enc = ours.encode(text)
    assert enc.offsets[0] == (0, 1)
    thumb = [span for span, token in zip(enc.offsets, enc.tokens) if span[0] == 1]
    assert thumb and all(span == (1, 3) for span in thumb)  # the pair's two code units
    assert enc.offsets[-1][1] == len(text)
    assert [a for a, _ in enc.offsets] == sorted(a for a, _ in enc.offsets)


def test_other_tokenizers_still_refuse_a_lone_surrogate():
    from core.events import drain
    from core.options import TrainOptions
    from core.training import train_from_counts

    tok = drain(train_from_counts({"hug": 5, "pug": 3}, TrainOptions("bpe", vocab_size=8)))
    with pytest.raises(InputError, match="lone surrogate U\\+D83D"):
        tok.encode("a\ud83d")
    with pytest.raises(InputError, match="lone surrogate"):
        tok.encode_ids("a\ud83d\udc4d")
