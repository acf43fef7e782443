"""Mistral ``tekken.json`` documents built by hand: the 256 byte ranks and the config the format
tests share (each test changes what it is about)."""

from __future__ import annotations

import base64
import json


def tekken_document(
    n_special: int = 2,
    specials: list[str] | None = None,
    merged: list[bytes] | None = None,
    pattern=r"\S+|\s+",
    vocab_size: int | None = None,
    version: str = "v13",
) -> dict:
    """``n_special`` ids for special tokens (``specials`` listed, ``["<unk>"]`` by default), then the
    256 single bytes and the ``merged`` tokens as ranks; ``vocab_size`` defaults to all of them."""
    tokens = [bytes([b]) for b in range(256)] + list(merged or [])
    specials = ["<unk>"] if specials is None else specials
    return {
        "config": {
            "pattern": pattern,
            "default_vocab_size": n_special + len(tokens) if vocab_size is None else vocab_size,
            "default_num_special_tokens": n_special,
            "version": version,
        },
        "vocab": [{"rank": r, "token_bytes": base64.b64encode(t).decode()} for r, t in enumerate(tokens)],
        "special_tokens": [{"rank": i, "token_str": s, "is_control": True} for i, s in enumerate(specials)],
    }


def write_tekken(path, document: dict | None = None, **options):
    """``path`` holding ``document`` (else :func:`tekken_document` of ``options``) as JSON."""
    path.write_text(json.dumps(document or tekken_document(**options)), encoding="utf-8")
    return path
