"""A rank file's ``explain`` (the explorer's why view, issue 29 item 7: it said "This model does
not explain its choices"): from single bytes, each step joins the adjacent pair whose joined
bytes have the lowest rank, and the last step's symbols are the tokens ``tokenize`` gives."""

from __future__ import annotations

from itertools import islice

import pytest

from core.bytelevel import bytes_to_chars
from core.events import drain
from core.formats.detect import open_tokenizer, save_tokenizer
from core.models.bpe.tiktoken import TiktokenBPE
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

CORPORA = "/work/shared/corpora"
TEXT = "Hello world, tokenizers don't 철수는 치킨을 먹고 감사합니다 👩🏽‍💻👨‍👩‍👧 🦜 12345"


@pytest.fixture(scope="module")
def rank_file(tmp_path_factory):
    """A byte-level BPE trained on real Korean and English text, saved as a rank file."""
    lines = []
    for name in ("ko-movie-reviews.txt", "en-botchan.txt"):
        with open(f"{CORPORA}/{name}", encoding="utf-8") as f:
            lines += [line.rstrip("\n") for line in islice(f, 3000)]
    opts = TrainOptions("bytelevel-bpe", vocab_size=1500)
    tok = drain(train_from_counts(pre_tokenize_lines(lines + [TEXT] * 5, opts), opts))
    path = tmp_path_factory.mktemp("ranks") / "ranks.tiktoken"
    save_tokenizer(tok, path, "tiktoken")
    return open_tokenizer(path).tokenizer


def _check(model, piece: str) -> None:
    steps = model.explain(piece)
    tokens = [t.value for t in model.tokenize(piece)]
    final = list(steps[-1].symbols) if steps else list(piece)
    assert final == tokens, piece
    symbols = list(piece)  # single bytes, in the byte alphabet
    for step in steps:
        # each step joins the lowest-ranked adjacent pair of the symbols before it, leftmost first
        found = [model.token_to_id(a + b) for a, b in zip(symbols, symbols[1:])]
        best = min(r for r in found if r is not None)
        at = found.index(best)
        assert (step.left, step.right, step.rank, step.index) == (symbols[at], symbols[at + 1], best, at)
        assert step.merged == step.left + step.right and model.token_to_id(step.merged) == step.rank
        assert step.position == len("".join(symbols[:at]))
        symbols[at : at + 2] = [step.merged]
        assert list(step.symbols) == symbols
    assert all(model.token_to_id(a + b) is None for a, b in zip(symbols, symbols[1:])) or len(tokens) == 1


def test_the_steps_end_at_the_models_tokens_on_korean_english_and_emoji(rank_file):
    model = rank_file.model
    assert model.explains() == "ranks"
    pieces = [p for p, _ in rank_file.pre_tokenizer.pre_tokenize_str(TEXT)]
    assert len(pieces) > 10
    joined = 0
    for piece in pieces:
        _check(model, piece)
        joined += len(model.explain(piece))
    assert joined > 20  # (the pieces are joined, not left as bytes)


def test_a_long_piece(rank_file):
    model = rank_file.model
    piece = bytes_to_chars(("감사합니다tokenizers👩🏽‍💻" * 12).encode("utf-8"))
    assert len(piece) > 300  # (longer than the short pieces the model merges without its kernel)
    _check(model, piece)


def test_a_piece_that_is_a_token_the_joins_do_not_reach_is_taken_whole():
    # "abcd" is a token, but from single bytes "bc" is joined first and nothing joins after it
    model = TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"d": 3, b"bc": 4, b"abcd": 5})
    assert [t.value for t in model.tokenize("abcd")] == ["abcd"]
    assert model.explain("abcd") == []
    assert [s.symbols for s in model.explain("abcda")] == [("a", "bc", "d", "a")]
    # one the joins reach lists them
    reached = TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4})
    assert [s.symbols for s in reached.explain("abc")] == [("ab", "c"), ("abc",)]


def test_text_not_in_the_byte_alphabet_is_explained_by_its_utf8_bytes(rank_file):
    model = rank_file.model
    steps = model.explain("철수")
    assert list(steps[-1].symbols) == [t.value for t in model.tokenize("철수")]
