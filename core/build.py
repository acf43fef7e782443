"""``python -m core.build``: compile the engine's kernels ahead of time and fill numba's cache.

    $ python -m core.build        # .ci/setup.sh runs it; a second run finds everything current

What it does, in order:

1. the encoders' kernels (``core.warmup.load_compiled_encoders``) stay JIT (``cache=True``):
   they are compiled into numba's on-disk cache now, so the explorer's first start does not
   spend seconds compiling on its helper thread;
2. every kernel module of ``core.jit.AHEAD_OF_TIME`` is built as an extension (no numba at run
   time), and every one of ``core.jit.PLAIN_LIBRARIES`` as a plain shared library (no numpy),
   each only when missing or stale.

A build that fails (no C compiler, no Python headers) says what works without it and the
command exits 1; the engine still runs on numba's JIT. The mechanism (the ``kernel`` decorator,
the builders and loaders) is ``core.jit``, at the bottom of the engine; this command sits at
the top because warming up imports every model.
"""

from __future__ import annotations

import sys
import time

from core.jit import (
    AHEAD_OF_TIME,
    PLAIN_LIBRARIES,
    build_ahead_of_time,
    build_plain_library,
    load_ahead_of_time,
    load_plain_library,
)
from core.warmup import load_compiled_encoders


def main() -> int:
    """Build every compiled-ahead kernel module that is missing or stale, after warming numba's
    cache of the encoders' kernels; 0 when everything is built, 1 when a build failed."""
    # subtle: the warm-up comes before the ahead-of-time builds: compiled after one in the same
    # process, nothing was cached (the next run compiled them all again: 13 s in CI's second set-up)
    started = time.perf_counter()
    load_compiled_encoders()
    print(f"build: encoders' kernels cached ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    status = 0
    builds = (  # (modules, load, build, what is built, what works without it)
        (AHEAD_OF_TIME, load_ahead_of_time, build_ahead_of_time, "the ahead-of-time extension", "it will use numba's JIT"),
        (PLAIN_LIBRARIES, load_plain_library, build_plain_library, "the plain library", "small jobs will merge in Python"),
    )  # fmt: skip
    for modules, load, build, what, fallback in builds:
        for module in modules:
            if load(module) is not None:
                print(f"build: {module}: {what} is built already", file=sys.stderr)
                continue
            try:
                built = build(module)
            except Exception as error:  # no compiler, no headers...: the fallback still works
                print(f"build: {module}: could not build {what} ({error}); {fallback}", file=sys.stderr)
                status = 1
                continue
            print(f"build: built {built}", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
