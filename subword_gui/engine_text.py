"""The engine's messages in the interface's language.

    >>> from subword_gui.language import install_translators
    >>> message = "stopped: no pair occurs at least 2 times (the minimum frequency)"
    >>> install_translators(QCoreApplication.instance(), "ko")
    'ko'
    >>> localize(message)   # Korean interface
    'stopped: 2번 이상 나오는 쌍이 없습니다 (최소 빈도)'
    >>> install_translators(QCoreApplication.instance(), "en")
    'en'
    >>> localize(message) == message
    True

``core/`` speaks English (the CLI, logs and tests read it as it is). The messages a
user of the explorer actually meets — why training stopped, why a corpus or a
tokenizer file could not be read, the warnings of counting — are matched here by
pattern and put through Qt's translation machinery (context ``EngineMessages``), their
parameters (paths, counts) carried over. A message no pattern knows stays English,
whole; so does every message when the interface is English (a pattern's translation
then equals its English text and nothing is rewritten).

Each pattern is written next to the English text it reads (``core/models/*/trainer.py``,
``core/corpus.py``, ``core/formats/detect.py``, ``core/formats/gguf.py``,
``core/formats/hf_config.py``, ``core/morphemes.py``); a test checks
that the engine's real messages are matched.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

CONTEXT = "EngineMessages"

# (regular expression over the English message, the same message as a translatable
# template whose {names} are the expression's named groups)
_PATTERNS: list[tuple[str, str]] = [
    # what a GPT-2 folder does not say, said when it opens (core/formats/gpt2.py), and what a
    # save to it and to other model-only files loses (core/formats/gpt2.py, core/formats/common.py)
    (
        r"(?P<folder>[^\n]+?): vocab\.json \+ merges\.txt say nothing of normalization or pre-tokenization; "
        r"their tokens are not GPT-2's byte alphabet, so they were read as a character-level BPE after a "
        r"whitespace pre-tokenizer \(not byte-level\); a character the vocabulary lacks becomes "
        r"(?P<unk>'[^'\n]*'|\"[^\"\n]*\") and is counted as unknown",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; their "
            "tokens are not GPT-2's byte alphabet, so they were read as a character-level BPE after a "
            "whitespace pre-tokenizer (not byte-level); a character the vocabulary lacks becomes {unk} and "
            "is counted as unknown",
        ),
    ),
    (
        r"(?P<folder>[^\n]+?): vocab\.json \+ merges\.txt say nothing of normalization or pre-tokenization; "
        r"their tokens are not GPT-2's byte alphabet, so they were read as a character-level BPE after a "
        r"whitespace pre-tokenizer \(not byte-level\); it has no unknown token: a character the vocabulary "
        r"lacks is left out of the encoding",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; their "
            "tokens are not GPT-2's byte alphabet, so they were read as a character-level BPE after a "
            "whitespace pre-tokenizer (not byte-level); it has no unknown token: a character the "
            "vocabulary lacks is left out of the encoding",
        ),
    ),
    (
        r"(?P<folder>[^\n]+?): vocab\.json \+ merges\.txt say nothing of normalization or pre-tokenization; "
        r"assumed GPT-2's byte-level pre-tokenizer",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; assumed "
            "GPT-2's byte-level pre-tokenizer",
        ),
    ),
    (
        r"vocab\.json \+ merges\.txt are taken as GPT-2's byte-level files by readers such as transformers' "
        r"GPT2Tokenizer, which would leave out every character not spelled in bytes; Subword Explorer reads "
        r"them back as a character-level BPE after a whitespace pre-tokenizer",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.json + merges.txt are taken as GPT-2's byte-level files by readers such as transformers' "
            "GPT2Tokenizer, which would leave out every character not spelled in bytes; Subword Explorer "
            "reads them back as a character-level BPE after a whitespace pre-tokenizer",
        ),
    ),
    (
        r"vocab\.json \+ merges\.txt do not record the model's (?P<key>\w+) \((?P<value>[^\n]*)\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "vocab.json + merges.txt do not record the model's {key} ({value})"
        ),
    ),
    (
        r"(?P<target>[^\n]+?): added/special tokens are not marked \((?P<names>[^\n]*)\)",
        QT_TRANSLATE_NOOP("EngineMessages", "{target}: added/special tokens are not marked ({names})"),
    ),
    (
        r"cannot save to (?P<path>[^\n]+?): the folder (?P<folder>[^\n]+?) does not exist",
        QT_TRANSLATE_NOOP("EngineMessages", "cannot save to {path}: the folder {folder} does not exist"),
    ),
    (
        r"(?P<target>[^\n]+?): no normalizer is stored; (?P<what>[^\n]+) is lost",
        QT_TRANSLATE_NOOP("EngineMessages", "{target}: no normalizer is stored; {what} is lost"),
    ),
    (
        r"(?P<target>[^\n]+?): no pre-tokenizer is stored; (?P<what>[^\n]+) is lost",
        QT_TRANSLATE_NOOP("EngineMessages", "{target}: no pre-tokenizer is stored; {what} is lost"),
    ),
    # what a save to BERT's vocab.txt, subword-nmt codes, a SentencePiece .model and the
    # files of a SentencePiece-opened tokenizer lose (core/formats/bert_vocab.py,
    # subword_nmt_codes.py, sentencepiece_model.py, common.py, gpt2.py)
    (
        r"vocab\.txt readers \(tokenizers' BertWordPieceTokenizer\) need BERT's special tokens: (?P<names>[^\n]+?) written after the vocabulary \(ids (?P<ids>\d+-\d+)\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.txt readers (tokenizers' BertWordPieceTokenizer) need BERT's special tokens: {names} written after the vocabulary (ids {ids})",
        ),
    ),
    (
        r"the unknown token (?P<unk>[^\n]+?) is not BERT's: readers use \[UNK\], written as id (?P<id>\d+), so what the vocabulary cannot spell gets that id, not (?P<same>[^\n]+?)'s (?P<old>\d+)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "the unknown token {unk} is not BERT's: readers use [UNK], written as id {id}, so what the vocabulary cannot spell gets that id, not {same}'s {old}",
        ),
    ),
    (
        r"vocab\.txt is read as a WordPiece vocabulary; this tokenizer's (?P<kind>\w+) model \(merges or scores\) is lost",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.txt is read as a WordPiece vocabulary; this tokenizer's {kind} model (merges or scores) is lost",
        ),
    ),
    (
        r"vocab\.txt carries no normalizer and readers apply BERT's: control characters removed, each CJK ideograph split off, lowercase=(?P<lower>\w+), strip_accents=(?P<strip>\w+) \(as guessed from this vocabulary; --lowercase/--cased choose when reading\); this tokenizer had (?P<had>[^\n]+?), so text may encode differently",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.txt carries no normalizer and readers apply BERT's: control characters removed, each CJK ideograph split off, lowercase={lower}, strip_accents={strip} (as guessed from this vocabulary; when you open the file here, the report that opens with it lets you choose the other casing); this tokenizer had {had}, so text may encode differently",
        ),
    ),
    (
        r"vocab\.txt carries no pre-tokenizer and readers apply BERT's \(split on whitespace and every punctuation character\); this tokenizer had (?P<pre>[^\n]+)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.txt carries no pre-tokenizer and readers apply BERT's (split on whitespace and every punctuation character); this tokenizer had {pre}",
        ),
    ),
    (
        r"vocab\.txt does not record the subword prefix (?P<prefix>[^\n]+)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.txt does not record the subword prefix {prefix}",
        ),
    ),
    (
        r"(?P<target>[^\n]+?) implies the (?P<pre>\w+) pre-tokenizer, which this tokenizer does not use",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{target} implies the {pre} pre-tokenizer, which this tokenizer does not use",
        ),
    ),
    (
        r"vocab\.json \+ merges\.txt do not record (?P<key>\w+)=true",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.json + merges.txt do not record {key}=true",
        ),
    ),
    (
        r"subword-nmt codes carry no vocabulary ids \(only the merges, in order\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "subword-nmt codes carry no vocabulary ids (only the merges, in order)",
        ),
    ),
    (
        r"subword-nmt keeps a character its merges never build as it is, where this model gives (?P<unk>[^\n]+?) for a unit its vocabulary lacks",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "subword-nmt keeps a character its merges never build as it is, where this model gives {unk} for a unit its vocabulary lacks",
        ),
    ),
    (
        r"subword-nmt applies codes with '</w>' on each word's last character; this model uses end_of_word_suffix=(?P<suffix>[^\n]+?), so segmentations differ",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "subword-nmt applies codes with '</w>' on each word's last character; this model uses end_of_word_suffix={suffix}, so segmentations differ",
        ),
    ),
    (
        r"subword-nmt codes do not record the prefix (?P<prefix>[^\n]+)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "subword-nmt codes do not record the prefix {prefix}",
        ),
    ),
    (
        r"special tokens become control pieces: SentencePiece never matches them in text",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "special tokens become control pieces: SentencePiece never matches them in text",
        ),
    ),
    (
        r"text that starts with a space gets one more '▁' in SentencePiece \(it always adds its dummy prefix; the metaspace pre-tokenizer adds one only when none is there\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "text that starts with a space gets one more '▁' in SentencePiece (it always adds its dummy prefix; the metaspace pre-tokenizer adds one only when none is there)",
        ),
    ),
    (
        r"Viterbi ties \(equal-score segmentations\) may break differently in SentencePiece",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "Viterbi ties (equal-score segmentations) may break differently in SentencePiece",
        ),
    ),
    (
        r"(?P<target>[^\n]+?): SentencePiece normalization is written as a tokenizers Sequence \(Strip, Replace, Prepend\): whitespace other than ' ' and user-defined pieces inside normalization may differ; Viterbi ties may break differently than in SentencePiece",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{target}: SentencePiece normalization is written as a tokenizers Sequence (Strip, Replace, Prepend): whitespace other than ' ' and user-defined pieces inside normalization may differ; Viterbi ties may break differently than in SentencePiece",
        ),
    ),
    (
        r"(?P<target>[^\n]+?): SentencePiece normalization is written as a tokenizers Sequence \(Strip, Replace, Prepend\): whitespace other than ' ' and user-defined pieces inside normalization may differ",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{target}: SentencePiece normalization is written as a tokenizers Sequence (Strip, Replace, Prepend): whitespace other than ' ' and user-defined pieces inside normalization may differ",
        ),
    ),
    # what a GGUF file (core/formats/gguf.py) and a model folder's settings files
    # (core/formats/hf_config.py) cannot say, said when they open; before the general
    # "cannot read" and "not valid JSON" lines, whose ending these carry
    (
        r"(?P<name>[^\n]+?): no tokenizer\.ggml\.pre; the 'default' pre-tokenizer is used, as llama\.cpp does",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name}: no tokenizer.ggml.pre; the 'default' pre-tokenizer is used, as llama.cpp does",
        ),
    ),
    (
        r"(?P<name>[^\n]+?): (?P<key>tokenizer\.ggml\.\w+) = (?P<value>\d+) is past the vocabulary "
        r"\((?P<n>\d+) tokens\); ignored",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{name}: {key} = {value} is past the vocabulary ({n} tokens); ignored"
        ),
    ),
    (
        r"(?P<name>[^\n]+?): (?P<n>\d+) token\(s\) have an undefined type; they are read as normal tokens",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{name}: {n} token(s) have an undefined type; they are read as normal tokens"
        ),
    ),
    (
        r"(?P<name>[^\n]+?): the embedded tokenizer\.huggingface\.json cannot be read \((?P<why>[^\n]*)\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{name}: the embedded tokenizer.huggingface.json cannot be read ({why})"
        ),
    ),
    (
        r"(?P<name>[^\n]+?): the embedded tokenizer\.huggingface\.json and the GGUF fields disagree on "
        r"(?P<n>\d+) token id\(s\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name}: the embedded tokenizer.huggingface.json and the GGUF fields disagree on {n} token id(s)",
        ),
    ),
    (
        r"(?P<name>[^\n]+?): the embedded tokenizer\.huggingface\.json has the same vocabulary but encodes "
        r"a probe text differently",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name}: the embedded tokenizer.huggingface.json has the same vocabulary but encodes a probe text "
            "differently",
        ),
    ),
    (
        r"(?P<name>[^\n]+?): the embedded tokenizer\.huggingface\.json agrees with the GGUF fields "
        r"\(vocabulary and a probe text\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name}: the embedded tokenizer.huggingface.json agrees with the GGUF fields (vocabulary and a "
            "probe text)",
        ),
    ),
    (
        r"(?P<path>[^\n]+?) is (?P<size>[\d,]+) bytes, more than a tokenizer's settings take: left out",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path} is {size} bytes, more than a tokenizer's settings take: left out"
        ),
    ),
    (
        r"(?P<path>[^\n]+?) is larger than (?P<size>[\d,]+) bytes: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} is larger than {size} bytes: left out"),
    ),
    (
        r"cannot read (?P<path>[^\n]+?): (?P<why>[^\n]+?): left out",
        QT_TRANSLATE_NOOP("EngineMessages", "cannot read {path}: {why}: left out"),
    ),
    (
        r"(?P<path>[^\n]+?) is not UTF-8 text \(byte (?P<n>\d+)\): left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} is not UTF-8 text (byte {n}): left out"),
    ),
    (
        r"(?P<path>[^\n]+?) is not valid JSON \(line (?P<line>\d+), column (?P<column>\d+): (?P<why>[^\n]+)\): "
        r"left out",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path} is not valid JSON (line {line}, column {column}: {why}): left out"
        ),
    ),
    (
        r"(?P<path>[^\n]+?) is not valid JSON: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} is not valid JSON: left out"),
    ),
    (
        r"(?P<path>[^\n]+?) holds a JSON (?P<type>\w+), not an object: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} holds a JSON {type}, not an object: left out"),
    ),
    (
        r"(?P<path>[^\n]+?): added_tokens_decoder is not an object of id -> token: left out",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path}: added_tokens_decoder is not an object of id -> token: left out"
        ),
    ),
    (
        r"(?P<path>[^\n]+?): added_tokens_decoder entry (?P<key>[^\n]+?) is not id -> token: left out",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path}: added_tokens_decoder entry {key} is not id -> token: left out"
        ),
    ),
    (
        r"(?P<path>[^\n]+?): (?P<key>\w+) is (?P<value>[^\n]+?), not true or false: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path}: {key} is {value}, not true or false: left out"),
    ),
    (
        r"(?P<path>[^\n]+?): model_max_length is (?P<value>[^\n]+?), not a positive number: left out",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path}: model_max_length is {value}, not a positive number: left out"
        ),
    ),
    (
        r"(?P<path>[^\n]+?): (?P<key>\w+) is not a token: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path}: {key} is not a token: left out"),
    ),
    (
        r"(?P<path>[^\n]+?): (?P<key>\w+) holds (?P<item>[^\n]+?), which is not a token: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path}: {key} holds {item}, which is not a token: left out"),
    ),
    (
        r"(?P<path>[^\n]+?): (?P<key>\w+) is not a list of tokens: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path}: {key} is not a list of tokens: left out"),
    ),
    (
        r"(?P<path>[^\n]+?): a chat_template entry is not \{name, template\}: left out",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path}: a chat_template entry is not {{name, template}}: left out"
        ),
    ),
    (
        r"(?P<path>[^\n]+?): chat_template is a (?P<type>\w+), not a template: left out",
        QT_TRANSLATE_NOOP("EngineMessages", "{path}: chat_template is a {type}, not a template: left out"),
    ),
    (
        r"(?P<path>[^\n]+?) differs from tokenizer_config\.json on (?P<keys>[^\n]+?): as transformers 5, "
        r"tokenizer_config\.json \(which has added_tokens_decoder\) is followed",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path} differs from tokenizer_config.json on {keys}: as transformers 5, tokenizer_config.json "
            "(which has added_tokens_decoder) is followed",
        ),
    ),
    (
        r"(?P<path>[^\n]+?): (?P<what>[^\n]+?) has id (?P<id>\d+), which (?P<holder>[^\n]+?) holds: "
        r"added as id (?P<new>\d+)",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path}: {what} has id {id}, which {holder} holds: added as id {new}"
        ),
    ),
    (
        r"(?P<path>[^\n]+?): (?P<what>[^\n]+?) is not in the vocabulary: added as id (?P<new>\d+), "
        r"as transformers adds it",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path}: {what} is not in the vocabulary: added as id {new}, as transformers adds it",
        ),
    ),
    (
        r"(?P<path>[^\n]+?): added token (?P<token>[^\n]+?) has id (?P<id>\d+) in tokenizer_config\.json but "
        r"(?P<new>\d+) in the vocabulary: id \d+ is used",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path}: added token {token} has id {id} in tokenizer_config.json but {new} in the vocabulary: "
            "id {new} is used",
        ),
    ),
    (
        r"(?P<path>[^\n]+?): tokenizer_config\.json sets (?P<key>add_\w+_token)=(?P<value>\w+) but "
        r"tokenizer\.json's post-processor adds no (?P<kind>BOS|EOS): encoding follows "
        r"tokenizer\.json, as tokenizers and transformers 5 do \(transformers 4's Llama and Gemma tokenizers "
        r"follow the config\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path}: tokenizer_config.json sets {key}={value} but tokenizer.json's post-processor adds no {kind}: "
            "encoding follows tokenizer.json, as tokenizers and transformers 5 do (transformers 4's Llama and "
            "Gemma tokenizers follow the config)",
        ),
    ),
    (
        r"(?P<path>[^\n]+?): tokenizer_config\.json sets (?P<key>add_\w+_token)=(?P<value>\w+) but "
        r"tokenizer\.json's post-processor adds (?P<kind>BOS|EOS): encoding follows "
        r"tokenizer\.json, as tokenizers and transformers 5 do \(transformers 4's Llama and Gemma tokenizers "
        r"follow the config\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path}: tokenizer_config.json sets {key}={value} but tokenizer.json's post-processor adds {kind}: "
            "encoding follows tokenizer.json, as tokenizers and transformers 5 do (transformers 4's Llama and "
            "Gemma tokenizers follow the config)",
        ),
    ),
    # why training stopped (TrainingStopped.reason)
    (
        r"the special tokens and alphabet \((?P<n>[\d,]+) symbols\) already fill "
        r"the requested vocabulary of (?P<size>[\d,]+)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "the special tokens and alphabet ({n} symbols) already fill the requested vocabulary of {size}",
        ),
    ),
    (
        r"reached the requested vocabulary size",
        QT_TRANSLATE_NOOP("EngineMessages", "reached the requested vocabulary size"),
    ),
    (r"reached vocab size", QT_TRANSLATE_NOOP("EngineMessages", "reached vocab size")),
    (r"vocab size reached", QT_TRANSLATE_NOOP("EngineMessages", "vocab size reached")),
    (
        r"no pairs left to merge: every word is a single token",
        QT_TRANSLATE_NOOP("EngineMessages", "no pairs left to merge: every word is a single token"),
    ),
    (
        r"no pair occurs at least (?P<n>[\d,]+) times \(the minimum frequency\)",
        QT_TRANSLATE_NOOP("EngineMessages", "no pair occurs at least {n} times (the minimum frequency)"),
    ),
    (r"no pair occurs (?P<n>[\d,]+) times", QT_TRANSLATE_NOOP("EngineMessages", "no pair occurs {n} times")),
    (r"no pair left", QT_TRANSLATE_NOOP("EngineMessages", "no pair left")),
    (r"ran out of pieces", QT_TRANSLATE_NOOP("EngineMessages", "ran out of pieces")),
    (r"nothing left to remove", QT_TRANSLATE_NOOP("EngineMessages", "nothing left to remove")),
    # word counts counted under other options than the training's (core/options.py); the engine
    # names the command line's flags, the explorer its Training panel's boxes
    (
        r"the word counts are pre-tokens of '--pre-tokenizer (?P<had_pre>\S+) --normalizer (?P<had_norm>\S+)', "
        r"not of the training's '--pre-tokenizer (?P<pre>\S+) --normalizer (?P<norm>\S+)': train with the "
        r"former, or count the corpus again with the latter",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "the word counts are pre-tokens of the pre-tokenizer {had_pre} with the normalizer {had_norm}, not "
            "of the training's pre-tokenizer {pre} with the normalizer {norm}: choose {had_pre} and {had_norm} "
            "in the Training panel's Pre-tokenizer and Normalizer boxes, or open the corpus text to count it "
            "again",
        ),
    ),
    # corpus files (core/corpus.py)
    (
        r"(?P<path>[^\n]+?) looks like a binary file \(it contains NUL bytes\), not text",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path} looks like a binary file (it contains NUL bytes), not text"
        ),
    ),
    (
        r"(?P<path>[^\n]+?) looks like a binary file \(it contains NUL bytes\), not a word-count file",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{path} looks like a binary file (it contains NUL bytes), not a word-count file"
        ),
    ),
    (
        r"(?P<path>[^\n]+?) looks like a binary file: most of it is not (?P<encoding>\S+) text "
        r"\(if it is text, choose its encoding\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path} looks like a binary file: most of it is not {encoding} text "
            "(if it is text, choose its encoding)",
        ),
    ),
    (
        r"(?P<path>[^\n]+?): (?P<n>[\d,]+) invalid byte\(s\) replaced with U\+FFFD \(read as (?P<encoding>\S+); "
        r"if the file is in another encoding, choose it\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path}: {n} invalid byte(s) replaced with U+FFFD (read as {encoding}; "
            "if the file is in another encoding, choose it)",
        ),
    ),
    (
        r"(?P<path>[^\n]+?) is empty: skipped",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} is empty: skipped"),
    ),
    (
        r"(?P<path>[^\n]+?) is empty \(only whitespace\)",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} is empty (only whitespace)"),
    ),
    (r"(?P<path>[^\n]+?) is empty$", QT_TRANSLATE_NOOP("EngineMessages", "{path} is empty")),
    (
        r"all (?P<n>[\d,]+) corpus files are empty",
        QT_TRANSLATE_NOOP("EngineMessages", "all {n} corpus files are empty"),
    ),
    (
        r"(?P<path>[^\n]+?), line (?P<line>\d+): not valid UTF-8",
        QT_TRANSLATE_NOOP("EngineMessages", "{path}, line {line}: not valid UTF-8"),
    ),
    (r"(?P<path>[^\n]+?): no such file$", QT_TRANSLATE_NOOP("EngineMessages", "{path}: no such file")),
    (
        r"(?P<path>[^\n]+?): permission denied",
        QT_TRANSLATE_NOOP("EngineMessages", "{path}: permission denied"),
    ),
    (
        r"cannot read (?P<path>[^\n]+?): (?P<why>[^\n]+)",
        QT_TRANSLATE_NOOP("EngineMessages", "cannot read {path}: {why}"),
    ),
    (
        r"nothing to train on: no words were counted",
        QT_TRANSLATE_NOOP("EngineMessages", "nothing to train on: no words were counted"),
    ),
    # tokenizer files (core/formats/detect.py)
    (
        r"(?P<path>[^\n]+?): unrecognised tokenizer file \(not JSON, codes, rank, \.vocab or vocab\.txt lines\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{path}: unrecognised tokenizer file (not JSON, codes, rank, .vocab or vocab.txt lines)",
        ),
    ),
    (
        r"(?P<path>[^\n]+?) is not valid JSON \(line (?P<line>\d+), column (?P<column>\d+): (?P<why>[^\n]+)\)",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} is not valid JSON (line {line}, column {column}: {why})"),
    ),
    (
        r"(?P<path>[^\n]+?) is a binary file that is not a SentencePiece model",
        QT_TRANSLATE_NOOP("EngineMessages", "{path} is a binary file that is not a SentencePiece model"),
    ),
    # options (core/morphemes.py, core/training.py)
    (
        r"the (?P<language>\w+)-morph pre-tokenizer needs the (?P<name>.+?) analyser, which is not installed: "
        r"(?P<install>pip install [^\n]+)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "the {language}-morph pre-tokenizer needs the {name} analyser, which is not installed: {install}",
        ),
    ),
    (
        r"vocab size (?P<size>[\d,]+) is below the (?P<n>[\d,]+) distinct characters \+ "
        r"(?P<specials>[\d,]+) special tokens this corpus needs",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab size {size} is below the {n} distinct characters + {specials} special tokens this corpus needs",
        ),
    ),
    (
        r"byte-level BPE needs the bytelevel pre-tokenizer",
        QT_TRANSLATE_NOOP("EngineMessages", "byte-level BPE needs the bytelevel pre-tokenizer"),
    ),
    # a format that cannot hold the tokenizer, said when saving (core/formats/*)
    (
        r"vocab\.txt needs an unknown token \((?P<unk>[^)]*)\) and this (?P<type>\w+) vocabulary has none "
        r"\(a byte-level vocabulary spells every text with its bytes\): save it as tokenizer\.json",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "vocab.txt needs an unknown token ({unk}) and this {type} vocabulary has none "
            "(a byte-level vocabulary spells every text with its bytes): save it as tokenizer.json",
        ),
    ),
    # what a tokenizer file cannot say, said when it opens (core/formats/*)
    (
        r"(?P<name>[^\n;]+?) holds no normalizer settings: assumed BERT's, with lowercase=(?P<lowercase>\w+) "
        r"\(as asked \(--\w+\); choose with --lowercase or --cased\) and strip_accents=(?P<strip>\w+) \([^)]*\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name} holds no normalizer settings: BERT's is applied with lowercase={lowercase}, the casing you "
            "chose, and strip_accents={strip} (read from the letters in its vocabulary)",
        ),
    ),
    (
        r"(?P<name>[^\n;]+?) holds no normalizer settings: assumed BERT's, with lowercase=(?P<lowercase>\w+) "
        r"\([^)]*; choose with --lowercase or --cased\) and strip_accents=(?P<strip>\w+) \([^)]*\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name} holds no normalizer settings: assumed BERT's, with lowercase={lowercase} and "
            "strip_accents={strip} (read from the letters in its vocabulary; the report that opens with the "
            "file lets you choose the other casing)",
        ),
    ),
    (
        r"(?P<name>[^\n;]+?) does not store its split pattern: assumed (?P<guess>\S+) \((?P<why>[^\n]*); "
        r"choose with --pattern\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name} does not store its split pattern: assumed {guess} ({why}); the report that opens with "
            "the file lets you choose another",
        ),
    ),
    (
        r"(?P<name>[^\n;]+?): a \.vocab file has no normalization rules; text is only whitespace-normalized "
        r"\(load the \.model file for exact SentencePiece encoding\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name}: a .vocab file has no normalization rules; text is only whitespace-normalized "
            "(load the .model file for exact SentencePiece encoding)",
        ),
    ),
    (
        r"(?P<name>[^\n;]+?): model type guessed from the scores: (?P<type>\w+)",
        QT_TRANSLATE_NOOP("EngineMessages", "{name}: model type guessed from the scores: {type}"),
    ),
    (
        r"(?P<name>[^\n;]+?) has post-processor (?P<post>'[^']*'), which Subword Explorer keeps but does not "
        r"apply: encodings here lack whatever it adds or changes",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name} has post-processor {post}, which Subword Explorer keeps but does not apply: "
            "encodings here lack whatever it adds or changes",
        ),
    ),
    (
        r"(?P<name>[^\n;]+?) sets (?P<key>truncation|padding), which Subword Explorer keeps but does not apply",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{name} sets {key}, which Subword Explorer keeps but does not apply"
        ),
    ),
    (
        r"(?P<name>[^\n;]+?): version 0\.1 codes \(a separate </w> unit\) are applied approximately",
        QT_TRANSLATE_NOOP(
            "EngineMessages", "{name}: version 0.1 codes (a separate </w> unit) are applied approximately"
        ),
    ),
    # what subword-nmt codes and CLIP's merges do not say, said when they open
    # (core/formats/subword_nmt_codes.py, core/formats/clip_bpe.py)
    (
        r"(?P<name>[^\n;]+?): subword-nmt codes carry no vocabulary ids; ids follow the order units appear in "
        r"the codes; a character the codes never mention is kept as it is, as subword-nmt keeps it, with "
        r"<unk>'s id \(the codes give it none\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name}: subword-nmt codes carry no vocabulary ids; ids follow the order units appear in the codes; "
            "a character the codes never mention is kept as it is, as subword-nmt keeps it, with <unk>'s id "
            "(the codes give it none)",
        ),
    ),
    (
        r"(?P<name>[^\n;]+?): CLIP repairs text with ftfy\.fix_text first \(mojibake, curly quotes, full-width "
        r"letters\); that step is left out, so such text may encode differently",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{name}: CLIP repairs text with ftfy.fix_text first (mojibake, curly quotes, full-width letters); "
            "that step is left out, so such text may encode differently",
        ),
    ),
    # why a bare vocab.txt's casing and a rank file's pattern were guessed (core/formats/bert_vocab.py
    # guess_lowercase, core/formats/tiktoken_ranks.py guess_encoding): the report dialog says them
    # inside its own sentence; last, as they are parts of the messages above
    (
        r"(?P<n>[\d,]+) of (?P<total>[\d,]+) word pieces have their lowercase form too \(e\.g\. "
        r"(?P<upper>'[^'\n]*'|\"[^\"\n]*\") and (?P<lower>'[^'\n]*'|\"[^\"\n]*\")\)",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "{n} of {total} word pieces have their lowercase form too (e.g. {upper} and {lower})",
        ),
    ),
    (
        r"only (?P<n>[\d,]+) of (?P<total>[\d,]+) word pieces have an upper-case form beside their lowercase "
        r"one: assumed lowercase, the BERT libraries' default",
        QT_TRANSLATE_NOOP(
            "EngineMessages",
            "only {n} of {total} word pieces have an upper-case form beside their lowercase one: assumed "
            "lowercase, the BERT libraries' default",
        ),
    ),
    (
        r"(?P<n>[\d,]+) ranks, as tiktoken's (?P<name>\w+)",
        QT_TRANSLATE_NOOP("EngineMessages", "{n} ranks, as tiktoken's {name}"),
    ),
    (
        r"(?P<n>[\d,]+) ranks, nearest in size to (?P<name>\w+)",
        QT_TRANSLATE_NOOP("EngineMessages", "{n} ranks, nearest in size to {name}"),
    ),
]
_COMPILED = [(re.compile(pattern), template) for pattern, template in _PATTERNS]
# templates that reword the engine's English in every language: the engine speaks to the command
# line ("choose with --pattern"), the explorer names its own way to choose (issue 29)
_REWORDED = {template for pattern, template in _PATTERNS if re.search(r"(?<![\w-])--[a-z]", pattern)}


# The labels of the tokenizer file dialogs' filters (core/formats/registry.py: each format's
# title, "Tokenizers" for all of them); the globs after a label stay as they are.
_FILTER_LABELS: dict[str, str] = {
    "Tokenizers": QT_TRANSLATE_NOOP("EngineMessages", "Tokenizers"),
    "All files": QT_TRANSLATE_NOOP("EngineMessages", "All files"),
    "Project folder: tokenizer.json + training record": QT_TRANSLATE_NOOP(
        "EngineMessages", "Project folder: tokenizer.json + training record"
    ),
    "GPT-2 folder: vocab.json + merges.txt": QT_TRANSLATE_NOOP(
        "EngineMessages", "GPT-2 folder: vocab.json + merges.txt"
    ),
    "SentencePiece model": QT_TRANSLATE_NOOP("EngineMessages", "SentencePiece model"),
    "tiktoken ranks": QT_TRANSLATE_NOOP("EngineMessages", "tiktoken ranks"),
    "subword-nmt codes": QT_TRANSLATE_NOOP("EngineMessages", "subword-nmt codes"),
    "CLIP merges": QT_TRANSLATE_NOOP("EngineMessages", "CLIP merges"),
}


def localized_filter(text: str) -> str:
    """A file dialog's filter in the interface's language, its globs unchanged:
    ``"SentencePiece model (*.model)"`` -> ``"SentencePiece 모델 (*.model)"``."""
    label, sep, rest = text.partition(" (")
    template = _FILTER_LABELS.get(label)
    return QCoreApplication.translate(CONTEXT, template) + sep + rest if template else text


def localize(message: object) -> str:
    """``message`` (an engine message, or a text that contains one) in the interface's
    language: the first pattern that matches is replaced by its translation; the rest of
    the text stays as it is. English interface, or no pattern known: unchanged, except that a
    message naming a command-line flag names the explorer's own way instead (``_REWORDED``)."""
    text = str(message)
    for pattern, template in _COMPILED:
        translated = QCoreApplication.translate(CONTEXT, template)
        if translated == template and template not in _REWORDED:
            continue
        match = pattern.search(text)
        if match is None:
            continue
        try:
            localized = translated.format(**match.groupdict())
        except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
            return text
        return text[: match.start()] + localized + text[match.end() :]
    return text


# The names of the engine's progress phases (``core.events.Progress.phase``, and
# ``UnigramRound.phase``) as the progress bar and status line show them.
_PHASES: dict[str, str] = {
    "read": QT_TRANSLATE_NOOP("EngineMessages", "Reading"),
    "count": QT_TRANSLATE_NOOP("EngineMessages", "Counting"),
    "sort": QT_TRANSLATE_NOOP("EngineMessages", "Sorting words"),
    "count characters": QT_TRANSLATE_NOOP("EngineMessages", "Counting characters"),
    "count pairs": QT_TRANSLATE_NOOP("EngineMessages", "Counting pairs"),
    "alphabet": QT_TRANSLATE_NOOP("EngineMessages", "Alphabet"),
    "tokenize words": QT_TRANSLATE_NOOP("EngineMessages", "Splitting words"),
    "seed": QT_TRANSLATE_NOOP("EngineMessages", "Seed"),
    "seed loss": QT_TRANSLATE_NOOP("EngineMessages", "Seed loss"),
    "forward": QT_TRANSLATE_NOOP("EngineMessages", "Forward pass"),
    "expected counts": QT_TRANSLATE_NOOP("EngineMessages", "Expected counts"),
    "best paths": QT_TRANSLATE_NOOP("EngineMessages", "Best paths"),
    "em": QT_TRANSLATE_NOOP("EngineMessages", "EM"),
    "prune": QT_TRANSLATE_NOOP("EngineMessages", "Prune"),
    "final": QT_TRANSLATE_NOOP("EngineMessages", "Final"),
    "encode": QT_TRANSLATE_NOOP("EngineMessages", "Encoding"),
    "study": QT_TRANSLATE_NOOP("EngineMessages", "Study"),
}


def phase_label(phase: str) -> str:
    """A progress phase's name as the interface shows it: ``"expected counts"`` →
    "Expected counts" (English) or "기대 빈도" (Korean). A phase no table knows is shown
    capitalised, as the engine named it."""
    template = _PHASES.get(phase)
    if template is None:
        return phase[:1].upper() + phase[1:]
    return QCoreApplication.translate(CONTEXT, template)


def phases() -> list[str]:
    """The engine phase names the table knows, for tests."""
    return list(_PHASES)


def patterns() -> list[tuple[re.Pattern, str]]:
    """The (expression, English template) pairs, for tests."""
    return list(_COMPILED)
