"""Stand-ins for our own pipeline parts when a ``tokenizer.json`` must load in `tokenizers`.

Three parts of the Korean and Japanese pipeline have no `tokenizers` type, nor has one model:

- ``MorphemeSplit`` (``ko-morph``/``ja-morph``): an analyser cannot be held in a
  JSON file; the stand-in is the Metaspace cutting it adds its cuts to;
- ``Jamo``: the stand-in is NFD, which decomposes Hangul syllables identically
  (same jamo, same offsets) but also every other character with a canonical decomposition
  (accented letters, kana with a voicing mark);
- ``JamoCompose``: `tokenizers` has no decoder that recomposes; it is dropped;
- ``PickyBPE``: a BPE cannot remove a token its merges made; the stand-in is the plain BPE of
  the same merges, with the removed tokens after the vocabulary (``PickyBPE.as_plain_bpe``).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> tok = drain(train_from_counts({"철수는": 3, "먹고": 2}, TrainOptions("bpe", vocab_size=30, normalizer="jamo")))
    >>> portable, losses = hf_compatible(tok)
    >>> portable.normalizer, losses[0]
    (NFD(), 'tokenizer.json has no jamo normalizer: NFD is written instead, ...')

Our own files (the CLI's output folder, a saved project) keep the exact parts;
only an export *for* `tokenizers` uses the stand-ins.
"""

from __future__ import annotations

import copy
import sys

from core import decoders, normalizers
from core.pre_tokenizers import Metaspace
from core.pre_tokenizers import Sequence as PreSequence


def hf_compatible(tok):
    """``(a copy of tok with stand-ins, what they lose)``; ``tok`` itself when nothing is ours."""
    losses: list[str] = []
    normalizer = _normalizer(tok.normalizer, losses)
    pre = _pre_tokenizer(tok.pre_tokenizer, losses)
    decoder = _decoder(tok.decoder, losses)
    model = _model(tok.model, losses)
    if not losses and model is tok.model:
        return tok, []
    out = copy.copy(tok)
    out.normalizer, out.pre_tokenizer, out.decoder, out.model = normalizer, pre, decoder, model
    return out, losses


def _model(m, losses: list[str]):
    """A model that declares a plain-BPE stand-in (``as_plain_bpe``) gets it, and what it loses."""
    stand_in = m.as_plain_bpe()
    if stand_in is None:
        return m
    plain, removed = stand_in
    if removed or m.removals:
        shown = ", ".join(map(repr, removed[:5])) + (", ..." if len(removed) > 5 else "")
        losses.append(
            f"tokenizer.json's BPE cannot remove tokens: the {len(removed):,} tokens PickyBPE removed "
            f"for good ({shown}) are written after the vocabulary (ids {len(m.vocab):,} and up) because "
            "its merges make them, and Hugging Face tokenizers never removes a token, so its tokens "
            "differ from Subword Explorer's in words whose merges pass through a token PickyBPE "
            f"removed ({len(m.removals):,} removals); the tokenizer.json `subword train` wrote keeps them"
        )
    return plain


def _normalizer(n, losses: list[str]):
    if isinstance(n, normalizers.Jamo):
        losses.append(
            "tokenizer.json has no jamo normalizer: NFD is written instead, which splits Hangul "
            "syllables the same way but also every other character with a canonical decomposition "
            "(é -> e + U+0301, で -> て + U+3099), so words with such characters encode differently"
        )
        return normalizers.NFD()
    if isinstance(n, normalizers.ClipCleaning):
        losses.append(
            "tokenizer.json has no HTML-unescaping step: CLIP's cleaning is written as NFC, white space "
            "collapsed, stripped and lower-cased (as Hugging Face's own CLIP files), so '&amp;' stays as is"
        )
        return normalizers.Sequence(
            [
                normalizers.NFC(),
                normalizers.Replace({"Regex": r"\s+"}, " "),
                normalizers.Strip(),
                normalizers.Lowercase(),
            ]
        )
    if isinstance(n, normalizers.Sequence):
        return normalizers.Sequence([_normalizer(x, losses) for x in n.normalizers])
    return n


def _pre_tokenizer(p, losses: list[str]):
    # subtle: a MorphemeSplit exists only once core.morphemes is imported, so a pipeline without
    # one does not import it (with subprocess, ~2.5 ms of every `subword train` that checks this)
    morphemes = sys.modules.get("core.morphemes")
    if morphemes is not None and isinstance(p, morphemes.MorphemeSplit):
        analyser = morphemes.ANALYSERS[p.language][2]
        losses.append(
            f"tokenizer.json cannot hold the {analyser} morpheme analyser ({p.name}): Metaspace is "
            "written instead, so Hugging Face tokenizers cuts at spaces only and its tokens will "
            "differ (open the project folder instead to keep the analyser)"
        )
        return Metaspace(p.replacement, p.prepend_scheme)
    if isinstance(p, PreSequence):
        return PreSequence([_pre_tokenizer(x, losses) for x in p.pre_tokenizers])
    return p


def _decoder(d, losses: list[str]):
    if isinstance(d, decoders.JamoCompose):
        losses.append(
            "tokenizer.json has no decoder that recomposes jamo: decoded text stays as conjoining "
            "jamo (NFC composes it)"
        )
        return None
    if isinstance(d, decoders.Sequence):
        kept = [x for x in (_decoder(y, losses) for y in d.decoders) if x is not None]
        return kept[0] if len(kept) == 1 else decoders.Sequence(kept) if kept else None
    return d
