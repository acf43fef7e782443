"""Which lines a move of the vocab-size slider leaves as they were, known without encoding them.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.background.jobs import truncate_tokenizer
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> full = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=14)))
    >>> full.model.merge_list()
    [('u', 'g'), ('u', 'n'), ('h', 'ug'), ('p', 'un'), ('p', 'ug'), ('hug', 's')]
    >>> cut = truncate_tokenizer(full, full.model.min_vocab_size + 3)   # the slider at 3 merges
    >>> tables = merge_tables(full.model)          # None when the argument below fails
    >>> cut_bound(cut, full)                       # the cut's merge count
    3
    >>> encoding = cut.encode("hugs pun")
    >>> encoding.tokens
    ['hug', 's', 'p', 'un']
    >>> top, following = valid_span(encoding, tables)
    >>> top, following        # made by merges up to h+ug (2); p+un (3) would apply next
    (2, 3)
    >>> top < 3 <= following                       # the line's tokens under the cut: these
    True

A BPE model cut to its first ``b`` merges segments a word as the full model does,
stopped before the first merge of rank ``b`` or more, when the model's merges are
*trees*: every merge makes a token no other merge makes, and its two parts were made
by earlier merges (or are characters). Then, while the full model merges a word,
each merge applied makes a token whose own merges can only rank higher, so the
ranks applied never fall; and the cut, which knows the same pairs below ``b``, picks
the same lowest pair at every step until the full model's next merge ranks ``b``
or more.

So a word's tokens under any cut (or the full model) are its tokens under every cut
to ``b`` merges with ``top < b <= next``: ``top`` the highest rank of a merge that
made one of them (every merge applied ranks at most that: the trees), ``next`` the
lowest rank of a merge of two of them side by side (the merge the full model would
apply next). A line is its words, and special tokens every cut with the same added
tokens keeps, so the same holds for a line with ``top`` and ``next`` over its words.
``BPE.truncated`` does the ``next = infinity`` half of this word by word, from the
full model's cache; the explorer's slider still re-encoded and re-coloured every
line on every move, and most lines come out the same.

Leaves out: WordPiece and Unigram cuts (the panel still keeps a line whose new
encoding equals the old one, which saves the colouring, not the encoding).
"""

from __future__ import annotations

NO_TOKEN = -1  # the "rank" of a line with no merged token: valid under every cut
NO_MERGE = 1_000_000_000  # the "next merge" of a line no merge applies to


def merge_tables(model) -> tuple[dict[int, int], dict[tuple[int, int], int]] | None:
    """``({id of a merged token: rank of the merge that made it}, {(left id, right id): rank})``
    when ``model``'s merges are trees (see the module docstring), else None. Characters and
    special tokens have no rank.

    >>> from core.models.bpe.model import BPE
    >>> bpe = BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>")
    >>> merge_tables(bpe)
    ({4: 0}, {(3, 1): 0})
    """
    merges = ranked_merges(model)
    if merges is None or not model.has_merges():
        return None
    merge_parts, merge_rank = model.merge_parts, model.merge_rank
    if not model.deterministic or model.ignore_merges:
        return None  # random merges; a word found whole in the vocabulary skips its merges
    vocab = model.vocab
    ranks: dict[int, int] = {}
    pairs: dict[tuple[int, int], int] = {}
    for token, token_id in vocab.items():
        rank = merge_rank(token)
        if rank is None:
            continue
        left, right = merge_parts(token)
        for part in (left, right):
            made = merge_rank(part)
            if made is not None and made >= rank:
                return None  # a merge listed before one of its parts is made
        if left not in vocab or right not in vocab:
            return None
        ranks[token_id] = rank
        pairs[vocab[left], vocab[right]] = rank
    if len(pairs) != len(merges) or len(set(ranks.values())) != len(merges):
        return None  # some merge makes a token another merge already made, or is listed twice
    return ranks, pairs


def ranked_merges(model) -> list | None:
    """``model.merges``, the list the slider cuts, when ``model`` declares its merges ranked
    (``merge_list``, which ``merge_rank`` indexes); else None. A model may call something
    else ``merges``: a SentencePiece BPE model's is a method deriving pairs from its scores.

    >>> from core.models.bpe.model import BPE
    >>> from core.models.bpe.sentencepiece import SentencePieceBPE
    >>> from core.sentencepiece_pieces import UNKNOWN, Piece
    >>> bpe = BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>")
    >>> sentencepiece_bpe = SentencePieceBPE([Piece("<unk>", 0, UNKNOWN), Piece("ug", 0), Piece("u", -1), Piece("g", -2)])
    >>> ranked_merges(bpe), ranked_merges(sentencepiece_bpe)
    ([('u', 'g')], None)
    """
    return model.merge_list()


def cut_bound(tokenizer, full) -> int | None:
    """How many merges ``tokenizer`` keeps if it is ``full`` or a cut of it by the slider
    (the same pipeline, the first merges of the same model, the same added tokens); None if not.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.background.jobs import truncate_tokenizer
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> full = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=14)))
    >>> full.model.merge_list()
    [('u', 'g'), ('u', 'n'), ('h', 'ug'), ('p', 'un'), ('p', 'ug'), ('hug', 's')]
    >>> cut_bound(truncate_tokenizer(full, full.model.min_vocab_size + 3), full), cut_bound(full, full)
    (3, 6)
    """
    if tokenizer is None or full is None:
        return None
    model, whole = tokenizer.model, full.model
    merges, all_merges = ranked_merges(model), ranked_merges(whole)
    if merges is None or all_merges is None or type(model) is not type(whole):
        return None
    if tokenizer is not full:
        if not same_pipeline(tokenizer, full):
            return None
        # the merges are a slice of the full list: the same objects, compared by identity first
        if len(merges) > len(all_merges) or merges != all_merges[: len(merges)]:
            return None
    return len(merges)


def same_pipeline(a, b) -> bool:
    """Whether tokenizers ``a`` and ``b`` differ at most in their model's size: the same
    normalizer, pre-tokenizer and post-processor objects (as a cut shares them with the
    model it was cut from) and the same added tokens.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.background.jobs import truncate_tokenizer
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> full = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=14)))
    >>> full.model.merge_list()
    [('u', 'g'), ('u', 'n'), ('h', 'ug'), ('p', 'un'), ('p', 'ug'), ('hug', 's')]
    >>> other_run = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=14)))
    >>> same_pipeline(full, truncate_tokenizer(full, 10)), same_pipeline(full, other_run)
    (True, False)
    """
    if a is None or b is None:
        return False
    if any(
        getattr(a, stage) is not getattr(b, stage)
        for stage in ("normalizer", "pre_tokenizer", "post_processor")
    ):
        return False
    # an added token beyond a cut is dropped from it: its text then encodes otherwise
    return [(t.content, t.id) for t in a.added_tokens] == [(t.content, t.id) for t in b.added_tokens]


def valid_span(encoding, tables) -> tuple[int, int]:
    """``(top, next)``: ``encoding`` (of a line, under a cut of the model ``tables`` describe)
    is the encoding under every cut to ``b`` merges with ``top < b <= next``. ``top`` is the
    highest rank of a merge that made one of its tokens (``NO_TOKEN`` if none), ``next`` the
    lowest rank of a merge of two tokens side by side in one word (the full model's next
    merge; ``NO_MERGE`` if there is none).

    >>> from core.models.bpe.model import BPE
    >>> from core.tokenizer import Tokenizer
    >>> bpe = BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>")
    >>> bpe_cut_1 = Tokenizer(bpe)                                   # its one merge kept
    >>> valid_span(bpe_cut_1.encode("pug"), merge_tables(bpe))      # p ug: "ug" made by merge 0
    (0, 1000000000)
    """
    ranks, pairs = tables
    ids, words = encoding.ids, encoding.word_ids
    get = ranks.get
    top = max((get(i, NO_TOKEN) for i in ids), default=NO_TOKEN)
    rank = pairs.get
    following = NO_MERGE
    for i in range(len(ids) - 1):
        word = words[i]
        if word is not None and word == words[i + 1]:
            r = rank((ids[i], ids[i + 1]))
            if r is not None and r < following:
                following = r
    return top, following
