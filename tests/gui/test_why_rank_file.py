"""The why view of a rank file's tokenizer (tiktoken's ``.tiktoken``) walks through its joins
(issue 29, item 7): it said "This model does not explain its choices", though from single bytes
the adjacent pair whose joined bytes have the lowest rank is joined, step by step."""

from __future__ import annotations

import pytest

from core.events import drain
from core.formats.detect import open_tokenizer, save_tokenizer
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from subword_gui.panels.segmentation import SegmentationPanel
from subword_gui.state import AppState
from subword_gui.tokens.render import render_token, style_for
from tests.gui.conftest import make_lines

TEXT = "tokens 철수는 치킨을 👩🏽‍💻"


@pytest.fixture
def rank_tokenizer(tmp_path):
    opts = TrainOptions("bytelevel-bpe", vocab_size=500)
    tok = drain(train_from_counts(pre_tokenize_lines(make_lines(200) + [TEXT] * 20, opts), opts))
    save_tokenizer(tok, tmp_path / "ranks.tiktoken", "tiktoken")
    return open_tokenizer(tmp_path / "ranks.tiktoken").tokenizer


def _explain(qtbot, tok, at: int, text: str = TEXT) -> SegmentationPanel:
    state = AppState()
    state.set_full_tokenizer(tok)
    panel = SegmentationPanel(state)
    qtbot.addWidget(panel)
    panel.show()
    panel.set_text(text)
    cursor = panel.editor.textCursor()
    cursor.setPosition(at)
    panel.editor.setTextCursor(cursor)
    qtbot.waitUntil(lambda: isinstance(panel.why.piece, str) and panel.why.steps_text() != "", timeout=3000)
    return panel


@pytest.mark.parametrize("at", [2, 8, 12, 18])  # tokens, 철수는, 치킨을, the emoji
def test_the_why_view_of_a_rank_file_lists_its_joins_with_their_ranks(qtbot, rank_tokenizer, at):
    panel = _explain(qtbot, rank_tokenizer, at)
    model, style = rank_tokenizer.model, style_for(rank_tokenizer)
    page = panel.why.steps.toPlainText()
    assert "does not explain" not in page and "lowest rank in the rank file" in page
    steps = panel.why.steps_text().split(" | ")
    piece = panel.why.piece
    # the start: the piece's single bytes, in the byte alphabet the chips show
    assert steps[0].split() == [render_token(c, style) for c in piece]
    assert len(steps) > 1 and all(s.startswith("rank ") for s in steps[1:])
    # each step names the joined token's rank (its id); the last step's symbols are the tokens
    for line in steps[1:]:
        rank = int(line.split()[1])
        assert render_token(model.id_to_token(rank), style) in line.split(" → ")[-1].split()
    tokens = [render_token(t.value, style) for t in model.tokenize(piece)]
    assert steps[-1].split(" → ")[-1].split() == tokens


def test_a_rank_file_piece_the_joins_do_not_reach_says_it_is_taken_whole(qtbot, tmp_path):
    from core.models.bpe.tiktoken import TiktokenBPE
    from core.pre_tokenizers import TiktokenSplit
    from core.tokenizer import Tokenizer

    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({b"ok": 256, b"to": 257, b"tokens": 258})  # "tokens" from "to" "k" "e" "n" "s": no join
    tok = Tokenizer(TiktokenBPE(ranks), pre_tokenizer=TiktokenSplit("cl100k_base"))
    panel = _explain(qtbot, tok, 2)
    assert panel.why.piece == "tokens"
    assert "the whole piece is a token (rank 258)" in panel.why.steps.toPlainText()
    assert "no merge applies" not in panel.why.steps.toPlainText()


def test_a_long_emoji_pieces_title_is_cut_between_characters_not_inside_one(qtbot, rank_tokenizer):
    """The title of a long piece is cut to its start; cut inside an emoji's UTF-8 bytes it
    ended in a stray byte chip ("⟨F0⟩…")."""
    from subword_gui.tokens.why_view import TITLE_CHARACTERS

    emoji = "👩🏽‍💻" * 3  # 45 bytes: over the title's 24, with a 4-byte character across the cut
    panel = _explain(qtbot, rank_tokenizer, 1, emoji)
    piece = panel.why.piece
    assert len(piece) > TITLE_CHARACTERS  # (the title is cut at all)
    title = panel.why.title.text()
    shown = title.split("…")[0]
    assert "👩🏽‍💻" in shown and "⟨" not in shown
