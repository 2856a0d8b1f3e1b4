"""Keep what a solver library prints out of the standard output, where ``--json`` writes its one object.

HiGHS (behind :func:`scipy.optimize.milp`) writes with C's ``printf``, below Python's ``sys.stdout``: with
``disp`` off it still prints a banner or a debug line in some cases. :func:`quiet_stdout` points file
descriptor 1 at the null device while the solver runs, flushing C's buffer before putting it back so that
nothing the solver wrote comes out later.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys


def _flush_c_stdout():
    """Flush the C library's buffered output (what the solver printed but did not write out yet)."""
    with contextlib.suppress(OSError, AttributeError):  # no C library to call: nothing of it to flush
        ctypes.CDLL(None).fflush(None)


@contextlib.contextmanager
def quiet_stdout():
    """Run the block (a solver call) with file descriptor 1 on the null device.

    Examples
    --------
    >>> with quiet_stdout():
    ...     _ = os.write(1, b"solver banner")
    """
    sys.stdout.flush()
    _flush_c_stdout()
    try:
        saved = os.dup(1)
    except OSError:  # no file descriptor 1 (a closed or replaced stdout): nothing to protect
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        _flush_c_stdout()
        os.dup2(saved, 1)
        os.close(saved)
