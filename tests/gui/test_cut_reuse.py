"""The slider's line reuse (subword_gui/tokens/cut_reuse.py): a line's tokens under one cut are
its tokens under exactly the cuts its valid span names, checked against encoding at every cut."""

from __future__ import annotations

import random

import pytest

from core.events import drain
from core.models.bpe.model import BPE
from core.options import TrainOptions, pre_tokenize_lines
from core.tokenizer import Tokenizer
from core.training import train_from_counts
from subword_gui.background.jobs import truncate_tokenizer
from subword_gui.tokens.cut_reuse import cut_bound, merge_tables, same_pipeline, valid_span

LINES = [
    "토크나이저는 문장을 작은 조각으로 나눕니다",
    "영화가 정말 재미있었어요 배우들의 연기가 좋았어요",
    "the tokenizer cuts the text into pieces, lower newest widest",
    "hug pug pun bun hugs aaaa aaaaaaa",
] * 3
PROBES = LINES[:4] + ["mug 철수는 치킨을", "", "a", "tokenizers tokenize"]


@pytest.fixture(
    scope="module",
    params=[
        TrainOptions("bpe", vocab_size=150),
        TrainOptions("bpe", vocab_size=150, continuing_subword_prefix="##"),
        TrainOptions("bytelevel-bpe", vocab_size=330),
    ],
    ids=["plain", "prefix", "byte-level"],
)
def full(request):
    return drain(train_from_counts(pre_tokenize_lines(LINES, request.param), request.param))


def test_a_span_is_exactly_the_cuts_that_give_the_same_tokens(full):
    tables = merge_tables(full.model)
    assert tables is not None
    n = len(full.model.merges)
    cuts = {b: truncate_tokenizer(full, full.model.min_vocab_size + b) for b in range(0, n + 1)}
    assert all(cut_bound(cuts[b], full) == b for b in cuts)
    for line in PROBES:
        encoded = {b: cuts[b].encode(line) for b in cuts}
        for b0 in range(0, n + 1, 7):
            top, following = valid_span(encoded[b0], tables)
            same = {b for b in cuts if encoded[b].ids == encoded[b0].ids}
            assert same == {b for b in cuts if top < b <= following}, (line, b0)


def test_merges_that_are_not_trees_are_not_reused():
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4, "bc": 5}
    assert merge_tables(BPE(vocab, [("a", "b"), ("ab", "c"), ("b", "c")])) is not None
    # a merge listed before the merge that makes one of its parts
    assert merge_tables(BPE(vocab, [("ab", "c"), ("a", "b"), ("b", "c")])) is None
    # a pair listed twice
    assert merge_tables(BPE(vocab, [("a", "b"), ("ab", "c"), ("a", "b"), ("b", "c")])) is None
    # a token made by two merges
    assert merge_tables(BPE(vocab, [("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc")])) is None


def test_only_a_cut_sharing_the_pipeline_counts_as_a_cut(full):
    cut = truncate_tokenizer(full, full.model.min_vocab_size + 5)
    assert cut_bound(full, full) == len(full.model.merges) and cut_bound(cut, full) == 5
    # the same model behind another pre-tokenizer object (a file opened again, say) is not one
    import copy

    elsewhere = Tokenizer(
        cut.model,
        normalizer=full.normalizer,
        pre_tokenizer=copy.deepcopy(full.pre_tokenizer),
        post_processor=full.post_processor,
        added_tokens=full.added_tokens,
    )
    assert cut_bound(elsewhere, full) is None
    other = drain(train_from_counts({"hug": 3, "pug": 2}, TrainOptions("bpe", vocab_size=12)))
    assert cut_bound(other, full) is None and not same_pipeline(other, full)


def test_the_panel_shows_at_every_cut_what_a_fresh_encoding_gives(qtbot, full):
    from subword_gui.panels.segmentation import SegmentationPanel
    from subword_gui.state import AppState

    state = AppState()
    panel = SegmentationPanel(state)
    qtbot.addWidget(panel)
    panel.resize(800, 600)
    panel.show()
    state.set_full_tokenizer(full)
    panel.set_text("\n".join(PROBES))
    low, high = full.model.min_vocab_size, full.model.vocab_size
    sizes = list(range(low, high + 1, 3)) + [high]
    random.Random(13).shuffle(sizes)
    carried = 0
    for size in sizes:
        before = {ln.text: ln for ln in panel.lines()}
        cut = truncate_tokenizer(full, size)
        state.set_tokenizer(cut, size)
        fresh = truncate_tokenizer(full, size)  # a new object: nothing cached
        for ln in panel.lines():
            enc = fresh.encode(ln.text)
            assert (ln.encoding.ids, ln.encoding.offsets) == (enc.ids, enc.offsets), (size, ln.text)
            carried += before.get(ln.text) is ln
    assert carried > len(sizes)  # lines were carried over, not encoded again
