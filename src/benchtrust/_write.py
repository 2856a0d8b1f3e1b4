"""Writing outputs safely: each file goes next to its target under a temporary name and is renamed into
place (:func:`write_atomic`, :func:`atomic_path`), so a reader never sees a half-written file and an
input is never overwritten by a failed write.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from benchtrust._io import InputError

__all__ = ["atomic_path", "write_atomic"]


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write `data` to `path` so that `path` is either unchanged or complete, never partial.

    The data go to a new temporary file in the target's folder, are flushed to disk, and the temporary file
    is renamed over `path` (:func:`os.replace`, atomic on POSIX and Windows). On any error the temporary
    file is removed and `path` is left as it was.

    Parameters
    ----------
    path : str or os.PathLike
        The file to create or replace. Its folder must exist.
    data : bytes or str
        The content; a ``str`` is encoded as UTF-8, with line endings written as given.

    Raises
    ------
    InputError
        If the folder does not exist, cannot be written to, or `path` is a folder.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = pathlib.Path(folder, "result.json")
    ...     write_atomic(target, '{"ok": true}\\n')
    ...     print(target.read_text(encoding="utf-8"), end="")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    {"ok": true}
    ['result.json']
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path) as temporary, open(temporary, "wb") as stream:
        stream.write(payload)
        stream.flush()
        os.fsync(stream.fileno())


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to `path`; rename it onto `path` if the block succeeds, else delete it.

    For writers that want a file name rather than bytes, such as matplotlib's ``savefig``. The temporary
    file already exists (empty) when yielded, is hidden (its name starts with ``.``) and ends with the
    target's suffix, so writers that infer the format from the extension pick the right one.

    Parameters
    ----------
    path : str or os.PathLike
        The file to create or replace. Its folder must exist.

    Yields
    ------
    pathlib.Path
        The temporary file to write.

    Raises
    ------
    InputError
        If the folder does not exist, cannot be written to, or `path` is a folder.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = pathlib.Path(folder, "plot.png")
    ...     with atomic_path(target) as temporary:
    ...         print(temporary.parent == target.parent, temporary.suffix)
    ...         _ = temporary.write_bytes(b"not really a png")
    ...     target.read_bytes()
    True .png
    b'not really a png'
    """
    target = Path(path)
    temporary = _create_sibling(target)
    try:
        yield temporary
        try:
            os.replace(temporary, target)
        except IsADirectoryError:
            raise InputError(f"cannot write {os.fspath(path)}: it is a folder") from None
        except PermissionError:
            raise InputError(f"cannot write {os.fspath(path)}: permission denied") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise


def _create_sibling(target: Path) -> Path:
    """Create a new, empty, hidden file in `target`'s folder and return its path.

    Created with mode 0o666 so the process umask applies, as for any ordinary new file.
    """
    while True:
        candidate = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp{target.suffix}")
        try:
            descriptor = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except FileNotFoundError:
            raise InputError(f"cannot write {target}: folder '{target.parent}' does not exist") from None
        except NotADirectoryError:
            raise InputError(f"cannot write {target}: '{target.parent}' is not a folder") from None
        except PermissionError:
            raise InputError(
                f"cannot write {target}: permission denied in folder '{target.parent}'"
            ) from None
        os.close(descriptor)
        return candidate
