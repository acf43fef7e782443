"""Hugging Face ``tokenizer.json``: read and write the whole pipeline.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> tok = drain(train_from_counts({"철수는": 3, "철수": 2}, TrainOptions("bpe", vocab_size=8)))
    >>> save_tokenizer_json(tok, Path(folder.name, "tokenizer.json"))
    >>> load_tokenizer_json(Path(folder.name, "tokenizer.json")).encode("철수는").ids == tok.encode("철수는").ids
    True

The file is one JSON object::

    {"version": "1.0", "truncation": ..., "padding": ..., "added_tokens": [...],
     "normalizer": {...}|null, "pre_tokenizer": {...}|null, "post_processor": ...,
     "decoder": {...}|null, "model": {"type": "BPE"|"WordPiece"|"Unigram", ...}}

Steps of loading:
1. parse the JSON (a truncated or non-JSON file is a :class:`FormatError`);
2. check the model's vocabulary (duplicate tokens, duplicate ids, merges whose
   parts are missing) *before* building anything, so the error names the problem;
3. build normalizer, pre-tokenizer and decoder through the registries of
   ``core.normalizers``, ``core.pre_tokenizers`` and ``core.decoders``; a
   component type we do not implement is an error naming it, because it would
   change the encoding;
4. build the model its ``"type"`` names (``core.models.factory``, then ``from_dict``);
5. keep the post-processor verbatim (``tok.post_processor``): ByteLevel, Template,
   Bert, Roberta and Sequence ones are applied (their special tokens only with
   ``encode(text, add_special_tokens=True)``); truncation and padding are kept but
   not applied; ``tok.extra["warnings"]`` names anything that makes our encodings
   differ from ``tokenizers``'.

A loaded tokenizer's ``extra`` holds: ``warnings`` (list of messages), ``source``
(the path), ``version``, ``truncation`` and ``padding`` (verbatim), and for the
round trip ``unknown_decoder`` and ``unknown_keys`` when the file had them.

Leaves out: ``"version"`` other than ``1.0`` is read as is.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from core.atomic import write_atomic
from core.decoders import decoder_from_dict
from core.encoding import Encoding
from core.errors import ConfigError, FormatError
from core.formats.json_text import dumps_indented
from core.limits import MAX_COMPONENT_DEPTH, check_json_depth, check_token_id, loads_json
from core.models import factory
from core.normalizers import normalizer_from_dict
from core.pre_tokenizers import NoSplit, pre_tokenizer_from_dict
from core.tokenizer import AddedToken, Tokenizer, post_process, unsupported_post_processor

_KNOWN_KEYS = (
    "version",
    "truncation",
    "padding",
    "added_tokens",
    "normalizer",
    "pre_tokenizer",
    "post_processor",
    "decoder",
    "model",
)


def model_class(kind: str, source: str = "tokenizer.json"):
    """The class of a model ``"type"`` (``core.models.factory``); a clear error if unknown or not installed."""
    if kind not in factory.MODELS:
        raise FormatError(
            f"{source} uses model {kind!r}, which Subword Explorer does not implement "
            f"(supported: {', '.join(factory.MODELS)})"
        )
    try:
        return factory.model_class(kind)
    except (ImportError, AttributeError) as e:  # pragma: no cover - only while a model is missing
        raise FormatError(f"{source} uses model {kind!r}, which is not available in this build ({e})") from e


# -- writing ----------------------------------------------------------------------


def tokenizer_to_dict(tok: Tokenizer) -> dict:
    """The whole pipeline as a ``tokenizer.json`` dict (key order as `tokenizers` writes it)."""
    pre = tok.pre_tokenizer
    extra = tok.extra or {}
    decoder = _part_dict("decoder", tok.decoder)
    if decoder is None:
        decoder = extra.get("unknown_decoder")
    return {
        "version": extra.get("version", "1.0"),
        "truncation": extra.get("truncation"),
        "padding": extra.get("padding"),
        "added_tokens": [t.to_dict() for t in sorted(tok.added_tokens, key=lambda t: t.id)],
        "normalizer": _part_dict("normalizer", tok.normalizer),
        "pre_tokenizer": None if isinstance(pre, NoSplit) else _part_dict("pre-tokenizer", pre),
        "post_processor": tok.post_processor,
        "decoder": decoder,
        "model": _part_dict("model", tok.model),
        **{k: v for k, v in (extra.get("unknown_keys") or {}).items()},
    }


def _part_dict(what: str, part) -> dict | None:
    """``part.to_dict()``, or a clear error if this part has no tokenizer.json form."""
    if part is None:
        return None
    to_dict = getattr(part, "to_dict", None)
    try:
        d = to_dict() if to_dict is not None else None
    except (NotImplementedError, ConfigError) as e:
        raise FormatError(
            f"cannot write a tokenizer.json: the {what} {part!r} has no tokenizer.json form ({e})"
        ) from e
    if not isinstance(d, dict) or "type" not in d:
        raise FormatError(f"cannot write a tokenizer.json: the {what} {part!r} has no tokenizer.json form")
    return d


def save_tokenizer_json(tok: Tokenizer, path: str | os.PathLike) -> None:
    """Write ``tok`` to ``path`` atomically: an existing file is replaced only once the new one is complete."""
    path = Path(path)
    # (what json.dumps(..., ensure_ascii=False, indent=2) writes, in about a third of its time)
    data = dumps_indented(tokenizer_to_dict(tok))
    write_atomic(path, data)


# -- reading ----------------------------------------------------------------------


def load_tokenizer_json(path: str | os.PathLike) -> Tokenizer:
    """Read a ``tokenizer.json``; any problem is one :class:`FormatError` naming the file."""
    path = Path(path)
    name = str(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise FormatError(f"cannot read {name}: {e.strerror or e}") from e
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FormatError(f"{name} is not a tokenizer.json: not UTF-8 text (byte {e.start})") from e
    try:
        d = loads_json(text, name, object_pairs_hook=_pairs_no_duplicates)
    except _DuplicateKey as e:
        raise FormatError(f"{name} is not a valid tokenizer.json: key {e.args[0]!r} appears twice") from e
    except json.JSONDecodeError as e:
        what = "truncated" if e.pos >= len(text.rstrip()) else "not valid JSON"
        raise FormatError(f"{name} is {what} (line {e.lineno}, column {e.colno}: {e.msg})") from e
    return tokenizer_from_dict(d, source=name)


class _DuplicateKey(ValueError):
    pass


def _pairs_no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    # subtle: json.loads silently keeps the last of two equal keys; in a vocab that
    # would drop a token, so a repeated key is an error.
    d: dict = {}
    for k, v in pairs:
        if k in d:
            raise _DuplicateKey(k)
        d[k] = v
    return d


def tokenizer_from_dict(d: dict, source: str | None = None) -> Tokenizer:
    """Build a :class:`Tokenizer` from a parsed ``tokenizer.json``."""
    src = source or "tokenizer.json"
    if not isinstance(d, dict):
        raise FormatError(f"{src} is not a tokenizer.json: expected a JSON object, found {type(d).__name__}")
    model_d = d.get("model")
    if not isinstance(model_d, dict) or "type" not in model_d and not _guess_model_type(model_d):
        raise FormatError(f'{src} is not a tokenizer.json: it has no "model" with a "type"')
    kind = model_d.get("type") or _guess_model_type(model_d)
    model_d = dict(model_d, type=kind)
    if kind not in factory.MODELS:
        model_class(kind, src)  # raises the "does not implement" error
    _check_model(model_d, src)
    added = _added_tokens(d.get("added_tokens") or [], src)
    for key in ("normalizer", "pre_tokenizer", "decoder", "post_processor"):
        # (a Sequence 450 deep loads, then every encode ends in a RecursionError)
        check_json_depth(d.get(key), MAX_COMPONENT_DEPTH, f"its {key}", src)

    normalizer = _component("normalizer", normalizer_from_dict, d.get("normalizer"), src)
    pre_tokenizer = _component("pre-tokenizer", pre_tokenizer_from_dict, d.get("pre_tokenizer"), src)
    decoder = _component("decoder", decoder_from_dict, d.get("decoder"), src, fatal=False)
    warnings: list[str] = []
    unknown_decoder = None
    if isinstance(decoder, str):  # an unknown decoder only changes decode(): keep it, say so
        warnings.append(decoder)
        decoder, unknown_decoder = None, d.get("decoder")

    cls = model_class(kind, src)
    try:
        model = cls.from_dict(model_d)
    except FormatError as e:
        if src in str(e):
            raise
        raise FormatError(f"{src}: {e}") from e
    except (ConfigError, ValueError, KeyError, TypeError, IndexError) as e:
        raise FormatError(f"{src}: its {kind} model cannot be read: {e}") from e

    _check_added_against_vocab(added, model, src)

    post = d.get("post_processor")
    if post is not None and not isinstance(post, dict):
        raise FormatError(f"{src}: its post-processor must be a JSON object or null")
    bad_post = unsupported_post_processor(post)
    if bad_post is not None:
        warnings.append(
            f"{src} has post-processor {bad_post!r}, which Subword Explorer keeps but does not apply: "
            "encodings here lack whatever it adds or changes"
        )
    elif post is not None:
        try:
            post_process(post, Encoding(), True)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise FormatError(
                f"{src}: its post-processor ({post.get('type')!r}) cannot be read: {e!r}"
            ) from e
    for key in ("truncation", "padding"):
        if d.get(key) is not None:
            warnings.append(f"{src} sets {key}, which Subword Explorer keeps but does not apply")

    extra: dict[str, Any] = {
        "version": d.get("version", "1.0"),
        "truncation": d.get("truncation"),
        "padding": d.get("padding"),
        "warnings": warnings,
        "source": source,
    }
    if unknown_decoder is not None:
        extra["unknown_decoder"] = unknown_decoder
    unknown = {k: v for k, v in d.items() if k not in _KNOWN_KEYS}
    if unknown:
        extra["unknown_keys"] = unknown
    return Tokenizer(
        model,
        normalizer=normalizer,
        pre_tokenizer=pre_tokenizer,
        decoder=decoder,
        added_tokens=added,
        post_processor=post,
        extra=extra,
    )


def _guess_model_type(model_d: dict) -> str | None:
    """Old files (tokenizers < 0.9) have no model "type"; guess it from the fields, as tokenizers does."""
    if not isinstance(model_d, dict):
        return None
    if "merges" in model_d:
        return "BPE"
    if isinstance(model_d.get("vocab"), list):
        return "Unigram"
    if "continuing_subword_prefix" in model_d or "max_input_chars_per_word" in model_d:
        return "WordPiece"
    return None


def _component(what: str, build, d, src: str, fatal: bool = True):
    if d is None:
        return None
    if not isinstance(d, dict):
        raise FormatError(f"{src}: its {what} must be a JSON object or null, not {type(d).__name__}")
    try:
        return build(d)
    except FormatError as e:
        if src in str(e):
            raise
        raise FormatError(f"{src}: its {what}: {e}") from e
    except ConfigError as e:
        kind = _unknown_type(d, build)
        if kind is not None:
            msg = f"{src} uses {what} {kind!r}, which Subword Explorer does not implement"
            if fatal:
                raise FormatError(
                    msg + " (it changes how text is cut, so the file cannot be used as is)"
                ) from e
            return msg + "; decode() joins tokens without it"
        raise FormatError(f"{src}: its {what} cannot be read: {e}") from e
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise FormatError(f"{src}: its {what} ({d.get('type')!r}) cannot be read: {e!r}") from e


def _unknown_type(d: dict, build) -> str | None:
    """The first ``"type"`` in a (possibly nested) component that its registry does not know."""
    kind = d.get("type")
    if kind == "Sequence":
        for key in ("normalizers", "pretokenizers", "pre_tokenizers", "decoders"):
            for sub in d.get(key) or []:
                if isinstance(sub, dict):
                    try:
                        build(sub)
                    except ConfigError:
                        found = _unknown_type(sub, build)
                        if found:
                            return found
        return None
    try:
        build(d)
    except ConfigError as e:
        if str(e).startswith("unsupported"):  # the registries' "unsupported X type 'Foo'"
            return kind
    return None


def _check_model(model_d: dict, src: str) -> None:
    """Vocabulary sanity checks, with messages naming the offending entries."""
    kind = model_d["type"]
    vocab = model_d.get("vocab")
    if kind in ("BPE", "WordPiece", "WordLevel", "PickyBPE"):
        if not isinstance(vocab, dict):
            raise FormatError(f'{src}: its {kind} model has no "vocab" object of token -> id')
        seen: dict[int, str] = {}
        for token, i in vocab.items():
            if not isinstance(i, int) or isinstance(i, bool) or i < 0:
                raise FormatError(f"{src}: token {token!r} has id {i!r}, not a whole number >= 0")
            check_token_id(i, f"the id of token {token!r}", src)
            if i in seen:
                raise FormatError(f"{src}: duplicate id {i}: tokens {seen[i]!r} and {token!r} share it")
            seen[i] = token
    if kind == "BPE":
        merges = model_d.get("merges") or []
        if not isinstance(merges, list):
            raise FormatError(f'{src}: its BPE "merges" must be a list')
        for n, m in enumerate(merges, 1):
            if isinstance(m, str):
                parts = m.split(" ")
            elif isinstance(m, list):
                parts = m
            else:
                parts = None
            if parts is None or len(parts) != 2 or not all(isinstance(p, str) for p in parts):
                raise FormatError(f"{src}: merge {n} ({m!r}) is not a pair of tokens")
            a, b = parts
            for p in (a, b):
                if p not in vocab:
                    raise FormatError(
                        f"{src}: merge {n} ({a!r} + {b!r}) uses {p!r}, which is not in the vocab"
                    )
            # as tokenizers builds it: the continuing prefix of the right part is dropped
            merged = a + b[len(model_d.get("continuing_subword_prefix") or "") :]
            if merged not in vocab:
                raise FormatError(
                    f"{src}: merge {n} ({a!r} + {b!r}) makes {merged!r}, which is not in the vocab"
                )
    if kind == "Unigram":
        if not isinstance(vocab, list):
            raise FormatError(f'{src}: its Unigram model has no "vocab" list of [piece, score]')
        seen_p: set[str] = set()
        for n, entry in enumerate(vocab):
            if not (
                isinstance(entry, list)
                and len(entry) == 2
                and isinstance(entry[0], str)
                and isinstance(entry[1], (int, float))
            ):
                raise FormatError(f"{src}: Unigram vocab entry {n} ({entry!r}) is not [piece, score]")
            if not _finite(entry[1]):  # (json reads NaN, Infinity and 1e400; `tokenizers` refuses them)
                raise FormatError(
                    f"{src}: Unigram piece {entry[0]!r} has score {entry[1]}, not a finite number"
                )
            if entry[0] in seen_p:
                raise FormatError(f"{src}: piece {entry[0]!r} appears twice in the Unigram vocab")
            seen_p.add(entry[0])
        unk = model_d.get("unk_id")
        if unk is not None and not (isinstance(unk, int) and 0 <= unk < len(vocab)):
            raise FormatError(f"{src}: unk_id {unk!r} is outside the vocab (size {len(vocab)})")


def _finite(x: float) -> bool:
    """``_finite(1e400) -> False`` (json reads it as inf), ``_finite(10**400) -> False`` too."""
    try:
        return math.isfinite(x)
    except OverflowError:  # an int past a float's range
        return False


def _added_tokens(items: list, src: str) -> list[AddedToken]:
    if not isinstance(items, list):
        raise FormatError(f'{src}: "added_tokens" must be a list')
    out: list[AddedToken] = []
    ids: dict[int, str] = {}
    for n, t in enumerate(items):
        if (
            not isinstance(t, dict)
            or not isinstance(t.get("content"), str)
            or not isinstance(t.get("id"), int)
            or isinstance(t.get("id"), bool)
            or t["id"] < 0
        ):
            raise FormatError(f'{src}: added token {n} ({t!r}) needs a "content" string and an "id" >= 0')
        check_token_id(t["id"], f"the id of added token {t['content']!r}", src)
        if t["id"] in ids and ids[t["id"]] != t["content"]:
            raise FormatError(
                f"{src}: duplicate id {t['id']}: added tokens {ids[t['id']]!r} and {t['content']!r}"
            )
        ids[t["id"]] = t["content"]
        out.append(
            AddedToken(
                t["content"],
                t["id"],
                special=bool(t.get("special", False)),
                normalized=bool(t.get("normalized", not t.get("special", False))),
                single_word=bool(t.get("single_word", False)),
                lstrip=bool(t.get("lstrip", False)),
                rstrip=bool(t.get("rstrip", False)),
            )
        )
    return out


def _check_added_against_vocab(added: list[AddedToken], model, src: str) -> None:
    for t in added:
        owner = model.id_to_token(t.id)
        if owner is not None and owner != t.content:
            raise FormatError(
                f"{src}: duplicate id {t.id}: added token {t.content!r} and vocab token {owner!r} share it"
            )


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    path = folder / "tokenizer.json"
    return path if path.is_file() else None


def sniff(head) -> bool:
    """A file that starts as a JSON object (after a byte-order mark or white space)."""
    return head.stripped.startswith(b"{")


def open_file(path: Path, pattern: str | None = None):
    """``pattern`` is unused: tokenizer.json stores its pre-tokenizer."""
    from core.formats.common import LoadedTokenizer

    tok = load_tokenizer_json(path)
    return LoadedTokenizer(tok, "hf-json", path, list(tok.extra.get("warnings") or []))


def save_file(tok, path: Path, record=None) -> list[str]:
    from core.formats.common import file_in, source_losses
    from core.formats.hf_compat import hf_compatible

    portable, losses = hf_compatible(tok)  # our analyser and jamo steps have no tokenizers type
    save_tokenizer_json(portable, file_in(path, "tokenizer.json"))
    losses += source_losses(tok, "tokenizer.json")
    if "tiktoken" in (tok.extra or {}):
        losses.append("tokenizer.json: tiktoken ranks become a BPE with merges derived from the ranks")
    return losses
