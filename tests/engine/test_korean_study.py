"""The Korean study (core.korean_study): three pipelines, one vocab size, honest figures."""

from __future__ import annotations

from conftest import RESOURCES

from core.events import drain
from core.korean_study import PIPELINES, curve_sizes, korean_study, markdown_table, split_held_out
from core.stats import encoding_stats


def test_three_pipelines_on_the_bundled_sample():
    lines = (RESOURCES / "sample" / "sample-ko-en.txt").read_text(encoding="utf-8").splitlines()
    train, held_out = split_held_out(lines[:120])
    rows = drain(korean_study(train, held_out, vocab_size=900))
    assert [r.name for r in rows] == list(PIPELINES)
    syllable, jamo, morph = rows
    assert {r.stats.vocab_size for r in rows} == {900}
    # jamo BPE starts from far fewer symbols than syllable BPE, so its curve starts lower
    assert jamo.curve[0][0] < syllable.curve[0][0]
    for r in rows:
        # the figures agree with encoding every held-out line through the whole pipeline...
        full = encoding_stats(r.tokenizer, held_out)
        assert (r.stats.tokens, r.stats.unknown, r.stats.distinct_ids) == (
            full.tokens,
            full.unknown,
            full.distinct_ids,
        )
        # ...but a word is a whitespace word for all three (not a morpheme, for ko-morph)
        assert r.stats.words == sum(len(line.split()) for line in held_out)
        assert r.curve[-1] == (900, r.stats.tokens_per_word)
        assert all(a[1] >= b[1] for a, b in zip(r.curve, r.curve[1:]))  # more tokens, fewer per word
    # morpheme-aware tokens never cross a morpheme cut: at least as many tokens as syllable BPE's pieces allow
    assert morph.stats.tokens >= sum(len(morph.tokenizer.pieces(line)) for line in held_out)
    assert "morpheme-aware BPE" in markdown_table(rows)
    # morphological alignment (kiwipiepy's boundaries inside words, on held-out lines): morpheme-aware
    # BPE never crosses a morpheme, so it finds (nearly) every morpheme boundary, more than the others
    assert all(r.alignment is not None and r.alignment.gold > 0 for r in rows)
    assert len({r.alignment.gold for r in rows}) == 1  # the same lines, analysed once
    assert morph.alignment.recall > 0.95
    assert morph.alignment.recall > syllable.alignment.recall
    assert morph.alignment.recall > jamo.alignment.recall
    assert "morpheme boundary F1" in markdown_table(rows)
    assert f"{morph.alignment.f1:.3f} |" in markdown_table(rows)


def test_curve_sizes():
    assert curve_sizes(100, 1000, 3) == [100, 316, 1000]
    assert curve_sizes(50, 50) == [50]
