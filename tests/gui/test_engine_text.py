"""The engine's messages a user meets (stop reasons, corpus and file errors) in the Korean interface;
the English interface and the CLI keep the engine's English."""

from __future__ import annotations

import re

import pytest

from core.corpus import count_words
from core.errors import SubwordError
from core.events import TrainingStopped, drain
from core.options import TrainOptions
from core.training import train_from_counts
from subword_gui import language
from subword_gui.engine_text import localize, patterns

HUG_PUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def stop_reason(options: TrainOptions, counts=HUG_PUG) -> str:
    events: list = []
    drain(train_from_counts(counts, options), events.append)
    return next(e for e in events if isinstance(e, TrainingStopped)).reason


def engine_messages(tmp_path) -> list[str]:
    """Messages the engine really produces, one per kind a user meets."""
    out = [
        stop_reason(TrainOptions("bpe", vocab_size=1000)),
        stop_reason(TrainOptions("bpe", vocab_size=12)),
        stop_reason(TrainOptions("bpe", vocab_size=5)),
        stop_reason(TrainOptions("bpe", vocab_size=1000, min_frequency=50)),
        stop_reason(TrainOptions("wordpiece", vocab_size=1000)),
        stop_reason(TrainOptions("wordpiece", vocab_size=16)),
        stop_reason(TrainOptions("unigram", vocab_size=12)),
    ]
    with pytest.raises(SubwordError) as err:  # a Unigram vocabulary smaller than the alphabet
        stop_reason(TrainOptions("unigram", vocab_size=3))
    out.append(str(err.value))
    binary = tmp_path / "corpus.txt"
    binary.write_bytes(b"\x00\x01PNG" * 100)
    empty = tmp_path / "empty.txt"
    empty.write_text("   \n", encoding="utf-8")
    for path in (binary, empty, tmp_path / "missing.txt"):
        with pytest.raises(SubwordError) as err:
            drain(count_words([path]))
        out.append(str(err.value))
    from core.formats.detect import open_tokenizer

    not_a_tokenizer = tmp_path / "tok.json"
    not_a_tokenizer.write_text("hello there", encoding="utf-8")
    with pytest.raises(SubwordError) as err:
        open_tokenizer(str(not_a_tokenizer))
    out.append(str(err.value))
    not_a_tokenizer = tmp_path / "words.bin"
    not_a_tokenizer.write_bytes(b"\x89PNG\r\n" + bytes(range(256)))
    with pytest.raises(SubwordError) as err:
        open_tokenizer(str(not_a_tokenizer))
    out.append(str(err.value))
    from core.formats.detect import save_tokenizer

    byte_level = TrainOptions("bytelevel-bpe", vocab_size=270)
    with pytest.raises(SubwordError) as err:
        save_tokenizer(drain(train_from_counts(HUG_PUG, byte_level)), tmp_path / "vocab.txt", "bert")
    out.append(str(err.value))
    return out + opening_warnings(tmp_path)


def opening_warnings(tmp_path) -> list[str]:
    """What opened files cannot say, as the engine warns of it (BERT vocab.txt, SentencePiece
    .vocab, a rank file without its pattern, a tokenizer.json with what we keep but do not apply)."""
    import base64
    import json

    from core.formats.detect import open_tokenizer
    from core.formats.hf_json import save_tokenizer_json

    files = {
        "vocab.txt": "[PAD]\n[UNK]\n[CLS]\n[SEP]\nhug\n##s\n",
        "x.vocab": "<unk>\t0\n<s>\t0\n</s>\t0\n▁a\t-1.5\nb\t-2.25\n",
        "x.tiktoken": "".join(f"{base64.b64encode(bytes([i])).decode()} {i}\n" for i in range(256)),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    hf = tmp_path / "t.json"
    save_tokenizer_json(drain(train_from_counts(HUG_PUG, TrainOptions("bpe", vocab_size=12))), hf)
    d = json.loads(hf.read_text(encoding="utf-8"))
    d["truncation"], d["post_processor"] = {"max_length": 8}, {"type": "Weird"}
    hf.write_text(json.dumps(d), encoding="utf-8")
    warnings = [w for name in [*files, "t.json"] for w in open_tokenizer(str(tmp_path / name)).warnings]
    assert len(warnings) == 6
    return warnings


@pytest.fixture
def korean(qapp):
    assert language.install_translators(qapp, "ko") == "ko"
    yield qapp
    language.install_translators(qapp, "en")


def test_every_engine_message_a_user_meets_is_korean_with_its_figures(korean, tmp_path):
    for message in engine_messages(tmp_path):
        matched = [p for p, _ in patterns() if p.search(message)]
        assert matched, f"no pattern for the engine's {message!r}"
        shown = localize(message)
        assert shown != message and any("가" <= c <= "힣" for c in shown), message
        for figure in re.findall(r"\d[\d,]*\d|/[^\s)]+", message):
            assert figure in shown, f"{figure} lost from {shown!r}"


def test_a_message_inside_a_sentence_and_an_unknown_one(korean):
    assert (
        localize("Trained BPE (stopped early: ran out of pieces)")
        == "Trained BPE (stopped early: 조각이 바닥났습니다)"
    )
    assert localize("something the table does not know") == "something the table does not know"


FLAG = re.compile(r"(?<![\w-])--[a-z]")  # a command-line flag: --pattern, --lowercase


def test_the_english_interface_keeps_the_engine_english(qapp, tmp_path):
    """...except where the engine names a command-line flag: the explorer has none (issue 29)."""
    language.install_translators(qapp, "en")
    for message in engine_messages(tmp_path):
        if FLAG.search(message) is None:
            assert localize(message) == message


def flag_messages(tmp_path) -> list[str]:
    """The engine's messages a user of the explorer meets that name a command-line flag."""
    from core.corpus import read_word_counts, write_word_counts
    from core.formats.detect import save_tokenizer
    from core.options import pre_tokenize_counts

    out = [m for m in opening_warnings(tmp_path) if FLAG.search(m)]
    # a save to vocab.txt of a tokenizer without BERT's normalizer (File › Save tokenizer as…)
    tok = drain(train_from_counts(HUG_PUG, TrainOptions("wordpiece", vocab_size=30)))
    out += [m for m in save_tokenizer(tok, tmp_path / "vocab.txt", "bert") if FLAG.search(m)]
    # word counts counted under a pre-tokenizer the Training panel does not have chosen
    path = tmp_path / "counts.tsv"
    write_word_counts(HUG_PUG, path, TrainOptions("bpe", vocab_size=30, pre_tokenizer="bytelevel"))
    with pytest.raises(SubwordError) as err:
        pre_tokenize_counts(read_word_counts(path), TrainOptions("bpe", vocab_size=30))
    out.append(str(err.value))
    assert len(out) == 4 and all(FLAG.search(m) for m in out)
    return out


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_message_tells_the_user_of_the_explorer_to_use_a_command_line_flag(qapp, tmp_path, lang):
    """The engine's "choose with --pattern", "--lowercase/--cased choose when reading" and
    "'--pre-tokenizer bytelevel --normalizer none'" name flags the explorer does not have: it names
    its own way to choose, keeping the message's figures."""
    language.install_translators(qapp, lang)
    try:
        for message in flag_messages(tmp_path):
            shown = localize(message)
            assert FLAG.search(shown) is None, shown
            assert (lang == "ko") == any("가" <= c <= "힣" for c in shown), shown
            for figure in ("bytelevel", "lowercase=", "gpt2"):
                if figure in message:
                    assert figure in shown, shown
    finally:
        language.install_translators(qapp, "en")


def test_training_on_counts_of_other_options_names_the_training_panels_boxes(
    qtbot, window, monkeypatch, tmp_path
):
    from core.corpus import write_word_counts
    from tests.gui.test_corpus_panel import open_through_menu

    path = tmp_path / "counts.tsv"
    write_word_counts(HUG_PUG, path, TrainOptions("bpe", vocab_size=30, pre_tokenizer="bytelevel"))
    open_through_menu(qtbot, window, monkeypatch, path, window.open_counts_action)
    window.training_panel.train()
    qtbot.waitUntil(lambda: window.messages != [], timeout=10_000)
    title, message = window.messages[-1]
    assert FLAG.search(message) is None, message
    assert (
        "Training panel's Pre-tokenizer and Normalizer boxes" in message
        and "choose bytelevel and none" in message
    )


def test_the_training_panel_says_why_training_stopped_in_korean(korean, qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from subword_gui.main_window import MainWindow

    window = MainWindow(
        settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), open_sample=False
    )
    qtbot.addWidget(window)
    window.corpus_panel.open_lines(["hug pug pun bun hugs"] * 3, "hug.txt")
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=1000))
    with qtbot.waitSignal(panel.training_finished, timeout=60_000):
        panel.train()
    assert "병합할 쌍이 남지 않았습니다" in panel.status.text()
    panel.shutdown()


def test_the_why_view_of_wordpiece_and_unigram_reads_korean(korean):
    from subword_gui.tokens.render import style_for
    from subword_gui.tokens.why_view import unigram_nbest_html, wordpiece_steps_html

    wordpiece = drain(train_from_counts(HUG_PUG, TrainOptions("wordpiece", vocab_size=16)))
    html, _plain = wordpiece_steps_html(wordpiece.model, "hugs", style_for(wordpiece))
    assert "가장 긴 일치" in html and "longest match" not in html
    html, _plain = wordpiece_steps_html(wordpiece.model, "mug", style_for(wordpiece))
    assert "BERT도" in html
    unigram = drain(train_from_counts(HUG_PUG, TrainOptions("unigram", vocab_size=12)))
    html, _plain = unigram_nbest_html(unigram.model, "hugs", style_for(unigram))
    assert "가장 좋은 분할들" in html and "The best segmentations" not in html


def test_the_runs_table_and_its_tooltip_read_korean(korean, tmp_path):
    from PySide6.QtCore import Qt

    from subword_gui.panels.runs import RunsModel
    from subword_gui.runs import Run
    from subword_gui.state import AppState

    state = AppState()
    tok = drain(train_from_counts(HUG_PUG, TrainOptions("bpe", vocab_size=5)))
    reason = stop_reason(TrainOptions("bpe", vocab_size=5))
    options = TrainOptions("bpe", vocab_size=5)
    state.add_run(
        Run(0, "run", tok, options, corpus="hug.txt", corpus_words=36, stop_reason=reason), show=True
    )
    model = RunsModel(state)
    options_text = model.index(0, len(RunsModel.COLUMNS) - 1).data()
    assert "최소 빈도 0" in options_text and "정규화기 없음" in options_text
    tip = model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "말뭉치: hug.txt, 단어 36개" in tip and "일찍 멈춤: 특수 토큰과 알파벳" in tip


def engine_phases(tmp_path) -> set[str]:
    """The progress phases the engine really reports while counting and training each algorithm."""
    from core.events import Progress, UnigramRound

    corpus = tmp_path / "corpus.txt"
    # 60 made-up words sharing many substrings: enough seed pieces that Unigram must prune
    words = [a + b + c + d for a in "bdgk" for b in "aeiou" for c in "nst" for d in ("", "a")]
    corpus.write_text((" ".join(words) + " 안녕하세요 세계\n") * 20, encoding="utf-8")
    seen: set[str] = set()

    def collect(event) -> None:
        if isinstance(event, Progress | UnigramRound):
            seen.add(event.phase)

    for algorithm in ("bpe", "bytelevel-bpe", "superbpe", "wordpiece", "unigram"):
        options = TrainOptions(algorithm, vocab_size={"unigram": 40, "superbpe": 300}.get(algorithm, 60))
        counts = drain(count_words([corpus], options), collect)
        drain(train_from_counts(counts.words, options), collect)
    return seen


def test_every_progress_phase_the_engine_reports_has_a_korean_name(korean, tmp_path):
    from subword_gui.engine_text import phase_label, phases

    seen = engine_phases(tmp_path)
    assert {"count", "seed", "em", "prune"} <= seen  # the collection itself worked
    for phase in seen:
        assert phase in phases(), f"the engine's phase {phase!r} has no name in the interface"
        label = phase_label(phase)
        assert any("가" <= c <= "힣" for c in label) or label == "EM", (phase, label)


def test_the_english_interface_names_phases_as_the_engine_does(qapp):
    from subword_gui.engine_text import phase_label

    language.install_translators(qapp, "en")
    assert phase_label("expected counts") == "Expected counts"
    assert phase_label("a phase nobody named") == "A phase nobody named"


def model_file_warnings(tmp_path) -> list[str]:
    """What GGUF files (core/formats/gguf.py) and model folders' settings files
    (core/formats/hf_config.py) warn of when they open, one file per kind."""
    gguf = pytest.importorskip("gguf", reason="the gguf package writes the test files")
    import json

    from chat_folders import write_folder

    from core.bytelevel import bytes_to_chars
    from core.formats.detect import open_tokenizer
    from core.formats.hf_json import tokenizer_to_dict

    tokens = [bytes_to_chars(bytes([b])) for b in range(256)] + ["hi", "Ġt", "<|endoftext|>"]

    def write(name, types=None, embedded=None, eos=258):
        w = gguf.GGUFWriter(str(tmp_path / name), "qwen2")
        w.add_tokenizer_model("gpt2")  # no tokenizer.ggml.pre: llama.cpp's 'default' is said
        w.add_token_list(tokens)
        w.add_token_types(types or [1] * 258 + [3])
        w.add_token_merges(["h i", "Ġ t"])
        w.add_eos_token_id(eos)
        if embedded is not None:
            w.add_string("tokenizer.huggingface.json", json.dumps(embedded))
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        return tmp_path / name

    same = tokenizer_to_dict(open_tokenizer(write("plain.gguf")).tokenizer)
    other = json.loads(json.dumps(same))
    other["model"]["vocab"] = {t: (i + 1) % len(tokens) for t, i in other["model"]["vocab"].items()}
    other["model"]["merges"], other["added_tokens"] = [], []
    ggufs = [
        write("odd.gguf", types=[1] * 257 + [9, 3], eos=4000),
        write("same.gguf", embedded=same),
        write("other.gguf", embedded=other),
    ]
    bad_config = {"add_bos_token": "yes", "model_max_length": -1, "chat_template": 5, "pad_token": "<pad>"}
    folders = [
        write_folder(tmp_path / "m", bad_config),
        write_folder(tmp_path / "broken", {}, **{"tokenizer_config.json": "{not json"}),
    ]
    return [w for path in [*ggufs, *folders] for w in open_tokenizer(path).warnings]


def test_gguf_and_model_folder_warnings_are_korean_with_their_figures(korean, tmp_path):
    """They showed in English in the Korean interface (issue 29, item 7)."""
    warnings = model_file_warnings(tmp_path)
    assert len(warnings) >= 10, warnings
    for message in warnings:
        shown = localize(message)
        assert shown != message and any("가" <= c <= "힣" for c in shown), message
        assert "left out" not in shown and "ignored" not in shown, shown
        for figure in re.findall(r"\d[\d,]*\d|/[^\s):]+", message):
            assert figure in shown, f"{figure} lost from {shown!r}"


def test_a_gpt2_folder_opened_and_saved_says_so_in_korean(korean, tmp_path):
    """The GPT-2 folder round trip's report dialogs (what the folder does not say, what the save
    loses) were English in the Korean interface (seen in a real window)."""
    from core.formats.detect import open_tokenizer, save_tokenizer
    from subword_gui.engine_text import localize

    options = TrainOptions("bpe", vocab_size=14, normalizer="nfkc", special_tokens=["<unk>"])
    tok = drain(train_from_counts(HUG_PUG, options))
    folder = tmp_path / "gpt2"
    losses = save_tokenizer(tok, folder, "gpt2")
    messages = list(losses) + open_tokenizer(str(folder / "vocab.json")).warnings
    byte_level = drain(train_from_counts(HUG_PUG, TrainOptions("bytelevel-bpe", vocab_size=270)))
    save_tokenizer(byte_level, tmp_path / "gpt2-bytes", "gpt2")
    messages += open_tokenizer(str(tmp_path / "gpt2-bytes" / "vocab.json")).warnings
    assert len(messages) >= 6
    for message in messages:
        shown = localize(message)
        assert shown != message, message
        for english in ("say nothing", "are taken as", "do not record", "is stored", "are not marked"):
            assert english not in shown, shown
    shown = [localize(m) for m in messages]
    assert any(str(folder) in m and "'<unk>'" in m for m in shown)  # the figures are carried over
    assert any("NFKC" in m for m in shown)


def test_saving_into_a_missing_folder_says_so_in_korean(korean, tmp_path):
    """Seen in a real window: the Korean interface's error box read "cannot save to …: the folder
    … does not exist"."""
    from core.formats.detect import save_tokenizer

    tok = drain(train_from_counts(HUG_PUG, TrainOptions("bpe", vocab_size=12)))
    target = tmp_path / "missing" / "tokenizer.json"
    with pytest.raises(SubwordError) as err:
        save_tokenizer(tok, target, "hf-json")
    shown = localize(err.value)
    assert "does not exist" not in shown and str(target) in shown and str(target.parent) in shown


def test_the_korean_report_of_a_guessed_casing_or_pattern_says_why_in_korean(korean, tmp_path):
    """Seen in a real window: the Korean report of a vocab.txt said why its casing was guessed
    in English, "(52 of 2999 word pieces have their lowercase form too (e.g. 'A' and 'a'))"."""
    import base64

    from core.formats.detect import open_tokenizer
    from subword_gui.report import opening_notes

    cased = tmp_path / "cased" / "vocab.txt"
    cased.parent.mkdir()
    cased.write_text("[PAD]\n[UNK]\nThe\nthe\nA\na\n철수\n##는\n", encoding="utf-8")
    uncased = tmp_path / "vocab.txt"
    uncased.write_text("[PAD]\n[UNK]\nthe\na\nhug\n##s\n", encoding="utf-8")
    ranks = tmp_path / "x.tiktoken"
    ranks.write_text(
        "".join(f"{base64.b64encode(bytes([i])).decode()} {i}\n" for i in range(256)), encoding="utf-8"
    )
    for path, english in (
        (cased, "word pieces have their lowercase form"),
        (uncased, "word pieces have an upper-case form"),
        (ranks, "nearest in size"),
    ):
        items, _, _ = opening_notes(open_tokenizer(str(path)))
        assert len(items) == 1 and english not in items[0], items[0]
        assert "단어 조각" in items[0] or "순위 256개" in items[0], items[0]


def test_what_every_format_says_when_it_opens_reads_korean(korean, tmp_path):
    """Seen in a real window: opening CLIP's merges in the Korean interface showed its note on
    ftfy in English (and subword-nmt codes' on ids): every format of the format table here."""
    from core.formats.detect import open_tokenizer
    from subword_gui.report import opening_notes
    from tests.gui.test_open_every_format import BUILDERS

    said = 0
    for name, build in BUILDERS.items():
        if name == "gguf":
            pytest.importorskip("gguf")
        folder = tmp_path / name
        folder.mkdir()
        items, _, _ = opening_notes(open_tokenizer(str(build(folder))))
        for item in items:
            assert any("가" <= c <= "힣" for c in item), f"{name}: {item}"
            said += 1
    assert said >= 6
