"""A project folder is replaced as a set: an earlier project's extra files do not survive beside a new one."""

from __future__ import annotations

import copy

from core.events import drain
from core.formats.project import TrainingRecord, load_project, save_project
from core.options import TrainOptions
from core.training import train_from_counts

HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def test_an_earlier_projects_source_copies_are_removed(tmp_path):
    tok = drain(train_from_counts(HUG, TrainOptions("bpe", vocab_size=12)))
    with_sources = copy.copy(tok)
    with_sources.extra = {"source_file": {"name": "tekken.json", "format": "tekken", "data": b"{}"}}
    folder = tmp_path / "p"
    save_project(with_sources, folder, TrainingRecord(corpus=["a.txt"]))
    assert (folder / "source-tekken.json").exists()
    (folder / "vocab.json").write_text("{}")  # as if a BPE had been trained into it before
    (folder / "notes.md").write_text("mine")
    save_project(tok, folder, TrainingRecord(corpus=["b.txt"]))
    assert sorted(p.name for p in folder.iterdir()) == ["notes.md", "tokenizer.json", "training.json"]
    again, record = load_project(folder)
    assert record.corpus == ["b.txt"] and again.get_vocab() == tok.get_vocab()
