"""Every format of the format table, opened through File › Open after another model was shown,
is what the Segmentation panel shows: its tokens and ids for a mixed text are the engine's
encoding of the same file.

Opening a SentencePiece BPE ``.model`` after another model left the explorer showing the model
shown before (the panel failed while taking the new one and kept the old).
"""

from __future__ import annotations

import base64
import gzip
import json

import pytest
from PySide6.QtWidgets import QFileDialog

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
    d = {
        "config": {
            "pattern": r"\S+|\s+",
            "default_vocab_size": 3 + 256,
            "default_num_special_tokens": 3,
            "version": "v13",
        },
        "vocab": [
            {"rank": b, "token_bytes": base64.b64encode(bytes([b])).decode(), "token_str": None}
            for b in range(256)
        ],
        "special_tokens": [{"rank": 0, "token_str": "<unk>", "is_control": True}],
    }
    path = tmp_path / "tekken.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    return path


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
