"""``subword train -a sentencepiece-bpe``: spm_train's options as flags, refused for other algorithms."""

from __future__ import annotations

import pytest

from core.cli import main
from core.errors import ConfigError
from core.formats.sentencepiece_model import load_sentencepiece
from core.options import TrainOptions


def test_flags_reach_the_model_file(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello world 2024\nthe world\n" * 20, encoding="utf-8")
    out = tmp_path / "out"
    args = ["train", "-a", "sentencepiece-bpe", "-v", "300", "-o", str(out), "-q", str(corpus)]
    assert main([*args, "--byte-fallback", "--split-digits", "--user-defined-symbols", "<sep>"]) == 0
    tok = load_sentencepiece(out / "tokenizer.model")
    info = tok.extra["sentencepiece"]
    assert info["byte_fallback"] and info["model_type"] == "bpe"
    assert info["piece_types"]["byte"] == 256 and info["piece_types"]["user-defined"] == 1
    assert "20" not in tok.get_vocab()  # split digits: no piece holds two digits
    assert tok.encode("é<sep>").tokens == ["▁", "<0xC3>", "<0xA9>", "<sep>"]


def test_sentencepiece_flags_are_refused_for_other_algorithms(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("a b\n", encoding="utf-8")
    code = main(
        ["train", "-a", "bpe", "-v", "30", "-o", str(tmp_path / "o"), "-q", str(corpus), "--byte-fallback"]
    )
    assert code != 0
    assert "--byte-fallback" in capsys.readouterr().err
    with pytest.raises(ConfigError):
        TrainOptions("unigram", extra={"split_digits": True})
    with pytest.raises(ConfigError):
        TrainOptions("sentencepiece-bpe", extra={"character_coverage": 0.5})


def test_the_collector_is_off_while_training_and_back_after(tmp_path, monkeypatch):
    import gc

    import core.training

    seen = []
    train_from_counts = core.training.train_from_counts

    def spying(words, options):
        seen.append(gc.isenabled())
        return (yield from train_from_counts(words, options))

    monkeypatch.setattr(core.training, "train_from_counts", spying)
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello world\nthe world\n" * 5, encoding="utf-8")
    assert gc.isenabled()
    args = ["train", "-a", "sentencepiece-bpe", "-v", "30", "-o", str(tmp_path / "o"), "-q", str(corpus)]
    assert main(args) == 0
    assert seen == [False] and gc.isenabled()
