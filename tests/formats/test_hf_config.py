"""A Hugging Face model folder's tokenizer_config.json / special_tokens_map.json / chat templates:
what is applied to the tokenizer, what is kept, and one line for each bad file."""

from __future__ import annotations

import json

import pytest
from chat_folders import LLAMA3, QWEN, family_config, train_tokenizer, write_folder

from core.formats.detect import convert, open_tokenizer

pytest.importorskip("tokenizers", reason="tokenizers writes the folder's tokenizer.json")


@pytest.fixture(scope="module")
def trained():
    return train_tokenizer()


def _flags(tok, content):
    t = next(t for t in tok.added_tokens if t.content == content)
    return {k: getattr(t, k) for k in ("special", "normalized", "lstrip", "rstrip", "single_word")}, t.id


def test_added_tokens_named_tokens_and_settings_are_applied_and_kept(tmp_path, trained):
    n = trained.get_vocab_size()
    im_start = trained.token_to_id("<|im_start|>")
    config = family_config(
        QWEN,
        pad_token="<pad>",  # not in the vocabulary: added after it, as transformers does
        added_tokens_decoder={
            str(im_start): {
                "content": "<|im_start|>",
                "lstrip": True,
                "rstrip": False,
                "normalized": False,
                "single_word": False,
                "special": True,
            },
            str(n): {
                "content": "<tool>",
                "lstrip": False,
                "rstrip": True,
                "normalized": True,
                "single_word": False,
                "special": False,
            },
        },
        additional_special_tokens=["assistant"],
    )
    loaded = open_tokenizer(write_folder(tmp_path / "m", config, trained))
    tok = loaded.tokenizer
    assert _flags(tok, "<|im_start|>") == (
        dict(special=True, normalized=False, lstrip=True, rstrip=False, single_word=False),
        im_start,
    )
    assert _flags(tok, "<tool>")[1] == n and _flags(tok, "<tool>")[0]["rstrip"]
    assert _flags(tok, "<pad>") == (
        dict(special=True, normalized=False, lstrip=False, rstrip=False, single_word=False),
        n + 1,
    )
    assert _flags(tok, "assistant")[0]["special"]  # a vocabulary word made special
    assert any("pad_token '<pad>' is not in the vocabulary" in w for w in loaded.warnings)
    assert tok.extra["special_tokens_map"]["eos_token"] == "</s>"
    assert tok.extra["model_config"]["model_max_length"] == 8192
    assert tok.extra["chat_template"] == QWEN
    # lstrip: the space before it is swallowed (the token's text is what matched, as in tokenizers)
    assert tok.encode("x <|im_start|>assistant").tokens == ["x", " <|im_start|>", "assistant"]


def test_opening_tokenizer_config_json_opens_its_folder(tmp_path, trained):
    folder = write_folder(tmp_path / "m", family_config(QWEN), trained)
    loaded = open_tokenizer(folder / "tokenizer_config.json")
    assert loaded.format == "hf-json" and loaded.tokenizer.extra["chat_template"] == QWEN


def test_template_files_come_before_the_config_and_named_templates_are_kept(tmp_path, trained):
    config = family_config(None)
    config["chat_template"] = [
        {"name": "default", "template": QWEN},
        {"name": "tool_use", "template": LLAMA3},
    ]
    tok = open_tokenizer(write_folder(tmp_path / "a", config, trained)).tokenizer
    assert tok.extra["chat_template"] == {"default": QWEN, "tool_use": LLAMA3}
    folder = write_folder(tmp_path / "b", family_config(QWEN), trained, **{"chat_template.jinja": LLAMA3})
    assert open_tokenizer(folder).tokenizer.extra["chat_template"] == LLAMA3


@pytest.mark.parametrize(
    "text, line",
    [
        ("{not json", "is not valid JSON"),
        ("[1, 2]", "holds a JSON list, not an object"),
        (b"\xff\xfe{", "is not UTF-8 text"),
        (
            '{"added_tokens_decoder": 3, "model_max_length": "big", "bos_token": 5}',
            "added_tokens_decoder is not an object",
        ),
    ],
)
def test_a_bad_config_is_one_line_and_the_tokenizer_still_opens(tmp_path, trained, text, line):
    folder = write_folder(tmp_path / "m", {}, trained)
    path = folder / "tokenizer_config.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    loaded = open_tokenizer(folder)
    assert any(line in w for w in loaded.warnings), loaded.warnings
    assert all("\n" not in w for w in loaded.warnings)
    assert loaded.tokenizer.encode("Hello").ids == trained.encode("Hello", add_special_tokens=False).ids


def test_a_huge_config_is_left_out(tmp_path, trained, monkeypatch):
    from core.formats import hf_config

    monkeypatch.setattr(hf_config, "MAX_CONFIG_BYTES", 100)
    folder = write_folder(tmp_path / "m", family_config(QWEN), trained)
    loaded = open_tokenizer(folder)
    assert any("more than a tokenizer's settings take" in w for w in loaded.warnings)
    assert "chat_template" not in loaded.tokenizer.extra


def test_add_bos_token_that_tokenizer_json_contradicts_is_one_warning(tmp_path, trained):
    folder = write_folder(
        tmp_path / "m", family_config(QWEN, add_bos_token=False, add_eos_token=False), trained
    )
    loaded = open_tokenizer(folder)
    assert [w for w in loaded.warnings if "add_bos_token=false" in w]
    # tokenizer.json decides, as tokenizers and transformers 5
    assert loaded.tokenizer.encode("Hello", add_special_tokens=True).ids[0] == trained.token_to_id("<s>")


def test_without_tokenizer_json_add_bos_token_adds_bos(tmp_path, trained):
    """A vocab.json + merges.txt folder: the config's add_bos_token/add_eos_token are the post-processor."""
    folder = tmp_path / "gpt2"
    folder.mkdir()
    trained.model.save(str(folder))
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"bos_token": "<s>", "eos_token": "</s>", "add_bos_token": True, "add_eos_token": True})
    )
    loaded = open_tokenizer(folder)
    assert loaded.format == "gpt2"
    ids = loaded.tokenizer.encode("Hello", add_special_tokens=True).ids
    assert ids[0] == trained.token_to_id("<s>") and ids[-1] == trained.token_to_id("</s>")
    assert loaded.tokenizer.encode("Hello").ids == ids[1:-1]


def test_convert_to_a_folder_keeps_the_config_and_to_a_file_says_what_is_lost(tmp_path, trained):
    folder = write_folder(tmp_path / "m", family_config(QWEN, pad_token="<pad>"), trained)
    out = tmp_path / "out"
    out.mkdir()
    _, losses = convert(folder, out, "hf-json")
    assert not [x for x in losses if "tokenizer_config.json" in x]
    again = open_tokenizer(out).tokenizer
    assert again.extra["chat_template"] == QWEN and again.extra["special_tokens_map"]["pad_token"] == "<pad>"
    assert again.extra["model_config"]["model_max_length"] == 8192
    _, losses = convert(folder, tmp_path / "single.json", "hf-json")
    assert [x for x in losses if "the chat template" in x and "tokenizer_config.json" in x]
