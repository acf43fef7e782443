"""Sizes and counts a file claims are refused beyond core.limits' bounds, in one line naming the bound."""

from __future__ import annotations

import base64
import gzip
import json
import math

import pytest
import sentencepiece as spm
from tekken_files import write_tekken

from core.corpus import read_word_counts
from core.errors import CorpusError, FormatError
from core.formats.detect import open_tokenizer
from core.limits import MAX_COUNT, MAX_INFLATED_BYTES, MAX_TOKEN_ID, MAX_VOCAB_SIZE
from tests.sentencepiece_files import model_bytes


def test_a_tekken_vocabulary_size_past_the_bound_is_refused_at_once(tmp_path):
    path = write_tekken(tmp_path / "tekken.json", vocab_size=10**12, specials=[])
    with pytest.raises(
        FormatError, match=f"default_vocab_size 1,000,000,000,000 is beyond the bound of {MAX_VOCAB_SIZE:,}"
    ):
        open_tokenizer(path)


def test_a_gzip_that_inflates_past_the_bound_is_refused(tmp_path):
    path = tmp_path / "bpe_simple_vocab_16e6.txt.gz"
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(b'"bpe_simple_vocab_16e6.txt#version: 0.2\n')
        zeros = b"a b\n" * (1 << 20)
        for _ in range(MAX_INFLATED_BYTES // len(zeros) + 1):
            f.write(zeros)
    with pytest.raises(FormatError, match=f"inflates past {MAX_INFLATED_BYTES:,} bytes"):
        open_tokenizer(path, format="clip")


@pytest.mark.parametrize(
    "counts",
    [f"a\t{2**63}\n", f"a\t{10**30}\n", "a\t" + "9" * 5000 + "\n", f"a\t{2**61 + 1}\nb\t{2**61 + 1}\n"],
    ids=["2**63", "10**30", "5000 digits", "two near 2**62"],
)
def test_counts_whose_sums_would_overflow_are_refused(tmp_path, counts):
    path = tmp_path / "counts.tsv"
    path.write_text(counts, encoding="utf-8")
    with pytest.raises(CorpusError, match=f"the counts added up .* is beyond the bound of {MAX_COUNT:,}"):
        read_word_counts(path)


def _tiny_bpe_json() -> dict:
    vocab = {"a": 0, "b": 1, "ab": 2}
    return {"model": {"type": "BPE", "vocab": vocab, "merges": [["a", "b"]]}, "added_tokens": []}


HUGE_IDS = pytest.mark.parametrize(
    "huge", [2**64, 99_999_999_999, 10**12], ids=["2**64", "99,999,999,999", "10**12"]
)


@HUGE_IDS
@pytest.mark.parametrize("where", ["vocab", "added token"])
def test_a_tokenizer_json_id_past_the_bound_is_refused(tmp_path, huge, where):
    d = _tiny_bpe_json()
    if where == "vocab":
        d["model"]["vocab"]["zz"] = huge
    else:
        d["added_tokens"] = [{"content": "<x>", "id": huge, "special": True}]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(FormatError, match=f"{huge:,} is beyond the bound of {MAX_TOKEN_ID:,}"):
        open_tokenizer(path)


@HUGE_IDS
def test_a_vocab_json_or_rank_past_the_bound_is_refused(tmp_path, huge):
    folder = tmp_path / "gpt2"
    folder.mkdir()
    (folder / "vocab.json").write_text(json.dumps({"a": 0, "b": 1, "ab": huge}), encoding="utf-8")
    (folder / "merges.txt").write_text("#version: 0.2\na b\n", encoding="utf-8")
    with pytest.raises(FormatError, match=f"{huge:,} is beyond the bound of {MAX_TOKEN_ID:,}"):
        open_tokenizer(folder)
    ranks = tmp_path / "r.tiktoken"
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    ranks.write_text(
        "\n".join(lines + [f"{base64.b64encode(b'ab').decode()} {huge}"]) + "\n", encoding="utf-8"
    )
    with pytest.raises(FormatError, match=f"line 257: rank {huge:,} is beyond the bound of {MAX_TOKEN_ID:,}"):
        open_tokenizer(ranks)


@pytest.mark.parametrize("score", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
def test_a_score_that_is_not_finite_is_refused_as_sentencepiece_refuses_it(tmp_path, score):
    pieces = [("<unk>", 0.0, 2), ("▁a", -1.0, 1), ("b", score, 1)]
    path = tmp_path / "m.model"
    path.write_bytes(model_bytes(pieces))
    with pytest.raises((RuntimeError, OSError), match="NaN or Inf"):
        spm.SentencePieceProcessor(model_file=str(path))
    with pytest.raises(FormatError, match=f"piece 2 \\('b'\\) has score {score}, not a finite number"):
        open_tokenizer(path)
    unigram = {"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["a", score]]}}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(unigram), encoding="utf-8")  # (json writes NaN and Infinity)
    with pytest.raises(FormatError, match=f"piece 'a' has score {score}, not a finite number"):
        open_tokenizer(path)
