"""``python -m workbench``: the command line.

A finished command leaves without the interpreter's teardown: freeing every object and module one by one, and a last
full collection, cost 0.08 s of CPU after importing the command line alone and 0.1-0.3 s after a sweep, for nothing
the command wrote (BENCHMARKS.md, "Stop 44: the fixed costs"). The exit is registered before anything else is
imported, so it runs after every other exit handler (the last registered runs first: pools joined, finalizers and
the library's own handlers done), once the output streams are flushed; an unexpected error, or streams that cannot
be flushed, leave the usual way.
"""

import atexit
import os
import sys

_status: list[int] = []  # main's exit status, once it returned


def _leave() -> None:
    if not _status:  # an error escaped main: the usual exit, with its traceback and status
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: let the interpreter report it as it does
        return
    os._exit(_status[0])


atexit.register(_leave)

from workbench.output.cli import main  # noqa: E402 (after the exit: see the module's text)

_status.append(main())
raise SystemExit(_status[0])
