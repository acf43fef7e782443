"""The Korean interface: catalogue complete and compiled, chosen from the locale or the menu."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QSettings
from PySide6.QtWidgets import QApplication

from subword_gui import language
from subword_gui.main_window import MainWindow

TS = language.TRANSLATIONS / "subword_explorer_ko.ts"
QM = language.TRANSLATIONS / "subword_explorer_ko.qm"
BIN = Path(
    shutil.which("pyside6-lrelease") or Path(__import__("sys").executable).with_name("pyside6-lrelease")
)


def _trained(vocab_size: int):
    """A tiny BPE tokenizer for a run (the Hugging Face course's hug/pug/pun/bun/hugs)."""
    from core.events import drain
    from core.options import TrainOptions
    from core.training import train_from_counts

    counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    return drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=vocab_size)))


def _messages() -> list[tuple[str, ET.Element]]:
    root = ET.parse(TS).getroot()
    return [(ctx.findtext("name"), m) for ctx in root.iter("context") for m in ctx.iter("message")]


def test_every_message_has_a_korean_translation_with_the_same_placeholders():
    import re

    messages = _messages()
    assert len(messages) > 250
    for ctx, m in messages:
        source, translation = m.findtext("source"), m.find("translation")
        assert translation.get("type") is None, f"{ctx}: {source!r} is not translated"
        # a count's message (numerus) has one form in Korean
        forms = [f.text for f in translation.iter("numerusform")] or [translation.text]
        assert len(forms) == 1 and forms[0], f"{ctx}: {source!r} has an empty translation"
        fields = re.compile(r"\{[^{}]*\}")
        ours, theirs = set(fields.findall(source)), set(fields.findall(forms[0]))
        assert theirs == ours, f"{ctx}: {forms[0]!r} invents or drops a placeholder"


def test_the_shipped_qm_is_compiled_from_the_ts(tmp_path):
    if not BIN.exists():
        pytest.skip("pyside6-lrelease is not installed")
    out = tmp_path / "ko.qm"
    subprocess.run([str(BIN), "-silent", str(TS), "-qm", str(out)], check=True, timeout=60)
    assert out.read_bytes() == QM.read_bytes(), "run: bash subword_gui/translations/update.sh"


def test_language_follows_the_saved_choice_then_the_system_locale(tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert language.chosen_language(settings, QLocale("ko_KR")) == "ko"
    assert language.chosen_language(settings, QLocale("en_GB")) == "en"
    settings.setValue(language.SETTINGS_KEY, "en")
    assert language.chosen_language(settings, QLocale("ko_KR")) == "en"
    settings.setValue(language.SETTINGS_KEY, "ko")
    assert language.chosen_language(settings, QLocale("en_US")) == "ko"


@pytest.fixture
def korean(qapp):
    assert language.install_translators(qapp, "ko") == "ko"
    yield qapp
    language.install_translators(qapp, "en")


def test_the_window_speaks_korean_when_korean_is_installed(korean, qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(window)
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus[0] == "파일(&F)" and "도움말(&H)" in menus
    assert window.docks["corpus"].windowTitle() == "말뭉치"
    assert QApplication.translate("Headers", "Frequency") == "빈도"


def test_qts_own_file_dialog_speaks_korean_too(korean, qtbot, tmp_path):
    from PySide6.QtWidgets import QFileDialog, QLabel

    from subword_gui.file_dialogs import polish_file_dialog

    dialog = QFileDialog(None, "t", str(tmp_path), "Text files (*.txt)")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    qtbot.addWidget(dialog)
    polish_file_dialog(dialog)
    labels = [dialog.findChild(QLabel, n).text() for n in ("lookInLabel", "fileNameLabel", "fileTypeLabel")]
    import re

    latin = [t for t in labels if re.search("[A-Za-z]", re.sub(r"\(&.\)|&", "", t))]  # (&N) is a key
    assert not latin, labels


def test_the_language_menu_saves_the_choice_and_offers_a_restart(qtbot, tmp_path, monkeypatch):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(window)
    asked = []
    monkeypatch.setattr(window, "_ask_restart", lambda: asked.append(True) or False)
    korean_action = next(a for a in window.language_menu.actions() if a.data() == "ko")
    korean_action.trigger()
    assert settings.value(language.SETTINGS_KEY) == "ko" and asked == [True]
    assert korean_action.isChecked()


def test_a_restart_for_the_language_brings_the_sessions_runs_back(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from subword_gui.runs import Run

    data = tmp_path / "data"
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False, data_dir=data)
    qtbot.addWidget(window)
    first, second, saved = (Run(0, f"Run {n}", _trained(9 + n)) for n in (1, 2, 3))
    saved.saved_to = str(tmp_path / "run3.json")  # saved to a file: the user has it
    for run in (first, second, saved):
        window.state.add_run(run)
    window.state.show_run(second)
    assert window.other_runs() == [first, saved]  # every run is kept, saved to a file or not
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((text, default))
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    assert window._ask_restart() is False and "2 other runs come back" in asked[0][0]
    assert window.keep_runs_for_restart()  # what restart() does before closing
    window.close()  # keeps the shown run, as every quit does

    again = MainWindow(settings=settings, open_sample=False, data_dir=data)
    qtbot.addWidget(again)
    with qtbot.waitSignal(again.run_restored, timeout=10_000):
        again.restore_last_run()
    assert [r.name for r in again.state.runs] == ["Run 1", "Run 3", "Run 2"]
    assert again.state.shown_run.name == "Run 2"
    assert again.state.runs[0].tokenizer.get_vocab() == first.tokenizer.get_vocab()
    third = MainWindow(settings=settings, open_sample=False, data_dir=data)  # taken once, not again
    qtbot.addWidget(third)
    with qtbot.waitSignal(third.run_restored, timeout=10_000):
        third.restore_last_run()
    assert [r.name for r in third.state.runs] == ["Run 2"]


def test_the_catalogue_holds_every_message_the_code_has(tmp_path):
    """A new self.tr(...) without a translation fails here: run translations/update.sh and translate it."""
    lupdate = BIN.with_name("pyside6-lupdate")
    if not lupdate.exists():
        pytest.skip("pyside6-lupdate is not installed")
    root = language.TRANSLATIONS.parents[1]
    sources = sorted(str(p) for p in (root / "subword_gui").rglob("*.py"))
    fresh = tmp_path / "fresh.ts"
    subprocess.run(
        [str(lupdate), "-no-obsolete", "-locations", "none", "-silent", *sources, "-ts", str(fresh)],
        check=True,
        timeout=120,
        capture_output=True,
    )

    def keys(path: Path) -> set[tuple[str, str]]:
        root = ET.parse(path).getroot()
        return {
            (c.findtext("name"), m.findtext("source"))
            for c in root.iter("context")
            for m in c.iter("message")
        }

    missing = keys(fresh) - keys(TS)
    assert not missing, f"not in the Korean catalogue: {sorted(missing)[:10]}"


def test_examples_menu_reads_the_korean_titles_when_korean_is_in_force(korean, qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(window)
    titles = [a.text() for a in window.examples_menu.actions() if a.text()]
    assert "네 문장 (Unigram)" in titles
    assert all(e.get("title_ko") for e in window.examples()), "every example needs a Korean title"


def test_the_stepping_status_line_is_korean_from_end_to_end(korean, qtbot, tmp_path):
    """It read "Stepped to 1단계: u + g → ug": the English verb was pasted into the
    translated sentence, outside the translation machinery."""
    from core.options import TrainOptions

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(window)
    try:
        words = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
        window.corpus_panel.open_lines([w for w, n in words.items() for _ in range(n)], "hug-pug.txt")
        panel = window.training_panel
        panel.set_options(TrainOptions("bpe", vocab_size=11))
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=30_000):
            panel.step_button.click()
        qtbot.waitUntil(lambda: "u + g" in panel.status.text(), timeout=30_000)
        assert panel.status.text().startswith("1단계로 진행"), panel.status.text()
    finally:
        panel.shutdown()


def test_tooltips_and_messages_once_left_in_english_are_korean(korean, qtbot):
    """Strings that bypassed the translation machinery: the Vocabulary headers' tooltips,
    the normalizer box's tooltip, an empty Compare column, a special token's why line."""
    from PySide6.QtCore import Qt

    from subword_gui.panels.compare import ComparePanel
    from subword_gui.panels.training import TrainingPanel
    from subword_gui.panels.vocabulary import COL_FREQ, COL_LENGTH, COL_RANK, VocabModel
    from subword_gui.state import AppState

    model = VocabModel()
    tips = [
        model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        for c in (COL_LENGTH, COL_FREQ, COL_RANK)
    ]
    assert tips[0].startswith("토큰이 나타내는") and "단어" in tips[1] and "병합 단계" in tips[2]
    training = TrainingPanel(AppState())
    qtbot.addWidget(training)
    assert training.normalizer_box.toolTip().startswith("쉼표로 구분")
    training.shutdown()
    compare = ComparePanel(AppState())
    qtbot.addWidget(compare)
    assert compare.columns[0].strip._placeholder == "아직 토크나이저가 없습니다."


def test_none_reads_korean_in_the_training_boxes_and_still_means_none(korean, qtbot):
    """The normalizer and pre-tokenizer boxes said "none" in the Korean interface (issue 29, item 7)."""
    from core.options import TrainOptions
    from subword_gui.panels.training import TrainingPanel
    from subword_gui.state import AppState

    training = TrainingPanel(AppState())
    qtbot.addWidget(training)
    for box in (training.normalizer_box, training.pre_tokenizer_box):
        names = [box.itemText(i) for i in range(box.count())]
        assert "none" not in names and "없음" in names
    training.set_options(TrainOptions("bpe", vocab_size=300, normalizer=None, pre_tokenizer="none"))
    assert training.normalizer_box.currentText() == "없음" == training.pre_tokenizer_box.currentText()
    options = training.options()
    assert (options.normalizer, options.pre_tokenizer) == (None, "none")
    assert training.options_dict()["pre_tokenizer"] == "none"
    training.pre_tokenizer_box.setCurrentText("whitespace")
    training.apply_options_dict({"normalizer": "none", "pre_tokenizer": "none"})
    assert training.pre_tokenizer_box.currentText() == "없음" and training.options().pre_tokenizer == "none"
    assert "⚠" not in training.status.text()
    training.shutdown()


def test_opening_and_saving_a_tokenizer_report_in_korean(korean, qtbot, tmp_path):
    """The status line after File › Open tokenizer / Save was an f-string, so it stayed English."""
    from core.formats.gpt2 import save_gpt2
    from core.models.bpe.model import BPE

    vocab = {"<unk>": 0, "g": 1, "h": 2, "s": 3, "u": 4, "ug": 5, "hug": 6}
    save_gpt2(BPE(vocab, [("u", "g"), ("h", "ug")], unk_token="<unk>"), tmp_path)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(window)
    window.open_tokenizer(str(tmp_path / "merges.txt"))
    assert window.statusBar().currentMessage().startswith("merges.txt을(를) 열었습니다 (gpt2)")
    out = tmp_path / "again.json"
    assert window._write_tokenizer(window.state.tokenizer, str(out), "hf-json", None, [])
    assert out.exists()
    assert window.statusBar().currentMessage().startswith("again.json을(를) 저장했습니다 (hf-json)")


def test_the_tokenizer_file_dialogs_filters_read_korean_and_still_choose_their_format(korean):
    """The filter labels came from the engine's format table, in English; their globs stay."""
    from subword_gui.engine_text import localized_filter
    from subword_gui.file_dialogs import SAVE_FILTERS, save_format_for, tokenizer_filter

    filters = tokenizer_filter().split(";;")
    assert filters[0].startswith("토크나이저 (") and "*.model" in filters[0]
    assert "SentencePiece 모델 (*.model)" in filters and filters[-1] == "모든 파일 (*)"
    for label, fmt in SAVE_FILTERS:  # a Korean label the save dialog returns picks its format
        assert save_format_for("out", localized_filter(label)) == fmt
    assert localized_filter("SentencePiece model (*.model)") != "SentencePiece model (*.model)"


def test_what_an_opened_file_cannot_say_is_said_in_korean(korean, qtbot, tmp_path):
    """The warnings of an opened file came from the engine in English ("vocab.txt holds no
    normalizer settings…") inside a Korean status line."""
    path = tmp_path / "vocab.txt"
    path.write_text(
        "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hug", "##s", "pug"]) + "\n", encoding="utf-8"
    )
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(window)
    window.open_tokenizer(str(path))
    said = window.report_dialog.text()  # read whole in the report dialog (issue 29, item 3)
    assert "vocab.txt에는 정규화 설정이 없습니다" in said and "lowercase=True" in said
    assert "holds no normalizer settings" not in said


def test_a_default_run_name_follows_the_language_and_a_users_name_stays(qtbot, qapp, tmp_path):
    """After View › Language and the restart, runs kept reading "Run 1: BPE 10": the language
    they were trained in."""
    from subword_gui.runs import Run, default_run_name

    data = tmp_path / "data"
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, open_sample=False, data_dir=data)
    qtbot.addWidget(window)
    runs = [
        Run(0, default_run_name(n, "BPE", 9 + n), _trained(9 + n), default_name=(n, "BPE", 9 + n))
        for n in (1, 2, 3)
    ]
    for run in runs:
        window.state.add_run(run)
    window.state.rename_run(runs[1], "mine")
    window.state.show_run(runs[2])
    assert window.keep_runs_for_restart()
    window.close()
    assert language.install_translators(qapp, "ko") == "ko"
    try:
        again = MainWindow(settings=settings, open_sample=False, data_dir=data)
        qtbot.addWidget(again)
        with qtbot.waitSignal(again.run_restored, timeout=10_000):
            again.restore_last_run()
        korean = [r.name for r in again.state.runs]
    finally:
        language.install_translators(qapp, "en")
    assert korean == ["실행 1: BPE 10", "mine", "실행 3: BPE 12"]  # the catalogue's "실행 {0}: {1} {2}"
