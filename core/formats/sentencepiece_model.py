"""Read SentencePiece ``.model`` (protobuf) and ``.vocab`` (text) files into a Tokenizer
that encodes exactly as ``SentencePieceProcessor.encode``.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> trained = drain(train_from_counts({"▁Hello": 10, "▁world": 5}, TrainOptions("unigram", vocab_size=20)))
    >>> _ = save_sentencepiece(trained, Path(folder.name, "m.model"))
    >>> tok = load_sentencepiece(Path(folder.name, "m.model"))
    >>> tok.encode("Hello world").tokens
    ['▁Hello', '▁world']

A ``.model`` file is a ``ModelProto``: the pieces (text, score, type), the
``TrainerSpec`` (model type, byte fallback, special ids) and the
``NormalizerSpec`` (precompiled charsmap and whitespace rules). We read it with
our own wire-format reader (:mod:`core.formats.protobuf`).

The tokenizer built from it (:func:`tokenizer_from_proto`) rebuilds SentencePiece's encoder
from stages and models defined elsewhere:

1. Normalize: :class:`core.normalizers_sentencepiece.SentencePieceNormalizer` (the
   charsmap, user-defined pieces and SentencePiece's whitespace rules).
2. Segment the whole normalized sentence (no pre-tokenizer), by model type:
   unigram (:class:`core.models.unigram.sentencepiece.SentencePieceUnigram`), BPE
   (:class:`core.models.bpe.sentencepiece.SentencePieceBPE`), char and word
   (:mod:`core.models.wordlevel.sentencepiece`).
3. Unknown pieces: with byte fallback each becomes its UTF-8 bytes ``<0xXX>``;
   without it, a run of adjacent unknown pieces becomes ONE ``<unk>``.
4. Decode: :class:`core.decoders.SentencePieceDecoder`.

Offsets follow SentencePiece too (``encode(..., return_type="offset_mapping")``):
a piece spans from where its first character's source starts to where the
next piece's starts, and of the byte pieces of one character only the last
spans it.

Control pieces (``<s>``, ``</s>``) and byte pieces are never matched in text;
unused pieces never appear.

Writing (:func:`save_sentencepiece`): a tokenizer opened from a ``.model`` is
written back byte for byte; a unigram or BPE tokenizer with the metaspace
pre-tokenizer becomes a new ``ModelProto`` (BPE scores are minus the merge
rank), with a list of what SentencePiece cannot express.

Leaves out: writing char and word models anew (a file opened from one is written back byte for byte).
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

from core.atomic import write_atomic
from core.decoders import SentencePieceDecoder
from core.errors import FormatError
from core.formats.protobuf import (
    FIXED32,
    LENGTH_DELIMITED,
    VARINT,
    ProtobufError,
    as_float,
    as_signed,
    as_text,
    read_fields,
)
from core.formats.protobuf import field as pb_field
from core.models.factory import SENTENCEPIECE_MODELS, sentencepiece_model_class
from core.normalizers_sentencepiece import SentencePieceNormalizer
from core.records import Record
from core.sentencepiece_pieces import (
    BYTE,
    CONTROL,
    NORMAL,
    PIECE_TYPE_NAMES,
    SPACE,
    UNKNOWN,
    USER_DEFINED,
    Piece,
    f32,
)

MODEL_TYPES = {1: "unigram", 2: "bpe", 3: "word", 4: "char"}


# -- the file ---------------------------------------------------------------------


# (records, not dataclasses: saving a trained model then imports no `dataclasses`, whose import
# with `inspect` behind it was ~6 ms of CPU in every SentencePiece training; see core.records)
class TrainerSpec(Record):
    def __init__(
        self,
        model_type: str = "unigram",
        vocab_size: int = 8000,
        byte_fallback: bool = False,
        unk_id: int = 0,
        bos_id: int = 1,
        eos_id: int = 2,
        pad_id: int = -1,
        unk_piece: str = "<unk>",
        bos_piece: str = "<s>",
        eos_piece: str = "</s>",
        pad_piece: str = "<pad>",
        unk_surface: str = " \u2047 ",
        treat_whitespace_as_suffix: bool = False,
        split_digits: bool = False,
        character_coverage: float = 0.9995,
        input: list[str] | None = None,
    ) -> None:
        self.model_type, self.vocab_size, self.byte_fallback = model_type, vocab_size, byte_fallback
        self.unk_id, self.bos_id, self.eos_id, self.pad_id = unk_id, bos_id, eos_id, pad_id
        self.unk_piece, self.bos_piece, self.eos_piece, self.pad_piece = (
            unk_piece,
            bos_piece,
            eos_piece,
            pad_piece,
        )
        self.unk_surface = unk_surface
        self.treat_whitespace_as_suffix, self.split_digits = treat_whitespace_as_suffix, split_digits
        self.character_coverage = character_coverage
        self.input = [] if input is None else input


class NormalizerSpec(Record):
    def __init__(
        self,
        name: str = "",
        precompiled_charsmap: bytes = b"",
        add_dummy_prefix: bool = True,
        remove_extra_whitespaces: bool = True,
        escape_whitespaces: bool = True,
    ) -> None:
        self.name, self.precompiled_charsmap = name, precompiled_charsmap
        self.add_dummy_prefix, self.remove_extra_whitespaces = add_dummy_prefix, remove_extra_whitespaces
        self.escape_whitespaces = escape_whitespaces


class ModelProto(Record):
    def __init__(
        self, pieces: list[Piece], trainer_spec: TrainerSpec, normalizer_spec: NormalizerSpec
    ) -> None:
        self.pieces, self.trainer_spec, self.normalizer_spec = pieces, trainer_spec, normalizer_spec


def _parse_piece(data: bytes) -> Piece:
    p = Piece("")
    for number, wire, value in read_fields(data):
        if number == 1 and wire == LENGTH_DELIMITED:
            p.piece = as_text(value)
        elif number == 2 and wire == FIXED32:
            p.score = as_float(value)
        elif number == 3 and wire == VARINT:
            p.type = value
    return p


_TRAINER_INTS = {4: "vocab_size", 40: "unk_id", 41: "bos_id", 42: "eos_id", 43: "pad_id"}
_TRAINER_BOOLS = {35: "byte_fallback", 24: "treat_whitespace_as_suffix", 25: "split_digits"}
_TRAINER_STRS = {45: "unk_piece", 46: "bos_piece", 47: "eos_piece", 48: "pad_piece", 44: "unk_surface"}


def _parse_trainer(data: bytes) -> TrainerSpec:
    t = TrainerSpec()
    for number, wire, value in read_fields(data):
        if number == 3 and wire == VARINT:
            t.model_type = MODEL_TYPES.get(value, f"type {value}")
        elif number in _TRAINER_INTS and wire == VARINT:
            setattr(t, _TRAINER_INTS[number], as_signed(value))
        elif number in _TRAINER_BOOLS and wire == VARINT:
            setattr(t, _TRAINER_BOOLS[number], bool(value))
        elif number in _TRAINER_STRS and wire == LENGTH_DELIMITED:
            setattr(t, _TRAINER_STRS[number], as_text(value))
        elif number == 10 and wire == FIXED32:
            t.character_coverage = as_float(value)
        elif number == 1 and wire == LENGTH_DELIMITED:
            t.input.append(as_text(value))
    return t


def _parse_normalizer(data: bytes) -> NormalizerSpec:
    n = NormalizerSpec()
    for number, wire, value in read_fields(data):
        if number == 1 and wire == LENGTH_DELIMITED:
            n.name = as_text(value)
        elif number == 2 and wire == LENGTH_DELIMITED:
            n.precompiled_charsmap = value
        elif number == 3 and wire == VARINT:
            n.add_dummy_prefix = bool(value)
        elif number == 4 and wire == VARINT:
            n.remove_extra_whitespaces = bool(value)
        elif number == 5 and wire == VARINT:
            n.escape_whitespaces = bool(value)
    return n


def parse_model_proto(data: bytes, name: str = "<bytes>") -> ModelProto:
    """Decode a ``.model`` file's bytes; FormatError (naming ``name``) if it is not one."""
    try:
        pieces: list[Piece] = []
        trainer = TrainerSpec()
        normalizer = NormalizerSpec()
        for number, wire, value in read_fields(data):
            if wire != LENGTH_DELIMITED:
                continue
            if number == 1:
                pieces.append(_parse_piece(value))
            elif number == 2:
                trainer = _parse_trainer(value)
            elif number == 3:
                normalizer = _parse_normalizer(value)
    except ProtobufError as e:
        raise FormatError(
            f"{name}: not a valid SentencePiece model (truncated or corrupt protobuf: {e})"
        ) from None
    if not pieces:
        raise FormatError(f"{name}: not a SentencePiece model (no pieces found)")
    seen: dict[str, int] = {}
    for i, p in enumerate(pieces):
        if not p.piece:
            raise FormatError(f"{name}: piece {i} is empty")
        if p.type not in PIECE_TYPE_NAMES:
            raise FormatError(f"{name}: piece {i} ({p.piece!r}) has unknown type {p.type}")
        if p.piece in seen:
            raise FormatError(f"{name}: piece {p.piece!r} is defined twice (ids {seen[p.piece]} and {i})")
        if not math.isfinite(p.score):  # as SentencePiece refuses it ("score is NaN or Inf")
            raise FormatError(f"{name}: piece {i} ({p.piece!r}) has score {p.score}, not a finite number")
        seen[p.piece] = i
    if sum(p.type == UNKNOWN for p in pieces) != 1:
        raise FormatError(f"{name}: a SentencePiece model needs exactly one unknown piece")
    if trainer.model_type not in SENTENCEPIECE_MODELS:
        raise FormatError(
            f"{name}: SentencePiece model type {trainer.model_type!r} is not supported "
            f"({', '.join(SENTENCEPIECE_MODELS)})"
        )
    return ModelProto(pieces, trainer, normalizer)


# -- normalization ------------------------------------------------------------------


# -- building the tokenizer -----------------------------------------------------------------


def tokenizer_from_proto(proto: ModelProto):
    """The Tokenizer pipeline of a parsed model (normalizer + SentencePiece model + decoder)."""
    from core.tokenizer import Tokenizer

    t, ns = proto.trainer_spec, proto.normalizer_spec
    cls = sentencepiece_model_class(t.model_type if t.model_type in SENTENCEPIECE_MODELS else "unigram")
    model = cls(proto.pieces, byte_fallback=t.byte_fallback)
    normalizer = SentencePieceNormalizer(
        ns.precompiled_charsmap,
        add_dummy_prefix=ns.add_dummy_prefix,
        remove_extra_whitespaces=ns.remove_extra_whitespaces,
        escape_whitespaces=ns.escape_whitespaces,
        treat_whitespace_as_suffix=t.treat_whitespace_as_suffix,
        user_defined=model.user_defined,
        name=ns.name,
    )
    # subtle: control and user-defined pieces are NOT Tokenizer added tokens: those are cut
    # out of the raw text before normalization, but SentencePiece never matches control
    # pieces in text and matches user-defined ones inside the normalized sentence.
    decoder = SentencePieceDecoder(
        {p.piece for p in proto.pieces if p.type == CONTROL},
        model.unk_token,
        t.unk_surface,
        drop_first_space=ns.add_dummy_prefix or ns.remove_extra_whitespaces,
        drop_leading_spaces=ns.remove_extra_whitespaces,
    )
    tok = Tokenizer(model, normalizer=normalizer, pre_tokenizer=None, decoder=decoder)
    tok.extra["sentencepiece"] = {
        "model_type": t.model_type,
        "normalizer": ns.name or "identity",
        "byte_fallback": t.byte_fallback,
        "special_ids": {"unk": t.unk_id, "bos": t.bos_id, "eos": t.eos_id, "pad": t.pad_id},
        "piece_types": {
            PIECE_TYPE_NAMES[k]: sum(p.type == k for p in proto.pieces) for k in PIECE_TYPE_NAMES
        },
    }
    return tok


def load_sentencepiece(path: str | Path):
    """A ``.model`` file as a Tokenizer; FormatError naming the file if it is not one."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FormatError(f"{path}: cannot read ({e.strerror or e})") from None
    tok = tokenizer_from_proto(parse_model_proto(data, str(path)))
    tok.extra["sentencepiece_model"] = data  # the exact original, kept by the project save
    tok.extra["source"] = str(path)
    return tok


def read_vocab_file(path: str | Path) -> tuple[list[Piece], list[str]]:
    """A ``.vocab`` file (``piece<TAB>score`` per line) as pieces, plus warnings.

    The file has no piece types: ``<unk>`` (or the first ``<...unk...>``) is the
    unknown piece, ``<s>``, ``</s>``, ``<pad>`` are control pieces and ``<0xXX>``
    byte pieces.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise FormatError(f"{path}: cannot read ({e.strerror or e})") from None
    if b"\x00" in raw:
        raise FormatError(f"{path}: a binary file, not a SentencePiece .vocab text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError(f"{path}: not UTF-8 text (byte {e.start})") from None
    pieces: list[Piece] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) != 2:
            raise FormatError(f"{path}: line {lineno} is not 'piece<TAB>score'")
        try:
            score = float(parts[1])
        except ValueError:
            raise FormatError(f"{path}: line {lineno}: score {parts[1]!r} is not a number") from None
        if not math.isfinite(score):
            raise FormatError(f"{path}: line {lineno}: score {parts[1]!r} is not finite")
        if parts[0] in seen:
            raise FormatError(
                f"{path}: piece {parts[0]!r} appears twice (lines {seen[parts[0]]} and {lineno})"
            )
        seen[parts[0]] = lineno
        pieces.append(Piece(parts[0], f32(score)))
    if not pieces:
        raise FormatError(f"{path}: empty .vocab file")
    warnings = []
    unk = next((i for i, p in enumerate(pieces) if p.piece == "<unk>"), None)
    if unk is None:
        unk = next(
            (i for i, p in enumerate(pieces) if "unk" in p.piece.lower() and p.piece.startswith("<")), None
        )
    if unk is None:
        raise FormatError(f"{path}: no unknown piece (<unk>) in the .vocab file")
    for i, p in enumerate(pieces):
        if i == unk:
            p.type = UNKNOWN
        elif p.piece in ("<s>", "</s>", "<pad>"):
            p.type = CONTROL
        elif len(p.piece) == 6 and p.piece.startswith("<0x") and p.piece.endswith(">"):
            p.type = BYTE
    warnings.append(
        f"{path.name}: a .vocab file has no normalization rules; text is only whitespace-normalized "
        "(load the .model file for exact SentencePiece encoding)"
    )
    return pieces, warnings


def load_sentencepiece_vocab(path: str | Path):
    """A ``.vocab`` file as a Tokenizer, plus warnings about what the file cannot say.

    Model type guess: BPE vocabularies score pieces 0, -1, -2, ... (whole numbers);
    unigram scores are log-probabilities.
    """
    pieces, warnings = read_vocab_file(path)
    normal = [p.score for p in pieces if p.type == NORMAL]
    is_bpe = bool(normal) and all(float(s).is_integer() for s in normal)
    byte_fallback = sum(p.type == BYTE for p in pieces) == 256
    trainer = TrainerSpec(model_type="bpe" if is_bpe else "unigram", byte_fallback=byte_fallback)
    warnings.append(f"{Path(path).name}: model type guessed from the scores: {trainer.model_type}")
    return tokenizer_from_proto(ModelProto(pieces, trainer, NormalizerSpec(name="identity"))), warnings


# -- writing --------------------------------------------------------------------------------


def _piece_message(piece: str, score: float, kind: int) -> bytes:
    """``field(1, field(1, piece) + field(2, float(score)) + field(3, kind))``, without the general
    encoder's calls for the usual piece (shorter than 128 bytes): ~8 us a piece was most of saving
    a small trained model.

    >>> _piece_message("▁a", -1.0, 1) == pb_field(1, pb_field(1, "▁a") + pb_field(2, -1.0) + pb_field(3, 1))
    True
    """
    text = piece.encode("utf-8")
    if len(text) > 100 or not 0 <= kind < 128:
        return pb_field(1, pb_field(1, piece) + pb_field(2, float(score)) + pb_field(3, kind))
    # tags: 0x0A field 1 length-delimited, 0x15 field 2 fixed32, 0x18 field 3 varint
    inner = b"\x0a" + bytes((len(text),)) + text + b"\x15" + _FLOAT.pack(score) + b"\x18" + bytes((kind,))
    return b"\x0a" + bytes((len(inner),)) + inner


_FLOAT = struct.Struct("<f")


def model_proto_bytes(proto: ModelProto) -> bytes:
    """Serialize a :class:`ModelProto` (the fields this module reads)."""
    out = bytearray()
    pack = _FLOAT.pack
    for p in proto.pieces:  # (_piece_message inlined: a call per piece was a third of the loop)
        text = p.piece.encode("utf-8")
        kind = p.type
        if len(text) > 100 or not 0 <= kind < 128:
            out += _piece_message(p.piece, p.score, kind)
            continue
        out += b"\x0a%c\x0a%c%s\x15%s\x18%c" % (len(text) + 9, len(text), text, pack(p.score), kind)
    t = proto.trainer_spec
    trainer = (
        pb_field(3, {"unigram": 1, "bpe": 2}[t.model_type])
        + pb_field(4, t.vocab_size)
        + pb_field(24, t.treat_whitespace_as_suffix)
        + pb_field(35, t.byte_fallback)
        + pb_field(40, t.unk_id)
        + pb_field(41, t.bos_id)
        + pb_field(42, t.eos_id)
        + pb_field(43, t.pad_id)
        + pb_field(45, t.unk_piece)
        + pb_field(46, t.bos_piece)
        + pb_field(47, t.eos_piece)
        + pb_field(48, t.pad_piece)
    )
    out += pb_field(2, trainer)
    n = proto.normalizer_spec
    normalizer = pb_field(1, n.name or "identity")
    if n.precompiled_charsmap:
        normalizer += pb_field(2, n.precompiled_charsmap)
    normalizer += (
        pb_field(3, n.add_dummy_prefix)
        + pb_field(4, n.remove_extra_whitespaces)
        + pb_field(5, n.escape_whitespaces)
    )
    out += pb_field(3, normalizer)
    return bytes(out)


def proto_from_tokenizer(tok) -> tuple[ModelProto, list[str]]:
    """The ModelProto closest to ``tok`` and what it loses; ConfigError if SentencePiece cannot hold it."""
    from core.errors import ConfigError
    from core.pre_tokenizers import Metaspace

    extra = getattr(tok, "extra", {}) or {}
    if "sentencepiece_model" in extra:
        return parse_model_proto(extra["sentencepiece_model"]), []
    if "sentencepiece_training" in extra:
        return _trained_proto(tok.model, extra["sentencepiece_training"]), []
    d = tok.model.to_dict()
    kind = d.get("type")
    if kind not in ("Unigram", "BPE"):
        raise ConfigError(f"a SentencePiece model is unigram or BPE; this tokenizer's model is {kind}")
    pre = tok.pre_tokenizer
    if not isinstance(pre, Metaspace) or pre.replacement != SPACE:
        raise ConfigError(
            "SentencePiece marks words with '▁': only a tokenizer with the metaspace "
            f"pre-tokenizer can be saved as .model (this one uses {type(pre).__name__})"
        )
    losses: list[str] = []
    if type(pre) is not Metaspace:  # a Metaspace that cuts more (core.morphemes.MorphemeSplit)
        losses.append(
            f"a .model cannot hold the {_what_cuts(pre)}: SentencePiece cuts at spaces only, so "
            "words it cuts otherwise encode differently (open the project folder instead to keep it)"
        )
    special = {t.content for t in tok.added_tokens if t.special}
    user_defined = {t.content for t in tok.added_tokens if not t.special}
    # 1. pieces with scores, in id order
    if kind == "Unigram":
        entries = [(piece, float(score)) for piece, score in d["vocab"]]
        unk_id = d.get("unk_id")
    else:
        if d.get("continuing_subword_prefix") or d.get("end_of_word_suffix"):
            raise ConfigError("SentencePiece BPE has no continuing-subword prefix or end-of-word suffix")
        vocab = d["vocab"]
        by_id = sorted(vocab.items(), key=lambda kv: kv[1])
        if [i for _, i in by_id] != list(range(len(by_id))):
            raise ConfigError("a .model needs ids 0..n-1 without gaps")
        merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in d.get("merges", [])]
        made_at: dict[str, int] = {}
        for rank, (a, b) in enumerate(merges):
            made_at.setdefault(a + b, rank)
        # subtle: SentencePiece merges the pair whose merged piece scores highest, so a piece
        # made by merge r scores -r; pieces no merge makes (characters, specials) score below all.
        entries = [
            (token, float(-made_at[token]) if token in made_at else float(-len(merges) - i))
            for token, i in by_id
        ]
        unk = d.get("unk_token")
        unk_id = vocab.get(unk) if unk else None
        losses.append(
            "SentencePiece BPE joins any adjacent pair that forms a piece (highest score first), "
            "not only the listed merges: rare words may split differently"
        )
        if not d.get("fuse_unk") and not d.get("byte_fallback"):
            losses.append(
                "SentencePiece makes one unknown piece of a run of characters its pieces cannot spell; "
                "this BPE makes one per character (fuse_unk is off)"
            )
    if unk_id is None:
        entries.append(("<unk>", 0.0))
        unk_id = len(entries) - 1
        losses.append(f"a .model needs an unknown piece: added <unk> as id {unk_id}")
    byte_pieces = {f"<0x{b:02X}>" for b in range(256)}
    have_bytes = sum(piece in byte_pieces for piece, _ in entries) == 256
    byte_fallback = bool(d.get("byte_fallback")) and have_bytes
    pieces = []
    for i, (piece, score) in enumerate(entries):
        if i == unk_id:
            kind_ = UNKNOWN
        elif piece in special:
            kind_ = CONTROL
        elif piece in user_defined:
            kind_ = USER_DEFINED
        elif byte_fallback and piece in byte_pieces:
            kind_ = BYTE
        else:
            kind_ = NORMAL
        pieces.append(Piece(piece, score, kind_))
    if special:
        losses.append("special tokens become control pieces: SentencePiece never matches them in text")
    if pre.prepend_scheme != "never":
        losses.append(
            "text that starts with a space gets one more '▁' in SentencePiece (it always adds its "
            "dummy prefix; the metaspace pre-tokenizer adds one only when none is there)"
        )
    if kind == "Unigram":
        losses.append("Viterbi ties (equal-score segmentations) may break differently in SentencePiece")
    # 2. the pipeline around the model
    charsmap = b""
    from core.precompiled import PrecompiledNormalizer

    if isinstance(tok.normalizer, PrecompiledNormalizer):
        charsmap = tok.normalizer.charsmap
    elif tok.normalizer is not None:
        losses.append(
            f"SentencePiece stores normalization as a precompiled charsmap: the "
            f"{type(tok.normalizer).__name__} normalizer is lost (saved as identity)"
        )
    if tok.decoder is not None and type(tok.decoder).__name__ not in ("Metaspace", "Sequence"):
        losses.append(f"the {type(tok.decoder).__name__} decoder is lost (SentencePiece decodes its own way)")
    ids = {p.piece: i for i, p in enumerate(pieces)}

    def control_id(name: str) -> int:
        i = ids.get(name)
        return i if i is not None and pieces[i].type == CONTROL else -1

    trainer = TrainerSpec(
        model_type="unigram" if kind == "Unigram" else "bpe",
        vocab_size=len(pieces),
        byte_fallback=byte_fallback,
        unk_id=unk_id,
        bos_id=control_id("<s>"),
        eos_id=control_id("</s>"),
        pad_id=control_id("<pad>"),
        unk_piece=pieces[unk_id].piece,
    )
    normalizer = NormalizerSpec(
        name="identity" if not charsmap else "user_defined",
        precompiled_charsmap=charsmap,
        add_dummy_prefix=pre.prepend_scheme != "never",
        remove_extra_whitespaces=False,  # the metaspace pipeline keeps every space
        escape_whitespaces=True,
    )
    return ModelProto(pieces, trainer, normalizer), losses


def _trained_proto(model, spec: dict) -> ModelProto:
    """The ModelProto of a model trained as spm_train trains it (``core.training``)."""
    ids, pieces = spec["special_ids"], spec["special_pieces"]
    trainer = TrainerSpec(
        model_type=spec["model_type"],
        vocab_size=len(model.pieces),
        byte_fallback=spec["byte_fallback"],
        unk_id=ids["unk"],
        bos_id=ids["bos"],
        eos_id=ids["eos"],
        pad_id=ids["pad"],
        unk_piece=pieces["unk"],
        bos_piece=pieces["bos"],
        eos_piece=pieces["eos"],
        treat_whitespace_as_suffix=spec["treat_whitespace_as_suffix"],
        split_digits=spec["split_digits"],
        character_coverage=spec["character_coverage"],
    )
    normalizer = NormalizerSpec(name="identity", add_dummy_prefix=spec["add_dummy_prefix"])
    return ModelProto(list(model.pieces), trainer, normalizer)


def _what_cuts(pre) -> str:
    """``'kiwipiepy (Kiwi) morpheme analyser (ko-morph)'``, or the pre-tokenizer's type."""
    import sys

    # subtle: as core.formats.hf_compat, never import the analysers' module for a pipeline without one
    morphemes = sys.modules.get("core.morphemes")
    if morphemes is not None and isinstance(pre, morphemes.MorphemeSplit):
        return f"{morphemes.ANALYSERS[pre.language][2]} morpheme analyser ({pre.name})"
    return f"{type(pre).__name__} pre-tokenizer"


def save_sentencepiece(tok, path: str | Path) -> list[str]:
    """Write ``tok`` as a SentencePiece ``.model`` atomically; returns what the file cannot hold."""

    proto, losses = proto_from_tokenizer(tok)
    extra = getattr(tok, "extra", {}) or {}
    data = extra.get("sentencepiece_model") or model_proto_bytes(proto)
    path = Path(path)
    write_atomic(path, data)
    return losses


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    from core.formats.common import one_file

    return one_file(folder, "*.model")


def sniff(head) -> bool:
    """A binary file whose first byte opens field 1, length-delimited: a ModelProto's first piece."""
    return head.binary and head.data[:1] == b"\x0a"


def open_file(path: Path, pattern: str | None = None):
    """``pattern`` is unused: the model stores its normalizer and splitting rules."""
    from core.formats.common import LoadedTokenizer

    return LoadedTokenizer(load_sentencepiece(path), "sentencepiece", path, [])


def save_file(tok, path: Path, record=None) -> list[str]:
    from core.formats.common import file_in

    return save_sentencepiece(tok, file_in(path, "tokenizer.model"))
