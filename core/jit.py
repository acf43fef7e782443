"""The one way the engine compiles a hot loop: numba, cached on disk, without the GIL.

Why numba. The engine is Python so that a reader can follow every algorithm, but a few loops
(BPE's merge loop, the merge of a word seen for the first time, the Viterbi and forward-backward
passes of Unigram) run millions of tiny steps, and the interpreter's cost per step is what kept
us 2-10x behind the native libraries. numba (https://numba.pydata.org, maintained by Anaconda
and the community, wheels for every platform we ship on) compiles exactly those functions, written
in the same plain Python over numpy arrays, to machine code. Nothing else in the engine changes.

How a kernel is written::

    from core.jit import kernel

    @kernel
    def count_pairs(codes, starts, counts):   # numpy arrays in, numpy arrays or scalars out
        ...

- Kernels live in modules of their own (``*_kernels.py``) that the code needing them imports
  inside the function, so ``import core`` and the explorer's start stay light (numba takes about
  0.3 s and 60 MB to load).
- ``cache=True`` keeps the compiled code beside the module (or, in a read-only install, in numba's
  per-user cache), so only the very first call on a machine pays the compilation.
- ``nogil=True`` lets a kernel run while other Python threads (the explorer's event loop) go on.

This module is the mechanism only, at the bottom of the engine: it imports no other part of it.
The command that builds every kernel module ahead of time and fills numba's cache is
``python -m core.build`` (``core/build.py``), at the top.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar, cast

F = TypeVar("F", bound=Callable[..., object])


def kernel(function: F) -> F:
    """Compile ``function`` with numba in nopython mode, cached, releasing the GIL.

    >>> import numpy as np
    >>> @kernel
    ... def total(values):
    ...     s = 0
    ...     for v in values:
    ...         s += v
    ...     return s
    >>> int(total(np.arange(5)))
    10
    """
    import numba  # imported here: only modules that define kernels pay for it

    _guard_numba_cache()
    try:
        compiled = numba.njit(cache=True, nogil=True)(function)
    except RuntimeError:
        # Defined where no cache can be kept (a notebook cell, a doctest): compile every session.
        compiled = numba.njit(nogil=True)(function)
    _stamp_with_callees(compiled, function)
    return cast(F, compiled)  # a numba Dispatcher, called exactly like ``function``


def inlined(function: F) -> F:
    """Like :func:`kernel`, for a small helper of a hot loop: compiled into each kernel that calls
    it (numba's ``inline="always"``), so a call costs neither the call nor the reference counting
    of every array it is handed (a few percent each, per position merged, in BPE's merge loop).
    """
    import numba

    _guard_numba_cache()
    try:
        compiled = numba.njit(inline="always", cache=True, nogil=True)(function)
    except RuntimeError:
        compiled = numba.njit(inline="always", nogil=True)(function)
    _stamp_with_callees(compiled, function)
    return cast(F, compiled)


def typed_entry(compiled: F, *args: object) -> F:
    """``compiled`` (a :func:`kernel`) for exactly the types of ``args``, called without numba's
    typing of each argument: for a call that runs on one short line (``encode_ids``), where that
    typing is most of the cost (~50 ns an array or number, ~1.2 µs a ``str``, which numba types
    in Python). Calls ``compiled(*args)`` once, so that it is compiled or loaded for those types.

    subtle: the caller must only pass arguments of the same types: an array of another dtype of
    the same item size is not refused but read as the first one's. Where numba keeps no such
    entry (another numba), ``compiled`` itself.

        >>> import numpy as np
        >>> @kernel
        ... def total(values, text):
        ...     return values.sum() + len(text)
        >>> int(typed_entry(total, np.arange(3), "")(np.arange(5), "ab"))
        12
    """
    compiled(*args)
    try:
        types = tuple(compiled.typeof_pyval(a) for a in args)  # type: ignore[attr-defined]
        return cast(F, compiled.overloads[types].entry_point)  # type: ignore[attr-defined]
    except (AttributeError, KeyError):
        return compiled


def loaded(module: str) -> bool:
    """Whether ``module`` is imported and done importing, without importing it.

    How the engine asks whether compiled code is ready (numba itself, a kernel module) before
    it would make a caller wait for numba's ~0.4 s import. subtle: a module another thread is
    still importing (the explorer loads numba beside its window) counts as not loaded: using
    it here would wait for that import to finish.

        >>> loaded("sys"), loaded("core.no_such_module")
        (True, False)
    """
    found = sys.modules.get(module)
    return found is not None and not getattr(getattr(found, "__spec__", None), "_initializing", False)


def _stamp_with_callees(compiled, function) -> None:
    """Make numba's cache of ``compiled`` stale when the file of a kernel it may call changes.

    subtle: numba stamps a kernel's cache with the source of its own file only, and a kernel
    called from another file is compiled into it; so the SentencePiece Viterbi kept the
    normalizer of ``core/normalizer_kernels.py`` it was first compiled with after that file
    changed. The stamp here also holds the source of every other file whose kernels its module
    holds (imported before it is defined), and of theirs in turn.
    """
    cache_file = getattr(getattr(compiled, "_cache", None), "_cache_file", None)
    if cache_file is None:  # (no cache: compiled every session)
        return
    own = function.__code__.co_filename
    files = sorted(_kernel_files(function.__globals__, set()) - {own})
    if files:
        cache_file._source_stamp = (cache_file._source_stamp, *map(_source_digest, files))


def _kernel_files(namespace: dict, seen: set[int]) -> set[str]:
    """The files defining the kernels in ``namespace`` (a module's globals) and, recursively,
    in the globals of theirs."""
    files: set[str] = set()
    if id(namespace) in seen:
        return files
    seen.add(id(namespace))
    for value in list(namespace.values()):
        py_func = getattr(value, "py_func", None)
        if py_func is not None and hasattr(value, "_cache"):  # a numba Dispatcher
            files.add(py_func.__code__.co_filename)
            files |= _kernel_files(py_func.__globals__, seen)
    return files


@functools.cache
def _source_digest(path: str) -> str:
    """A digest of the file at ``path`` (its name if it cannot be read: a frozen build), read
    once a process."""
    import zlib

    try:
        return f"{zlib.crc32(Path(path).read_bytes()):08x}"
    except OSError:
        return path


def _guard_numba_cache() -> None:
    """Make a damaged file of numba's on-disk cache a cache miss: the kernel is compiled again
    (and the cache rewritten) with one warning.

    subtle: numba unpickles its index (``*.nbi``) and data (``*.nbc``) files unguarded, so a
    truncated index broke every Unigram encode and training with an UnpicklingError. A damaged
    pickle can raise almost anything (EOFError, UnpicklingError, ValueError, ImportError ...),
    hence the broad catch, on the cache's reads only.
    """
    from numba.core import caching

    files = caching.IndexDataCacheFile
    if getattr(files, "_subword_guarded", False):
        return
    load_index, load = files._load_index, files.load

    def guarded_load_index(self):
        try:
            return load_index(self)
        except Exception as error:  # noqa: BLE001 - see above
            _say_damaged(self._index_path, error, "numba's cache index", "the kernel is compiled again")
            return {}  # (the next save rewrites the index whole)

    def guarded_load(self, key):
        try:
            return load(self, key)
        except Exception as error:  # noqa: BLE001 - see above
            _say_damaged(self._index_path, error, "numba's cache", "the kernel is compiled again")
            return None

    files._load_index = guarded_load_index  # type: ignore[method-assign]
    files.load = guarded_load  # type: ignore[method-assign]
    files._subword_guarded = True  # type: ignore[attr-defined]


def _say_damaged(path, error: object, what: str, instead: str) -> None:
    """One warning per damaged file and process."""
    import warnings

    if str(path) in _said:
        return
    _said.add(str(path))
    warnings.warn(
        f"{what} {path} is damaged or unverified ({error}); {instead}", RuntimeWarning, stacklevel=3
    )


_said: set[str] = set()


# -- verified artefacts: a checksum recorded at build time, checked before loading --------------
#
# A truncated or scrambled shared library still loads (``dlopen`` maps what is there) and then
# kills the process with SIGBUS or SIGSEGV at its first call, with no message. So each build
# writes ``<artefact>.crc32`` beside the artefact, and a loader reads nothing that does not
# match it (a missing record included): it warns once and falls back to the next path (numba's
# JIT, the Python loop), which gives the same results. The record guards against damage (a
# truncated copy, flipped bits, a half-written build), not against someone who may write the
# folder (who could rewrite the record as well), so a CRC-32 is enough: zlib's takes ~0.3 ms
# for the ~0.8 MB extension, where a sha256 took ~2 ms and hashlib's import as much again.


def checksum_path(artefact: Path) -> Path:
    """Where ``artefact``'s recorded checksum lives: ``x.ctypes.so`` -> ``x.ctypes.so.crc32``."""
    return artefact.with_name(artefact.name + ".crc32")


def _checksum(path: Path) -> str:
    """The CRC-32 of ``path``'s bytes and their number, as text (``"1a2b3c4d 64072"``)."""
    import zlib

    data = path.read_bytes()
    return f"{zlib.crc32(data):08x} {len(data)}"


def _record_checksum(artefact: Path, of: Path | None = None) -> None:
    """Write ``artefact``'s sidecar from the bytes of ``of`` (the staged file about to become it)."""
    import os

    sidecar = checksum_path(artefact)
    staged = sidecar.with_name(sidecar.name + ".tmp")
    staged.write_text(_checksum(of or artefact) + "\n", encoding="ascii")
    os.replace(staged, sidecar)


def _verified(artefact: Path, fallback: str) -> bool:
    """Whether ``artefact`` matches its recorded checksum; one warning (naming ``fallback``) if not."""
    if artefact in _checked:
        return _checked[artefact]
    try:
        recorded = checksum_path(artefact).read_text(encoding="ascii").strip()
        problem = (
            None
            if _checksum(artefact) == recorded
            else "its checksum does not match the one recorded at build time"
        )
    except FileNotFoundError:
        problem = f"no checksum was recorded for it ({checksum_path(artefact).name}; rebuild with python -m core.build)"
    except (OSError, UnicodeDecodeError) as error:
        problem = f"it cannot be read ({error})"
    if problem is not None:
        _say_damaged(artefact, problem, "the compiled kernels", fallback)
    _checked[artefact] = problem is None
    return problem is None


_checked: dict[Path, bool] = {}


# -- ahead of time: the same kernels as an extension module, for jobs too short to pay for numba --

#: Kernel modules that can be compiled ahead of time, and where their exported signatures live
#: (in a module that does not import numba). ``python -m core.build`` builds them all.
AHEAD_OF_TIME = {
    "core.models.bpe.train_kernels": "core.models.bpe.signatures:EXPORTS",
    "core.models.bpe.sentencepiece_kernels": "core.models.bpe.sentencepiece_signatures:EXPORTS",
    "core.models.unigram.train_kernels": "core.models.unigram.signatures:EXPORTS",
}

#: Set to ``1`` to ignore compiled-ahead modules and always use the JIT kernels (tests use it).
JIT_ONLY_VARIABLE = "SUBWORD_EXPLORER_JIT_ONLY"


def ahead_of_time_name(module: str) -> str:
    """The importable name of ``module``'s compiled-ahead build for the sources as they are now.

    The name carries a hash of the kernels' source and of the module holding their signatures
    (and its constants), so an edited kernel never runs from a stale build: the new name is
    simply not there until it is built again. It also hashes the processor's features, because
    the build uses all of them (as the JIT does): a checkout moved to another machine falls back
    to the JIT instead of meeting an instruction its processor lacks. ``ahead_of_time_name("core.models.bpe.train_kernels")``
    is like ``"core.models.bpe._train_kernels_aot_3f2a9c1d"``.
    """
    import importlib.util
    import sys
    import zlib  # (crc32: a build's name, not a secret; hashlib's import costs a short job ~2.6 ms)

    digest = zlib.crc32(_processor_features(), zlib.crc32(f"{sys.version_info[:2]}".encode()))
    for name in (module, AHEAD_OF_TIME[module].partition(":")[0]):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ImportError(f"no module {name}")
        digest = zlib.crc32(Path(spec.origin).read_bytes(), digest)
    package, _, leaf = module.rpartition(".")
    return f"{package}._{leaf}_aot_{digest:08x}"


def load_ahead_of_time(module: str) -> ModuleType | None:
    """``module``'s kernels compiled ahead of time, or ``None`` (not built, stale, or JIT forced).

    The extension needs neither numba nor LLVM at run time, which is what saves a short job
    the ~0.5 s and ~120 MB of loading them; its kernels take the same arguments and release
    the GIL like the JIT ones. Callers fall back to importing ``module`` itself.
    """
    import importlib
    import importlib.util
    import os

    if os.environ.get(JIT_ONLY_VARIABLE) == "1":
        return None
    if module in _ahead_loaded:
        return _ahead_loaded[module]
    try:
        name = ahead_of_time_name(module)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return None
        if not _verified(Path(spec.origin), "numba's JIT compiles the kernels instead"):
            return None
        loaded = _ahead_loaded[module] = importlib.import_module(name)
        return loaded
    except ImportError:  # not built here (or built for another numpy): the JIT kernels will do
        return None


# Each module's extension once loaded, as _plain_loaded below: finding and verifying it again
# (its name hashes the sources, its record is checked over the ~0.8 MB file) cost ~0.1 ms a time,
# and the Unigram trainer asks some twenty times. An extension stays loaded anyway: Python cannot
# unload one, so a build made later in the process would not be imported either.
_ahead_loaded: dict[str, ModuleType] = {}


def build_ahead_of_time(module: str) -> Path:
    """Compile ``module``'s exports (``{function: numba signature}``) into an extension beside it.

    Uses ``numba.pycc`` (deprecated by numba but still shipped; it needs a C compiler and the
    Python headers). Removes older builds of the same module. Returns the extension's path.
    """
    import importlib
    import os
    import shutil
    import tempfile
    import warnings

    _use_a_scratch_numba_cache()
    from numba.core.compiler import Flags
    from numba.pycc import CC, compiler

    class _ReleasingTheGil(Flags):  # pycc has no nogil option; the JIT kernels release the GIL too
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    compiler.Flags = _ReleasingTheGil  # type: ignore[misc]
    exports = _exports_of(AHEAD_OF_TIME[module])
    name = ahead_of_time_name(module)
    source = importlib.import_module(module)
    folder = Path(source.__file__ or ".").parent
    leaf = name.rpartition(".")[2]
    # Built in a scratch folder beside the target and moved in with one rename, so a training
    # starting meanwhile (another setup.sh, a test) never imports a half-written extension.
    staging = Path(tempfile.mkdtemp(prefix=".aot-build-", dir=folder))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc = CC(leaf)
            # This machine's processor, as the JIT compiles for (~13 % faster merges than
            # generic x86-64 code); the name hashes its features, see ahead_of_time_name.
            cc.target_cpu = "host"
            cc.output_dir = str(staging)
            cc.verbose = False
            for function, signature in exports.items():
                cc.export(function, signature)(getattr(source, function).py_func)
            cc.compile()
        made = next(staging.glob(leaf + ".*"))
        built = folder / made.name
        _record_checksum(built, of=made)  # (first: the artefact never stands without its record)
        os.replace(made, built)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    stem = leaf.rsplit("_", 1)[0] + "_"
    for old in folder.glob(stem + "*"):
        if not old.name.startswith(leaf + "."):
            old.unlink()
    return built


# -- ahead of time, without numpy: a plain shared library for the smallest jobs -----------------

#: Kernel modules that are also built as a plain shared library (C calling convention, arrays as
#: pointer and length), called through ctypes on ``array.array`` buffers. A job of a tenth of a
#: second cannot pay numpy's import (~0.05 s of CPU): the extension above needs numpy to start,
#: this library needs nothing but the C library. ``python -m core.build`` builds it too.
PLAIN_LIBRARIES = ("core.models.bpe.train_kernels", "core.models.bpe.sentencepiece_kernels")


def plain_library_path(module: str) -> Path:
    """Where ``module``'s plain shared library lives: beside it, named like its extension
    (``_train_kernels_lib_3f2a9c1d.ctypes.so``), so it too is rebuilt when a kernel changes. The dot
    in ``.ctypes.so`` keeps Python from taking it for an extension module (``pkgutil`` walks, an
    ``import``): it is not one."""
    import importlib.util

    name = ahead_of_time_name(module).rpartition(".")[2].replace("_aot_", "_lib_")
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent / f"{name}.ctypes.so"


class PlainKernels:
    """``module``'s kernels from its plain shared library, called like the extension's.

    Array arguments are ``array.array`` objects (their whole buffer) or :class:`Span` views of
    one; each goes to the library as its address and length. A kernel returning a pair of ints
    gets a pointer for the second. The library's functions use numba's calling convention
    (a status, then a pointer for the result, then one for an exception's details).
    """

    def __init__(self, path: Path, exports: dict[str, str]) -> None:
        import ctypes

        library = ctypes.CDLL(str(path))
        self._ctypes = ctypes
        self._library = library  # (kept alive with its functions)
        for name, signature in exports.items():
            restype, args = _parse_signature(signature)
            function = getattr(library, name)
            function.restype = ctypes.c_int32
            argtypes: list = [ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p]
            for kind in args:
                argtypes += [ctypes.c_void_p, ctypes.c_int64] if kind.endswith("[::1]") else [ctypes.c_int64]
            if restype.startswith("UniTuple"):
                argtypes.append(ctypes.c_void_p)
            function.argtypes = argtypes
            setattr(self, name, self._caller(name, function, args, restype))

    def _caller(self, name: str, function, kinds: list[str], restype: str):
        ctypes = self._ctypes
        arrays = [kind.endswith("[::1]") for kind in kinds]
        pair = restype.startswith("UniTuple")

        def call(*values):
            flat: list = []
            for is_array, value in zip(arrays, values, strict=True):
                if is_array:
                    flat += value.address_and_length() if isinstance(value, Span) else value.buffer_info()
                else:
                    flat.append(value)
            result = ctypes.c_int64()
            error = ctypes.c_void_p()
            second = ctypes.c_int64()
            if pair:
                flat.append(ctypes.addressof(second))
            status = function(ctypes.byref(result), ctypes.byref(error), *flat)
            if status != 0:
                raise RuntimeError(f"the compiled kernel {name} failed (status {status})")
            return (result.value, second.value) if pair else result.value

        call.__name__ = name
        return call


class Span:
    """Items ``start`` to ``start + length`` of an ``array.array``, passed to a plain kernel as an
    array of their own (as a numpy slice would be)."""

    __slots__ = ("array", "start", "length")

    def __init__(self, array, start: int, length: int) -> None:
        self.array, self.start, self.length = array, start, length

    def address_and_length(self) -> tuple[int, int]:
        address, size = self.array.buffer_info()
        if not 0 <= self.start <= self.start + self.length <= size:
            raise IndexError(f"span {self.start}+{self.length} of an array of {size}")
        return address + self.start * self.array.itemsize, self.length


def load_plain_library(module: str) -> PlainKernels | None:
    """``module``'s kernels from its plain shared library, or ``None`` (not built, stale, JIT forced)."""
    import os

    if os.environ.get(JIT_ONLY_VARIABLE) == "1":
        return None
    try:
        path = plain_library_path(module)
    except ImportError:
        return None
    if path in _plain_loaded:
        return _plain_loaded[path]
    if not path.exists():
        return None
    if not _verified(path, "small jobs merge in Python instead"):
        return None
    try:
        kernels = PlainKernels(path, _exports_of(AHEAD_OF_TIME[module]))
    except (OSError, AttributeError):  # unloadable here (another machine's build): the other paths do
        return None
    _plain_loaded[path] = kernels
    return kernels


_plain_loaded: dict[Path, PlainKernels] = {}  # (a library stays loaded: its name changes with its source)


def _parse_signature(signature: str) -> tuple[str, list[str]]:
    """``"int64(int32[::1], int64)"`` -> ``("int64", ["int32[::1]", "int64"])`` (the exports'
    notation, in which no argument holds parentheses)."""
    cut = signature.rindex("(")
    args = [arg.strip() for arg in signature[cut + 1 : -1].split(",")]
    return signature[:cut].strip(), [arg for arg in args if arg]


_STUB = """
#include <stdlib.h>
/* Arrays made from pointers have no memory record, so numba's runtime never frees one here. */
void NRT_MemInfo_call_dtor(void *info) { (void)info; abort(); }
"""


def build_plain_library(module: str) -> Path:
    """Compile ``module``'s exports into a plain shared library beside it (see :data:`PLAIN_LIBRARIES`).

    Each export gets a wrapper taking every array as a pointer and a length (numba's ``carray``);
    numba's ahead-of-time compiler writes them to an object file and the C compiler links it.
    """
    import importlib
    import os
    import shutil
    import subprocess
    import tempfile
    import warnings

    _use_a_scratch_numba_cache()
    from numba import carray, types
    from numba.pycc.compiler import ExportEntry, ModuleCompiler

    exports = _exports_of(AHEAD_OF_TIME[module])
    source = importlib.import_module(module)
    target = plain_library_path(module)
    numba_types: dict[str, types.Type] = {"int32": types.int32, "int64": types.int64, "bool_": types.boolean}
    entries = []
    for name, signature in exports.items():
        restype, kinds = _parse_signature(signature)
        params: list[str] = []
        values: list[str] = []
        arg_types: list[types.Type] = []
        for i, kind in enumerate(kinds):
            if kind.endswith("[::1]"):
                params += [f"p{i}", f"n{i}"]
                values.append(f"carray(p{i}, (n{i},))")
                arg_types += [types.CPointer(numba_types[kind[:-5]]), types.int64]
            else:
                params.append(f"v{i}")
                values.append(f"v{i}")
                arg_types.append(numba_types[kind])
        call = f"kernel({', '.join(values)})"
        if restype.startswith("UniTuple"):
            params.append("second")
            arg_types.append(types.CPointer(types.int64))
            body = f"    r = {call}\n    second[0] = r[1]\n    return r[0]\n"
        elif restype == "void":
            body = f"    {call}\n    return 0\n"
        else:
            body = f"    return {call}\n"
        namespace = {"kernel": getattr(source, name), "carray": carray}
        exec(f"def {name}({', '.join(params)}):\n{body}", namespace)
        entries.append(ExportEntry(name, types.int64(*arg_types), namespace[name]))
    staging = Path(tempfile.mkdtemp(prefix=".lib-build-", dir=target.parent))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiler = ModuleCompiler(entries, target.name.split(".")[0], use_nrt=True, cpu_name="host")
            compiler.write_native_object(str(staging / "kernels.o"), wrap=False)
        (staging / "stub.c").write_text(_STUB)
        made = staging / target.name
        cc = os.environ.get("CC") or shutil.which("cc") or "gcc"
        subprocess.run(
            [cc, "-shared", "-fPIC", "-O2", "-o", str(made), str(staging / "kernels.o"), str(staging / "stub.c")],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        _record_checksum(target, of=made)
        os.replace(made, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    stem = target.name.rsplit("_", 1)[0] + "_"
    for old in target.parent.glob(stem + "*"):
        if old.name not in (target.name, checksum_path(target).name):
            old.unlink()
    return target


def _use_a_scratch_numba_cache() -> None:
    """Point numba's cache at a folder of this process's own, removed when the process ends.

    subtle: a build compiles from source, never from numba's on-disk cache (a cached library
    cannot always be linked into an extension), and leaves no cache entries behind. numba reads
    the variable once, when first imported, so one folder serves every build of the process.
    """
    import atexit
    import os
    import shutil
    import tempfile

    if "numba" in sys.modules or os.environ.get("SUBWORD_EXPLORER_AOT_CACHE"):
        return
    scratch = tempfile.mkdtemp(prefix="subword-aot-")
    os.environ["NUMBA_CACHE_DIR"] = os.environ["SUBWORD_EXPLORER_AOT_CACHE"] = scratch
    atexit.register(shutil.rmtree, scratch, True)


@functools.cache
def _processor_features() -> bytes:
    """What the processor can do (Linux: the ``flags`` of /proc/cpuinfo; elsewhere the machine name).

    Read once per process: a Unigram training asks for its kernels' build some twenty times, and
    each read of /proc/cpuinfo costs ~0.1 ms.
    """
    try:
        with open("/proc/cpuinfo", "rb") as info:
            for line in info:
                if line.startswith(b"flags"):
                    return line.strip()
    except OSError:
        pass
    import platform  # (here: its import costs a short job ~1.6 ms)

    return platform.machine().encode()


def _exports_of(where: str) -> dict[str, str]:
    import importlib

    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)
