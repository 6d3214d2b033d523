"""Writing the command line's outputs without ever overwriting an input or losing a previous output.

- An output that is one of the inputs, or a file the workbench keeps (the run history, the app's saved
  work, and SQLite's journal files beside them), or another output of the same run, is refused before any
  work: the same file on disk by device and inode (a hard link, a symlink or another spelling of the path
  included), or, for a file not there yet, the same path once symlinks are resolved. ``check_targets`` is
  that one check; every command that writes a file calls it through ``cli_args.check_outputs``.
- A missing folder is refused with its name, not created: a typo in a path should not grow folders.
- A file is written to a temporary file beside it and renamed into place, so a full disk or a
  failed write leaves the previous results whole; the new file keeps the old one's permissions.
- A pipe (FIFO) is opened without blocking: with no program reading it, the run says so instead of
  hanging; a terminal or device (``/dev/stdout``) is written in place, since it cannot be renamed over.
- The screen (stdout) closed early (``| head``) or full (``> /dev/full``) ends with one plain line.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from workbench.core.model import WorkbenchError

KEPT_BESIDE = ("-wal", "-shm", "-journal")  # SQLite's files beside a database: writing over one loses its last runs


def check_targets(
    targets: dict[str, str | None],
    inputs: Iterable[str | Path | None] = (),
    kept: Iterable[tuple[str | Path, str]] = (),
) -> None:
    """Refuse output paths that cannot be written, that are one of ``inputs``, one of the ``kept`` files (each
    with the words that name it, e.g. ``"the run history (--db)"``) or the same file as another output; before
    the run. ``targets``: each output option (``"--out"``) and the path it names (None when not given)."""
    given = [(option, path) for option, path in targets.items() if path]
    inputs = [Path(source) for source in inputs if source]
    kept = [(Path(path), what) for path, what in kept if path]
    for number, (option, path) in enumerate(given):
        check_target(option, path, inputs, kept)
        for other, other_path in given[:number]:
            if _same_file(Path(path), Path(other_path)):
                raise WorkbenchError(f"{other} and {option} name the same file ({path}): one would "
                                     "overwrite the other. Name two files.")


def check_target(
    option: str, path: str | None, inputs: Iterable[str | Path | None] = (), kept: Iterable[tuple[Path, str]] = ()
) -> None:
    """Refuse an output path that cannot be written, is one of ``inputs`` or one of the ``kept`` files."""
    if not path:
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise WorkbenchError(f"{option} {path} is a folder; name a file to write")
    if not folder.is_dir():
        raise WorkbenchError(
            f"{option} {path}: the folder {folder} does not exist; create it first or name another"
        )
    for source in inputs:
        if source and _same_file(target, Path(source)):
            raise WorkbenchError(
                f"{option} {path} is the input file {source}: writing there would overwrite "
                "it. Name another file."
            )
    for store, what in kept:
        for beside in ("", *KEPT_BESIDE):
            if _same_file(target, store.with_name(store.name + beside)):
                whose = f"{what} {store}" + (f" (its journal, {store.name}{beside})" if beside else "")
                raise WorkbenchError(
                    f"{option} {path} is {whose}: writing there would lose everything saved in it. "
                    "Name another file."
                )
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise WorkbenchError(f"{option} {path} cannot be written: permission denied")


def _same_file(one: Path, other: Path) -> bool:
    """The same file on disk; when either is not there yet, the same path once symlinks are resolved."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        try:
            return os.path.realpath(one) == os.path.realpath(other)
        except (OSError, ValueError):
            return False


def write_file(path: str | Path, content: str | bytes) -> None:
    """Write ``content`` to ``path`` whole or not at all; the previous file stays until the new one is complete."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    target = Path(path)
    try:
        info = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise WorkbenchError(f"cannot write {path}: {error.strerror or error}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(target, data, info)
        return
    folder = target.parent if str(target.parent) else Path(".")
    temporary = None
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())  # on disk before the rename: a crash leaves the old file or the new, whole
        os.chmod(temporary, stat.S_IMODE(info.st_mode) if info else 0o666 & ~_umask())
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        raise WorkbenchError(
            f"cannot write {path}: {error.strerror or error}" + ("; the previous file is unchanged" if info else "")
        ) from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_in_place(target: Path, data: bytes, info: os.stat_result) -> None:
    """A pipe, terminal or device: opened without blocking, so a pipe nobody reads is named, not waited on."""
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise WorkbenchError(f"cannot write {target}: it is a pipe and no program is reading it") from None
        raise WorkbenchError(f"cannot write {target}: {error.strerror or error}") from None
    try:
        os.set_blocking(descriptor, True)  # a reader is there: wait for it as a pipe should
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
    except OSError as error:
        raise WorkbenchError(f"cannot write {target}: {error.strerror or error}") from None
    finally:
        os.close(descriptor)


def write_stdout(text: str) -> None:
    """Print the output; a closed or full screen stream is one plain error, not a traceback at exit."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        if isinstance(error, BrokenPipeError):
            raise WorkbenchError("the output could not be written: the program reading it stopped early") from None
        raise WorkbenchError(f"the output could not be written: {error.strerror or error}") from None


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's own flush at exit finds nothing left to fail on."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass
