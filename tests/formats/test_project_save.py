"""The project's own save: tokenizer.json + training.json sidecar; exact originals kept."""

from __future__ import annotations

import json
import re

import pytest
from conftest import CORPORA

from core.errors import ConfigError, FormatError
from core.events import MergeEvent, TrainingStopped, UnigramRound, drain
from core.formats.project import (
    TrainingLog,
    TrainingRecord,
    is_project,
    load_project,
    load_training_log,
    save_project,
)
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

TEXTS = ["철수는 밥을 먹고 있다", "Hello, world!", "吾輩は猫である", ""]


@pytest.fixture(scope="module")
def trained():
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:300]
    options = TrainOptions("bpe", vocab_size=300, normalizer="nfkc")
    events = []
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options), events.append)
    stopped = next(e for e in events if isinstance(e, TrainingStopped))
    return tok, options, stopped


def test_round_trip_keeps_tokenizer_and_training_record(tmp_path, trained):
    tok, options, stopped = trained
    record = TrainingRecord.from_run(CORPORA / "en-botchan.txt", options, stopped, lines=300)
    folder = save_project(tok, tmp_path / "proj", record)
    assert sorted(p.name for p in folder.iterdir()) == ["tokenizer.json", "training.json"]
    assert is_project(folder)
    back, rec = load_project(folder)
    for text in TEXTS:
        assert back.encode(text).ids == tok.encode(text).ids
    assert rec.corpus == [str(CORPORA / "en-botchan.txt")]
    assert rec.options == options.to_dict()
    assert rec.stop_reason == stopped.reason and rec.vocab_size == stopped.vocab_size
    assert rec.date.endswith("+00:00") and rec.engine_version
    assert rec.extra == {"lines": 300}
    sidecar = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    assert sidecar["format"] == "subword-explorer-project"
    assert TrainOptions(**rec.options).to_dict() == options.to_dict()  # the options can be re-used


def test_sentencepiece_original_is_kept_exactly(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    from core.formats.sentencepiece_model import load_sentencepiece

    corpus = tmp_path / "c.txt"
    corpus.write_text(
        "\n".join((CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:300]),
        encoding="utf-8",
    )
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(tmp_path / "m"), vocab_size=300, minloglevel=2
    )
    tok = load_sentencepiece(tmp_path / "m.model")
    folder = save_project(tok, tmp_path / "proj")
    assert (folder / "source.model").read_bytes() == (tmp_path / "m.model").read_bytes()
    back, rec = load_project(folder)
    assert rec.extra["source"]["format"] == "sentencepiece"
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "m.model"))
    for text in TEXTS + ["  spaced   out  ", "ｶﾞ①"]:
        assert back.encode(text).ids == sp.encode(text)


def test_saving_over_a_project_replaces_it(tmp_path, trained):
    tok, options, stopped = trained
    folder = tmp_path / "proj"
    save_project(tok, folder, TrainingRecord(corpus=["a.txt"]))
    save_project(tok, folder, TrainingRecord(corpus=["b.txt"]))
    assert load_project(folder)[1].corpus == ["b.txt"]
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # no temp files left


def test_a_file_in_the_way_is_refused(tmp_path, trained):
    path = tmp_path / "proj"
    path.write_text("keep me")
    with pytest.raises(ConfigError, match="is a file"):
        save_project(trained[0], path)
    assert path.read_text() == "keep me"


@pytest.mark.parametrize(
    "sidecar, words",
    [
        ('{"format": "subword-explorer-project", "corpus": [', "truncated or not valid JSON"),
        ('{"corpus": []}', "not a Subword Explorer training record"),
        ('{"format": "subword-explorer-project", "corpus": "x.txt"}', "must be a list"),
    ],
)
def test_bad_sidecars(tmp_path, trained, sidecar, words):
    folder = save_project(trained[0], tmp_path / "proj")
    (folder / "training.json").write_text(sidecar, encoding="utf-8")
    with pytest.raises(FormatError, match=words) as e:
        load_project(folder)
    assert "training.json" in str(e.value)


def test_not_a_project(tmp_path):
    with pytest.raises(FormatError, match="not a Subword Explorer project"):
        load_project(tmp_path)
    assert not is_project(tmp_path)


def _run_log(options):
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:200]
    events = []
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options), events.append)
    return tok, TrainingLog(
        [e for e in events if isinstance(e, MergeEvent)], [e for e in events if isinstance(e, UnigramRound)]
    )


@pytest.mark.parametrize("algorithm", ["bpe", "unigram"])
def test_the_training_log_is_kept_with_the_project(tmp_path, algorithm):
    tok, log = _run_log(TrainOptions(algorithm, vocab_size=300))
    assert log.merges if algorithm == "bpe" else log.rounds
    assert any(r.removed for r in log.rounds) or algorithm == "bpe"
    folder = save_project(tok, tmp_path / "proj", TrainingRecord(), log)
    assert load_training_log(folder) == log  # every event, equal field by field
    # saved again without a log (an opened file): the earlier log does not linger
    save_project(tok, folder, TrainingRecord())
    assert not load_training_log(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["tokenizer.json", "training.json"]


def test_a_project_without_a_log_and_a_damaged_log(tmp_path, trained):
    tok, options, stopped = trained
    folder = save_project(tok, tmp_path / "old", TrainingRecord.from_run([], options, stopped))
    assert load_training_log(folder) == TrainingLog()  # older projects: an empty log
    assert load_project(folder)[0].get_vocab() == tok.get_vocab()
    (folder / "unigram-rounds.jsonl").write_text('{"phase": "em"}\n', encoding="utf-8")
    with pytest.raises(FormatError, match="unigram-rounds.jsonl"):
        load_training_log(folder)
    (folder / "merges.jsonl").write_text("not a log\n", encoding="utf-8")
    with pytest.raises(FormatError, match="merges.jsonl"):
        load_training_log(folder)


@pytest.mark.parametrize("reference", ["../other/secret.model", "ABSOLUTE", "link.model", "..", 7])
def test_a_project_follows_no_source_file_outside_its_folder(tmp_path, trained, reference):
    """A project someone gave the user refers, in training.json, to a file elsewhere: one line,
    never that file (before, ../other/secret.model or an absolute path was loaded silently)."""
    tok, options, _ = trained
    (tmp_path / "other").mkdir()
    secret = tmp_path / "other" / "secret.model"
    secret.write_bytes(b"not ours")
    folder = save_project(tok, tmp_path / "proj", TrainingRecord.from_run("c.txt", options))
    (folder / "link.model").symlink_to(secret)
    reference = str(secret) if reference == "ABSOLUTE" else reference
    sidecar = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    sidecar["extra"]["source"] = {"format": "sentencepiece", "file": reference}
    (folder / "training.json").write_text(json.dumps(sidecar), encoding="utf-8")
    expected = (
        'must be an object whose "file" is a file name'
        if reference == 7
        else f"the source file {reference!r} is not a file inside the project folder; not followed"
    )
    with pytest.raises(FormatError, match=re.escape(expected)):
        load_project(folder)
