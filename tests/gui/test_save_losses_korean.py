"""What a save to another format loses, in the Korean interface (issue 29, item 3): the loss
reports of saves to SentencePiece, BERT vocab.txt, rank files, subword-nmt codes, GGUF-opened and
SentencePiece-opened tokenizers were English in the Korean dialog. Every loss any save of the
tokenizers below reports is Korean, its figures (names, tokens) carried over."""

from __future__ import annotations

import re

import pytest
from peer_training import train_sentencepiece_bpe

from core.errors import SubwordError
from core.events import drain
from core.formats.detect import save_tokenizer
from core.formats.registry import SAVE_FORMATS
from core.options import TrainOptions
from core.training import train_from_counts
from subword_gui import language
from subword_gui.engine_text import localize

COUNTS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5, "철수": 3, "hello": 4}


def _tokenizers(tmp_path):
    yield drain(
        train_from_counts(
            COUNTS,
            TrainOptions("bpe", vocab_size=30, normalizer="nfkc", special_tokens=["<unk>", "<s>", "</s>"]),
        )
    )
    yield drain(train_from_counts(COUNTS, TrainOptions("bytelevel-bpe", vocab_size=270)))
    yield drain(train_from_counts(COUNTS, TrainOptions("wordpiece", vocab_size=40, normalizer="lowercase")))
    yield drain(train_from_counts(COUNTS, TrainOptions("unigram", vocab_size=30)))
    yield train_sentencepiece_bpe([f"{w} " * n for w, n in COUNTS.items()] * 20, tmp_path, 40)


def save_losses(tmp_path) -> list[str]:
    """Every loss a save of the tokenizers above to every saving format reports."""
    out: list[str] = []
    for n, tok in enumerate(_tokenizers(tmp_path)):
        for fmt in SAVE_FORMATS:
            target = tmp_path / f"{n}-{fmt}"
            target.mkdir()
            try:
                out.extend(save_tokenizer(tok, target, fmt))
            except SubwordError:
                continue  # the format cannot hold this model at all (a refusal, translated apart)
    return list(dict.fromkeys(out))


@pytest.fixture
def korean(qapp):
    assert language.install_translators(qapp, "ko") == "ko"
    yield qapp
    language.install_translators(qapp, "en")


def test_every_loss_a_save_reports_reads_korean_with_its_figures(korean, tmp_path):
    losses = save_losses(tmp_path)
    assert len(losses) >= 10
    english = []
    for loss in losses:
        shown = localize(loss)
        if shown == loss or not any("가" <= c <= "힣" for c in shown):
            english.append(loss)
            continue
        for quoted in re.findall(r"'[^'\s]+'", loss):
            assert quoted in shown, f"{quoted} lost from {shown!r}"
    assert not english, "\n".join(english)
