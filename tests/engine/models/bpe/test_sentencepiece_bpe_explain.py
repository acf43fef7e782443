"""SentencePiece BPE's ``explain`` (the explorer's why view) walks to the tokens ``tokenize``
gives: the steps' last symbols cut each word where the model's tokens do of each word, and each step merges the
pair whose merged piece scores highest."""

from __future__ import annotations

from peer_training import train_sentencepiece_bpe

from tests.gui.conftest import make_lines

WORDS = (
    "▁Hello ▁world, ▁tokenizers ▁철수는 ▁치킨을 ▁the ▁quick ▁brown ▁foxes ▁jumped".split()
)  # (unknown characters in a row fuse into one <unk>: not a merge)


def test_the_steps_end_at_the_models_tokens_highest_score_first(tmp_path):
    lines = make_lines(300) + ["the quick brown foxes jumped"]
    model = train_sentencepiece_bpe(lines, tmp_path, 340).model
    assert model.explains() == "merges"
    for word in WORDS:
        steps = model.explain(word)
        # where the tokens start (a character without a piece is the unknown token, same span)
        cuts = [t.start for t in model.tokenize(word)]
        if steps:
            symbols = steps[-1].symbols
            assert [sum(len(s) for s in symbols[:k]) for k in range(len(symbols))] == cuts, word
            for step in steps:
                assert step.symbols[step.index] == step.merged == step.left + step.right
                assert word[step.position :].startswith(step.merged)
        else:
            assert cuts == list(range(len(word))), word
