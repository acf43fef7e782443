"""Every format of the format table, opened through File › Open after another model was shown,
is what the Segmentation panel shows: its tokens and ids for a mixed text are the engine's
encoding of the same file.

Opening a SentencePiece BPE ``.model`` after another model left the explorer showing the model
shown before (the panel failed while taking the new one and kept the old).
"""

from __future__ import annotations

import gzip

import pytest
from PySide6.QtWidgets import QFileDialog
from tekken_files import write_tekken

from core.events import drain
from core.formats import registry
from core.formats.detect import open_tokenizer, save_tokenizer
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from tests.gui.conftest import make_lines

MIXED = "Hello world, 철수는 치킨을 먹고 👩🏽‍💻\n  the tokens 영화 정말 🙂 cuts"
LINES = make_lines(200) + ["Hello world, hello there", "철수는 치킨을 먹고 있다"]


def _trained(algorithm: str, vocab_size: int, **options):
    opts = TrainOptions(algorithm, vocab_size=vocab_size, **options)
    return drain(train_from_counts(pre_tokenize_lines(LINES, opts), opts))


def _saved(tmp_path, algorithm: str, fmt: str, name: str, vocab_size: int = 300, **options):
    path = tmp_path / name
    save_tokenizer(_trained(algorithm, vocab_size, **options), path, fmt)
    return path


def _sentencepiece(tmp_path, model_type: str, vocab_size: int):
    import sentencepiece as spm

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    prefix = tmp_path / f"spm-{model_type}"
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(prefix),
        model_type=model_type,
        vocab_size=vocab_size,
        character_coverage=1.0,
        byte_fallback=True,
        num_threads=1,
        minloglevel=2,
    )
    return prefix


def _tekken(tmp_path):
    return write_tekken(tmp_path / "tekken.json", n_special=3)


def _clip(tmp_path):
    """CLIP's file shape: its header line, then merges of byte symbols ending in ``</w>``."""
    merges = ["t h", "th e</w>", "h e", "l l", "he ll", "hell o</w>", "o r", "w or", "wor l", "worl d</w>"]
    path = tmp_path / "bpe_simple_vocab_16e6.txt.gz"
    with gzip.open(path, "wb") as f:
        f.write(('"bpe_simple_vocab_16e6.txt#version: 0.2\n' + "\n".join(merges) + "\n").encode())
    return path


def _gguf(tmp_path):
    """A vocabulary-only GGUF file (what llama.cpp reads): a byte-level BPE trained here, written
    with the ``gguf`` package's writer as a ``gpt2`` tokenizer with the ``default`` pre-tokenizer."""
    gguf = pytest.importorskip("gguf", reason="the gguf package writes the test file (pip install gguf)")
    model = _trained("bytelevel-bpe", 300).model
    tokens = [token for token, _ in sorted(model.vocab.items(), key=lambda item: item[1])]
    path = tmp_path / "tiny.gguf"
    writer = gguf.GGUFWriter(str(path), "gpt2")
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types([1] * len(tokens))
    writer.add_token_merges([f"{a} {b}" for a, b in model.merges])
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


BUILDERS = {
    "gguf": _gguf,
    # a folder's file, as the open dialog picks it
    "project": lambda p: _saved(p, "bpe", "project", "project-folder") / "training.json",
    "hf-json": lambda p: _saved(p, "unigram", "hf-json", "tokenizer.json", pre_tokenizer="metaspace"),
    "tekken": _tekken,
    "gpt2": lambda p: _saved(p, "bytelevel-bpe", "gpt2", "gpt2-folder") / "vocab.json",
    "sentencepiece": lambda p: _sentencepiece(p, "bpe", 500).with_suffix(".model"),
    "bert": lambda p: _saved(p, "wordpiece", "bert", "vocab.txt"),
    "tiktoken": lambda p: _saved(p, "bytelevel-bpe", "tiktoken", "ranks.tiktoken"),
    "subword-nmt": lambda p: _saved(p, "bpe", "subword-nmt", "bpe.codes"),
    "clip": _clip,
    "sentencepiece-vocab": lambda p: _sentencepiece(p, "unigram", 340).with_suffix(".vocab"),
}


def test_every_format_of_the_table_has_a_file_here():
    assert sorted(BUILDERS) == sorted(f.name for f in registry.FORMATS)


def _shown(panel) -> tuple[list[list[str]], list[list[int]], list[str]]:
    lines = panel.lines()
    return (
        [ln.encoding.tokens for ln in lines],
        [ln.encoding.ids for ln in lines],
        [c.caption for c in panel.strip.chips()],
    )


@pytest.mark.parametrize("fmt", [f.name for f in registry.FORMATS])
def test_a_file_opened_after_another_model_is_what_the_segmentation_shows(
    qtbot, window, monkeypatch, tmp_path, fmt
):
    path = BUILDERS[fmt](tmp_path)
    engine = open_tokenizer(path).tokenizer
    expected = [engine.encode(line) for line in MIXED.split("\n")]

    before = _trained("bpe", 120)  # another model, shown first
    window.state.set_full_tokenizer(before)
    panel = window.segmentation_panel
    panel.set_text(MIXED)
    assert _shown(panel)[0] == [before.encode(line).tokens for line in MIXED.split("\n")]

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.open_tokenizer_action.trigger()
    assert window.messages == []
    assert window.state.full_tokenizer is not before
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    tokens, ids, captions = _shown(panel)
    assert tokens == [e.tokens for e in expected]
    assert ids == [e.ids for e in expected]
    assert captions == [str(i) for e in expected for i in e.ids]


@pytest.mark.parametrize("fmt", [f.name for f in registry.FORMATS])
def test_a_file_picked_in_compare_after_another_model_is_what_its_column_shows(
    qtbot, window, monkeypatch, tmp_path, fmt
):
    """The same through Compare's own file picker: the column's source menu › "A tokenizer file…"."""
    path = BUILDERS[fmt](tmp_path)
    expected = [open_tokenizer(path).tokenizer.encode(line) for line in MIXED.split("\n")]

    before = _trained("bpe", 120)  # another model, shown first (and in every column)
    window.state.set_full_tokenizer(before)
    window.segmentation_panel.set_text(MIXED)
    window.finish_startup()
    window.raise_panel("compare")
    compare = window.compare_panel
    qtbot.waitUntil(lambda: compare.text() == MIXED, timeout=5000)
    column = compare.columns[1]

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    column.source.setCurrentIndex(column.source.findData("file"))  # as the user picks it
    assert column.source_key() == "file"
    assert path.name in column.title.text()
    compare.compare()
    assert [ln.encoding.tokens for ln in column.result.lines] == [e.tokens for e in expected]
    assert [ln.encoding.ids for ln in column.result.lines] == [e.ids for e in expected]
    # the first column still shows the model shown before
    assert [ln.encoding.tokens for ln in compare.columns[0].result.lines] == [
        before.encode(line).tokens for line in MIXED.split("\n")
    ]


@pytest.mark.parametrize("fmt", [f.name for f in registry.FORMATS])
def test_a_file_opened_after_another_model_is_what_a_relaunch_shows(
    qtbot, window, settings, monkeypatch, tmp_path, fmt
):
    """The same after quitting: a new window on the same settings and data folder restores the
    opened file, and its Segmentation panel shows the engine's encoding of it."""
    from subword_gui.main_window import MainWindow

    path = BUILDERS[fmt](tmp_path)
    expected = [open_tokenizer(path).tokenizer.encode(line) for line in MIXED.split("\n")]
    window.state.set_full_tokenizer(_trained("bpe", 120))  # another model, shown first
    window.segmentation_panel.set_text(MIXED)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.open_tokenizer_action.trigger()
    assert window.messages == []
    window.close()  # writes the settings and the shown tokenizer for the next launch

    again = MainWindow(settings=settings, open_sample=False)
    again.messages = []
    again._show_message_box = lambda title, message: again.messages.append((title, message))
    qtbot.addWidget(again)
    again.show()
    try:
        with qtbot.waitSignal(again.run_restored, timeout=20_000):
            again.restore_last_run()
        assert again.messages == []
        panel = again.segmentation_panel
        assert panel.text() == MIXED
        qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
        tokens, ids, captions = _shown(panel)
        assert tokens == [e.tokens for e in expected]
        assert ids == [e.ids for e in expected]
        assert captions == [str(i) for e in expected for i in e.ids]
    finally:
        again.training_panel.shutdown()


def test_clips_slider_reaches_its_whole_vocabulary_and_a_cut_keeps_its_specials(qtbot, window, tmp_path):
    """CLIP's slider ended at 49,406 against a vocabulary of 49,408: its two added tokens
    (<|startoftext|>, <|endoftext|>) lie outside the model (issue 29, item 7)."""
    path = _clip(tmp_path)
    full = open_tokenizer(path).tokenizer
    outside = full.vocab_size - full.model.vocab_size
    assert outside == 2
    window.open_tokenizer(str(path))
    slider = window.slider
    assert slider.slider.maximum() == slider.spin.maximum() == full.vocab_size
    assert window.state.vocab_size == full.vocab_size == slider.value
    slider.set_vocab_size(full.vocab_size - 3)  # three merges fewer, the two added tokens kept
    cut = window.state.tokenizer
    assert cut.model.vocab_size == full.model.vocab_size - 3
    assert cut.vocab_size == full.vocab_size - 3 == window.state.vocab_size
    assert cut.encode("<|endoftext|>").tokens == ["<|endoftext|>"]
    slider.set_vocab_size(slider.slider.maximum())
    assert window.state.tokenizer is full or window.state.tokenizer.vocab_size == full.vocab_size
