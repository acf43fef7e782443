"""Named tuples with a frozen dataclass's manners: the engine's small immutable records (and
:class:`Record`, a plain dataclass's manners for the few mutable ones every training process makes).

    >>> from typing import NamedTuple
    >>> @frozen_record
    ... class Span(NamedTuple):
    ...     start: int
    ...     end: int
    >>> Span(0, 2) == Span(0, 2), Span(0, 2) == (0, 2), Span(0, 2)
    (True, False, Span(start=0, end=2))

Why: the records made by the thousand (a merge event per merge, a token per piece) and those made
in every process (each class costs its making at import) are cheaper as named tuples: one of
eight fields is built in 0.30 µs against a frozen dataclass's 0.97 µs (whose ``__init__`` sets
each field through ``object.__setattr__``), and the class is made in ~0.12 ms against a slotted
frozen dataclass's ~0.75 ms. :func:`frozen_record` keeps what callers relied on: the fields,
repr and hash, immutability, equality with a record of the same class only (never with a plain
tuple or another record), and no ordering.

Leaves out: ``dataclasses.replace``/``fields``/``asdict`` (use ``_replace``, ``_fields``,
``_asdict``); a record is also a tuple (it iterates and unpacks), which a dataclass was not.
"""

from __future__ import annotations

from typing import TypeVar

R = TypeVar("R", bound=type)
T = TypeVar("T", bound="Record")


def frozen_record(cls: R) -> R:
    """Give a named tuple class a frozen dataclass's equality (its own class only) and no ordering."""

    def __eq__(self: tuple, other: object) -> bool:
        if type(other) is type(self):
            return tuple.__eq__(self, other)
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self: tuple, other: object) -> bool:
        equal = __eq__(self, other)
        return equal if equal is NotImplemented else not equal

    def _no_order(self: tuple, other: object) -> bool:
        return NotImplemented  # (both sides refuse: TypeError, as a dataclass without order=True)

    # (set after the class is made, so that its hash stays tuple's: the hash of its fields)
    for name in ("__lt__", "__le__", "__gt__", "__ge__"):
        setattr(cls, name, _no_order)
    cls.__eq__ = __eq__  # type: ignore[method-assign,assignment]
    cls.__ne__ = __ne__  # type: ignore[method-assign,assignment]
    return cls


class Record:
    """A mutable record with a plain dataclass's manners, for the classes every training process
    makes (``TrainOptions``, ``CorpusCounts``, ``NormalizedString``) without importing
    ``dataclasses``: with ``inspect``, ``ast``, ``dis`` and ``tokenize`` behind it, that import and
    the classes it makes cost ~11 ms of CPU per process (fresh processes, medians of 61 pairs),
    a tenth of a whole BPE job on a short novel.

        >>> class Pair(Record):
        ...     def __init__(self, left: str, right: str = "") -> None:
        ...         self.left, self.right = left, right
        >>> Pair("a", "b"), Pair("a") == Pair("a", ""), Pair("a", "b")._replace(right="c")
        (Pair(left='a', right='b'), True, Pair(left='a', right='c'))

    A subclass writes its ``__init__`` (the place for defaults and checks), whose parameters are
    its fields, in order (``_fields``, read off ``__init__`` when the class is made, so they are
    named once); it gets the repr, equality with a record of its own class only
    (unhashable, as a dataclass that is not frozen), ``_replace`` (a new record through
    ``__init__``, so checks run again, as ``dataclasses.replace``) and ``_asdict`` (lists, tuples
    and dicts inside copied, as ``dataclasses.asdict``). The same names as a named tuple's.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        code = cls.__init__.__code__
        cls._fields = code.co_varnames[1 : code.co_argcount]  # (after self; no *args, no keyword-only)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields)

    __hash__ = None  # type: ignore[assignment]  # (mutable: as a dataclass with eq and not frozen)

    def _replace(self: T, **changes) -> T:
        values = {name: getattr(self, name) for name in self._fields}
        unknown = set(changes).difference(values)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        values.update(changes)
        return type(self)(**values)

    def _asdict(self) -> dict:
        return {name: _copied(getattr(self, name)) for name in self._fields}


def _copied(value):
    """Lists, tuples and dicts copied all the way down (``_copied({"a": [1]})`` is a new dict of a new list)."""
    if isinstance(value, dict):
        return type(value)((_copied(k), _copied(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(map(_copied, value))
    return value
