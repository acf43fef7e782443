"""SuperBPE (Liu et al., "SuperBPE: Space Travel for Language Models", COLM 2025, arXiv
2503.13423): byte-level BPE in two stages, subwords first, then "superwords" that cross spaces.

    >>> from core.events import drain
    >>> from core.options import TrainOptions, pre_tokenize_lines
    >>> options = TrainOptions("superbpe", vocab_size=300, extra={"transition": 280})
    >>> model = drain(train_superbpe(pre_tokenize_lines(["by the way"] * 9, options), options))
    >>> "byĠtheĠway" in model.vocab      # a superword: three words, two spaces
    True

The word counts are pre-tokens of the *trained tokenizer's* pipeline, SuperBPE's stage 2
(``core.pre_tokenizers.superbpe_stage2``: only numbers in threes, runs of punctuation and extra
spaces are cut out, the rest of a line is one piece written in bytes).

1. Stage 1 (subwords): each piece is cut again as plain BPE would cut the text
   (``SUPERBPE_STAGE1_PATTERN``, words with their leading space), and the BPE trainer
   (``trainer.learn_merges``) learns merges on those words until the vocabulary holds
   ``transition`` tokens (*t* in the paper).
2. Stage 2 (superwords): each piece is encoded with stage 1's merges (what the trained
   tokenizer will do to it), and the same merge loop continues on those tokens
   (``reference.merge``) until ``vocab_size``: its pairs now meet across spaces.
   A merge is refused when its token would hold more than ``max_words`` words (runs between
   ``Ġ``, 4 by default) or a colon followed by a space (``":Ġ"``), as the reference trainer
   does (``mw4_colon`` in its tokenizer names).

A :class:`~core.events.StageStarted` event marks where stage 2 begins; merge events number on.
The model is a plain :class:`~core.models.bpe.model.BPE`: encoding applies every merge by rank
inside the stage-2 pieces, which is how the reference's tokenizer.json (a ``Split`` and a
``ByteLevel`` without its regex) encodes in `tokenizers`.

Where we differ from the reference trainer (``alisawuffles/tokenizers-superbpe``,
``BpeTrainer::do_train_extend``): it trains stage 2 from characters and replays stage 1's
merges in order, keeping for each pair only the words where it last gained occurrences (a
``HashMap`` insert replaces the earlier list), and it drops a stage-1 merge that no longer
occurs; we start stage 2 from stage 1's encoding of each piece (every stage-1 merge applied
wherever it applies, all of them kept), which is the paper's "resume training without the
whitespace split" and what the tokenizer does when it encodes. Stage 1 is counted from the
stage-2 pieces, not from the text: a cut that stage 2 makes and stage 1 does not (rare with
these two patterns) stays a cut in stage 1. tests/engine/models/bpe/test_superbpe.py pins both.

Leaves out: training the stages on different corpora, and extending a tokenizer trained elsewhere.
Stage 2 runs in the plain Python loop (the compiled one has no place to refuse a merge).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from operator import itemgetter

from core.bytelevel import bytes_to_chars, chars_to_bytes
from core.errors import ConfigError, CorpusError
from core.events import Progress, StageStarted, TrainingStopped
from core.models.bpe.model import BPE
from core.models.bpe.reference import STOP_MIN_FREQUENCY, STOP_VOCAB
from core.models.bpe.trainer import learn_merges
from core.options import superbpe_settings
from core.pre_tokenizers import SUPERBPE_STAGE1_PATTERN, Split

SPACE = bytes_to_chars(b" ")  # Ġ


def refusal(max_words: int, colon_rule: bool) -> Callable[[str], bool] | None:
    """The stage-2 rule: is this new token one the reference refuses?

    >>> refuse = refusal(2, True)
    >>> refuse("ĠbyĠthe"), refuse("ĠbyĠtheĠway"), refuse("note:Ġthe"), refuse("ĠĠĠa")
    (False, True, True, False)
    """
    if not max_words and not colon_rule:
        return None

    def refuse(token: str) -> bool:
        if colon_rule and ":" + SPACE in token:
            return True
        return bool(max_words) and sum(1 for run in token.split(SPACE) if run) > max_words

    return refuse


def stage1_words(pieces: dict[str, int]) -> dict[str, int]:
    """Stage 1's words: each stage-2 piece (bytes as characters) cut with the stage-1 pattern.

    >>> stage1_words({"byĠtheĠway": 2, "ĠtheĠway": 1})
    {'by': 2, 'Ġthe': 3, 'Ġway': 3}
    """
    split = Split({"Regex": SUPERBPE_STAGE1_PATTERN}, "Isolated").split_words
    out: dict[str, int] = {}
    get = out.get
    for piece, n in pieces.items():
        text = chars_to_bytes(piece).decode("utf-8", "surrogatepass")
        for word in split(text):
            w = bytes_to_chars(word.encode("utf-8", "surrogatepass"))
            out[w] = get(w, 0) + n
    return out


def train_superbpe(word_counts: dict[str, int], options) -> Generator[object, None, BPE]:
    """Learn a SuperBPE model from ``{stage-2 piece: count}``; yields Progress, MergeEvent,
    StageStarted and TrainingStopped."""
    transition, max_words, colon_rule = superbpe_settings(options)
    if not options.byte_level:
        raise ConfigError("SuperBPE is byte-level: train it with --algorithm superbpe")
    if word_counts and min(word_counts.values()) <= 0:
        word_counts = {w: c for w, c in word_counts.items() if c > 0}
    if not word_counts:
        raise CorpusError("nothing to train on: no words were counted")

    # -- stage 1: BPE on words, up to the transition ---------------------------------
    yield StageStarted(1, "subwords: BPE within words", 0, 0)
    yield Progress("tokenize words", 0, len(word_counts))
    words = stage1_words(word_counts)
    yield Progress("tokenize words", len(word_counts), len(word_counts))
    stage1 = learn_merges(words, options._replace(vocab_size=transition))
    while True:  # stage 1's events, but its end is not the training's
        try:
            event = next(stage1)
        except StopIteration as done:
            token_to_id, merges = done.value
            break
        if type(event) is not TrainingStopped:
            yield event
    del words

    # -- stage 2: the same merges go on, across spaces -------------------------------
    id_to_token = [t for t, _ in sorted(token_to_id.items(), key=itemgetter(1))]
    yield StageStarted(2, "superwords: merges across spaces", len(merges), len(id_to_token))
    pieces = list(word_counts)
    yield Progress("encode", 0, len(pieces))
    subwords = BPE(token_to_id, merges)
    encoded = subwords.tokenize_ids_batch(pieces)
    del subwords
    yield Progress("encode", len(pieces), len(pieces))
    from core.models.bpe import reference

    result = yield from reference.merge(
        ["".join(map(chr, ids)) for ids in encoded], list(word_counts.values()), id_to_token, token_to_id,
        "", options.vocab_size, options.min_frequency, merges, len(merges), refusal(max_words, colon_rule),
    )  # fmt: skip
    if result == STOP_VOCAB:
        reason = "reached the requested vocabulary size"
    elif result == STOP_MIN_FREQUENCY:
        reason = f"no pair occurs at least {options.min_frequency} times (the minimum frequency)"
    else:
        reason = "no pairs left to merge across spaces (or every one left is refused)"
    yield TrainingStopped(reason, len(id_to_token), options.vocab_size)
    return BPE(token_to_id, merges)
