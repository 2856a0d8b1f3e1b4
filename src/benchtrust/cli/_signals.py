"""Stopping on Ctrl-C (SIGINT) and SIGTERM: by an exception that unwinds the command, so that an output being
written is not left behind as a temporary file (:func:`benchtrust._write.atomic_path` removes it on any
exception), the file it would have replaced stays as it was, and work in worker processes is cancelled
(joblib aborts its pool when the loop that waits for it is unwound).

Python turns Ctrl-C into :class:`KeyboardInterrupt`, which click (under typer) turns into "Aborted!" and exit
code 1; SIGTERM, what ``kill``, ``timeout``, job schedulers and container runtimes send, ends the process at
once by default, skipping every cleanup. Within :func:`stopping_on_signals` (:func:`main
<benchtrust.cli.main>` runs every command in it) both raise ``SystemExit(128 + signal number)`` in the main
thread instead: 130 for SIGINT, 143 for SIGTERM, the statuses a shell reports for a process they end, and
:func:`stopped_line` is the one line the command prints. A second signal while the first unwinds ends the
process at once, as without benchtrust.

The exception comes wherever the main thread is when the signal arrives, and a library may swallow it there:
the initialisation of an extension module being imported turns it into an ImportError, which an import with
a fallback then catches. So the stop is also remembered: :func:`check_stopped`, which every progress step
calls, raises it again, and any exception that ends the block after a signal ends it as the stop.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

__all__ = ["STOPPED", "check_stopped", "stopped_line", "stopping_on_signals"]

#: The exit status of a command stopped by a signal -> the signal's name as the line says it.
STOPPED = {128 + signal.SIGINT: "Ctrl-C (SIGINT)", 128 + signal.SIGTERM: "SIGTERM"}

#: The exit status of the stop asked for within :func:`stopping_on_signals`, once a signal came.
_asked: list[int] = []


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise ``SystemExit(128 + signum)`` in the main thread, unless the
    process already handles or ignores the signal otherwise (then that choice stands); the handlers in
    place before are put back after it.

    Examples
    --------
    >>> import signal
    >>> with stopping_on_signals():
    ...     signal.getsignal(signal.SIGTERM) is _stop
    True
    >>> signal.getsignal(signal.SIGTERM) is _stop
    False
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; the program that started the thread owns them
        return
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    before = {signum: signal.getsignal(signum) for signum in defaults}
    _asked.clear()
    try:
        for signum, default in defaults.items():
            if before[signum] is default:
                signal.signal(signum, _stop)
        try:
            yield
        except BaseException:
            if _asked:  # whatever a library made of the stop, it is the stop
                raise SystemExit(_asked[0]) from None
            raise
    finally:
        _asked.clear()
        for signum, handler in before.items():
            if handler is not None:  # None: set from outside Python, cannot be put back
                signal.signal(signum, handler)


def stopped_line(status) -> str | None:
    """The line a command stopped with exit status `status` prints, or None if no signal stopped it.

    >>> stopped_line(143)
    'stopped by SIGTERM'
    >>> stopped_line(2) is None
    True
    """
    name = STOPPED.get(status) if isinstance(status, int) else None
    return None if name is None else f"stopped by {name}"


def check_stopped() -> None:
    """Raise the stop again if a signal came within :func:`stopping_on_signals` (in the main thread only:
    elsewhere it would end a worker, not the command). Every progress step calls it, so that a stop a
    library swallowed still ends the command at the next step.

    >>> import signal
    >>> with stopping_on_signals():
    ...     check_stopped()  # no signal came: nothing happens
    ...     try:
    ...         _stop(signal.SIGTERM, None)
    ...     except SystemExit:
    ...         pass  # as a library that swallows it would
    ...     check_stopped()
    Traceback (most recent call last):
    ...
    SystemExit: 143
    """
    if _asked and threading.current_thread() is threading.main_thread():
        raise SystemExit(_asked[0])


def _stop(signum, frame):
    """The handler: unwind the command with the status of a process the signal ended; a second signal (of
    either kind) while it unwinds ends the process at once.

    >>> import signal
    >>> with stopping_on_signals():
    ...     _stop(signal.SIGTERM, None)
    Traceback (most recent call last):
    ...
    SystemExit: 143
    """
    for other in (signal.SIGINT, signal.SIGTERM):
        signal.signal(other, signal.SIG_DFL)
    _asked.append(128 + signum)
    raise SystemExit(128 + signum)
