"""The script of a character (UnicodeScripts, SentencePiece's piece validity): ASCII answered
without `regex`, the same as `regex`'s Unicode tables answer it."""

from __future__ import annotations

import regex

from core.pre_tokenizers import _unicode_script


def test_every_ascii_character_has_the_script_of_the_unicode_tables():
    for code in range(128):
        c = chr(code)
        if c == " ":
            assert _unicode_script(c) == "ANY"  # (joins its neighbours, as `tokenizers` does)
            continue
        expected = next(name for name in ("LATIN", "COMMON") if regex.fullmatch(rf"\p{{Script={name}}}", c))
        assert _unicode_script(c) == expected, repr(c)


def test_other_characters_still_come_from_the_tables():
    assert [_unicode_script(c) for c in "éカー한ж\u0301"] == [
        "LATIN",
        "HAN",
        "HAN",
        "HANGUL",
        "CYRILLIC",
        "INHERITED",
    ]


def test_the_runs_answered_without_regex_have_the_script_of_the_unicode_tables():
    from core.pre_tokenizers import _SCRIPT_RUNS, _script_from_tables

    previous = -1
    for first, last, script in _SCRIPT_RUNS:
        assert previous < first <= last  # sorted, apart
        previous = last
        wrong = [hex(code) for code in range(first, last + 1) if _script_from_tables(chr(code)) != script]
        assert not wrong, (script, wrong[:10])
        assert _unicode_script(chr(first)) == _unicode_script(chr(last)) == script
