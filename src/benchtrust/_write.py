"""Writing outputs safely: each file goes next to its target under a temporary name and is renamed into
place (:func:`write_atomic`, :func:`atomic_path`), so a reader never sees a half-written file and an
input is never overwritten by a failed write.

Nor by a successful one: within :func:`protecting` (the command line wraps every command in it, with the
files the command reads), a write whose target is one of those files, by its path, a symbolic link or a
hard link, is refused (:func:`check_target`) before anything is written.

Nor is a user's file replaced without a word: :func:`check_target` refuses a file that exists already
unless told to replace it (``force``; on the command line ``--force``, which the command line passes to
:func:`protecting`, so that every write within the block, the checks made before the command's work starts
and the write itself, follows it). Outside such a block, as from Python, an existing file is replaced.

A command that writes several files into a folder checks them all first (:func:`check_folder`): a file
it would write that exists already is refused, naming it, unless it was told to replace it (``--force``),
so a user's files in the folder are never replaced without a word, and a refusal leaves the folder as it was;
it then writes them with :func:`write_together`, so that the folder gets all of them or none.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
import stat
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from benchtrust._io import InputError

__all__ = [
    "atomic_path",
    "check_folder",
    "check_target",
    "protecting",
    "refuse_read_only",
    "write_atomic",
    "write_together",
]


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
        If the folder does not exist or cannot be written to, or `path` cannot be written
        (:func:`check_target`: a folder, a read-only file, a file the command reads, a name too long,
        a file that exists already within a command not given ``--force``).

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


def write_together(files: Mapping[str | os.PathLike[str], bytes | str]) -> None:
    """Write several files (path -> data) so that either all of them are written or none is.

    Each goes to a temporary file next to its target first, as in :func:`write_atomic`; only once all of
    them are written are they renamed onto their targets, one after the other. On any error, or a stop
    (Ctrl-C, SIGTERM) before the renaming, every temporary file is removed and no target is touched; a stop
    that comes while they are renamed (microseconds) takes effect once all of them are.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     files = {pathlib.Path(folder, name): "x\\n1\\n" for name in ("a.csv", "b.csv")}
    ...     write_together(files)
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    ['a.csv', 'b.csv']
    """
    with contextlib.ExitStack() as stack:
        for path, data in files.items():
            payload = data.encode("utf-8") if isinstance(data, str) else data
            temporary = stack.enter_context(atomic_path(path))
            with open(temporary, "wb") as stream:
                stream.write(payload)
                stream.flush()
                os.fsync(stream.fileno())
        with _stops_deferred():
            stack.close()  # each atomic_path renames its file


@contextlib.contextmanager
def _stops_deferred() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM are held; the first that came is sent again after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came = []
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    before = {signum: handler for signum, handler in before.items() if handler is not None}
    for signum in before:
        signal.signal(signum, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if came:
            signal.raise_signal(came[0])


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
        If the folder does not exist or cannot be written to, or `path` cannot be written
        (:func:`check_target`: a folder, a read-only file, a file the command reads, a name too long,
        a file that exists already within a command not given ``--force``).

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
    target = check_target(path)
    temporary = _create_sibling(target)
    try:
        yield temporary
        try:
            os.replace(temporary, target)
        except IsADirectoryError:
            raise InputError(f"cannot write {os.fspath(path)}: it is a folder") from None
        except PermissionError:
            raise InputError(f"cannot write {os.fspath(path)}: permission denied") from None
        except FileNotFoundError:  # the writer removed the temporary file: not the user's doing
            raise
        except OSError as exc:  # such as a path too long or a read-only file system
            raise InputError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise


def refuse_read_only(target: str | os.PathLike[str]) -> None:
    """InputError if `target` is an existing file its owner made read-only, or this process may not write.

    Renaming a new file over `target` would succeed even then (it needs only the folder's permission),
    so a write-protected file would be silently replaced; it is refused instead. A file with no write
    permission bit counts as read-only even for a user who could write it anyway (root).

    Examples
    --------
    >>> import os, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     kept = pathlib.Path(folder, "kept.html")
    ...     _ = kept.write_text("mine", encoding="utf-8")
    ...     os.chmod(kept, 0o444)
    ...     refuse_read_only(kept)
    Traceback (most recent call last):
    ...
    benchtrust.InputError: cannot write ...kept.html: the file is read-only (make it writable, or write ...
    """
    try:
        mode = os.stat(target).st_mode
    except OSError:  # no such file (or it cannot be seen): creating it is checked when it is created
        return
    if stat.S_ISREG(mode) and (not mode & 0o222 or not os.access(target, os.W_OK)):
        raise InputError(
            f"cannot write {os.fspath(target)}: the file is read-only "
            "(make it writable, or write another file)"
        )


#: The files the running command reads, (device, inode) -> the path as the command was given it; None: none.
_READ: contextvars.ContextVar[dict[tuple[int, int], str] | None] = contextvars.ContextVar(
    "read", default=None
)
#: Whether the running command may replace a file that exists already (``--force``); True outside a command.
_FORCE: contextvars.ContextVar[bool] = contextvars.ContextVar("force", default=True)


@contextlib.contextmanager
def protecting(paths, *, force: bool | None = None) -> Iterator[None]:
    """Within the block, no write replaces one of `paths`, the files the running command reads, nor, unless
    `force`, any file that exists already (:func:`check_target`).

    A file is known by its device and inode (``os.stat``, symbolic links followed), so another path to it,
    a symbolic link or a hard link is the same file. Paths that name no existing file are skipped. Blocks
    nest: an inner block adds files (such as those a config names) to the outer block's, and keeps its
    `force` unless given one.

    Examples
    --------
    >>> import os, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     results = pathlib.Path(folder, "results.csv")
    ...     _ = results.write_text("data,acc\\n", encoding="utf-8")
    ...     os.link(results, pathlib.Path(folder, "copy.csv"))
    ...     with protecting([results]):
    ...         write_atomic(pathlib.Path(folder, "copy.csv"), "x")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: cannot write .../copy.csv over .../results.csv, which this command reads; ...
    """
    read = dict(_READ.get() or {})
    for path in paths:
        key = _identity(path)
        if key is not None:
            read.setdefault(key, os.fspath(path))
    token = _READ.set(read)
    allowed = _FORCE.set(_FORCE.get() if force is None else bool(force))
    try:
        yield
    finally:
        _FORCE.reset(allowed)
        _READ.reset(token)


def check_target(
    path: str | os.PathLike[str], option: str | None = None, *, force: bool | None = None
) -> Path:
    """`path` as a Path, if a file can be written there; else an InputError (prefixed with `option`).

    Refused: a name that is no file's (``""``, ``/``, ``.``, ``..``, or ending in ``/``), a name longer
    than the file system allows, an existing folder, a file the command reads (:func:`protecting`) and a
    read-only file (:func:`refuse_read_only`), whatever `force` says; and a file that exists already
    (a symbolic link too), unless `force`. That the folder exists is checked when writing.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write.
    option : str, optional
        The option that named `path` (``"--report"``), to begin each message with.
    force : bool, optional
        Whether an existing file may be replaced; None: as the enclosing :func:`protecting` block says
        (the command's ``--force``), and yes outside any.

    Examples
    --------
    >>> check_target("/", "--plot")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: --plot: cannot write '/': expected a file name, got a folder's
    >>> check_target("a" * 300 + ".png")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: cannot write aaa...a.png: the file name is 304 bytes long; the file system ...
    >>> import pathlib, tempfile
    >>> kept = pathlib.Path(tempfile.mkdtemp(), "kept.html")
    >>> _ = kept.write_text("the user's", encoding="utf-8")
    >>> check_target(kept, "--report", force=False)
    Traceback (most recent call last):
    ...
    benchtrust.InputError: --report: .../kept.html exists already; give --force to replace it, or write ...
    >>> check_target(kept, "--report", force=True) == kept
    True
    >>> import shutil; shutil.rmtree(kept.parent)
    """
    prefix = f"{option}: " if option else ""
    text = os.fspath(path)
    target = Path(text)
    if target.name in ("", ".", "..") or text.endswith(("/", os.sep)):
        raise InputError(f"{prefix}cannot write {text!r}: expected a file name, got a folder's")
    size, limit = len(os.fsencode(target.name)), _name_limit(target.parent)
    if size > limit:
        shown = f"{target.name[:3]}...{target.name[-5:]}"
        raise InputError(
            f"{prefix}cannot write {shown}: the file name is {size} bytes long; the file system takes at "
            f"most {limit}"
        )
    if os.path.isdir(target):  # False, not an error, for a path the system cannot look up
        raise InputError(f"{prefix}cannot write {text}: it is a folder")
    identity = _identity(target)
    read = None if identity is None else (_READ.get() or {}).get(identity)
    if read is not None:
        raise InputError(
            f"{prefix}cannot write {text} over {read}, which this command reads; "
            "write the output to another file"
        )
    try:
        refuse_read_only(target)
    except InputError as exc:
        raise InputError(f"{prefix}{exc}") from None
    if not (_FORCE.get() if force is None else force) and os.path.lexists(target):
        raise InputError(f"{prefix}{text} exists already; give --force to replace it, or write another file")
    return target


def check_folder(
    folder, names, *, force=False, option: str | None = None, remedy: str | None = None
) -> list[Path]:
    """The paths of `names` in `folder`, if every one of them can be written; else an InputError naming one.

    Call it before writing any of them (and before long work whose results they hold), so that a refusal
    leaves the folder as it was. Refused: a `folder` that is a file, a target :func:`check_target` refuses
    (a folder, a read-only file, a file the command reads: even with `force`), and a target that exists
    already, unless `force` allows replacing it. The folder itself need not exist yet.

    Parameters
    ----------
    folder : str or os.PathLike
        The output folder.
    names : iterable of str
        The files to write, relative to `folder` (such as ``"impact.csv"`` or ``"multiverse/impact.csv"``).
    force : bool or collection of str, default False
        True: existing files may be replaced; a collection: those of `names` that may be.
    option : str, optional
        The option that named `folder` (``"--out"``), to begin each message with.
    remedy : str, optional
        What the refusal of an existing file tells the user to do (default: give ``--force`` with an
        `option`, else ``force=True``, or write to another folder).

    Returns
    -------
    list of pathlib.Path

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "impact.csv").write_text("mine", encoding="utf-8")
    >>> [path.name for path in check_folder(folder, ["rankings.csv", "impact.csv"], force=True)]
    ['rankings.csv', 'impact.csv']
    >>> check_folder(folder, ["rankings.csv", "impact.csv"], option="--out")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: --out: .../impact.csv exists already; give --force to replace them, or write to ...
    >>> import shutil; shutil.rmtree(folder)
    """
    prefix = f"{option}: " if option else ""
    text = os.fspath(folder)
    if not text.strip():
        raise InputError(f"{prefix}expected a folder name, got {text!r}")
    if os.path.exists(text) and not os.path.isdir(text):
        raise InputError(f"{prefix}cannot write into {text}: it is a file, not a folder")
    names = list(names)
    targets = [check_target(Path(text, name), option, force=True) for name in names]
    existing = [
        target
        for name, target in zip(names, targets, strict=True)
        if os.path.lexists(target) and not (force is True or (force and name in force))
    ]
    if existing:
        more = len(existing) - 1
        others = f" (and {more} more file{'s' * (more != 1)} it would write)" if more else ""
        if remedy is None:
            how = "give --force" if option else "pass force=True"
            remedy = f"{how} to replace them, or write to another folder"
        raise InputError(f"{prefix}{existing[0]} exists already{others}; {remedy}")
    return targets


def _identity(path) -> tuple[int, int] | None:
    """(device, inode) of the regular file `path` names, following links; None if it names none."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):  # no such file, or not a valid path (a NUL byte)
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISREG(status.st_mode) else None


def _name_limit(folder: Path) -> int:
    """The longest file name, in bytes, the file system of `folder` takes (255 where it cannot be told)."""
    try:
        return os.pathconf(folder if os.path.isdir(folder) else ".", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # AttributeError: no pathconf (Windows)
        return 255


def _create_sibling(target: Path) -> Path:
    """Create a new, empty, hidden file in `target`'s folder and return its path.

    Its name is the target's between ``.`` and ``.<random>.tmp<suffix>`` (the suffix left out if longer
    than 32 bytes), the target's name shortened if the whole would be too long for the file system.
    Created with mode 0o666 so the process umask applies, as for any ordinary new file.
    """
    suffix = target.suffix if len(os.fsencode(target.suffix)) <= 32 else ""
    room = _name_limit(target.parent) - len(os.fsencode(f"..12345678.tmp{suffix}"))
    name = target.name
    while name and len(os.fsencode(name)) > room:
        name = name[:-1]
    while True:
        candidate = target.with_name(f".{name}.{os.urandom(4).hex()}.tmp{suffix}")
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
        except OSError as exc:  # such as a read-only file system
            raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
        os.close(descriptor)
        return candidate
