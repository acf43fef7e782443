"""The why view of a SentencePiece BPE ``.model`` walks through its merges (issue 29, item 7):
it said "This model does not explain its choices", though the model merges by its pieces' scores
as a rank file merges by ranks."""

from __future__ import annotations

from peer_training import train_sentencepiece_bpe

from subword_gui.panels.segmentation import SegmentationPanel
from subword_gui.state import AppState
from tests.gui.conftest import make_lines, place_cursor


def _sentencepiece_bpe(tmp_path):
    lines = make_lines(200) + ["hello there, the tokens"]
    return train_sentencepiece_bpe(lines, tmp_path, 500, byte_fallback=True)


def _why_panel(qtbot, tok, text: str, position: int) -> SegmentationPanel:
    """A segmentation panel of ``tok`` showing ``text``, its why view on the piece at ``position``."""
    state = AppState()
    state.set_full_tokenizer(tok)
    panel = SegmentationPanel(state)
    qtbot.addWidget(panel)
    panel.show()
    panel.set_text(text)
    place_cursor(panel, position)
    qtbot.waitUntil(lambda: isinstance(panel.why.piece, str) and panel.why.steps_text() != "", timeout=3000)
    return panel


def test_the_why_view_of_a_sentencepiece_bpe_model_lists_its_merges_by_score(qtbot, tmp_path):
    tok = _sentencepiece_bpe(tmp_path)
    panel = _why_panel(qtbot, tok, "the tokens", 6)  # in "tokens"
    steps = panel.why.steps_text().split(" | ")
    assert "does not explain" not in panel.why.steps.toHtml()
    assert "scores highest" in panel.why.steps.toHtml()
    assert len(steps) > 1 and steps[1].startswith("#")
    # the last step's symbols are the tokens the model gives the piece
    piece = panel.why.piece
    tokens = [t.value for t in tok.model.tokenize(piece)]
    assert steps[-1].split(" → ")[-1].split() == tokens


def test_characters_written_as_bytes_are_not_called_unknown(qtbot, tmp_path):
    """Seen in a real window: with byte fallback the chips showed 철 as <0xEC> <0xB2> <0xA0>,
    while the why view marked it red (here 🦜, which the corpus lacks) and said it "becomes the unknown token"."""
    tok = _sentencepiece_bpe(tmp_path)
    panel = _why_panel(qtbot, tok, "tokens 🦜", 2)
    assert "🦜" in panel.why.piece
    text = panel.why.steps_text()
    assert "unknown:" not in text and "bytes: 🦜" in text
    assert "unknown token" not in panel.why.steps.toPlainText()


def test_a_whole_sentence_piece_keeps_the_title_short(qtbot, tmp_path):
    """A SentencePiece model's piece is the whole sentence: the why view's title listed every
    token of it and took four lines at 1280x800. It shows their start; the tooltip has them all."""
    tok = _sentencepiece_bpe(tmp_path)
    text = "the tokens are cut into pieces, the pieces into tokens"  # (under WHY_MAX_CHARS)
    panel = _why_panel(qtbot, tok, text, 2)
    tokens = tok.model.tokenize(panel.why.piece)
    assert len(tokens) > 14  # a long piece indeed
    assert "more)" in panel.why.title.text() and panel.why.title.text().count("<b>") <= 12
    assert panel.why.title.toolTip().count("<b>") == len(tokens)
