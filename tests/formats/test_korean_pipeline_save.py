"""Saving the Korean/Japanese pipeline: a project reloads the analyser and the jamo step exactly;
a tokenizer.json export (which `tokenizers` must load) writes stand-ins and says what is lost."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer as HfTokenizer

from core import decoders
from core.events import drain
from core.formats.detect import save_tokenizer
from core.formats.hf_json import load_tokenizer_json
from core.formats.project import TrainingRecord, load_project, save_project
from core.morphemes import MorphemeSplit
from core.normalizers import Jamo, Sequence
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

LINES = ["철수는 치킨을 먹고 볶음밥을 먹고 있다", "영희는 볶음밥을 먹고 철수는 치킨을 먹었다"] * 4


@pytest.fixture(scope="module")
def trained():
    options = TrainOptions("bpe", vocab_size=80, normalizer="nfkc,jamo", pre_tokenizer="ko-morph")
    return drain(train_from_counts(pre_tokenize_lines(LINES, options), options)), options


def test_project_reload_restores_analyser_and_jamo(tmp_path, trained):
    tok, options = trained
    folder = save_project(
        tok, tmp_path / "proj", TrainingRecord(corpus=["ko.txt"], options=options.to_dict())
    )
    back, record = load_project(folder)
    assert isinstance(back.pre_tokenizer, MorphemeSplit) and back.pre_tokenizer.language == "ko"
    assert isinstance(back.normalizer, Sequence) and isinstance(back.normalizer.normalizers[1], Jamo)
    assert isinstance(back.decoder, decoders.Sequence)
    assert record.options["pre_tokenizer"] == "ko-morph" and record.options["normalizer"] == "nfkc,jamo"
    for line in LINES[:2]:
        mine, theirs = tok.encode(line), back.encode(line)
        assert (theirs.tokens, theirs.offsets) == (mine.tokens, mine.offsets)
        assert back.decode(theirs.ids) == line


def test_tokenizer_json_export_reports_the_analyser_and_loads_in_tokenizers(tmp_path, trained):
    tok, _ = trained
    path = tmp_path / "tokenizer.json"
    losses = save_tokenizer(tok, path, "hf-json")
    assert any("cannot hold the kiwipiepy" in loss and "ko-morph" in loss for loss in losses), losses
    assert any("jamo normalizer" in loss for loss in losses)
    assert any("recomposes jamo" in loss for loss in losses)
    hf = HfTokenizer.from_file(str(path))  # the stand-ins are all `tokenizers` types
    ours = load_tokenizer_json(path)
    assert not isinstance(ours.pre_tokenizer, MorphemeSplit)
    # on one word with no morpheme cut, the stand-in pipeline encodes as the original
    assert hf.encode("치킨").tokens == ours.encode("치킨").tokens == tok.encode("치킨").tokens


def test_an_export_of_a_plain_pipeline_reports_nothing_new(tmp_path):
    options = TrainOptions("bpe", vocab_size=60, pre_tokenizer="metaspace")
    tok = drain(train_from_counts(pre_tokenize_lines(LINES, options), options))
    assert save_tokenizer(tok, tmp_path / "t.json", "hf-json") == []


def test_sentencepiece_export_reports_the_analyser(tmp_path, trained):
    # a MorphemeSplit is a Metaspace that cuts more: a .model keeps the Metaspace, not the analyser
    tok, _ = trained
    losses = save_tokenizer(tok, tmp_path / "m.model", "sentencepiece")
    assert any(
        "cannot hold the kiwipiepy" in loss and "ko-morph" in loss and "cuts at spaces only" in loss
        for loss in losses
    ), losses
