"""Files that are whole or absent: a process killed while writing one (kill -9, a power cut) leaves the previous
version, never a truncated file. `brass learn` writes its run's state this way and `brass serve --store` its
games."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from typing import IO, Any

#: The suffix of a file being written: never a name a reader of the folder takes for a finished file.
PARTIAL = ".partial"


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], mode: str = "wb") -> Iterator[IO[Any]]:
    """A file to write `path`'s new content into: a new file in the same folder (a rename across file systems
    is not atomic), flushed to the disk and renamed over `path` when the block ends without an error, then the
    folder flushed too (the rename itself is in the folder's data). On an error the new file is removed and
    `path` is as it was."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    partial = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}-{secrets.token_hex(4)}{PARTIAL}")
    # 0o666 less the umask, the mode open() gives: tempfile's 0o600 would make the run's files unreadable by
    # the other users who can read its folder.
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        text: dict[str, Any] = {} if "b" in mode else {"encoding": "utf-8", "newline": ""}
        with os.fdopen(fd, mode, **text) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise
    sync_folder(folder)


def write_whole(path: str | os.PathLike[str], data: bytes | str) -> None:
    """`data` as the content of `path`, whole or not at all (`replacing`)."""
    with replacing(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def sync_folder(folder: str) -> None:
    """Flush a folder's entries (a rename, a new file) to the disk; a system that cannot open a folder (Windows)
    has nothing to flush."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on a folder: their renames are as durable as they get
        pass
    finally:
        os.close(fd)


def remove_partials(folder: str) -> None:
    """Remove the unfinished files a killed writer left in `folder` (`replacing`'s names), if it exists."""
    if not os.path.isdir(folder):
        return
    for name in os.listdir(folder):
        if name.startswith(".") and name.endswith(PARTIAL):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(folder, name))
