"""Chat templates: render a conversation as a model's Jinja template does, tokenize it, and say
what looks wrong.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.tokenizer import AddedToken
    >>> from core.training import train_from_counts
    >>> tok = drain(train_from_counts({"user": 3, "Hi": 2}, TrainOptions("bpe", vocab_size=20)))
    >>> for special in ("<|im_start|>", "<|im_end|>"):
    ...     tok.add_token(AddedToken(special, tok.vocab_size))
    >>> tok.extra["chat_template"] = (        # ChatML, as Qwen's tokenizer_config.json has it
    ...     "{% for m in messages %}<|im_start|>{{ m.role }}\\n{{ m.content }}<|im_end|>\\n{% endfor %}"
    ...     "{% if add_generation_prompt %}<|im_start|>assistant\\n{% endif %}")
    >>> chat = encode_chat(tok, [{"role": "user", "content": "Hi"}], add_generation_prompt=True)
    >>> chat.text
    '<|im_start|>user\\nHi<|im_end|>\\n<|im_start|>assistant\\n'
    >>> chat.encoding.tokens[:2], chat.warnings
    (['<|im_start|>', 'user'], [])

Rendering is `transformers`' ``apply_chat_template`` (``utils/chat_template_utils.py``): Jinja
in an ``ImmutableSandboxedEnvironment`` with ``trim_blocks`` and ``lstrip_blocks``, the
``loopcontrols`` extension and a ``{% generation %}`` block (kept, not tracked); a ``tojson``
filter that does not escape HTML (``json.dumps`` with ``ensure_ascii=False``, and its
``indent``, ``separators`` and ``sort_keys``); the globals ``raise_exception``,
``strftime_now``, ``dict`` (a call only) and ``namespace`` (no ``_``-names). The template is
given ``messages`` (keys whose value is None dropped), ``tools``, ``documents``,
``add_generation_prompt`` and the named special tokens (``bos_token``, ``eos_token``...).
The rendered text is then encoded without adding special tokens, as ``apply_chat_template``
encodes it.

A template is code from a downloaded file. The sandbox keeps it from reading files or
calling anything unsafe; on top of it, a render stops after :data:`MAX_SECONDS` (checked at
each line of the template and each call, through ``sys.settrace``) or when the text or a value
it builds passes :data:`MAX_RENDERED_CHARS`. Any failure is one :class:`ChatTemplateError` line.

Leaves out: ``continue_final_message``, the assistant-token mask, tool schemas built from
Python functions, and batches of conversations.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from core.errors import SubwordError

MAX_SECONDS = 2.0
MAX_RENDERED_CHARS = 4_000_000
MAX_TEMPLATE_CHARS = 1_000_000
MAX_CONVERSATION_CHARS = 1_000_000
ROLES = ("system", "user", "assistant", "tool")


class ChatTemplateError(SubwordError):
    """A template that cannot be read, refuses the conversation, or runs away; the message is one line."""


@dataclass
class ChatEncoding:
    """A rendered conversation: its text, the text's encoding, and what looks wrong."""

    text: str
    encoding: Any
    warnings: list[str] = field(default_factory=list)
    template_name: str = "default"


# -- the template's tokenizer settings ----------------------------------------------------------


def chat_templates(tok) -> dict[str, str]:
    """The templates a tokenizer carries, by name (``default`` for a single one); may be empty."""
    template = (tok.extra or {}).get("chat_template")
    if isinstance(template, str):
        return {"default": template}
    if isinstance(template, dict):
        return {str(k): v for k, v in template.items() if isinstance(v, str)}
    return {}


def special_tokens_map(tok) -> dict[str, Any]:
    """``bos_token``, ``eos_token``... as the template sees them: a model folder's names, or a
    GGUF file's special ids turned into their tokens."""
    extra = tok.extra or {}
    named = extra.get("special_tokens_map")
    if isinstance(named, dict) and named:
        return dict(named)
    out: dict[str, Any] = {}
    for kind, token_id in ((extra.get("gguf") or {}).get("special_ids") or {}).items():
        content = tok.id_to_token(token_id) if isinstance(token_id, int) else None
        if content is not None:
            out[f"{kind}_token"] = content
    return out


def pick_template(tok, name: str | None = None, tools: bool = False) -> tuple[str, str]:
    """``(name, template)``: the one asked for, else as transformers picks (``tool_use`` with tools,
    ``default``, or the only one); ChatTemplateError when there is none to pick."""
    templates = chat_templates(tok)
    if not templates:
        raise ChatTemplateError("this tokenizer has no chat template")
    if name is not None:
        if name not in templates:
            raise ChatTemplateError(
                f"no chat template named {name!r} (this tokenizer has {', '.join(templates)})"
            )
        return name, templates[name]
    if tools and "tool_use" in templates:
        return "tool_use", templates["tool_use"]
    if "default" in templates:
        return "default", templates["default"]
    if len(templates) == 1:
        return next(iter(templates.items()))
    raise ChatTemplateError(
        f"this tokenizer has several chat templates and none is the default: choose one of {', '.join(templates)}"
    )


# -- conversations -------------------------------------------------------------------------------


def conversation_from_json(data: Any, source: str = "the conversation") -> list[dict]:
    """A conversation as JSON gives it (a list of ``{"role", "content"}``, or ``{"messages": [...]}``),
    checked; ChatTemplateError naming the first bad message."""
    if isinstance(data, dict) and "messages" in data:
        data = data["messages"]
    if not isinstance(data, list) or not data:
        raise ChatTemplateError(
            f"{source} must be a non-empty JSON list of messages with a role and a content"
        )
    total = 0
    out = []
    for n, message in enumerate(data, 1):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise ChatTemplateError(f'{source}: message {n} is not an object with a "role" string')
        total += len(json.dumps(message, ensure_ascii=False))
        if total > MAX_CONVERSATION_CHARS:
            raise ChatTemplateError(f"{source} is longer than {MAX_CONVERSATION_CHARS:,} characters")
        out.append({k: _plain(v) for k, v in message.items() if v is not None})
    return out


def _plain(value: Any) -> Any:
    """JSON-shaped data only: what a template sees cannot carry methods of other types."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


# -- rendering -----------------------------------------------------------------------------------


def render_chat(
    template: str,
    messages: list[dict],
    add_generation_prompt: bool = False,
    special_tokens: dict[str, Any] | None = None,
    tools: list[dict] | None = None,
    documents: list[dict] | None = None,
    **variables: Any,
) -> str:
    """The text ``template`` makes of ``messages``, as ``apply_chat_template(tokenize=False)``.

    >>> render_chat("{% for m in messages %}[{{ m.role }}] {{ m.content }}\\n{% endfor %}",
    ...             [{"role": "user", "content": "Hi"}])
    '[user] Hi\\n'
    """
    compiled = _compile(template)
    context = {
        **_plain(special_tokens or {}),
        **_plain(variables),
        # as apply_chat_template: a key whose value is None is left out (templates test presence)
        "messages": [{k: _plain(v) for k, v in m.items() if v is not None} for m in messages],
        "tools": _plain(tools),
        "documents": _plain(documents),
        "add_generation_prompt": bool(add_generation_prompt),
    }
    parts: list[str] = []
    size = 0
    with _deadline(MAX_SECONDS):
        try:
            for chunk in compiled.generate(**context):
                size += len(chunk)
                if size > MAX_RENDERED_CHARS:
                    raise ChatTemplateError(
                        f"the chat template's output passed {MAX_RENDERED_CHARS:,} characters: stopped"
                    )
                parts.append(chunk)
        except ChatTemplateError:
            raise
        except _TimeUp:
            raise ChatTemplateError(
                f"the chat template ran for more than {MAX_SECONDS:g} s: stopped"
            ) from None
        except RecursionError:
            raise ChatTemplateError("the chat template recursed too deeply: stopped") from None
        except MemoryError:
            raise ChatTemplateError("the chat template ran out of memory: stopped") from None
        except Exception as e:  # noqa: BLE001 - a template's error is the user's one line, never a traceback
            raise ChatTemplateError(_describe(e)) from None
    return "".join(parts)


def _describe(e: Exception) -> str:
    import jinja2

    if isinstance(e, jinja2.exceptions.SecurityError):
        return f"the chat template tried something the sandbox forbids: {_one_line(e)}"
    if isinstance(e, jinja2.exceptions.TemplateError) and type(e) is jinja2.exceptions.TemplateError:
        return f"the chat template refused the conversation: {_one_line(e)}"  # raise_exception(...)
    return f"the chat template failed: {type(e).__name__}: {_one_line(e)}"


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text[:300] + ("..." if len(text) > 300 else "")


class _TimeUp(BaseException):
    """Raised into the template's frames by the tracer: a BaseException, so no ``except Exception``
    inside Jinja's runtime swallows it."""


class _deadline:
    """Stop whatever runs inside after ``seconds``: a trace function checks the clock at each call and,
    in the template's own compiled code (file name ``<template>``), at each line."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        end = time.monotonic() + self.seconds

        def local(frame, event, arg):
            if event == "line" and time.monotonic() > end:
                raise _TimeUp
            return local

        def on_call(frame, event, arg):
            if time.monotonic() > end:
                raise _TimeUp
            return local if frame.f_code.co_filename == "<template>" else None

        self._before = sys.gettrace()
        sys.settrace(on_call)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._before)
        return False


def _compile(template: str):
    if not isinstance(template, str):
        raise ChatTemplateError(f"a chat template is text, not {type(template).__name__}")
    if len(template) > MAX_TEMPLATE_CHARS:
        raise ChatTemplateError(f"the chat template is longer than {MAX_TEMPLATE_CHARS:,} characters")
    try:
        return _compiled(template)
    except ChatTemplateError:
        raise
    except Exception as e:  # noqa: BLE001 - jinja2.TemplateSyntaxError and friends
        line = getattr(e, "lineno", None)
        where = f" (line {line})" if line else ""
        raise ChatTemplateError(f"the chat template cannot be read{where}: {_one_line(e)}") from None


@lru_cache(maxsize=16)
def _compiled(template: str):
    return _environment().from_string(template)


@lru_cache(maxsize=1)
def _environment():
    """The environment transformers renders chat templates in (see the module docstring)."""
    import jinja2
    import jinja2.ext
    import jinja2.nodes
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class GenerationBlock(jinja2.ext.Extension):
        """``{% generation %}...{% endgeneration %}``: marks the assistant's text; renders its body."""

        tags = {"generation"}

        def parse(self, parser):
            lineno = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

        def _body(self, caller):
            return caller()

    class BoundedEnvironment(ImmutableSandboxedEnvironment):
        """The sandbox, and no value larger than MAX_RENDERED_CHARS built by a call or an operator."""

        intercepted_binops = frozenset({"*", "**", "%"})

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - jinja's own signature
            for value in (*args, *kwargs.values()):
                _check_size(value)
            return _check_size(ImmutableSandboxedEnvironment.call(__self, __context, __obj, *args, **kwargs))

        def call_binop(self, context, operator, left, right):
            if operator == "*":
                for seq, n in ((left, right), (right, left)):
                    if (
                        isinstance(seq, (str, list, tuple))
                        and isinstance(n, int)
                        and len(seq) * n > MAX_RENDERED_CHARS
                    ):
                        raise jinja2.exceptions.SecurityError("a repeated value would pass the size limit")
            elif operator == "**":
                if isinstance(left, (int, float)) and isinstance(right, (int, float)) and abs(right) > 4096:
                    raise jinja2.exceptions.SecurityError("a power this large is refused")
            elif operator == "%" and isinstance(left, str) and _HUGE_WIDTH.search(left):
                raise jinja2.exceptions.SecurityError("a format width this large is refused")
            return _check_size(super().call_binop(context, operator, left, right))

    env = BoundedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationBlock, jinja2.ext.loopcontrols]
    )

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        # as transformers: no HTML escaping (Jinja's own tojson escapes <, >, &, ')
        return json.dumps(
            x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
        )

    def strftime_now(format):
        return datetime.now().strftime(format)

    class TemplateDict:
        """``dict(...)`` and ``dict.fromkeys(...)`` only: no attribute reaches the type."""

        def __call__(self, *args, **kwargs):
            return dict(*args, **kwargs)

        def fromkeys(self, *args, **kwargs):
            return dict.fromkeys(*args, **kwargs)

    class TemplateNamespace(jinja2.utils.Namespace):
        """Jinja's ``namespace`` without ``_``-names, and no value past the size limit."""

        def __init__(*args, **kwargs):
            self, args = args[0], args[1:]
            attrs = dict(*args, **kwargs)
            for name, value in attrs.items():
                TemplateNamespace._check(name, value)
            jinja2.utils.Namespace.__init__(self, attrs)

        def __setitem__(self, name, value):
            TemplateNamespace._check(name, value)
            jinja2.utils.Namespace.__setitem__(self, name, value)

        @staticmethod
        def _check(name, value):
            if isinstance(name, str) and name.startswith("_"):
                raise jinja2.exceptions.SecurityError(f"a namespace cannot hold {name!r}")
            _check_size(value)

    env.filters["tojson"] = tojson
    for name in ("center", "indent", "format", "replace", "join", "wordwrap"):
        env.filters[name] = _bounded_filter(env.filters[name])
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    env.globals["dict"] = TemplateDict()
    env.globals["namespace"] = TemplateNamespace
    return env


_HUGE_WIDTH = re.compile(r"%[-+ #0]*(\*|\d{7,})")


def _check_size(value: Any) -> Any:
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_RENDERED_CHARS:
        import jinja2

        raise jinja2.exceptions.SecurityError(f"a value passed the size limit ({MAX_RENDERED_CHARS:,})")
    return value


def _bounded_filter(f: Callable) -> Callable:
    """A filter whose width or replacement could make a huge value: checked before and after."""

    def bounded(*args, **kwargs):
        import jinja2

        values = [
            a
            for a in (*args, *kwargs.values())
            if not isinstance(a, (jinja2.runtime.Context, jinja2.Environment))
        ]
        if any(isinstance(v, int) and v > MAX_RENDERED_CHARS for v in values):
            raise jinja2.exceptions.SecurityError("a width this large is refused")
        if any(isinstance(v, str) and _HUGE_WIDTH.search(v) for v in values):
            raise jinja2.exceptions.SecurityError("a format width this large is refused")
        strings = [v for v in values if isinstance(v, str)]
        if len(strings) >= 3 and len(strings[0]) * max(1, len(strings[2])) > MAX_RENDERED_CHARS:
            raise jinja2.exceptions.SecurityError("a replacement this large is refused")
        return _check_size(f(*args, **kwargs))

    for attr in ("jinja_pass_arg",):  # keep @pass_environment / @pass_eval_context
        if hasattr(f, attr):
            setattr(bounded, attr, getattr(f, attr))
    return bounded


# -- encoding and checking ---------------------------------------------------------------------


def encode_chat(
    tok,
    messages: list[dict],
    add_generation_prompt: bool = False,
    template_name: str | None = None,
    add_special_tokens: bool = False,
) -> ChatEncoding:
    """Render ``messages`` with ``tok``'s chat template and encode the text (without adding special
    tokens, as ``apply_chat_template``, unless ``add_special_tokens``); the warnings say where the
    result looks wrong (see :func:`chat_warnings`)."""
    name, template = pick_template(tok, template_name)
    specials = special_tokens_map(tok)
    text = render_chat(template, messages, add_generation_prompt, specials)
    enc = tok.encode(text, add_special_tokens=add_special_tokens)
    warnings = chat_warnings(tok, text, enc, specials, add_special_tokens)
    return ChatEncoding(text, enc, warnings, name)


def special_contents(tok, specials: dict[str, Any] | None = None) -> dict[str, int]:
    """The special tokens' texts that should be one token each in a rendered chat -> their ids."""
    out: dict[str, int] = {t.content: t.id for t in tok.added_tokens if t.special and t.content}
    for value in (specials if specials is not None else special_tokens_map(tok)).values():
        for content in value if isinstance(value, list) else [value]:
            if isinstance(content, str) and content and content not in out:
                token_id = tok.token_to_id(content)
                if token_id is not None:
                    out[content] = token_id
    return out


def chat_warnings(
    tok, text: str, enc, specials: dict[str, Any], add_special_tokens: bool = False
) -> list[str]:
    """What looks wrong in a rendered and encoded conversation:

    - a special token's text in the rendered text that is not encoded as that token (split into pieces);
    - two BOS tokens in a row, or the BOS the template writes doubled by encoding with special tokens;
    - no BOS at all where the tokenizer adds one to plain text (apply_chat_template adds none);
    - more tokens than ``model_max_length``.
    """
    warnings: list[str] = []
    wanted = special_contents(tok, specials)
    found = {
        (s, e)
        for (s, e), i, c in zip(enc.offsets, enc.ids, enc.tokens)
        if c in wanted or i in wanted.values()
    }
    pattern = (
        re.compile("|".join(re.escape(c) for c in sorted(wanted, key=len, reverse=True))) if wanted else None
    )
    split_shown = 0
    for m in pattern.finditer(text) if pattern is not None else ():
        if (m.start(), m.end()) in found or any(s <= m.start() and m.end() <= e for s, e in found):
            continue
        pieces = [t for t, (s, e) in zip(enc.tokens, enc.offsets) if s < m.end() and e > m.start()]
        split_shown += 1
        if split_shown <= 5:
            warnings.append(
                f"special token {m.group()!r} at character {m.start()} is split into pieces "
                f"({' '.join(pieces[:8])}{' ...' if len(pieces) > 8 else ''}), not read as the special token"
            )
    if split_shown > 5:
        warnings.append(f"... and {split_shown - 5} more special tokens split into pieces")
    bos = specials.get("bos_token")
    bos_id = tok.token_to_id(bos) if isinstance(bos, str) else None
    if isinstance(bos, str) and bos_id is not None:
        ids = enc.ids
        doubled = next((i for i in range(len(ids) - 1) if ids[i] == bos_id == ids[i + 1]), None)
        if doubled is not None:
            warnings.append(f"two BOS tokens ({bos!r}) in a row at token {doubled}")
        adds = _adds_bos(tok, bos_id)
        starts = bool(ids) and ids[0] == bos_id
        if not add_special_tokens and adds and starts and text.startswith(bos):
            warnings.append(
                f"the template writes BOS ({bos!r}) and the tokenizer adds one when encoding with special tokens: "
                "encoding this text with them (tokenizer(text), llama.cpp's default) gives two BOS"
            )
        elif not add_special_tokens and adds and not starts:
            warnings.append(
                f"no BOS ({bos!r}): the template writes none and apply_chat_template adds no special tokens, "
                "though the tokenizer adds BOS to plain text"
            )
    limit = ((tok.extra or {}).get("model_config") or {}).get("model_max_length")
    if isinstance(limit, int) and len(enc.ids) > limit:
        warnings.append(f"{len(enc.ids):,} tokens, more than model_max_length ({limit:,})")
    return warnings


def _adds_bos(tok, bos_id: int) -> bool:
    """Whether ``encode(text, add_special_tokens=True)`` starts with BOS."""
    try:
        ids = tok.encode("a", add_special_tokens=True).ids
    except SubwordError:
        return False
    return bool(ids) and ids[0] == bos_id
