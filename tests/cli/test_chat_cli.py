"""subword encode --chat: a conversation rendered with the model folder's template and encoded, with warnings;
subword convert keeps tokenizer_config.json where the target is a folder."""

from __future__ import annotations

import json

import pytest
from chat_folders import CONVERSATION, LLAMA3, QWEN, family_config, train_tokenizer, write_folder
from cli_helpers import assert_one_line_error, run

from core.chat import encode_chat
from core.formats.detect import open_tokenizer

pytest.importorskip("tokenizers", reason="tokenizers trains the test tokenizer")


@pytest.fixture(scope="module")
def trained():
    return train_tokenizer()


def test_encode_chat_prints_the_rendered_text_tokens_ids_and_warnings(tmp_path, trained, capsys):
    folder = write_folder(tmp_path / "m", family_config(LLAMA3), trained)
    conversation = tmp_path / "chat.json"
    conversation.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    code, out, err = run(["encode", "-m", folder, "--chat", conversation, "--add-generation-prompt"], capsys)
    assert code == 0, err
    expected = encode_chat(open_tokenizer(folder).tokenizer, CONVERSATION, add_generation_prompt=True)
    assert out.startswith("rendered (default template, ")
    assert expected.text in out and "ids:     " + " ".join(map(str, expected.encoding.ids)) in out
    assert "subword: warning: the template writes BOS ('<s>')" in err
    code, out, err = run(["encode", "-m", folder, "--chat", conversation, "--json"], capsys)
    record = json.loads(out)
    assert (
        record["text"].endswith("<|eot_id|>")
        and record["warnings"]
        and len(record["ids"]) == len(record["tokens"])
    )


@pytest.mark.parametrize(
    "content, words",
    [
        ("[]", ["non-empty JSON list"]),
        ("{oops", ["is not valid JSON"]),
        ('[{"role": "system", "content": "x"}]', ["refused the conversation", "System role not supported"]),
    ],
)
def test_a_bad_conversation_or_a_refusing_template_is_one_line(tmp_path, trained, capsys, content, words):
    from chat_folders import GEMMA

    folder = write_folder(tmp_path / "m", family_config(GEMMA), trained)
    conversation = tmp_path / "chat.json"
    conversation.write_text(content, encoding="utf-8")
    code, _, err = run(["encode", "-m", folder, "--chat", conversation], capsys)
    assert_one_line_error(code, err, *words)


def test_a_model_without_a_template_is_one_line(tmp_path, trained, capsys):
    folder = write_folder(tmp_path / "m", {}, trained)
    conversation = tmp_path / "chat.json"
    conversation.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    code, _, err = run(["encode", "-m", folder, "--chat", conversation], capsys)
    assert_one_line_error(code, err, "has no chat template")
    code, _, err = run(["encode", "-m", folder, "--add-generation-prompt", "hi"], capsys)
    assert_one_line_error(code, err, "apply to --chat")


def test_convert_keeps_the_template_in_a_folder_and_names_the_loss_in_a_file(tmp_path, trained, capsys):
    folder = write_folder(tmp_path / "m", family_config(QWEN), trained)
    code, out, err = run(["convert", folder, tmp_path / "gpt2", "--to", "gpt2"], capsys)
    assert code == 0, err
    saved = json.loads((tmp_path / "gpt2" / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert saved["chat_template"] == QWEN and saved["eos_token"] == "</s>"
    assert open_tokenizer(tmp_path / "gpt2").tokenizer.extra["chat_template"] == QWEN
    code, out, err = run(["convert", folder, tmp_path / "m.model", "--to", "sentencepiece"], capsys)
    if code == 0:  # a byte-level BPE may not be writable as SentencePiece; then nothing is written
        assert "the chat template" in out and "tokenizer_config.json are not kept" in out
    code, out, err = run(["convert", folder, tmp_path / "one.json", "--to", "hf-json"], capsys)
    assert code == 0, err
    assert "the chat template, model_max_length" in out and "tokenizer_config.json are not kept" in out
