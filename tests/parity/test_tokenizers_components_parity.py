"""Acceptance: tokenizer.json files with the components published tokenizers use that we added
for issue 10 (WordLevel, UnicodeScripts, FixedLength, the ByteLevel normalizer, the CTC decoder),
written by `tokenizers` itself, load and encode (ids and offsets) and decode as `tokenizers`."""

from __future__ import annotations

import pytest

tokenizers = pytest.importorskip("tokenizers")
from conftest import CORPORA  # noqa: E402
from spans import sentencepiece_spans  # noqa: E402
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers  # noqa: E402

from core.formats.detect import open_tokenizer  # noqa: E402

PROBES = [
    "",
    "   ",
    " leading spaces",
    "こんにちはworld ーカタカナ ひらがな",
    "한국어 text 日本語テキスト。 mixed-αβγ 123",
    "😀 👍🏽 e\u0301",
]


def _lines() -> list[str]:
    en = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:400]
    ko = (CORPORA / "ko-movie-reviews.txt").read_text(encoding="utf-8").splitlines()[::200]
    return en + ko


def _word_level():
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.UnicodeScripts()]
    )
    tok.train_from_iterator(_lines(), trainers.WordLevelTrainer(vocab_size=800, special_tokens=["[UNK]"]))
    return tok


def _fixed_length():
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.FixedLength(length=4)
    tok.train_from_iterator(
        _lines(), trainers.BpeTrainer(vocab_size=500, special_tokens=["[UNK]"], show_progress=False)
    )
    return tok


def _byte_level_normalizer():
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.ByteLevel()
    tok.pre_tokenizer = pre_tokenizers.Split(" ", behavior="merged_with_next")
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train_from_iterator(_lines(), trainer)
    return tok


def _ctc_characters():
    """As speech models' files: a character WordLevel vocabulary, '|' between words, the CTC decoder."""
    chars = sorted({c for line in _lines() for c in line if c != " "})
    vocab = {"<pad>": 0, "<unk>": 1, "|": 2, **{c: i + 3 for i, c in enumerate(chars)}}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.normalizer = normalizers.Replace(" ", "|")
    tok.pre_tokenizer = pre_tokenizers.Split("", behavior="isolated")
    tok.decoder = decoders.CTC()
    return tok


BUILDERS = {
    "WordLevel + UnicodeScripts": _word_level,
    "FixedLength": _fixed_length,
    "ByteLevel normalizer": _byte_level_normalizer,
    "CTC decoder": _ctc_characters,
}


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_encodes_and_decodes_as_tokenizers(tmp_path, name):
    theirs = BUILDERS[name]()
    theirs.save(str(tmp_path / "tokenizer.json"))
    loaded = open_tokenizer(tmp_path / "tokenizer.json")
    ours = loaded.tokenizer
    assert loaded.warnings == []
    for line in _lines() + PROBES:
        a, b = theirs.encode(line), ours.encode(line)
        assert b.ids == a.ids, line
        assert [tuple(o) for o in b.offsets] == sentencepiece_spans(a.offsets), line  # ours never overlap
        assert ours.decode(b.ids) == theirs.decode(a.ids), line


def test_ctc_collapses_repeated_frames_as_tokenizers(tmp_path):
    theirs = _ctc_characters()
    theirs.save(str(tmp_path / "tokenizer.json"))
    ours = open_tokenizer(tmp_path / "tokenizer.json").tokenizer
    frames = [
        theirs.token_to_id(t)
        for t in ["<pad>", "h", "h", "<pad>", "e", "l", "<pad>", "l", "o", "|", "|", "a"]
    ]
    assert ours.decode(frames) == theirs.decode(frames)
