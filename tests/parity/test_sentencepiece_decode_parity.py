"""Acceptance: decoding with a SentencePiece ``.model`` gives ``SentencePieceProcessor.decode``'s
text, leading spaces included: only the first piece's leading ``▁`` is the space
``add_dummy_prefix`` added (so ``["▁", "▁x"]`` is ``" x"``), and with
``remove_extra_whitespaces`` every leading ``▁`` goes until text appears."""

from __future__ import annotations

import pytest

spm = pytest.importorskip("sentencepiece")

from core.formats.sentencepiece_model import load_sentencepiece  # noqa: E402

# single spaces only: the model learns no piece of two ▁, so leading spaces are lone "▁" pieces
LINES = [
    "the quick brown fox jumps over the lazy dog",
    "leading words and trailing words",
    "a tokenizer cuts text into pieces",
    "철수는 치킨을 먹고 있다",
    "영화가 정말 재미있었어요",
    "x marks the spot",
] * 20
TEXTS = [
    "",
    " ",
    " x",
    "   leading",
    "  two  spaces  ",
    "x",
    " 철수는  치킨을",
    "   😀 emoji",
    "😀  after bytes",
    "\t tab",
]


@pytest.fixture(scope="module", params=[False, True], ids=["keep-whitespace", "remove-extra-whitespace"])
def models(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("spm-decode")
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    prefix = folder / "m"
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(prefix),
        model_type="bpe",
        vocab_size=400,
        byte_fallback=True,
        character_coverage=1.0,
        add_dummy_prefix=True,
        remove_extra_whitespaces=request.param,
        normalization_rule_name="identity",
        num_threads=1,
        minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_file=f"{prefix}.model")
    assert not any("▁▁" in sp.id_to_piece(i) for i in range(sp.get_piece_size()))
    return sp, load_sentencepiece(f"{prefix}.model")


def test_text_decodes_as_sentencepiece(models):
    sp, ours = models
    for text in TEXTS + LINES[:6]:
        ids = sp.encode(text)
        assert ours.encode(text).ids == ids, text
        assert ours.decode(ids) == sp.decode(ids), text


def test_a_text_starting_with_spaces_round_trips_when_spaces_are_kept(models):
    sp, ours = models
    if sp.decode(sp.encode("   leading")) != "   leading":
        pytest.skip("this model removes extra whitespace: SentencePiece does not round-trip it either")
    for text in ("   leading", " x", "  two  spaces  "):
        assert ours.decode(ours.encode(text).ids) == text


def test_pieces_that_start_the_text_decode_as_sentencepiece(models):
    """Lone ▁ pieces, control pieces, <unk> and byte pieces in front of a word."""
    sp, ours = models
    space, word = sp.piece_to_id("▁"), sp.piece_to_id("▁the")
    assert space != sp.unk_id() and word != sp.unk_id()
    bos, eos, unk = sp.bos_id(), sp.eos_id(), sp.unk_id()
    smile = [sp.piece_to_id(f"<0x{b:02X}>") for b in "😀".encode()]
    starts = [
        [],
        [space],
        [space, space],
        [bos],
        [bos, space],
        [space, bos],
        [unk],
        [unk, space],
        smile,
        smile + [space],
        [space] + smile,
        [sp.piece_to_id("<0xFF>")],
        [eos, space, space],
    ]
    for start in starts:
        for rest in ([word], [space, word], [space], []):
            ids = start + rest
            assert ours.decode(ids) == sp.decode(ids), [sp.id_to_piece(i) for i in ids]
