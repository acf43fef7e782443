"""Errors the engine raises for bad input. Each carries a message fit for a user."""


class SubwordError(Exception):
    """Base class: a clear, user-facing message, never a traceback in the CLI or GUI."""


class CorpusError(SubwordError):
    """An unreadable, empty, binary or malformed corpus or word-count file."""


class ConfigError(SubwordError):
    """Absurd or inconsistent options (e.g. vocab size below the alphabet size)."""


class FormatError(SubwordError):
    """A tokenizer file that is corrupt, truncated, or of an unsupported kind."""


class InputError(SubwordError):
    """A library call given the wrong kind of value (``encode(None)``, bytes, a lone surrogate)."""


class SaveError(SubwordError):
    """A save that could not be completed; the message names the file and says what was kept."""
