"""Compare shows the Korean unknown rate with and without byte fallback (issue 31 item 4)."""

from __future__ import annotations

import pytest

from core.cli import main
from subword_gui.panels.compare import METRICS, ComparePanel
from subword_gui.state import AppState
from tests.conftest import CORPORA

TEXT = "영화 정말 재밌어요 ㅋㅋ 꿀잼 👍\n배우들 연기가 뛰어남 ✨ 강추합니다\n"


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """SentencePiece BPE on a slice of the Korean reviews, with and without byte fallback, at
    a coverage that leaves rare syllables out (so both have characters they cannot spell)."""
    root = tmp_path_factory.mktemp("ko")
    corpus = root / "ko.txt"
    corpus.write_text(
        CORPORA.joinpath("ko-movie-reviews.txt").read_text(encoding="utf-8-sig")[:40_000], encoding="utf-8"
    )
    paths = []
    for name, flags in (("bytes", ["--byte-fallback"]), ("plain", [])):
        out = root / name
        args = [
            "train",
            "-a",
            "sentencepiece-bpe",
            "-v",
            "1500",
            "--character-coverage",
            "0.98",
            "-o",
            str(out),
        ]
        assert main([*args, "-q", *flags, str(corpus)]) == 0
        paths.append(out / "tokenizer.model")
    return paths


def test_unknown_rate_with_and_without_byte_fallback_side_by_side(qtbot, models):
    keys = [key for key, _, _ in METRICS]
    assert {"byte_tokens", "unk_rate_without_bytes"} <= set(keys)
    panel = ComparePanel(AppState())
    qtbot.addWidget(panel)
    panel.show()
    a, b = panel.columns[0], panel.columns[1]
    assert a.load_file(str(models[0])) and b.load_file(str(models[1]))
    panel.set_text(TEXT)
    panel.compare()
    assert panel.columns.index(a) == 0 and panel.columns.index(b) == 1
    # with byte fallback: nothing unknown, but characters spelled in bytes
    assert panel.stat(0, "unk_rate") == 0
    assert panel.stat(0, "byte_tokens") > 0
    assert panel.stat(0, "unk_rate_without_bytes") > 0
    # without: the unknown rate is what the byte-fallback model would have had without its bytes
    assert panel.stat(1, "unk_rate") > 0
    assert panel.stat(1, "unk_rate_without_bytes") == panel.stat(1, "unk_rate")
    assert panel.stat(1, "unk_rate") == pytest.approx(panel.stat(0, "unk_rate_without_bytes"), rel=0.35)
    row = keys.index("unk_rate_without_bytes")
    assert panel.table.item(row, 0).text().endswith("%")
