"""GGUF tokenizers: what is refused (one line naming it), what the load says, and the registry row
(detection by name and by content, ``subword encode`` and ``subword convert``)."""

from __future__ import annotations

import json
import shutil

import pytest
from cli_helpers import run

from core.bytelevel import bytes_to_chars
from core.errors import FormatError
from core.formats import registry
from core.formats.detect import open_tokenizer
from core.formats.hf_json import tokenizer_to_dict

gguf = pytest.importorskip("gguf", reason="the gguf package writes the test files (pip install gguf)")

BYTES = [bytes_to_chars(bytes([b])) for b in range(256)]
MERGES = ["h i", "Ġ t", "Ġt h", "e r", "er e", "Ġth ere"]
TOKENS = BYTES + ["hi", "Ġt", "Ġth", "er", "ere", "Ġthere", "<|endoftext|>", "<|im_end|>", "<think>"]
TYPES = [1] * 262 + [3, 1, 4]  # <|im_end|> is written normal: llama.cpp makes it control by its text


def _write(path, model="gpt2", pre="qwen2", **strings):
    w = gguf.GGUFWriter(str(path), "qwen2")
    w.add_name("Tiny Test")
    if model is not None:
        w.add_tokenizer_model(model)
    if pre is not None:
        w.add_tokenizer_pre(pre)
    w.add_token_list(TOKENS)
    w.add_token_types(TYPES)
    w.add_token_merges(MERGES)
    w.add_eos_token_id(262)
    for key, value in strings.items():
        w.add_string(key, value)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def test_a_gguf_vocabulary_opens_with_its_special_tokens(tmp_path):
    loaded = open_tokenizer(_write(tmp_path / "m.gguf"))
    tok = loaded.tokenizer
    assert loaded.format == "gguf" and loaded.warnings == []
    assert tok.encode("hi there<|im_end|>").tokens == ["hi", "Ġthere", "<|im_end|>"]
    added = {t.content: t for t in tok.added_tokens}
    assert added["<|endoftext|>"].special and added["<|im_end|>"].special  # promoted by its text
    assert not added["<think>"].special  # user-defined: cut out even when specials are text
    tok.encode_special_tokens = True
    assert tok.encode("<|im_end|><think>").tokens[-1] == "<think>"
    assert "<|im_end|>" not in tok.encode("<|im_end|><think>").tokens
    meta = tok.extra["gguf"]
    assert (meta["model"], meta["pre"], meta["name"]) == ("gpt2", "qwen2", "Tiny Test")
    assert meta["special_ids"]["eos"] == 262
    assert meta["token_types"] == {
        "normal": 262,
        "unknown": 0,
        "control": 2,
        "user-defined": 1,
        "unused": 0,
        "byte": 0,
    }


@pytest.mark.parametrize(
    "model, pre, message",
    [
        ("rwkv", None, "GGUF tokenizer kind 'rwkv' is not supported (supported: llama, gpt2, bert, t5)"),
        ("gpt2", "kimi-k2", "GGUF pre-tokenizer 'kimi-k2' is not supported (llama.cpp splits it with code"),
        ("gpt2", "made-up", "GGUF pre-tokenizer 'made-up' is not supported"),
        (None, None, "this GGUF file holds no tokenizer (no tokenizer.ggml.model)"),
        ("no_vocab", None, "this GGUF file holds no vocabulary"),
    ],
)
def test_what_is_not_supported_is_one_line_naming_it(tmp_path, model, pre, message):
    path = _write(tmp_path / "m.gguf", model=model, pre=pre)
    with pytest.raises(FormatError) as e:
        open_tokenizer(path)
    assert message in str(e.value) and str(path) in str(e.value) and "\n" not in str(e.value)


def test_no_pre_tokenizer_name_reads_as_llama_cpp_default_and_says_so(tmp_path):
    loaded = open_tokenizer(_write(tmp_path / "m.gguf", pre=None))
    assert loaded.tokenizer.extra["gguf"]["pre"] == "default"
    assert any("'default' pre-tokenizer is used" in w for w in loaded.warnings)


def test_the_chat_template_is_on_the_tokenizer(tmp_path):
    template = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    tok = open_tokenizer(_write(tmp_path / "m.gguf", **{"tokenizer.chat_template": template})).tokenizer
    assert tok.extra["chat_template"] == template


def test_an_embedded_tokenizer_json_is_compared_with_the_gguf_fields(tmp_path):
    same = tokenizer_to_dict(open_tokenizer(_write(tmp_path / "a.gguf")).tokenizer)
    loaded = open_tokenizer(_write(tmp_path / "b.gguf", **{"tokenizer.huggingface.json": json.dumps(same)}))
    assert [w for w in loaded.warnings if "agrees with the GGUF fields" in w]
    other = json.loads(json.dumps(same))
    other["model"]["vocab"] = {t: (i + 1) % len(TOKENS) for t, i in other["model"]["vocab"].items()}
    other["model"]["merges"] = []
    other["added_tokens"] = []
    loaded = open_tokenizer(_write(tmp_path / "c.gguf", **{"tokenizer.huggingface.json": json.dumps(other)}))
    assert [w for w in loaded.warnings if "disagree on" in w]


def test_detected_by_name_and_by_content(tmp_path):
    path = _write(tmp_path / "m.gguf")
    assert registry.format_for_name("Model-Q4_K_M.GGUF").name == "gguf"
    blob = tmp_path / "sha256-0123abcd"  # how Ollama keeps its models
    shutil.copy(path, blob)
    assert open_tokenizer(blob).format == "gguf"
    folder = tmp_path / "folder"
    folder.mkdir()
    shutil.copy(path, folder / "model.gguf")
    assert open_tokenizer(folder).format == "gguf"
    assert any("*.gguf" in f for f in registry.open_dialog_filters())


def test_cli_encodes_and_converts_with_the_loss_report(tmp_path, capsys):
    path = _write(tmp_path / "m.gguf", **{"tokenizer.chat_template": "{{ messages }}"})
    code, out, err = run(["encode", "-m", str(path), "--ids", "hi there<|im_end|>"], capsys)
    assert code == 0, err
    assert out.split() == ["256", "261", "263"]
    code, out, err = run(["convert", str(path), str(tmp_path / "tokenizer.json"), "--to", "hf-json"], capsys)
    assert code == 0, err
    assert "(gguf) -> " in out and "the chat template (tokenizer.chat_template) is not kept" in out
    tokenizers = pytest.importorskip("tokenizers")
    theirs = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    assert theirs.encode("hi there<|im_end|>").ids == [256, 261, 263]
