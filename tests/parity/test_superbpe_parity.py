"""A SuperBPE tokenizer saved as tokenizer.json loads in stock `tokenizers` and encodes exactly
as ours: ids, tokens, spans (our rule for a character cut into bytes, tests/spans.py) and
decoding, on English, Japanese and Korean lines it was not trained on and on mixed text."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer as HfTokenizer

from core.cli import main
from core.events import drain
from core.formats.hf_json import save_tokenizer_json
from core.options import TrainOptions, pre_tokenize_lines
from core.pre_tokenizers import SUPERBPE_STAGE2_PATTERN
from core.training import train_from_counts
from tests.conftest import CORPORA, CORPUS_FILES
from tests.spans import sentencepiece_spans

MIXED = [
    "By the way, 철수는 学校へ行きました... and then: 12345 won!",
    "  two  spaces,\ttab; 😀 emoji, ＡＢＣ full-width, ﾊﾝｶｸ",
    "",
    "a",
    "of the of the of the",
]


def corpus_lines(first: int, count: int) -> list[str]:
    out: list[str] = []
    for name in CORPUS_FILES:
        lines = (CORPORA / name).read_text(encoding="utf-8").splitlines()
        out += [line for line in lines[first : first + count] if line.strip()]
    return out


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    options = TrainOptions("superbpe", vocab_size=3000, extra={"transition": 2000})
    tok = drain(train_from_counts(pre_tokenize_lines(corpus_lines(0, 1500), options), options))
    path = tmp_path_factory.mktemp("superbpe") / "tokenizer.json"
    save_tokenizer_json(tok, path)
    return tok, path


def assert_same(tok, theirs: HfTokenizer, texts: list[str]) -> None:
    for text in texts:
        ours, hf = tok.encode(text), theirs.encode(text)
        assert ours.tokens == hf.tokens, text
        assert ours.ids == hf.ids, text
        assert ours.offsets == sentencepiece_spans(hf.offsets), text
        assert tok.decode(ours.ids) == theirs.decode(hf.ids) == text, text


def test_tokenizers_encodes_as_we_do(saved):
    tok, path = saved
    d = json.loads(path.read_text(encoding="utf-8"))
    split, byte_level = d["pre_tokenizer"]["pretokenizers"]
    assert split["pattern"] == {"Regex": SUPERBPE_STAGE2_PATTERN} and split["behavior"] == "Isolated"
    assert byte_level["type"] == "ByteLevel" and byte_level["use_regex"] is False
    assert any("Ġ" in t[1:] and not t.startswith("ĠĠ") for t in d["model"]["vocab"])  # superwords
    theirs = HfTokenizer.from_file(str(path))
    assert_same(tok, theirs, corpus_lines(3000, 300) + MIXED)


def test_the_command_line_tokenizer_too(tmp_path, capsys):
    corpus = tmp_path / "mixed.txt"
    corpus.write_text("\n".join(corpus_lines(0, 600)), encoding="utf-8")
    out = tmp_path / "out"
    assert (
        main(
            [
                "train",
                str(corpus),
                "-a",
                "superbpe",
                "-v",
                "1200",
                "--transition",
                "900",
                "-o",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    from core.formats.hf_json import load_tokenizer_json

    tok = load_tokenizer_json(out / "tokenizer.json")
    assert_same(tok, HfTokenizer.from_file(str(out / "tokenizer.json")), corpus_lines(3000, 100) + MIXED)
