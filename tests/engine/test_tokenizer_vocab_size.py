"""Tokenizer.vocab_size counts the union of the model's vocabulary and the added tokens."""

from core.models.bpe.model import BPE
from core.tokenizer import AddedToken, Tokenizer


def test_vocab_size_counts_added_tokens_outside_the_model_once():
    model = BPE({"<unk>": 0, "a": 1, "b": 2, "ab": 3}, [("a", "b")], unk_token="<unk>")
    tok = Tokenizer(model, added_tokens=[AddedToken("<unk>", 0), AddedToken("<s>", 4), AddedToken("</s>", 5)])
    assert tok.vocab_size == len(tok.get_vocab()) == 6
    tok.add_token(AddedToken("<s>", 4))  # the same content again changes nothing
    assert tok.vocab_size == len(tok.get_vocab()) == 6
