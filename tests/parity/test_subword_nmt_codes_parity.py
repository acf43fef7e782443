"""Acceptance: subword-nmt codes opened as a tokenizer cut text as ``subword_nmt.apply_bpe``
does, characters the codes never mention included: apply_bpe keeps them as they are
(``名@@ 前``, ``?``), so do we (with ``<unk>``'s id: the codes give them none)."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest

from core.formats.detect import open_tokenizer

apply_bpe = pytest.importorskip("subword_nmt.apply_bpe")
learn_bpe = pytest.importorskip("subword_nmt.learn_bpe")

TRAINING = [
    "the tokenizer cuts the text into pieces",
    "pieces of text are tokens and the tokens have ids",
    "철수는 치킨을 먹고 있다 철수는 밥을 먹고",
    "lower newest widest hugs bun",
] * 10
PROBES = [
    "",
    "?",
    "名前",
    "the 名前 tokenizer?",
    "Hello world, 철수는 치킨을 먹고 👩🏽‍💻",
    "テキスト を 切る 😀 x",
    "ä q z 먹는다",
]


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    path = tmp_path_factory.mktemp("codes") / "bpe.codes"
    with open(path, "w", encoding="utf-8") as out:
        learn_bpe.learn_bpe(io.StringIO("\n".join(TRAINING) + "\n"), out, 60, min_frequency=2)
    return path


def as_apply_bpe(encoding, separator: str = "@@") -> str:
    """Our tokens written as apply_bpe writes a line: ``@@`` after each subword but a word's last."""
    words: dict[int, list[str]] = {}
    for token, word in zip(encoding.tokens, encoding.word_ids):
        words.setdefault(word, []).append(token)
    return " ".join(
        " ".join([t + separator for t in tokens[:-1]] + [tokens[-1].removesuffix("</w>")])
        for tokens in words.values()
    )


def test_characters_the_codes_never_mention_are_kept_as_apply_bpe_keeps_them(codes):
    with open(codes, encoding="utf-8") as f:
        theirs = apply_bpe.BPE(f, -1, "@@")
    tok = open_tokenizer(codes).tokenizer
    for line in PROBES + TRAINING[:4]:
        enc = tok.encode(line)
        assert as_apply_bpe(enc) == theirs.process_line(line), line
        assert enc.ids == tok.encode_ids(line), line
    (enc,) = tok.encode_batch(["名前 ?"])
    assert enc.tokens == ["名", "前</w>", "?</w>"]
    assert enc.ids == [tok.token_to_id("<unk>")] * 3


def test_codes_saved_from_a_model_shaped_as_apply_bpe_reads_them(tmp_path):
    """Words split at spaces, '</w>' on their ends: the report no longer says WhitespaceSplit is
    lost (apply_bpe splits so too) but that apply_bpe keeps what our model calls <unk>."""
    from core.events import drain
    from core.formats.detect import save_tokenizer
    from core.options import TrainOptions, pre_tokenize_lines
    from core.training import train_from_counts

    opts = TrainOptions("bpe", vocab_size=120, pre_tokenizer="whitespace-split", end_of_word_suffix="</w>")
    tok = drain(train_from_counts(pre_tokenize_lines(TRAINING, opts), opts))
    path = tmp_path / "bpe.codes"
    losses = save_tokenizer(tok, path, "subword-nmt")
    assert not any("WhitespaceSplit" in line for line in losses), losses
    assert any("keeps a character its merges never build as it is" in line for line in losses), losses
    with open(path, encoding="utf-8") as f:
        theirs = apply_bpe.BPE(f, -1, "@@")
    line = "the tokenizer 名前 cuts"
    enc = tok.encode(line)
    assert "<unk>" in enc.tokens
    kept = [line[a:b] if t == "<unk>" else t for t, (a, b) in zip(enc.tokens, enc.offsets)]
    assert as_apply_bpe(SimpleNamespace(tokens=kept, word_ids=enc.word_ids)) == theirs.process_line(line)
