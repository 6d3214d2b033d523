"""Work spread over the machine's cores: one process per item, the results handed back in the items' order.

Used where the items are independent and each is costly enough to pay for a process: a sweep's files (one big
file's cuts spread this way gained nothing on a 2-core machine: BENCHMARKS.md, "Every core"). The processes are
forked, so they start with what this one has imported and cost no start-up; they are only used for word search,
which loads no model: a run with the language model keeps one process, whose model already uses every core (and
whose memory would be paid once per process).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def cores() -> int:
    """The cores this process may use (its affinity, which a container or ``taskset`` narrows), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def workers(jobs: int | None, items: int) -> int:
    """How many processes: ``jobs`` (0 or None: one per core), never more than the items, and one when forking is
    not how this system starts processes (the items then run here, in order)."""
    wanted = cores() if not jobs else jobs
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(wanted, items))


def in_order(work: Callable[[Item], Result], items: Sequence[Item], jobs: int | None = None,
             sizes: Sequence[int] | None = None) -> Iterator[tuple[int, Result]]:
    """``work(item)`` for every item, yielding ``(index, result)`` as each finishes (so a caller can say so) while
    a caller that sorts by index gets the items' order. With one worker the items run here, one after another.

    ``sizes``: each item's rough cost; the largest start first, so the last to finish is a small one.
    """
    count = workers(jobs, len(items))
    if count == 1:
        for index, item in enumerate(items):
            yield index, work(item)
        return
    order = sorted(range(len(items)), key=lambda i: -(sizes[i] if sizes else 0))
    context = multiprocessing.get_context("fork")
    # Frozen, this process's objects are left out of the children's collections: a collection touching every
    # inherited object would copy the pages they share with this one.
    gc.freeze()
    try:
        yield from _pooled(work, items, order, count, context)
    finally:
        gc.unfreeze()


def _pooled(work, items, order, count, context) -> Iterator[tuple[int, Result]]:
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        pending: dict[Future, int] = {pool.submit(work, items[i]): i for i in order}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: pending[f]):
                    yield pending.pop(future), future.result()
        except BaseException:  # Ctrl+C or an error: the files not started are not started
            for future in pending:
                future.cancel()
            raise
