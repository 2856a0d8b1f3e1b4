"""Time long tables end to end (issue 33, item 5): `compare rank` and `compare aggregate` on generated
long-format tables of 200,000 to 20 million rows, each a whole process, with its wall time, CPU time and
peak memory.

The tables (written to ``--folder``, a temporary folder by default, never the repository) have columns
``method,task,run,score``: 20 methods × (rows / 200) tasks × 10 runs (seeds), in that order, scores with 6
decimals (method m's scores uniform on [m/50, m/50 + 0.5]); 200,000 rows are 5.5 MB, 20 million 586 MB.
Files of at least ``benchtrust._io.COLUMNAR_BYTES`` bytes (6 MiB) are read column by column by pandas'
C parser (``benchtrust._io.long_table_of``), smaller ones line by line as before.

Each command is ``python -m benchtrust compare rank FILE --direction higher --json`` (and ``compare
aggregate ... --resamples 2000`` at the ``--aggregate-rows`` sizes), its output unread, run once (after
one warm-up at the smallest size) by ``bench_startup.run_once``: wall time, CPU time (user + system: on a
shared machine the load inflates the wall time more) and peak resident memory (``ru_maxrss``). With
``--line-reader``, each command at up to 2 million rows runs a second time with the columnar reading off
(``COLUMNAR_BYTES`` set beyond the file's size), as every file was read before; at 20 million rows that
reading needs about 9.5 GB and 212-423 s (issue 33), so it is not run.

Targets (issue 33, item 5): 20 million rows in under 2 GB and under 60 s for ``compare rank``.

Run: .venv/bin/python benchmarks/bench_long_tables.py [--sizes 200000,2000000,20000000]
[--aggregate-rows 200000,2000000] [--line-reader] [--folder /tmp/x] [--keep]. Writing the 20-million-row
file takes about a minute, its rank about 30 s on an idle core. Prints one table; asserts nothing. POSIX
only (``os.wait4``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from _tables import print_table  # benchmarks/, the script's own folder
from bench_startup import run_once
from benchtrust._io import COLUMNAR_BYTES

METHODS = 20
RUNS = 10
#: Rows written at once.
_BLOCK = 1_000_000
#: Runs benchtrust with the columnar reading off: every file read line by line, as before issue 33 item 5.
_LINE_READER = (
    "import sys, benchtrust._io as io; io.COLUMNAR_BYTES = 10**18; from benchtrust.cli import main; "
    "sys.argv[0] = 'benchtrust'; main()"
)


def write_table(path: Path, rows: int) -> None:
    """A long table of about `rows` rows: METHODS methods × rows // (METHODS × RUNS) tasks × RUNS runs."""
    tasks = max(rows // (METHODS * RUNS), 1)
    rng = np.random.default_rng(0)
    total = METHODS * tasks * RUNS
    with path.open("w", encoding="utf-8") as file:
        file.write("method,task,run,score\n")
        for start in range(0, total, _BLOCK):
            k = np.arange(start, min(start + _BLOCK, total))
            method, rest = np.divmod(k, tasks * RUNS)
            task, run = np.divmod(rest, RUNS)
            score = np.round(rng.random(len(k)) * 0.5 + method / 50, 6)
            file.write(
                "".join(
                    f"method{m},task{t},{r},{s!r}\n"
                    for m, t, r, s in zip(
                        method.tolist(), task.tolist(), run.tolist(), score.tolist(), strict=True
                    )
                )
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200000,2000000,20000000", help="rows of the rank tables")
    parser.add_argument("--aggregate-rows", default="200000,2000000", help="rows of the aggregate tables")
    parser.add_argument("--line-reader", action="store_true", help="also time the line reader (<= 2M rows)")
    parser.add_argument("--folder", default=None, help="where to write the tables (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="write the tables to --folder and keep them")
    options = parser.parse_args()
    if options.keep and not options.folder:
        parser.error("--keep needs --folder")
    sizes = [int(float(size)) for size in options.sizes.split(",") if size]
    aggregate = {int(float(size)) for size in options.aggregate_rows.split(",") if size}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    with tempfile.TemporaryDirectory(dir=options.folder) as temporary:
        folder = Path(options.folder) if options.folder and options.keep else Path(temporary)
        rows = [("command", "rows", "file MB", "reader", "wall s", "CPU s", "peak MB", "exit")]
        for size in sorted(set(sizes) | aggregate):
            path = folder / f"long_{size}.csv"
            if not path.exists():
                write_table(path, size)
            megabytes = f"{path.stat().st_size / 1e6:.1f}"
            commands = [("rank", ["compare", "rank", str(path), "--direction", "higher", "--json"])]
            if size in aggregate:
                resamples = ["--resamples", "2000", "--json"]
                commands.append(
                    ("aggregate", ["compare", "aggregate", str(path), "--direction", "higher", *resamples])
                )
            for name, arguments in commands:
                if name == "rank" and size not in sizes:
                    continue
                columnar = path.stat().st_size >= COLUMNAR_BYTES
                readers = [("columnar" if columnar else "lines", ["-m", "benchtrust"])]
                if options.line_reader and size <= 2_000_000 and readers[0][0] == "columnar":
                    readers.append(("lines (before)", ["-c", _LINE_READER]))
                for reader, start in readers:
                    if not rows[1:]:
                        run_once([sys.executable, *start, *arguments])  # warm-up: bytecode, page cache
                    wall, cpu, peak, code, line = run_once([sys.executable, *start, *arguments])
                    rows.append(
                        (name, f"{size:,}", megabytes, reader, f"{wall:.2f}", f"{cpu:.2f}", f"{peak:.0f}",
                         str(code) if not code else f"{code}: {line[:60]}")
                    )  # fmt: skip
                    print(*rows[-1], sep="  ", flush=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print_table(rows)


if __name__ == "__main__":
    main()
