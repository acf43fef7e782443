"""A Hugging Face model folder (tokenizer.json written by `tokenizers` + tokenizer_config.json) encodes
as `tokenizers` with the config's added tokens, and as `transformers`' AutoTokenizer where it is installed."""

from __future__ import annotations

import pytest
from chat_folders import QWEN, family_config, train_tokenizer, write_folder

from core.formats.detect import open_tokenizer

tokenizers = pytest.importorskip("tokenizers")

TEXTS = [
    "",
    "a",
    "Hello <|im_start|>user\nHi<|im_end|>\n",
    "안녕하세요 こんにちは 😀 <tool>x</tool>   \n\t end",
    "def f(x):\n    return 12345  <pad><s></s>",
    "x <|im_start|> y <tool> z",
    "assistant: assistantship",
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    trained = train_tokenizer()
    n = trained.get_vocab_size()
    im_start = trained.token_to_id("<|im_start|>")
    config = family_config(
        QWEN,
        pad_token="<pad>",
        added_tokens_decoder={
            str(im_start): {
                "content": "<|im_start|>",
                "lstrip": True,
                "rstrip": True,
                "normalized": False,
                "single_word": False,
                "special": True,
            },
            str(n): {
                "content": "<tool>",
                "lstrip": False,
                "rstrip": False,
                "normalized": True,
                "single_word": False,
                "special": False,
            },
            str(n + 1): {
                "content": "</tool>",
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "single_word": True,
                "special": False,
            },
        },
        additional_special_tokens=["assistant"],
    )
    return write_folder(tmp_path_factory.mktemp("m") / "m", config, trained), trained


def _reference(trained):
    """What transformers does with that config, through tokenizers' own add_tokens."""
    from tokenizers import AddedToken

    ref = tokenizers.Tokenizer.from_str(trained.to_str())
    ref.add_tokens(
        [
            AddedToken("<|im_start|>", lstrip=True, rstrip=True, normalized=False, special=True),
            AddedToken("<tool>", normalized=True, special=False),
            AddedToken("</tool>", single_word=True, normalized=False, special=False),
        ]
    )
    ref.add_special_tokens([AddedToken("<pad>", normalized=False), AddedToken("assistant", normalized=False)])
    return ref


@pytest.mark.parametrize("special", [False, True])
def test_ids_equal_tokenizers_with_the_config_applied(folder, special):
    path, trained = folder
    ours = open_tokenizer(path).tokenizer
    ref = _reference(trained)
    for text in TEXTS:
        assert (
            ours.encode(text, add_special_tokens=special).ids
            == ref.encode(text, add_special_tokens=special).ids
        ), text


@pytest.mark.parametrize("special", [False, True])
def test_ids_equal_transformers(folder, special):
    transformers = pytest.importorskip(
        "transformers", reason="transformers is an optional reference (pip install transformers)"
    )
    path, _ = folder
    ours = open_tokenizer(path).tokenizer
    theirs = transformers.AutoTokenizer.from_pretrained(str(path))
    for text in TEXTS:
        assert ours.encode(text, add_special_tokens=special).ids == theirs.encode(
            text, add_special_tokens=special
        ), text
    assert ours.vocab_size == len(theirs)
