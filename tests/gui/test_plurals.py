"""Counts in sentences take their plural form: "1 merge", "2 merges" (Qt's numerus forms, from the
English catalogue the English interface installs), one form in Korean (issue 29, item 7)."""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from core.models.bpe.model import BPE
from subword_gui import language
from subword_gui.tokens.render import TokenStyle
from subword_gui.tokens.why_view import bpe_steps_html

EN_TS = language.TRANSLATIONS / "subword_explorer_en.ts"
EN_QM = language.TRANSLATIONS / "subword_explorer_en.qm"


def _plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_the_why_view_says_1_merge_and_2_merges(qapp):
    language.install_translators(qapp, "en")
    model = BPE({"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}, [("a", "b"), ("ab", "c")])
    one, _ = bpe_steps_html(model, "ab", TokenStyle())
    two, _ = bpe_steps_html(model, "abc", TokenStyle())
    assert "1 merge applied" in _plain(one) and "(s)" not in _plain(one)
    assert "2 merges applied" in _plain(two)


def test_compare_says_1_differing_token_and_1_boundary(qapp, qtbot):
    from core.events import drain
    from core.options import TrainOptions
    from core.training import train_from_counts
    from subword_gui.panels.compare import ComparePanel
    from subword_gui.state import AppState

    language.install_translators(qapp, "en")
    counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    state = AppState()
    state.set_full_tokenizer(drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=11))))
    panel = ComparePanel(state)
    qtbot.addWidget(panel)
    a, b = panel.columns
    b.set_source(("size", 9))  # hug|s against h|ug|s
    panel.set_text("hugs")
    assert _plain(a.summary.text()) == "2 tokens · 0 boundaries not shared · 1 differing token"
    assert _plain(b.summary.text()) == "3 tokens · 1 boundary not shared · 2 differing tokens"


def test_korean_keeps_its_one_form(qapp):
    assert language.install_translators(qapp, "ko") == "ko"
    try:
        model = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])
        html, _ = bpe_steps_html(model, "ab", TokenStyle())
        assert "병합 1개 적용" in _plain(html)
    finally:
        language.install_translators(qapp, "en")


def test_the_english_catalogue_has_both_forms_of_every_count_and_is_compiled():
    root = ET.parse(EN_TS).getroot()
    messages = list(root.iter("message"))
    assert len(messages) >= 5
    for m in messages:
        source = m.findtext("source")
        forms = [f.text or "" for f in m.iter("numerusform")]
        assert m.get("numerus") == "yes" and len(forms) == 2 and all(forms), source
        assert "(s)" not in "".join(forms) and "(ies)" not in "".join(forms), source
        fields = re.compile(r"\{[^{}]*\}")
        assert all(set(fields.findall(f)) == set(fields.findall(source)) for f in forms), source


def test_the_shipped_english_qm_is_compiled_from_the_ts(tmp_path):
    import shutil
    import sys
    from pathlib import Path

    BIN = Path(shutil.which("pyside6-lrelease") or Path(sys.executable).with_name("pyside6-lrelease"))
    if not BIN.exists():
        pytest.skip("pyside6-lrelease is not installed")
    out = tmp_path / "en.qm"
    subprocess.run([str(BIN), "-silent", str(EN_TS), "-qm", str(out)], check=True, timeout=60)
    assert out.read_bytes() == EN_QM.read_bytes(), "run: bash subword_gui/translations/update.sh"


def test_a_byte_chip_of_the_why_view_never_breaks_across_lines(qapp):
    """The why view's chips broke inside a byte chip, "⟨EC" on one line and "9D⟩" on the next
    (issue 29, item 7): the only break the chips' HTML allowed was the space inside it."""
    from PySide6.QtGui import QTextDocument

    from core.bytelevel import bytes_to_chars
    from subword_gui.tokens.why_view import _chip_cells

    piece = "".join(bytes_to_chars(bytes([b])) for b in b"\xec\x9d")  # two bytes of one syllable
    style = TokenStyle(byte_level=True)
    doc = QTextDocument()
    doc.setHtml(_chip_cells([piece] * 12, style))
    for width in (90, 130, 170, 230):
        doc.setTextWidth(width)
        doc.size()  # lays the document out
        block, text = doc.firstBlock(), doc.firstBlock().text()
        layout = block.layout()
        lines = [
            text[layout.lineAt(i).textStart() :][: layout.lineAt(i).textLength()]
            for i in range(layout.lineCount())
        ]
        assert len(lines) > 1
        for line in lines:
            assert line.count("⟨") == line.count("⟩"), (width, lines)
