"""Chat templates written after real model families render exactly as transformers' apply_chat_template
renders them (and encode to the same ids) where transformers is installed; else as a Jinja environment
configured as transformers documents it."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from chat_folders import ALTERNATING, CONVERSATION, FAMILIES, family_config, train_tokenizer, write_folder

from core.chat import encode_chat, render_chat
from core.formats.detect import open_tokenizer

pytest.importorskip("tokenizers")

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather <now> & 'then'",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


@pytest.fixture(scope="module")
def trained():
    return train_tokenizer()


def _conversation(family):
    return ALTERNATING if family in ("mistral", "gemma") else CONVERSATION


def _documented_environment(template, **context):
    """transformers' documented set-up, written here from its description (not our module)."""
    import jinja2
    import jinja2.ext
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = lambda x, ensure_ascii=False, indent=None, separators=None, sort_keys=False: (
        json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
    )
    env.globals.update(raise_exception=raise_exception, strftime_now=lambda f: datetime.now().strftime(f))
    return env.from_string(template).render(**context)


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("generation_prompt", [False, True])
def test_rendering_equals_the_documented_environment(family, generation_prompt):
    messages = _conversation(family)
    specials = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
    expected = _documented_environment(
        FAMILIES[family],
        messages=messages,
        add_generation_prompt=generation_prompt,
        tools=None,
        documents=None,
        **specials,
    )
    assert render_chat(FAMILIES[family], messages, generation_prompt, specials) == expected


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("generation_prompt", [False, True])
def test_text_and_ids_equal_transformers_apply_chat_template(tmp_path, trained, family, generation_prompt):
    transformers = pytest.importorskip(
        "transformers", reason="transformers is an optional reference (pip install transformers)"
    )
    folder = write_folder(tmp_path / family, family_config(FAMILIES[family]), trained)
    messages = _conversation(family)
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder))
    text = theirs.apply_chat_template(messages, tokenize=False, add_generation_prompt=generation_prompt)
    ids = theirs.apply_chat_template(messages, tokenize=True, add_generation_prompt=generation_prompt)
    ids = list(ids["input_ids"] if hasattr(ids, "keys") else ids)
    chat = encode_chat(open_tokenizer(folder).tokenizer, messages, generation_prompt)
    assert chat.text == text
    assert chat.encoding.ids == ids


def test_tools_render_as_transformers_with_its_tojson(tmp_path, trained):
    transformers = pytest.importorskip(
        "transformers", reason="transformers is an optional reference (pip install transformers)"
    )
    folder = write_folder(tmp_path / "qwen", family_config(FAMILIES["qwen"]), trained)
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder))
    text = theirs.apply_chat_template(CONVERSATION, tools=TOOLS, tokenize=False, add_generation_prompt=True)
    ours = render_chat(FAMILIES["qwen"], CONVERSATION, True, {"bos_token": "<s>"}, tools=TOOLS)
    assert ours == text and "<now> & 'then'" in ours  # not HTML-escaped
