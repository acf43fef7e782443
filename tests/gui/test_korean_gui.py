"""Korean in the explorer: jamo tokens drawn as pieces of a syllable, the analyser options,
and the Korean study from the Examples menu (three runs side by side in Compare, and a plot)."""

from __future__ import annotations

import pytest

from core import morphemes
from core.errors import ConfigError
from core.events import drain
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from subword_gui.tokens.render import render_parts
from subword_gui.tokens.token_view import segment_line, token_tooltip

WAIT_MS = 180_000


def test_a_jamo_token_that_cuts_a_syllable_is_drawn_as_a_piece():
    assert render_parts("\u11af\u1109\u116e") == [("⟨ㄹ⟩", "byte"), ("수", "text")]  # ㄹ ends 철
    assert render_parts("\u110e\u1165\u11af") == [("철", "text")]  # a whole syllable's jamo


def test_hover_shows_the_jamo_and_the_editor_marks_the_split_syllable():
    from subword_gui.tokens.render import style_for
    from subword_gui.tokens.token_view import shared_char_format, span_formats

    # ᅥᆯ is the most frequent pair (six syllables end in it): the first merge, and the only one
    lines = ["철 설 걸 덜 벌 멀"] * 3
    options = TrainOptions("bpe", vocab_size=10, normalizer="jamo", pre_tokenizer="whitespace-split")
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options))
    line = segment_line(tok, "철")
    assert line.encoding.tokens == ["\u110e", "\u1165\u11af"]  # ᄎ | ᅥᆯ: the token cuts the syllable
    # spans never overlap: the first piece of the cut syllable has an empty span where it starts
    assert line.encoding.offsets == [(0, 0), (0, 1)]
    shared = [1]
    i = shared[0]
    tip = token_tooltip(tok, style_for(tok), line, i)
    assert "jamo" in tip and "ㅓ ㄹ" in tip and "ㅊ ㅓ ㄹ" in tip  # its letters, and its syllable's
    # the editor marks the split syllable as it marks a syllable split into byte pieces
    runs = span_formats(line)
    dotted = shared_char_format(runs[0][2]).underlineStyle()
    assert [(s, n) for s, n, f in runs if f.underlineStyle() == dotted] == [(0, 1)]


def test_the_training_panel_offers_the_analysers_and_jamo(qtbot, window, monkeypatch):
    panel = window.training_panel
    names = [panel.pre_tokenizer_box.itemText(i) for i in range(panel.pre_tokenizer_box.count())]
    assert "ko-morph" in names and "ja-morph" in names
    panel.normalizer_box.setCurrentText("nfkc,jamo")
    panel.pre_tokenizer_box.setCurrentText("ko-morph")
    options = panel.options()
    assert (options.normalizer, options.pre_tokenizer) == ("nfkc,jamo", "ko-morph")

    def missing(language):
        raise ConfigError("the ja-morph pre-tokenizer needs ...: pip install sudachipy sudachidict_core")

    monkeypatch.setattr(morphemes, "check_analyser", missing)
    panel.pre_tokenizer_box.setCurrentText("ja-morph")  # said at once, not after counting
    assert "pip install sudachipy" in panel.status.text()
    with pytest.raises(ConfigError):
        panel.options()


def test_korean_study_from_the_examples_menu(qtbot, window):
    window.finish_startup()
    window.korean_study_action.trigger()
    study = window.korean_study
    with qtbot.waitSignal(study.job.finished, timeout=WAIT_MS):
        pass
    assert [r.name for r in study.rows] == ["syllable BPE", "jamo BPE", "morpheme-aware BPE"]
    assert {r.stats.vocab_size for r in study.rows} == {2000}
    assert len(window.state.runs) == 3
    compare = window.compare_panel
    assert sorted(c.source_key() for c in compare.columns) == sorted(f"run:{r.id}" for r in study.runs)
    assert study.view.table.rowCount() == 3
    # the morphological alignment F1 column: morpheme-aware BPE's boundaries fall on morphemes best
    assert study.view.table.horizontalHeaderItem(6).text() == "morpheme boundary F1"
    f1 = [float(study.view.table.item(i, 6).text()) for i in range(3)]
    assert f1 == [round(r.alignment.f1, 3) for r in study.rows]
    assert f1[2] == max(f1)
    curves = study.view.plot.getPlotItem().listDataItems()
    assert len(curves) == 3 and all(len(c.getData()[0]) >= 2 for c in curves)
    # the shown study run brings its merge log and options to the Training panel
    panel, shown = window.training_panel, window.state.shown_run
    assert shown is study.runs[-1] and shown.merge_events
    assert shown.merge_events[-1].vocab_size == shown.tokenizer.vocab_size
    qtbot.waitUntil(lambda: shown.name in panel.status.text(), timeout=5000)
    assert panel.merge_model.rows == shown.merge_events
    assert panel.pre_tokenizer_box.currentText() == "ko-morph"


def test_long_jamo_lines_encoded_in_chunks_equal_the_whole_encoding():
    # the jamo normalizer acts character by character, so the editor may encode a long line in
    # chunks cut at single spaces (LineCache): the result must be the whole line's encoding
    from subword_gui.tokens.token_view import CHUNK_MIN_LINE, LineCache, chunkable

    lines = ["철수는 치킨을 먹고 볶음밥을 먹고 있다", "영희는 볶음밥을 먹고 철수는 치킨을 먹었다"] * 4
    options = TrainOptions("bpe", vocab_size=60, normalizer="nfkc,jamo", pre_tokenizer="metaspace")
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options))
    assert chunkable(tok)
    text = " ".join(lines) + "  두 칸,  새 단어 😀 ok"
    assert len(text) > CHUNK_MIN_LINE
    cache = LineCache()
    cache.set_tokenizer(tok)
    whole = tok.encode(text)
    line = cache.get(text)
    assert (line.encoding.ids, line.encoding.offsets) == (whole.ids, whole.offsets)
    edited = text[:100] + "닭" + text[100:]
    assert cache.get(edited).encoding.offsets == tok.encode(edited).offsets


def test_the_explorer_counts_a_morpheme_corpus_on_both_cores_with_the_same_result(tmp_path, monkeypatch):
    from subword_gui.background import jobs

    lines = [
        "철수는 치킨을 먹고 볶음밥을 먹고 있다",
        "영희는 hello 👋🏽 먹었다",
        "ㅋㅋㅋ 재밌어요",
        "",
        "정말 좋았어요",
    ]
    path = tmp_path / "ko.txt"
    path.write_text("\n".join(lines * 300) + "\n", encoding="utf-8")
    options = TrainOptions("bpe", pre_tokenizer="ko-morph")
    monkeypatch.setattr("core.corpus_parallel.MIN_RANGE_BYTES", 1 << 10)  # two ranges of this small file
    monkeypatch.setattr("core.corpus_parallel.available_cpus", lambda: 2)
    monkeypatch.setattr("core.morphemes.MorphemeSplit.parallel_min_bytes", 1 << 10)
    assert jobs._worth_processes(str(path), options)
    parallel = drain(jobs.count_file_for_training(str(path), "auto", options))
    monkeypatch.setattr("core.morphemes.MorphemeSplit.parallel_min_bytes", 1 << 40)
    assert not jobs._worth_processes(str(path), options)
    single = drain(jobs.count_file_for_training(str(path), "auto", options))
    assert parallel == single  # the same counts (held-out lines taken out) and held-out lines
    # every 20th line (index 19, 39, ...) is held out: always a "정말 좋았어요" line, 75 of its 300
    assert single[0]["▁철수"] == 300 and single[0]["▁정말"] == 225
    assert single[1][:2] == ["정말 좋았어요", "정말 좋았어요"]


def test_the_study_plot_labels_round_vocab_sizes_that_do_not_crowd():
    from subword_gui.panels.korean_study import log_ticks

    assert log_ticks(120, 2000) == [200, 500, 1000, 2000]
    assert log_ticks(1, 12) == [1, 2, 5, 10]
    ticks = log_ticks(37, 32_000)
    assert all(b / a >= 2 for a, b in zip(ticks, ticks[1:]))  # at most three labels a decade
