"""core.chat: a hostile template is stopped in one line; the warnings name what a rendered chat gets wrong."""

from __future__ import annotations

import time

import pytest
from chat_folders import CONVERSATION, LLAMA3, QWEN, SPECIALS, family_config, train_tokenizer, write_folder

from core.chat import (
    ChatTemplateError,
    conversation_from_json,
    encode_chat,
    pick_template,
    render_chat,
)
from core.formats.detect import open_tokenizer

pytest.importorskip("tokenizers", reason="tokenizers trains the test tokenizer")

USER = [{"role": "user", "content": "Hi"}]


@pytest.mark.parametrize(
    "template, says",
    [
        ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "sandbox forbids"),
        ("{{ cycler.__init__.__globals__.os.popen('id').read() }}", "sandbox forbids"),
        ("{{ messages.append(1) }}", "sandbox forbids"),
        ("{{ namespace(__dict__=1) }}", "sandbox forbids"),
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "ran for more than",
        ),
        ("{{ lipsum(10**7) }}", "ran for more than"),
        ("{{ 'x' * 10**9 }}", "sandbox forbids"),
        ("{{ 'x'|center(10**9) }}", "sandbox forbids"),
        ("{{ '%999999999d' % 1 }}", "sandbox forbids"),
        (
            "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
            "size limit",
        ),
        ("{% macro f(s, n) %}{{ f(s ~ s, n - 1) if n else s }}{% endmacro %}{{ f('ab', 40) }}", "size limit"),
        ("{% for i in range(100000) %}{{ 'y' * 1000 }}{% endfor %}", "output passed"),
        ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "recursed"),
        (
            "{{ raise_exception('Only user and assistant roles are supported!') }}",
            "refused the conversation: Only user",
        ),
        ("{% for m in messages %}{{ m.role ", "cannot be read (line 1)"),
    ],
)
def test_a_hostile_or_broken_template_is_one_line(monkeypatch, template, says):
    import core.chat

    monkeypatch.setattr(core.chat, "MAX_SECONDS", 0.5)
    start = time.monotonic()
    with pytest.raises(ChatTemplateError) as e:
        render_chat(template, USER)
    assert says in str(e.value) and "\n" not in str(e.value)
    assert time.monotonic() - start < 5


def test_the_deadline_leaves_an_outer_tracer_in_place():
    import sys

    def tracer(frame, event, arg):
        return None

    sys.settrace(tracer)
    try:
        render_chat("{{ 1 }}", USER)
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(None)


def test_transformers_globals_filters_and_blocks():
    out = render_chat(
        "{% for m in messages %}{% if loop.index0 > 0 %}{% break %}{% endif %}{{ m|tojson }}{% endfor %}"
        "{% generation %}[{{ dict(a=1)['a'] }}]{% endgeneration %}{{ strftime_now('%Y') | length }}",
        [{"role": "user", "content": "<b>é</b>", "extra": None}, {"role": "user", "content": "x"}],
    )
    assert out == '{"role": "user", "content": "<b>é</b>"}[1]4'


def test_conversation_json_is_checked():
    assert conversation_from_json({"messages": USER}) == USER
    for bad, says in (
        ([], "non-empty JSON list"),
        ([{"content": "x"}], 'message 1 is not an object with a "role"'),
    ):
        with pytest.raises(ChatTemplateError, match=says):
            conversation_from_json(bad)


@pytest.fixture(scope="module")
def trained():
    return train_tokenizer()


def test_templates_are_picked_as_transformers_picks(tmp_path, trained):
    config = family_config(None)
    config["chat_template"] = [{"name": "rag", "template": QWEN}, {"name": "tool_use", "template": LLAMA3}]
    tok = open_tokenizer(write_folder(tmp_path / "m", config, trained)).tokenizer
    with pytest.raises(
        ChatTemplateError, match="several chat templates and none is the default: choose one of rag, tool_use"
    ):
        pick_template(tok)
    assert pick_template(tok, tools=True)[0] == "tool_use"
    assert pick_template(tok, "rag") == ("rag", QWEN)


def test_two_bos_in_a_row_and_the_doubled_bos_are_warned(tmp_path, trained):
    template = "{{ bos_token }}" + LLAMA3  # the template writes BOS twice
    tok = open_tokenizer(write_folder(tmp_path / "m", family_config(template), trained)).tokenizer
    chat = encode_chat(tok, CONVERSATION)
    assert chat.encoding.ids[:2] == [trained.token_to_id("<s>")] * 2
    assert any("two BOS tokens ('<s>') in a row at token 0" in w for w in chat.warnings)
    once = encode_chat(
        open_tokenizer(write_folder(tmp_path / "n", family_config(LLAMA3), trained)).tokenizer, CONVERSATION
    )
    assert any("gives two BOS" in w for w in once.warnings)
    assert any(
        "in a row" in w
        for w in encode_chat(
            open_tokenizer(tmp_path / "n").tokenizer, CONVERSATION, add_special_tokens=True
        ).warnings
    )


def test_a_special_token_the_tokenizer_does_not_know_is_warned_as_split(tmp_path):
    """The template writes <|im_start|>, but the tokenizer lacks it as an added token: it is cut into pieces."""
    plain = train_tokenizer(
        [s for s in SPECIALS if s not in ("<|im_start|>", "<|im_end|>")], bos_post_processor=False
    )
    config = family_config(QWEN, additional_special_tokens=[])
    tok = open_tokenizer(write_folder(tmp_path / "m", config, plain)).tokenizer
    assert encode_chat(tok, USER).warnings == []  # nothing says <|im_start|> is special: no complaint
    config["eos_token"] = "<|im_end|>"  # now it is named: transformers adds it as a special token
    tok = open_tokenizer(write_folder(tmp_path / "n", config, plain)).tokenizer
    assert encode_chat(tok, USER).warnings == []
    tok.encode_special_tokens = True  # as split_special_tokens: specials read as text
    warnings = encode_chat(tok, USER).warnings
    assert (
        warnings
        and warnings[0].startswith("special token '<|im_end|>' at character ")
        and "split into pieces" in warnings[0]
    )


def test_no_bos_where_the_tokenizer_adds_one_is_warned(tmp_path, trained):
    tok = open_tokenizer(write_folder(tmp_path / "m", family_config(QWEN), trained)).tokenizer
    assert any(w.startswith("no BOS ('<s>')") for w in encode_chat(tok, USER).warnings)
