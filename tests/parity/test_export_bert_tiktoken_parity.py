"""Acceptance: ``subword convert --to bert`` writes a vocab.txt that `tokenizers`'
``BertWordPieceTokenizer`` loads (BERT's special tokens included) and says what its readers
will assume (BERT's normalizer and pre-tokenizer, with the casing they guess), and that is
what they do; ``--to tiktoken`` refuses, in one line, a BPE that is not byte-level (tiktoken
cannot encode a byte its ranks lack)."""

from __future__ import annotations

import pytest

tokenizers = pytest.importorskip("tokenizers")

from cli_helpers import assert_one_line_error, run  # noqa: E402

from core.events import drain  # noqa: E402
from core.formats.detect import open_tokenizer, save_tokenizer  # noqa: E402
from core.normalizers import BertNormalizer  # noqa: E402
from core.options import TrainOptions, pre_tokenize_lines  # noqa: E402
from core.training import train_from_counts  # noqa: E402

LINES = [
    "吾輩は猫である 名前はまだ無い",
    "どこで生れたかとんと見当がつかぬ",
    "the tokenizer cuts the text into pieces",
    "철수는 치킨을 먹고 있다",
] * 10
MIXED = "the 吾輩は猫 tokenizer 철수는 😀 cuts\x07 text"


def _trained(algorithm: str, vocab_size: int, lines=LINES):
    opts = TrainOptions(algorithm, vocab_size=vocab_size)
    return drain(train_from_counts(pre_tokenize_lines(lines, opts), opts))


def test_convert_to_bert_writes_the_specials_and_says_what_readers_assume(tmp_path, capsys):
    tok = _trained("wordpiece", 200)
    assert tok.normalizer is None  # trained without BERT's normalizer: the reader's differs
    save_tokenizer(tok, tmp_path / "tokenizer.json", "hf-json")
    out = tmp_path / "vocab.txt"
    code, stdout, err = run(["convert", tmp_path / "tokenizer.json", out, "--to", "bert"], capsys)
    assert code == 0, err
    report = stdout + err
    assert "readers apply BERT's" in report and "had no normalizer" in report
    assert "[CLS]" in report and "[SEP]" in report
    # the report is true: a reader applies the normalizer it names, with the casing it names
    reopened = open_tokenizer(out).tokenizer
    norm = reopened.normalizer
    assert isinstance(norm, BertNormalizer)
    assert f"lowercase={norm.lowercase}" in report and f"strip_accents={norm.strip_accents}" in report
    assert reopened.encode(MIXED).ids != tok.encode(MIXED).ids  # as it warns, text encodes otherwise
    # and the peer library loads the file and encodes as we read it
    theirs = tokenizers.BertWordPieceTokenizer(
        str(out), lowercase=norm.lowercase, strip_accents=norm.strip_accents
    )
    assert theirs.encode(MIXED, add_special_tokens=False).ids == reopened.encode(MIXED).ids
    # the vocabulary's own ids did not move
    vocab = reopened.get_vocab()
    assert all(vocab[t] == i for t, i in tok.get_vocab().items())


def test_convert_a_non_byte_level_bpe_to_tiktoken_is_one_line_and_writes_nothing(tmp_path, capsys):
    # English only: every token is spelled with characters that are byte symbols too
    english = ["the tokenizer cuts the text into pieces", "pieces of text are tokens"] * 10
    save_tokenizer(_trained("bpe", 60, english), tmp_path / "tokenizer.json", "hf-json")
    out = tmp_path / "ranks.tiktoken"
    code, _, err = run(["convert", tmp_path / "tokenizer.json", out, "--to", "tiktoken"], capsys)
    assert_one_line_error(code, err, "256 single bytes")
    assert not out.exists()


def test_convert_a_byte_level_bpe_to_tiktoken_encodes_as_tiktoken(tmp_path, capsys):
    tiktoken = pytest.importorskip("tiktoken")
    from core.formats.tiktoken_ranks import read_ranks
    from core.pre_tokenizers import TIKTOKEN_PATTERNS

    tok = _trained("bytelevel-bpe", 400)
    save_tokenizer(tok, tmp_path / "tokenizer.json", "hf-json")
    out = tmp_path / "ranks.tiktoken"
    code, _, err = run(["convert", tmp_path / "tokenizer.json", out, "--to", "tiktoken"], capsys)
    assert code == 0, err
    theirs = tiktoken.Encoding(
        "t", pat_str=TIKTOKEN_PATTERNS["gpt2"], mergeable_ranks=read_ranks(out), special_tokens={}
    )
    ours = open_tokenizer(out, pattern="gpt2").tokenizer
    assert ours.encode(MIXED).ids == theirs.encode(MIXED)


def test_a_vocabulary_whose_unknown_token_is_not_berts_gets_unk_written(tmp_path):
    # a BPE's <unk>: tokenizers' WordPiece fails at the first unknown character without [UNK]
    tok = _trained("bpe", 200)
    assert "<unk>" in tok.get_vocab() and "[UNK]" not in tok.get_vocab()
    out = tmp_path / "vocab.txt"
    losses = save_tokenizer(tok, out, "bert")
    theirs = tokenizers.BertWordPieceTokenizer(str(out), lowercase=False, strip_accents=False)
    unk = theirs.token_to_id("[UNK]")
    assert unk == max(tok.get_vocab().values()) + 5  # after [PAD], [CLS], [SEP], [MASK]
    assert any(f"readers use [UNK], written as id {unk}" in line for line in losses), losses
    assert theirs.encode("🦀", add_special_tokens=False).ids == [unk]
    assert open_tokenizer(out).tokenizer.encode("🦀").ids == [unk]


def test_a_bpe_saved_as_sentencepiece_says_sentencepiece_fuses_unknown_runs(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    opts = TrainOptions("bpe", vocab_size=120, pre_tokenizer="metaspace")
    tok = drain(train_from_counts(pre_tokenize_lines(LINES, opts), opts))
    losses = save_tokenizer(tok, tmp_path / "m.model", "sentencepiece")
    assert any("one unknown piece of a run" in line and "fuse_unk is off" in line for line in losses), losses
    text = "the 🦀🦀🦀 tokenizer"  # three characters the vocabulary lacks
    unk = tok.token_to_id("<unk>")
    ours = tok.encode(text).ids
    assert ours.count(unk) == 3
    theirs = spm.SentencePieceProcessor(model_file=str(tmp_path / "m.model")).encode(text)
    assert theirs.count(unk) == 1 and [i for i in ours if i != unk] == [i for i in theirs if i != unk]
