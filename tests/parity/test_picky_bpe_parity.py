"""PickyBPE from the command line, and what Hugging Face ``tokenizers`` makes of its files.

``subword train -a picky-bpe`` writes a tokenizer.json whose model is Subword Explorer's own
``PickyBPE`` type (the removals are part of the encoding), which ``tokenizers`` refuses; the
removed tokens are not in its vocabulary. ``subword convert --to hf-json`` writes the plain BPE
stand-in, which ``tokenizers`` loads and encodes exactly as we read that file, and the loss
report says why it differs from PickyBPE: ``tokenizers`` cannot remove a token, so a word whose
merges pass through a removed token can come out otherwise (checked word by word here).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

tokenizers = pytest.importorskip("tokenizers")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine" / "models" / "bpe"))
from cli_helpers import assert_one_line_error, run  # noqa: E402
from test_picky import mixed_corpus  # noqa: E402

from core.formats.hf_json import load_tokenizer_json  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("picky") / "mixed.txt"
    path.write_text("\n".join(mixed_corpus()) + "\n", encoding="utf-8")
    return path


def test_train_prints_deletions_and_saves_without_removed_tokens(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    code, stdout, err = run(
        ["train", corpus, "-a", "picky-bpe", "--tau", "0.9", "-v", "150", "-o", out, "--workers", "1"], capsys
    )
    assert code == 0, err
    removed_lines = [line for line in err.splitlines() if ": removed '" in line]
    assert removed_lines, err
    assert "tokens removed on the way" in err
    assert "keeps the PickyBPE model as Subword Explorer's own types" in err
    saved = json.loads((out / "tokenizer.json").read_text(encoding="utf-8"))
    model = saved["model"]
    assert model["type"] == "PickyBPE" and model["tau"] == 0.9
    assert len(model["vocab"]) == 150
    ours = load_tokenizer_json(out / "tokenizer.json")
    removed_for_good = ours.model.removed_tokens()
    assert removed_for_good and not set(removed_for_good) & set(model["vocab"])
    assert len(model["removals"]) == len(removed_lines)
    # tokenizers cannot read our own model type
    with pytest.raises(Exception, match="PickyBPE|variant"):
        tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))


def test_converted_file_loads_in_tokenizers_and_the_loss_report_says_why(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = run(
        ["train", corpus, "-a", "picky-bpe", "-v", "150", "-o", out, "-q", "--workers", "1"], capsys
    )
    assert code == 0, err
    hf = tmp_path / "tokenizer-hf.json"
    code, stdout, err = run(["convert", out, hf, "--to", "hf-json"], capsys)
    assert code == 0, err
    picky = load_tokenizer_json(out / "tokenizer.json")
    n_removed = len(picky.model.removed_tokens())
    losses = [line for line in stdout.splitlines() if "cannot remove tokens" in line]
    assert len(losses) == 1, stdout
    assert f"the {n_removed:,} tokens PickyBPE removed for good" in losses[0]
    assert f"({len(picky.model.removals):,} removals)" in losses[0]

    stock = tokenizers.Tokenizer.from_file(str(hf))
    standin = load_tokenizer_json(hf)
    lines = mixed_corpus(60) + ["kentuckyish 영화관에서도 shoulders", "xyz 🙂 colder"]
    for line in lines:
        theirs = stock.encode(line)
        mine = standin.encode(line)
        assert theirs.ids == mine.ids and theirs.tokens == mine.tokens, line

    # Word by word: the stand-in differs from PickyBPE only where its merges pass through a
    # token PickyBPE removed at some step (the loss report's claim).
    ever_removed = {t for _, t in picky.model.removals}
    words = sorted({w for line in lines for w in line.split()})
    differ = 0
    for word in words:
        theirs = stock.encode(word).tokens
        if theirs == picky.encode(word).tokens:
            continue
        differ += 1
        piece = "▁" + word
        made = {step.merged for step in standin.model.explain(piece)}
        assert made & ever_removed, (word, theirs, picky.encode(word).tokens)
    assert differ, "some word should show the difference the report names"


def test_tau_belongs_to_picky_bpe(corpus, tmp_path, capsys):
    code, _, err = run(
        ["train", corpus, "-a", "bpe", "--tau", "0.9", "-v", "100", "-o", tmp_path / "o"], capsys
    )
    assert_one_line_error(code, err, "--tau", "picky-bpe")
    code, _, err = run(
        ["train", corpus, "-a", "picky-bpe", "--tau", "-2", "-v", "100", "-o", tmp_path / "o"], capsys
    )
    assert_one_line_error(code, err, "τ")
    assert not (tmp_path / "o" / "tokenizer.json").exists()
