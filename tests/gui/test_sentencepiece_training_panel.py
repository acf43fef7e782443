"""The Training panel trains the SentencePiece algorithms with spm_train's options, folded away."""

from __future__ import annotations

import pytest

from core.options import TrainOptions
from subword_gui.panels.training import available_algorithms

WAIT_MS = 60_000


def test_the_algorithms_are_in_the_combo_and_the_group_shows_only_for_them(qtbot, window):
    panel = window.training_panel
    assert {"sentencepiece-bpe", "sentencepiece-unigram"} <= set(available_algorithms())
    panel.algorithm_box.setCurrentIndex(panel.algorithm_box.findData("bpe"))
    assert panel.sentencepiece_options.isHidden()
    panel.algorithm_box.setCurrentIndex(panel.algorithm_box.findData("sentencepiece-bpe"))
    assert not panel.sentencepiece_options.isHidden()
    assert panel.sentencepiece_options.body.isHidden()  # folded: the common options stay simple
    panel.sentencepiece_options.toggle.click()
    assert not panel.sentencepiece_options.body.isHidden()


def test_options_reach_the_trainer_and_survive_save_and_reload(qtbot, window):
    panel = window.training_panel
    panel.set_options(
        TrainOptions("sentencepiece-bpe", vocab_size=900, extra={"byte_fallback": True, "split_digits": True})
    )
    assert panel.sentencepiece_options.byte_fallback.isChecked()
    panel.sentencepiece_options.user_defined.setText("<sep>")
    options = panel.options()
    assert options.extra == {"byte_fallback": True, "split_digits": True, "user_defined_symbols": ["<sep>"]}
    saved = panel.options_dict()
    panel.set_options(TrainOptions("bpe"))
    panel.sentencepiece_options.set_extra({})
    panel.apply_options_dict(saved)
    assert panel.algorithm == "sentencepiece-bpe"
    assert panel.options().extra == options.extra


@pytest.mark.parametrize("algorithm, vocab", [("sentencepiece-bpe", 600), ("sentencepiece-unigram", 600)])
def test_they_train_through_the_panel_with_byte_fallback(qtbot, loaded, algorithm, vocab):
    window = loaded
    panel = window.training_panel
    panel.set_options(TrainOptions(algorithm, vocab_size=vocab, extra={"byte_fallback": True}))
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS) as blocker:
        window.train_action.trigger()
    tok = blocker.args[0]
    assert tok.extra["sentencepiece"]["byte_fallback"]
    assert "<0xEC>" in tok.get_vocab()
    assert "<unk>" not in tok.encode("영화 정말 🙂").tokens
    from subword_gui.panels.runs import algorithm_label

    label = algorithm_label(window.state.runs[-1])
    assert label.startswith("SentencePiece") and "byte fallback" in label
