"""What the benchmarks that time benchtrust side by side with a peer library share: the peer in a throwaway
environment, the timing, and the bundled multi-task data they run on.

Each peer lives in its own virtual environment, ``benchmarks/.venv-<name>`` (git ignores it), created from
``benchmarks/requirements-<name>.txt`` the first time it is needed. A peer is only called, in a subprocess,
never imported into benchtrust's environment and never copied: its code is not read (see the
``*_FACTS.md`` files for what was learned from its documentation and its outputs).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: What a peer's column shows when its environment cannot be set up (no network, say).
UNAVAILABLE = "unavailable"


def peer_python(name: str, module: str) -> Path | None:
    """The Python of ``benchmarks/.venv-<name>``, created when missing; None if it cannot be set up.

    ``module`` is imported to check the environment works (e.g. ``"rliable"``).
    """
    venv = HERE / f".venv-{name}"
    requirements = HERE / f"requirements-{name}.txt"
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    importable = [str(python), "-c", f"import {module}"]
    if python.exists() and subprocess.run(importable, capture_output=True).returncode == 0:
        return python
    print(f"{name}: setting up {venv.relative_to(HERE.parent)} (python -m venv, then pip install -r")
    print(f"  {requirements.relative_to(HERE.parent)}; needs network, takes a minute or two) ...")
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(python), "-m", "pip", "install", "-q", "-r", str(requirements)],
        importable,
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
            print(f"{name}: UNAVAILABLE ({' '.join(step[1:4])} failed: {reason})")
            print(f"{name}: timing benchtrust alone; the speed-up targets cannot be judged.\n")
            return None
    print(f"{name}: installed.\n")
    return python


def run_peer(python: Path | None, snippet: str, jobs, *, timeout: float = 1800):
    """Run ``snippet`` in a peer's environment with ``jobs`` (JSON) on its stdin; its JSON answer.

    The snippet reads ``json.load(sys.stdin)`` and prints one line ``PEER-JSON <json>``. Returns that
    JSON, or ``{"error": ...}`` when the peer is unavailable or the subprocess fails.
    """
    if python is None:
        return {"error": UNAVAILABLE}
    done = subprocess.run(
        [str(python), "-c", snippet], input=json.dumps(jobs), capture_output=True, text=True, timeout=timeout
    )
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("PEER-JSON "):
            return json.loads(line.removeprefix("PEER-JSON "))
    reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return {"error": f"subprocess failed: {reason}"}


def speed_up(ours: float, theirs: float | None) -> float | None:
    """How many times faster benchtrust is (None when the peer was not timed)."""
    return None if theirs is None else theirs / ours


def ratio_text(value: float | None) -> str:
    """A speed-up as "12x" or "3.4x"; "n/a" when unknown."""
    return "n/a" if value is None else f"{value:,.0f}x" if value >= 10 else f"{value:.1f}x"


def median_seconds(function, repeats):
    """The result of ``function()`` and the median of ``repeats`` timings of it (after one warm-up call)."""
    result = function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def atari_scores():
    """The bundled Atari 100k runs (Agarwal et al. 2021), human-normalised."""
    from benchtrust.compare import bundled_task_scores

    return bundled_task_scores("atari100k")


def uci_scores():
    """The bundled UCI accuracies (percent) of Benavoli et al. (2017): 5 classifiers × 54 data sets × 100."""
    from benchtrust.compare import bundled_task_scores

    return bundled_task_scores("uci")
