"""A Hugging Face model folder's settings beside its vocabulary: ``tokenizer_config.json``,
``special_tokens_map.json`` and the chat templates.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = Path(folder.name, CONFIG_FILE).write_text(json.dumps({"eos_token": "<|im_end|>",
    ...     "model_max_length": 131072, "chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"}))
    >>> config, messages = read_model_config(Path(folder.name))
    >>> config.named["eos_token"].content, config.model_max_length
    ('<|im_end|>', 131072)
    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> tok = drain(train_from_counts({"hug": 10}, TrainOptions("bpe", vocab_size=8)))
    >>> messages += apply_model_config(tok, config, has_tokenizer_json=True)
    >>> messages
    ["the model folder: eos_token '<|im_end|>' is not in the vocabulary: added as id 6, as transformers adds it"]
    >>> tok.extra["chat_template"][:20]
    '{% for m in messages'

What is read, as `transformers` 5 reads it (``PreTrainedTokenizerBase.from_pretrained``):

- ``added_tokens_decoder`` (``{"id": {"content", "lstrip", "rstrip", "normalized",
  "single_word", "special"}}``): each becomes an added token with those flags; its flags
  replace those ``tokenizer.json`` gave the same token;
- the named special tokens (``bos_token``, ``eos_token``, ``unk_token``, ``sep_token``,
  ``pad_token``, ``cls_token``, ``mask_token`` and any other ``*_token`` key holding a token,
  as a string or an ``AddedToken`` object) and ``additional_special_tokens`` /
  ``extra_special_tokens``: each is a special token matched whole in text; one missing from
  the vocabulary is added after it, as `transformers` adds it;
- ``special_tokens_map.json``: only when ``tokenizer_config.json`` has no
  ``added_tokens_decoder`` (transformers 5 reads it only then), its names override the config's;
- ``add_bos_token`` / ``add_eos_token``: with a ``tokenizer.json`` its post-processor decides
  (transformers 5 drops these keys then; a disagreement is one warning line); without one
  (a folder of ``tokenizer.model`` or ``vocab.json`` + ``merges.txt``) they become the
  post-processor: BOS/EOS added by ``encode(text, add_special_tokens=True)``;
- ``model_max_length``, ``split_special_tokens``, ``clean_up_tokenization_spaces`` (kept);
- the chat template: ``chat_template.jinja`` and ``additional_chat_templates/NAME.jinja``
  first, else the config's ``chat_template`` (a string, or a list of ``{"name", "template"}``).

The loaded tokenizer keeps it all in ``tok.extra``: ``chat_template`` (a string, or a dict
name -> template when there are several), ``special_tokens_map`` (name -> token text, what a
chat template is given as ``bos_token``...), and ``model_config`` (the rest, and the
config as read, which a save into a folder writes back).

A file that is too large, not JSON or holds the wrong types is one warning line and is
left out; the tokenizer opens without it. Leaves out: ``generation_config.json``,
``added_tokens.json`` (the legacy list), ``chat_template.json`` (a processor's, not the
tokenizer's), and ``tokenizer_class``'s own code (transformers 5 rebuilds some pipelines
from the vocabulary by class, e.g. ``GemmaTokenizer``; we read ``tokenizer.json`` as written).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.atomic import write_atomic
from core.tokenizer import AddedToken

CONFIG_FILE = "tokenizer_config.json"
SPECIAL_MAP_FILE = "special_tokens_map.json"
TEMPLATE_FILE = "chat_template.jinja"
TEMPLATES_FOLDER = "additional_chat_templates"
MAX_CONFIG_BYTES = 64 * 2**20  # a config lists a few thousand added tokens at most
MAX_TEMPLATE_BYTES = 4 * 2**20  # the longest published chat templates are ~20 kB
MAX_TEMPLATES = 64

# The named special tokens of `transformers` (SPECIAL_TOKENS_ATTRIBUTES), in its order.
NAMED_TOKENS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
_FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")


@dataclass(frozen=True)
class TokenSpec:
    """A token a config names, with the flags of its ``AddedToken`` (None: not given)."""

    content: str
    flags: dict[str, bool] = field(default_factory=dict)


@dataclass
class ModelConfig:
    """What a model folder says beside its vocabulary (see the module docstring)."""

    files: list[str] = field(default_factory=list)
    added: dict[int, TokenSpec] = field(default_factory=dict)  # added_tokens_decoder
    named: dict[str, TokenSpec] = field(default_factory=dict)  # bos_token, eos_token, image_token...
    extra_special: list[TokenSpec] = field(default_factory=list)
    add_bos: bool | None = None
    add_eos: bool | None = None
    model_max_length: int | None = None
    split_special_tokens: bool | None = None
    chat_template: str | dict[str, str] | None = None
    raw: dict[str, Any] = field(default_factory=dict)  # tokenizer_config.json as read


# -- reading ---------------------------------------------------------------------------------


def read_model_config(folder: Path) -> tuple[ModelConfig | None, list[str]]:
    """The settings in ``folder`` (None when it has none of the files), and one line per problem."""
    messages: list[str] = []
    config_path, map_path = folder / CONFIG_FILE, folder / SPECIAL_MAP_FILE
    raw = _read_json(config_path, messages)
    special_map = _read_json(map_path, messages)
    templates = _read_template_files(folder, messages)
    if raw is None and special_map is None and not templates:
        return None, messages
    config = ModelConfig(raw=dict(raw or {}))
    config.files = [p.name for p in (config_path, map_path) if p.is_file()]
    if raw is not None:
        _read_config(raw, config, str(config_path), messages)
    if special_map is not None:
        if raw is not None and "added_tokens_decoder" in raw:
            differ = [
                k
                for k, v in special_map.items()
                if k in config.named and _spec(v) is not None and _spec(v) != config.named[k]
            ]
            if differ:
                messages.append(
                    f"{map_path} differs from {CONFIG_FILE} on {', '.join(differ)}: as transformers 5, "
                    f"{CONFIG_FILE} (which has added_tokens_decoder) is followed"
                )
        else:
            _read_named(special_map, config, str(map_path), messages)
    if templates:
        config.files += [name for name in templates if name.endswith(".jinja")]
        named = {_template_name(name): text for name, text in templates.items()}
        config.chat_template = named["default"] if list(named) == ["default"] else named
    return config, messages


def _read_json(path: Path, messages: list[str]) -> dict | None:
    if not path.is_file():
        return None
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            messages.append(f"{path} is {size:,} bytes, more than a tokenizer's settings take: left out")
            return None
        text = path.read_bytes().decode("utf-8-sig")
        data = json.loads(text)
    except OSError as e:
        messages.append(f"cannot read {path}: {e.strerror or e}: left out")
        return None
    except UnicodeDecodeError as e:
        messages.append(f"{path} is not UTF-8 text (byte {e.start}): left out")
        return None
    except (json.JSONDecodeError, RecursionError) as e:
        where = (
            f" (line {e.lineno}, column {e.colno}: {e.msg})" if isinstance(e, json.JSONDecodeError) else ""
        )
        messages.append(f"{path} is not valid JSON{where}: left out")
        return None
    if not isinstance(data, dict):
        messages.append(f"{path} holds a JSON {type(data).__name__}, not an object: left out")
        return None
    return data


def _read_template_files(folder: Path, messages: list[str]) -> dict[str, str]:
    """``chat_template.jinja`` and ``additional_chat_templates/*.jinja``, by file name."""
    found: dict[str, str] = {}
    paths = [folder / TEMPLATE_FILE]
    extra = folder / TEMPLATES_FOLDER
    if extra.is_dir():
        paths += sorted(extra.glob("*.jinja"))[:MAX_TEMPLATES]
    for path in paths:
        if not path.is_file():
            continue
        try:
            if path.stat().st_size > MAX_TEMPLATE_BYTES:
                messages.append(f"{path} is larger than {MAX_TEMPLATE_BYTES:,} bytes: left out")
                continue
            text = path.read_bytes().decode("utf-8-sig")
        except OSError as e:
            messages.append(f"cannot read {path}: {e.strerror or e}: left out")
            continue
        except UnicodeDecodeError as e:
            messages.append(f"{path} is not UTF-8 text (byte {e.start}): left out")
            continue
        key = path.name if path.parent == folder else f"{TEMPLATES_FOLDER}/{path.name}"
        found[key] = text
    return found


def _template_name(file_name: str) -> str:
    """``chat_template.jinja`` -> ``default``; ``additional_chat_templates/tool_use.jinja`` -> ``tool_use``."""
    if file_name == TEMPLATE_FILE:
        return "default"
    return file_name.rsplit("/", 1)[-1].removesuffix(".jinja")


def _read_config(raw: dict, config: ModelConfig, src: str, messages: list[str]) -> None:
    added = raw.get("added_tokens_decoder")
    if added is not None:
        if not isinstance(added, dict):
            messages.append(f"{src}: added_tokens_decoder is not an object of id -> token: left out")
        else:
            for key, value in added.items():
                spec = _spec(value)
                try:
                    token_id = int(key)
                except ValueError:
                    token_id = -1
                if spec is None or token_id < 0:
                    messages.append(f"{src}: added_tokens_decoder entry {key!r} is not id -> token: left out")
                    continue
                config.added[token_id] = spec
    _read_named(raw, config, src, messages)
    for key in ("add_bos_token", "add_eos_token", "split_special_tokens"):
        value = raw.get(key)
        if value is not None and not isinstance(value, bool):
            messages.append(f"{src}: {key} is {value!r}, not true or false: left out")
            continue
        if key == "add_bos_token":
            config.add_bos = value
        elif key == "add_eos_token":
            config.add_eos = value
        else:
            config.split_special_tokens = value
    length = raw.get("model_max_length")
    if isinstance(length, (int, float)) and not isinstance(length, bool) and length > 0:
        # transformers writes 1e30 (VERY_LARGE_INTEGER) for "no limit"
        config.model_max_length = int(length) if length < 1e18 else None
    elif length is not None:
        messages.append(f"{src}: model_max_length is {length!r}, not a positive number: left out")
    template = raw.get("chat_template")
    if template is not None:
        config.chat_template = _config_template(template, src, messages)


def _read_named(raw: dict, config: ModelConfig, src: str, messages: list[str]) -> None:
    """The ``*_token`` keys holding a token, and the extra special tokens."""
    for key, value in raw.items():
        if not key.endswith("_token") or key.startswith("add_") or value is None:
            continue
        if isinstance(value, (str, dict)):
            spec = _spec(value)
            if spec is None:
                messages.append(f"{src}: {key} is not a token: left out")
            else:
                config.named[key] = spec
    for key in ("additional_special_tokens", "extra_special_tokens"):
        value = raw.get(key)
        if isinstance(value, dict):  # transformers 5: name -> token, as more named tokens
            value = {k: v for k, v in value.items() if isinstance(k, str)}
            _read_named(
                {k if k.endswith("_token") else f"{k}_token": v for k, v in value.items()},
                config,
                src,
                messages,
            )
        elif isinstance(value, list):
            for item in value:
                spec = _spec(item)
                if spec is None:
                    messages.append(f"{src}: {key} holds {item!r}, which is not a token: left out")
                elif spec not in config.extra_special:
                    config.extra_special.append(spec)
        elif value is not None:
            messages.append(f"{src}: {key} is not a list of tokens: left out")


def _spec(value: Any) -> TokenSpec | None:
    """A token as a config writes it: ``"<s>"`` or ``{"content": "<s>", "lstrip": false, ...}``."""
    if isinstance(value, str):
        return TokenSpec(value) if value else None
    if isinstance(value, dict) and isinstance(value.get("content"), str) and value["content"]:
        flags = {k: value[k] for k in _FLAGS if isinstance(value.get(k), bool)}
        return TokenSpec(value["content"], flags)
    return None


def _config_template(template: Any, src: str, messages: list[str]) -> str | dict[str, str] | None:
    if isinstance(template, str):
        return template
    if isinstance(template, list):
        # [{"name": "default", "template": "..."}, ...]: how transformers saves several
        named: dict[str, str] = {}
        for item in template[:MAX_TEMPLATES]:
            if (
                isinstance(item, dict)
                and isinstance(item.get("name"), str)
                and isinstance(item.get("template"), str)
            ):
                named[item["name"]] = item["template"]
            else:
                messages.append(f"{src}: a chat_template entry is not {{name, template}}: left out")
        return named or None
    messages.append(f"{src}: chat_template is a {type(template).__name__}, not a template: left out")
    return None


# -- applying --------------------------------------------------------------------------------


def apply_model_config(tok, config: ModelConfig, has_tokenizer_json: bool, source: str = "") -> list[str]:
    """Apply ``config`` to ``tok`` as transformers' fast tokenizer would; what to tell the user."""
    messages: list[str] = []
    where = source or "the model folder"
    for token_id, spec in sorted(config.added.items()):
        _add(tok, spec, token_id, special_default=False, where=where, messages=messages)
    named_special = list(config.named.items()) + [(None, s) for s in config.extra_special]
    for name, spec in named_special:
        _add(tok, spec, None, special_default=True, where=where, messages=messages, name=name)
    if config.split_special_tokens:
        tok.encode_special_tokens = True
    special_map = {name: spec.content for name, spec in config.named.items()}
    if config.extra_special:
        special_map["additional_special_tokens"] = [s.content for s in config.extra_special]  # type: ignore[assignment]
    messages += _bos_eos(tok, config, has_tokenizer_json, where)
    tok.extra["special_tokens_map"] = special_map
    if config.chat_template is not None:
        tok.extra["chat_template"] = config.chat_template
    tok.extra["model_config"] = {
        "files": list(config.files),
        "add_bos_token": config.add_bos,
        "add_eos_token": config.add_eos,
        "model_max_length": config.model_max_length,
        "split_special_tokens": config.split_special_tokens,
        "tokenizer_config": config.raw,
    }
    return messages


def _add(
    tok,
    spec: TokenSpec,
    token_id: int | None,
    special_default: bool,
    where: str,
    messages: list[str],
    name: str | None = None,
) -> None:
    """Make ``spec`` an added token of ``tok`` (as tokenizers' ``add_tokens`` does: the vocabulary's
    id for a token it has, else the given id, else the next free one)."""
    existing = next((t for t in tok.added_tokens if t.content == spec.content), None)
    in_vocab = tok.model.token_to_id(spec.content)
    if name is not None or token_id is None:
        # a named special token: an added token already there only becomes special
        if existing is not None:
            if not existing.special:
                tok.add_token(existing._replace(special=True))
            return
    flags = dict(spec.flags)
    special = flags.pop("special", special_default)
    if "normalized" not in flags:
        flags["normalized"] = not special
    if existing is not None:
        new_id = existing.id
    elif in_vocab is not None:
        new_id = in_vocab
    elif token_id is not None and tok.id_to_token(token_id) is None:
        new_id = token_id
    else:
        new_id = _next_id(tok)
        what = f"{name} {spec.content!r}" if name else f"added token {spec.content!r}"
        if token_id is not None:
            messages.append(
                f"{where}: {what} has id {token_id}, which {tok.id_to_token(token_id)!r} holds: added as id {new_id}"
            )
        else:
            messages.append(
                f"{where}: {what} is not in the vocabulary: added as id {new_id}, as transformers adds it"
            )
    if token_id is not None and new_id != token_id and (existing is not None or in_vocab is not None):
        messages.append(
            f"{where}: added token {spec.content!r} has id {token_id} in {CONFIG_FILE} but {new_id} in the vocabulary: "
            f"id {new_id} is used"
        )
    tok.add_token(AddedToken(spec.content, new_id, special=special, **flags))


def _next_id(tok) -> int:
    return max(tok.get_vocab().values(), default=-1) + 1


def template_post_processor(before: list[tuple[str, int]], after: list[tuple[str, int]]) -> dict | None:
    """A `tokenizers` TemplateProcessing that puts ``before`` and ``after`` around a sequence.

    >>> template_post_processor([("<s>", 1)], [])["single"][0]
    {'SpecialToken': {'id': '<s>', 'type_id': 0}}
    """
    if not before and not after:
        return None

    def piece(token: str) -> dict:
        return {"SpecialToken": {"id": token, "type_id": 0}}

    def sequence(name: str, type_id: int) -> dict:
        return {"Sequence": {"id": name, "type_id": type_id}}

    around = [*(piece(t) for t, _ in before), None, *(piece(t) for t, _ in after)]
    single = [sequence("A", 0) if p is None else p for p in around]
    pair = single + [sequence("B", 1) if p is None else p for p in around]
    specials = {t: {"id": t, "ids": [i], "tokens": [t]} for t, i in before + after}
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": specials}


def _bos_eos(tok, config: ModelConfig, has_tokenizer_json: bool, where: str) -> list[str]:
    """``add_bos_token``/``add_eos_token``: the post-processor without tokenizer.json, a check with it."""
    if config.add_bos is None and config.add_eos is None:
        return []
    wanted = {"bos": bool(config.add_bos), "eos": bool(config.add_eos)}
    ids = {
        kind: tok.token_to_id(config.named[f"{kind}_token"].content)
        if f"{kind}_token" in config.named
        else None
        for kind in ("bos", "eos")
    }
    if not has_tokenizer_json:
        before = (
            [(config.named["bos_token"].content, ids["bos"])]
            if wanted["bos"] and ids["bos"] is not None
            else []
        )
        after = (
            [(config.named["eos_token"].content, ids["eos"])]
            if wanted["eos"] and ids["eos"] is not None
            else []
        )
        tok.post_processor = template_post_processor(before, after)
        return []
    probe = tok.encode("a", add_special_tokens=True).ids
    has = {"bos": bool(probe) and probe[0] == ids["bos"], "eos": bool(probe) and probe[-1] == ids["eos"]}
    out = []
    for kind, key in (("bos", "add_bos_token"), ("eos", "add_eos_token")):
        given = config.add_bos if kind == "bos" else config.add_eos
        if given is None or ids[kind] is None or given == has[kind]:
            continue
        does = "adds" if has[kind] else "adds no"
        out.append(
            f"{where}: {CONFIG_FILE} sets {key}={str(given).lower()} but tokenizer.json's post-processor "
            f"{does} {kind.upper()}: encoding follows tokenizer.json, as tokenizers and transformers 5 do "
            "(transformers 4's Llama and Gemma tokenizers follow the config)"
        )
    return out


# -- writing -----------------------------------------------------------------------------------


def config_to_dict(tok) -> dict | None:
    """The ``tokenizer_config.json`` of ``tok``, or None when it has nothing to say.

    Starts from the config it was opened with (keys we do not read are kept), and writes what
    the tokenizer holds now: its added tokens with their flags, the named special tokens, the
    chat template(s); a GGUF's template and BOS/EOS become the same keys.
    """
    extra = tok.extra or {}
    template = extra.get("chat_template")
    special_map = extra.get("special_tokens_map") or _gguf_special_map(tok)
    model_config = extra.get("model_config") or {}
    if template is None and not special_map and not model_config:
        return None
    out: dict[str, Any] = dict(model_config.get("tokenizer_config") or {})
    out["added_tokens_decoder"] = {
        str(t.id): {"content": t.content, **{k: getattr(t, k) for k in _FLAGS}}
        for t in sorted(tok.added_tokens, key=lambda t: t.id)
    }
    for name, content in special_map.items():
        out[name] = content
    gguf = extra.get("gguf") or {}
    for key, value in (
        ("add_bos_token", model_config.get("add_bos_token", gguf.get("add_bos"))),
        ("add_eos_token", model_config.get("add_eos_token", gguf.get("add_eos"))),
        ("model_max_length", model_config.get("model_max_length")),
    ):
        if value is not None:
            out[key] = value
    if isinstance(template, dict):
        out["chat_template"] = [{"name": k, "template": v} for k, v in template.items()]
    elif isinstance(template, str):
        out["chat_template"] = template
    out.setdefault("tokenizer_class", "PreTrainedTokenizerFast")
    return out


def _gguf_special_map(tok) -> dict[str, str]:
    ids = ((tok.extra or {}).get("gguf") or {}).get("special_ids") or {}
    out = {}
    for kind, token_id in ids.items():
        content = tok.id_to_token(token_id) if isinstance(token_id, int) else None
        if content is not None:
            out[f"{kind}_token"] = content
    return out


def save_model_config(tok, folder: Path) -> bool:
    """Write ``folder/tokenizer_config.json`` when ``tok`` has settings for it; whether it did."""
    config = config_to_dict(tok)
    if config is None:
        return False
    write_atomic(folder / CONFIG_FILE, json.dumps(config, ensure_ascii=False, indent=2) + "\n")
    return True


def model_config_losses(tok, target: str) -> list[str]:
    """What a target that cannot hold ``tokenizer_config.json`` loses of it (one line, or none)."""
    extra = tok.extra or {}
    lost = []
    if extra.get("chat_template") is not None:
        lost.append("the chat template")
    model_config = extra.get("model_config") or {}
    if model_config.get("model_max_length") is not None:
        lost.append("model_max_length")
    if extra.get("special_tokens_map"):
        lost.append("the special tokens' names (bos_token, eos_token...)")
    if not lost:
        return []
    return [
        f"{target}: {', '.join(lost)} of {CONFIG_FILE} are not kept (save into a folder to write {CONFIG_FILE})"
    ]
