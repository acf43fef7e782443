"""Hugging Face model folders built in the tests (a byte-level BPE trained by `tokenizers`, its
special tokens, a ``tokenizer_config.json``) and chat templates written after those of real model
families, for the model-folder and chat-template tests."""

from __future__ import annotations

import json
from pathlib import Path

# Written after the families' published templates: the constructs they rely on (bos_token
# first, trim, namespace, tojson, raise_exception, loop.index0, strftime_now, block
# whitespace control with and without '-').
LLAMA3 = (
    "{{- bos_token }}\n"
    "{%- if not date_string is defined %}{%- set date_string = strftime_now('%Y') %}{%- endif %}\n"
    "{%- if messages[0]['role'] == 'system' %}\n"
    "    {%- set system_message = messages[0]['content']|trim %}\n"
    "    {%- set messages = messages[1:] %}\n"
    "{%- else %}\n"
    "    {%- set system_message = '' %}\n"
    "{%- endif %}\n"
    "{{- '<|start_header_id|>system<|end_header_id|>\\n\\n' }}\n"
    "{{- 'Cutting Knowledge Date: December 2023\\n' }}\n"
    "{{- 'Today Date: ' + date_string + '\\n\\n' }}\n"
    "{{- system_message }}\n"
    "{{- '<|eot_id|>' }}\n"
    "{%- for message in messages %}\n"
    "    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n'+ message['content'] | trim + '<|eot_id|>' }}\n"
    "{%- endfor %}\n"
    "{%- if add_generation_prompt %}\n"
    "    {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}\n"
    "{%- endif %}\n"
)

QWEN = (
    "{%- if tools %}\n"
    "    {{- '<|im_start|>system\\n' }}\n"
    "    {%- if messages[0]['role'] == 'system' %}\n"
    "        {{- messages[0]['content'] }}\n"
    "    {%- else %}\n"
    "        {{- 'You are a helpful assistant.' }}\n"
    "    {%- endif %}\n"
    '    {{- "\\n\\n# Tools\\n\\n<tools>" }}\n'
    "    {%- for tool in tools %}\n"
    '        {{- "\\n" }}\n'
    "        {{- tool | tojson }}\n"
    "    {%- endfor %}\n"
    '    {{- "\\n</tools><|im_end|>\\n" }}\n'
    "{%- else %}\n"
    "    {%- if messages[0]['role'] == 'system' %}\n"
    "        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}\n"
    "    {%- else %}\n"
    "        {{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}\n"
    "    {%- endif %}\n"
    "{%- endif %}\n"
    "{%- set ns = namespace(last_user=-1) %}\n"
    "{%- for message in messages %}\n"
    "    {%- if message.role == 'user' %}{%- set ns.last_user = loop.index0 %}{%- endif %}\n"
    "    {%- if message.role == 'user' or (message.role == 'system' and not loop.first) or message.role == 'assistant' %}\n"
    "        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}\n"
    "    {%- endif %}\n"
    "{%- endfor %}\n"
    "{%- if add_generation_prompt %}\n"
    "    {{- '<|im_start|>assistant\\n' }}\n"
    "{%- endif %}\n"
)

# ChatML without '-': the newlines after blocks are removed only by trim_blocks/lstrip_blocks.
CHATML = (
    "{% for message in messages %}\n"
    "    {% if loop.first and message['role'] != 'system' %}\n"
    "{{ '<|im_start|>system\\nYou are helpful.<|im_end|>\\n' }}\n"
    "    {% endif %}\n"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}\n"
    "{% endfor %}\n"
    "{% if add_generation_prompt %}\n"
    "{{ '<|im_start|>assistant\\n' }}\n"
    "{% endif %}\n"
)

MISTRAL = (
    "{{ bos_token }}"
    "{% for message in messages %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
    "{% endif %}"
    "{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}"
    "{% elif message['role'] == 'assistant' %}{{ message['content'] + eos_token }}"
    "{% else %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}"
    "{% endfor %}"
)

GEMMA = (
    "{{ bos_token }}"
    "{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}"
    "{% for message in messages %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
    "{% endif %}"
    "{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}"
    "{{ '<start_of_turn>' + role + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}"
)

FAMILIES = {"llama3": LLAMA3, "qwen": QWEN, "chatml": CHATML, "mistral": MISTRAL, "gemma": GEMMA}

SPECIALS = [
    "<unk>",
    "<s>",
    "</s>",
    "<|im_start|>",
    "<|im_end|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eot_id|>",
    "[INST]",
    "[/INST]",
    "<start_of_turn>",
    "<end_of_turn>",
]

CORPUS = [
    "Hello, how are you today? I am fine, thank you.",
    "You are a helpful assistant. Answer briefly.",
    "안녕하세요, 반갑습니다. 今日は良い天気ですね 😀",
    "def f(x):\n    return x * 2  # code\n\n\n",
    "user assistant system model tools 12345 67890",
] * 20

CONVERSATION = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "  Hello! 안녕하세요 😀  "},
    {"role": "assistant", "content": "Hi there, how can I help?"},
    {"role": "user", "content": "Write f(x) = 2x in Python."},
]
ALTERNATING = CONVERSATION[1:]  # Mistral and Gemma refuse a system turn


def train_tokenizer(specials=SPECIALS, bos_post_processor: bool = True):
    """A byte-level BPE (`tokenizers`) with ``specials`` as special tokens; ``<s> $A`` when
    encoding with special tokens if ``bos_post_processor``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600, special_tokens=list(specials), initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(CORPUS, trainer)
    if bos_post_processor:
        tok.post_processor = processors.TemplateProcessing(
            single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", tok.token_to_id("<s>"))]
        )
    return tok


def write_folder(folder: Path, config: dict, tokenizer=None, **files) -> Path:
    """``folder`` with ``tokenizer.json`` (``tokenizer`` or :func:`train_tokenizer`'s) and
    ``tokenizer_config.json`` (``config``); ``files`` are more files by name (text)."""
    folder.mkdir(parents=True, exist_ok=True)
    (tokenizer or train_tokenizer()).save(str(folder / "tokenizer.json"))
    (folder / "tokenizer_config.json").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def family_config(template: str, **more) -> dict:
    return {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": "<s>",
        "eos_token": "</s>",
        "unk_token": "<unk>",
        "model_max_length": 8192,
        "chat_template": template,
        **more,
    }
