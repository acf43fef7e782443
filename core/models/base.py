"""What every model offers: ``tokenize`` one pre-token, and vocabulary look-ups; and what a
model may offer beyond that, declared here once (:class:`ModelBase`).

A model knows nothing of files (see ``core.formats``) nor of how it was trained
(see each algorithm's ``trainer`` module).

The rest of the engine (the chunk cache ``core.encode_chunks``, the ids fast path, the
explorer's views) asks a model what it can do through :class:`ModelBase`'s methods and never
names a model class: each has a default (``None``, ``False`` or the plain way through
``tokenize``) that a model overrides to go faster or to offer more. This is how `tokenizers`'
``trait Model`` (``tokenizers/src/tokenizer/mod.rs``) and SentencePiece's
``IsNBestEncodeAvailable()`` / ``IsSampleEncodeAvailable()`` (``src/model_interface.h``) do it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from core.errors import ConfigError
from core.line_encoders import LineEncoder, TokenLengths
from core.records import frozen_record


@frozen_record
class Token(NamedTuple):
    """A token produced from one pre-token; ``start``/``end`` index that pre-token's characters.

    (A record, see ``core.records``: models make one per token they return.)
    """

    id: int
    value: str
    start: int
    end: int


def vocab_by_id(vocab: dict[str, int]) -> dict[str, int]:
    """A copy of ``vocab`` in id order (what a file lists).

        >>> vocab_by_id({"b": 1, "a": 0})
        {'a': 0, 'b': 1}

    A trained model's vocabulary is in that order already: one C-level check of its ids
    (~0.1 ms for 8,000 tokens) instead of sorting its items with a key (~0.9 ms).
    """
    ids = list(vocab.values())
    if ids == sorted(ids):
        return dict(vocab)
    return dict(sorted(vocab.items(), key=itemgetter(1)))


#: One pre-token's tokens taken apart: ``(ids, token strings, starts, ends)``.
Spans = tuple[tuple, ...]
_NO_SPANS: Spans = ((), (), (), ())


class ModelBase:
    """The methods every model has, each with a default a model overrides to go faster or to
    offer more (see the module). A model subclasses this and defines ``tokenize`` and the
    vocabulary look-ups (:class:`Model`); everything else is optional."""

    #: What the model does with a lone surrogate in its text: ``"refuse"`` (an InputError, as
    #: `tokenizers` does) or ``"replace"`` (U+FFFD, a pair joined, as tiktoken's ``encode``).
    surrogates = "refuse"

    #: False for a model whose tokens are drawn at random (BPE-dropout): no cache may keep them.
    deterministic = True

    #: The token that stands for text the vocabulary cannot spell (None: the model has none).
    unk_token: str | None = None

    #: The marks a model puts on a token that continues a word (WordPiece's ``##``) and on the
    #: last token of a word (the original BPE's ``</w>``); None: the model marks nothing.
    continuing_subword_prefix: str | None = None
    end_of_word_suffix: str | None = None

    #: True for a BPE that keeps a pre-token found whole in the vocabulary (skipping its merges).
    ignore_merges = False

    #: ``(step, token)``: ``token`` was removed right after merge ``step`` (PickyBPE); none here.
    removals: Sequence[tuple[int, str]] = ()

    if TYPE_CHECKING:

        def tokenize(self, piece: str) -> list[Token]: ...

    # -- many pre-tokens at once: the plain way by default ---------------------------------
    def tokenize_batch(self, pieces: list[str]) -> Sequence[Sequence[Token]]:
        """``[tokenize(p) for p in pieces]``; a model with a compiled path does them in one call."""
        return [self.tokenize(p) for p in pieces]

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (a model may skip making the tokens)."""
        return [t.id for t in self.tokenize(piece)]

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]``."""
        return [self.tokenize_ids(p) for p in pieces]

    def tokenize_spans_batch(self, pieces: list[str]) -> Sequence[tuple]:
        """Each pre-token's tokens as ``(ids, token strings, starts, ends)``, no Token objects."""
        tokens_of = self.tokenize_batch(pieces) if len(pieces) > 1 else [self.tokenize(p) for p in pieces]
        return [
            tuple(zip(*((t.id, t.value, t.start, t.end) for t in tokens))) or _NO_SPANS
            for tokens in tokens_of
        ]

    def tokenize_ids_flat(self, pieces: list[str]) -> tuple | None:
        """:meth:`tokenize_ids_batch` of non-empty pieces as flat numpy arrays ``(ids, bounds,
        known)``: piece ``p``'s ids at ``ids[bounds[p]:bounds[p + 1]]``, ``known[p]`` False
        where they are not its tokens. None: the model has no such path."""
        return None

    def raw_ids_batch(self) -> Callable[[list[str]], list[list[int]]] | None:
        """A function of the ids of raw text pieces (a byte-level pre-tokenizer's, before its
        byte alphabet), for a model that reads their bytes itself (tiktoken's ranks); None."""
        return None

    def raw_texts_ids(self) -> Callable[[list[list]], list[list[int]]] | None:
        """A function of the ids of whole texts given as their raw pieces (a byte-level
        pre-tokenizer's, before its byte alphabet) and the ids of their added tokens (ints), each
        text's ids joined, for a model that reads the pieces' bytes itself (tiktoken's ranks)
        and is fast enough to need no cache of pieces; None."""
        return None

    def split_texts_ids(self, pattern: str) -> Callable[[list[str]], list[list[int]] | None] | None:
        """A function of the ids of whole raw texts that the model splits with the regex
        ``pattern`` (a byte-level pre-tokenizer's) inside its own compiled encoder, None for a
        text batch it cannot take (then the pre-tokenizer splits them); None: no such encoder
        for this pattern."""
        return None

    def sentence_ids_batch(self, normalizer: Any) -> Callable[[list[str]], list[list[int]]] | None:
        """A function of the ids of whole raw sentences that the model normalizes with
        ``normalizer`` inside its own compiled merge (a SentencePiece ``.model``: no
        pre-tokenizer, each normalized sentence one piece); None: normalize, then
        :meth:`tokenize_ids_batch`."""
        return None

    def sentence_ids(self, normalizer: Any) -> Callable[[str], list[int] | None] | None:
        """:meth:`sentence_ids_batch` for one sentence (a call of ``encode_ids``), with less
        around the kernel; the function's None: a sentence it leaves to
        :meth:`sentence_ids_batch`, which must include every text holding a surrogate code
        point (the tokenizer calls it before ``check_text``). None: no such way (then
        ``sentence_ids_batch([text])``)."""
        return None

    # -- the chunk cache's fast path ---------------------------------------------------
    def token_lengths(self) -> TokenLengths | None:
        """How many characters each token covers (:class:`TokenLengths`), for a model whose
        every token covers exactly the characters its string holds; None otherwise (the chunk
        cache then takes each new chunk's spans from :meth:`tokenize`)."""
        return None

    def line_encoder(self, pre_tokenizer: Any) -> LineEncoder | None:
        """The model's compiled way through a line's new chunks under ``pre_tokenizer``
        (:class:`LineEncoder`); None: the chunk cache's generic way (:meth:`tokenize_ids_flat`
        or :meth:`tokenize_ids_batch`, spans from :meth:`token_lengths`)."""
        return None

    # -- what the explorer and the CLI may offer ----------------------------------------
    def can_nbest(self) -> bool:
        """Whether the model gives its n best segmentations (``nbest``, ``nbest_words``)."""
        return False

    def can_sample(self) -> bool:
        """Whether the model samples a segmentation (``sample``: subword regularization)."""
        return False

    def can_truncate(self) -> bool:
        """Whether ``truncated(vocab_size)`` gives the model cut to a smaller vocabulary."""
        return False

    def can_dropout(self) -> bool:
        """Whether ``with_dropout(p, seed)`` gives a copy that encodes with BPE-dropout."""
        return False

    def nbest(self, piece: str, k: int) -> list[tuple[list[str], float]]:
        """The ``k`` best segmentations of ``piece`` as (token values, score), best first
        (see :meth:`can_nbest`)."""
        raise ConfigError(f"a {type(self).__name__} model gives no n-best segmentations")

    def nbest_words(self, words: list[str], k: int) -> list[tuple[list[str], float]]:
        """The ``k`` best segmentations of a sequence of pre-tokens (see :meth:`can_nbest`)."""
        raise ConfigError(f"a {type(self).__name__} model gives no n-best segmentations")

    def sample(self, piece: str, alpha: float = 0.1, rng: Any = None) -> list[Token]:
        """A segmentation of ``piece`` drawn at random (see :meth:`can_sample`)."""
        raise ConfigError(f"a {type(self).__name__} model cannot sample segmentations")

    def truncated(self, vocab_size: int) -> ModelBase:
        """The model cut to ``vocab_size`` tokens (see :meth:`can_truncate`)."""
        raise ConfigError(f"a {type(self).__name__} model cannot be cut to a smaller vocabulary")

    def with_dropout(self, dropout: float | None, seed: int | None = None) -> ModelBase:
        """A copy that encodes with BPE-dropout ``dropout`` (see :meth:`can_dropout`)."""
        raise ConfigError(f"BPE-dropout needs a BPE model, not {type(self).__name__}")

    @property
    def min_vocab_size(self) -> int | None:
        """The smallest size ``truncated`` can cut to (its base tokens); None: not said."""
        return None

    def step_for_size(self, vocab_size: int) -> int | None:
        """The training step after which the vocabulary first holds ``vocab_size`` tokens, for
        a model whose size goes up and down along its steps (PickyBPE); None: it grows by one
        a step, as its merge events say."""
        return None

    # -- how the model came to its tokens (the explorer's Why view, merge trees, reports) ----
    def explains(self) -> str | None:
        """What :meth:`explain` and :meth:`lattice` show of how the model cuts a piece:
        ``"merges"`` (:meth:`explain` gives the merges applied, in order; :meth:`merge_list`
        is not None, except for SentencePiece BPE, whose steps are ranked by score), ``"ranks"``
        (the same from single bytes, each step's rank the joined token's rank: tiktoken's),
        ``"longest match"`` (:meth:`explain` gives the greedy matches ``(start, end, token or
        None)``), ``"lattice"`` (:meth:`lattice` gives every candidate piece) or None: nothing
        to show."""
        return None

    def explain(self, piece: str) -> list:
        """The steps that cut ``piece``, shaped as :meth:`explains` says; none here."""
        return []

    def lattice(self, piece: str) -> Any:
        """Every candidate piece of ``piece`` (a ``core.models.unigram.lattice.Lattice``) when
        :meth:`explains` says ``"lattice"``; None here."""
        return None

    def has_merges(self) -> bool:
        """Whether the model's tokens are built by merges it can name (:meth:`merge_parts`)."""
        return False

    def merge_parts(self, token: str) -> tuple[str, str] | None:
        """The two tokens whose (first) merge built ``token``; None for a base token (and for
        every token of a model without merges)."""
        return None

    def merge_list(self) -> list[tuple[str, str]] | None:
        """The merges in rank order, the list :meth:`merge_rank` indexes (and the explorer's
        slider cuts); None for a model whose merges are not ranked so (SentencePiece BPE's
        come from its scores, PickyBPE's tokens also go)."""
        return None

    def merge_rank(self, token: str) -> int | None:
        """The index in :meth:`merge_list` of the merge that first built ``token``; None."""
        return None

    def removed_tokens(self) -> list[str]:
        """Tokens some merge made that are no longer in the vocabulary (PickyBPE); none here."""
        return []

    def as_plain_bpe(self) -> tuple[ModelBase, list[str]] | None:
        """``(a plain BPE model, tokens it had to keep)`` standing in for this model in a file
        that holds only plain BPE (PickyBPE); None: the model is written as it is."""
        return None


class VocabLookup:
    """Look-ups for models that hold ``vocab`` (token -> id) and ``_id_to_token`` (id -> token)."""

    vocab: dict[str, int]
    _id_to_token: dict[int, str]

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._id_to_token.get(id)

    def get_vocab(self) -> dict[str, int]:
        return dict(self.vocab)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)


@runtime_checkable
class Model(Protocol):
    """What the engine asks of a model (for typing; a model subclasses :class:`ModelBase`)."""

    @property
    def unk_token(self) -> str | None: ...  # read-only here, so a model may narrow it to str

    def tokenize(self, piece: str) -> list[Token]:
        """Split one pre-token into tokens. Never raises on any string."""
        ...

    def token_to_id(self, token: str) -> int | None: ...

    def id_to_token(self, id: int) -> str | None: ...

    def get_vocab(self) -> dict[str, int]: ...

    @property
    def vocab_size(self) -> int: ...

    def to_dict(self) -> dict:
        """Hugging Face `tokenizer.json` shaped dict, tagged with ``"type"``."""
        ...

    # what every model has through ModelBase (see there): defaults a model may override
    surrogates: str

    @property
    def deterministic(self) -> bool: ...

    def tokenize_batch(self, pieces: list[str]) -> Sequence[Sequence[Token]]: ...

    def tokenize_ids(self, piece: str) -> list[int]: ...

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]: ...

    def tokenize_spans_batch(self, pieces: list[str]) -> Sequence[tuple]: ...

    def tokenize_ids_flat(self, pieces: list[str]) -> tuple | None: ...

    def raw_ids_batch(self) -> Callable[[list[str]], list[list[int]]] | None: ...

    def sentence_ids_batch(self, normalizer: Any) -> Callable[[list[str]], list[list[int]]] | None: ...

    def sentence_ids(self, normalizer: Any) -> Callable[[str], list[int] | None] | None: ...

    def raw_texts_ids(self) -> Callable[[list[list]], list[list[int]]] | None: ...

    def split_texts_ids(self, pattern: str) -> Callable[[list[str]], list[list[int]] | None] | None: ...

    def token_lengths(self) -> TokenLengths | None: ...

    def line_encoder(self, pre_tokenizer: Any) -> LineEncoder | None: ...

    def can_nbest(self) -> bool: ...

    def can_sample(self) -> bool: ...

    def can_truncate(self) -> bool: ...

    def can_dropout(self) -> bool: ...

    def with_dropout(self, dropout: float | None, seed: int | None = None) -> Any: ...

    @property
    def min_vocab_size(self) -> int | None: ...

    def step_for_size(self, vocab_size: int) -> int | None: ...

    @property
    def continuing_subword_prefix(self) -> str | None: ...

    @property
    def end_of_word_suffix(self) -> str | None: ...

    @property
    def ignore_merges(self) -> bool: ...

    @property
    def removals(self) -> Sequence[tuple[int, str]]: ...

    def explains(self) -> str | None: ...

    def explain(self, piece: str) -> list: ...

    def lattice(self, piece: str) -> Any: ...

    def has_merges(self) -> bool: ...

    def merge_parts(self, token: str) -> tuple[str, str] | None: ...

    def merge_list(self) -> list[tuple[str, str]] | None: ...

    def merge_rank(self, token: str) -> int | None: ...

    def removed_tokens(self) -> list[str]: ...

    def as_plain_bpe(self) -> tuple[Any, list[str]] | None: ...

    def nbest(self, piece: str, k: int) -> list[tuple[list[str], float]]: ...

    def nbest_words(self, words: list[str], k: int) -> list[tuple[list[str], float]]: ...

    def sample(self, piece: str, alpha: float = 0.1, rng: Any = None) -> list[Token]: ...

    def truncated(self, vocab_size: int) -> Any: ...
