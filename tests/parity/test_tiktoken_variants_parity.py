"""Acceptance: rank files as users have them load and encode as tiktoken reads them.

- a file whose last line is an empty token (``= 50256``, as Whisper's multilingual file);
- a file whose size is one of tiktoken's encodings: that encoding's split pattern and
  special tokens, without ``--pattern``;
- special tokens: ordinary text by default (``encode_ordinary``), their ids when allowed
  (``allowed_special="all"``).

The files are built here: a byte-level BPE trained with `tokenizers` on a corpus, padded
with filler tokens (bytes no UTF-8 text contains) up to the size of each encoding.
"""

from __future__ import annotations

import base64

import pytest

tiktoken = pytest.importorskip("tiktoken")
tokenizers = pytest.importorskip("tokenizers")
from conftest import CORPORA  # noqa: E402
from tiktoken.load import load_tiktoken_bpe  # noqa: E402

from core.bytelevel import CHAR_TO_BYTE  # noqa: E402
from core.formats.detect import open_tokenizer  # noqa: E402
from core.formats.tiktoken_ranks import KNOWN_RANK_COUNTS  # noqa: E402
from core.pre_tokenizers import TIKTOKEN_PATTERNS  # noqa: E402

PROBES = [
    "",
    "I'M SHOUTING'S and it's 12345678 or 1 234",
    "   many   spaces\t\ttabs\r\n",
    "😀 이모지 👍🏽 한국어 텍스트",
    "a <|endoftext|> b<|endofprompt|>",
]


def _lines() -> list[str]:
    return (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:800]


@pytest.fixture(scope="module")
def base_ranks(tmp_path_factory) -> dict[bytes, int]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    corpus = tmp_path_factory.mktemp("ranks") / "corpus.txt"
    corpus.write_text("\n".join(_lines()), encoding="utf-8")
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=2000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    hf.train([str(corpus)], trainer)
    return {bytes(CHAR_TO_BYTE[c] for c in token): id for token, id in hf.get_vocab().items()}


def _write(path, ranks: dict[bytes, int], n_ranks: int, empty_last: bool = False):
    """``ranks`` padded with fillers (0xFF never occurs in UTF-8 text) to ``n_ranks`` lines."""
    lines = [f"{base64.b64encode(t).decode()} {r}" for t, r in sorted(ranks.items(), key=lambda x: x[1])]
    for r in range(len(ranks), n_ranks):
        filler = base64.b64encode(b"\xff" + r.to_bytes(3, "big")).decode()
        lines.append(f"{filler} {r}")
    if empty_last:
        lines.append(f"= {n_ranks}")
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def _theirs(path, pattern: str, specials: dict[str, int], monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # read the local file, cache nothing
    ranks = load_tiktoken_bpe(str(path))  # tiktoken's own reading of the file
    return tiktoken.Encoding(
        "test", pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=ranks, special_tokens=specials
    )


def test_an_empty_last_token_loads_and_encodes_as_tiktoken(base_ranks, tmp_path, monkeypatch):
    path = _write(tmp_path / "multilingual.tiktoken", base_ranks, 50256, empty_last=True)
    loaded = open_tokenizer(path)
    assert "assumed gpt2" in loaded.warnings[0]  # 50,257 ranks: GPT-2's family, not cl100k
    theirs = _theirs(path, "gpt2", {}, monkeypatch)
    assert theirs.decode_single_token_bytes(50256) == b""
    for line in _lines()[:300] + PROBES:
        assert loaded.tokenizer.encode(line).ids == theirs.encode_ordinary(line), line
    assert loaded.tokenizer.decode([50256]) == ""


@pytest.mark.parametrize("n_ranks", sorted(KNOWN_RANK_COUNTS))
def test_the_files_size_chooses_pattern_and_special_tokens(base_ranks, tmp_path, monkeypatch, n_ranks):
    name, specials = KNOWN_RANK_COUNTS[n_ranks]
    path = _write(tmp_path / "ranks.tiktoken", base_ranks, n_ranks)
    if name == "p50k_base":  # p50k's ranks skip 50256, <|endoftext|>'s id: move the last one up
        text = path.read_text(encoding="ascii").replace(" 50256\n", " 50280\n")
        path.write_text(text, encoding="ascii")
    loaded = open_tokenizer(path)
    assert f"assumed {name}" in loaded.warnings[0]
    theirs = _theirs(path, name, specials, monkeypatch)
    tok = loaded.tokenizer
    lines = _lines()[:200] + PROBES
    for line in lines:
        assert tok.encode(line).ids == theirs.encode_ordinary(line), line
    tok.encode_special_tokens = False  # subword encode --allow-special
    for line in lines:
        assert tok.encode(line).ids == theirs.encode(line, allowed_special="all"), line
    assert tok.encode("<|endoftext|>").ids == [specials["<|endoftext|>"]]


def test_an_other_size_takes_the_nearest_family_without_special_tokens(base_ranks, tmp_path, monkeypatch):
    path = _write(tmp_path / "ranks.tiktoken", base_ranks, 120_000)
    loaded = open_tokenizer(path)
    assert "assumed cl100k_base" in loaded.warnings[0]
    assert loaded.tokenizer.added_tokens == []
    theirs = _theirs(path, "cl100k_base", {}, monkeypatch)
    for line in PROBES:
        assert loaded.tokenizer.encode(line).ids == theirs.encode_ordinary(line), line
