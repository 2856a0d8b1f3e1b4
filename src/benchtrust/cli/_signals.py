"""Stopping on SIGTERM as on Ctrl-C: by an exception that unwinds the command, so that an output being
written is not left behind as a temporary file (:func:`benchtrust._write.atomic_path` removes it on any
exception) and the file it would have replaced stays as it was.

Python turns Ctrl-C (SIGINT) into :class:`KeyboardInterrupt`; SIGTERM, what ``kill``, ``timeout``, job
schedulers and container runtimes send, ends the process at once by default, skipping every cleanup.
:func:`main <benchtrust.cli.main>` calls :func:`exit_on_sigterm` first.
"""

from __future__ import annotations

import signal
import threading

__all__ = ["exit_on_sigterm"]


def exit_on_sigterm() -> None:
    """Make SIGTERM raise ``SystemExit(143)`` (128 + 15, the status a shell reports for it) in the main
    thread, unless the process already ignores or handles SIGTERM (then that choice stands).

    Examples
    --------
    >>> import signal
    >>> before = signal.getsignal(signal.SIGTERM)
    >>> exit_on_sigterm()
    >>> signal.getsignal(signal.SIGTERM) is _stop
    True
    >>> _ = signal.signal(signal.SIGTERM, before)
    """
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers; the program that started the thread owns them
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _stop)


def _stop(signum, frame):
    """The SIGTERM handler: unwind the command as Ctrl-C does, with the status of a process it ended.

    >>> _stop(signal.SIGTERM, None)
    Traceback (most recent call last):
    ...
    SystemExit: 143
    """
    raise SystemExit(128 + signum)
