"""Scale: a 1,000,000-row leaderboard and a batch of 100,000 consistency claims, timed, with peak memory.

Cases (issue "Hardening": "a 1,000,000-row leaderboard reads and analyses; a batch of 100,000 consistency
claims runs with a progress bar and bounded memory"):

1. Leaderboards of 10^6 rows as Kaggle's raw download writes them (``TeamId,TeamName,SubmissionDate,
   Score``), seeded, every score k/n for a hidden test set of n = 10,000 items written with five decimals:
   (a) 10^6 teams with one submission each, (b) 250,000 teams with four submissions each (the best
   counts). Each is read with ``benchtrust.sota.read_leaderboard`` and analysed with
   ``benchtrust.sota.leaderboard(path, test_size=10000, direction="higher", classes=2, resamples=200)``
   (plug-in, cropped and conservative SOTA, exact bootstrap).
2. Claims tables of 10,000 and 100,000 rows in the format ``benchtrust consistency batch`` reads: 95% one
   test set (p and n drawn from 20..5,000; tp and tn drawn from them; acc, sens, spec, f1 computed from
   the confusion matrix and rounded to four decimals), 5% 5-fold cross-validation with the score of means
   (the same scores from the pooled matrix, ``aggregation=som``). Every claim is consistent by
   construction. Checked with ``check_batch(path, n_jobs=1, progress=...)``, the call behind the CLI's
   progress bar; the progress callback's calls are counted.

3. The largest real-board shapes of issue 29 §4 and issue 33 (``benchtrust sota leaderboard``, ρ = 0.6 and
   the exact bootstrap, as the CLI runs by default), boards of that many teams written as Kaggle prints
   them (skills 0.45..0.95 as in case 1, scores k/n truncated to the decimals given): 300 and 1,000 teams at
   n = 10,000 (4 decimals); 1,524 teams at n = 451,552 (6 decimals); 2,664 teams at n = 45,673 with
   6 decimals and ``test_size="auto"`` (inferred from the scores). Each must stay under 2 GB (the bound
   of issue 29): the dependent model runs the reference counts k in parts of at most 2^17 pairs (team, k)
   and mixes them over k as it goes (``sota._conditional``). And issue 33's AUC board: 512 teams on
   1,531 images with 560 positives (``metric="auc"``, ``positives=560``, seed 0), true AUCs 0.5..0.95,
   each team's empirical AUC drawn under the binormal model and written with five decimals; its memory
   is estimated before the tables are computed (``sota._auc_levels``: 0.60 GB, the transforms of the
   tables; measured peak 687 MB with the interpreter) and it takes about a minute and a half (87 s),
   nearly all of it the tables (``sota._auc.auc_pmf``: 128 replicates x 34 AUCs of a transform of
   length ~544,000, each raised to the power 560 by repeated squaring). ``--sota`` runs these rows only.

4. The k-fold searches of issue 29 §4 (``check_kfold``, mean of scores, unknown folds, the default
   ``max_work`` of 50,000 configurations as the bound): the 10-fold ``KFold`` of 48 positives and 115
   negatives (scikit-learn's fold scores, the generator of ``bench_kfold_sklearn.py``; seed 15 is the
   slowest of its 40), the same scores with any fold sizes, and the ``GroupKFold`` of 2 positives and
   4 negatives (folds of 4 and 2 items) with the default near-equal folds, the sizes given, and any sizes.
   Each ends with a verdict (``undecided`` past ``max_work``, never an unfinished search). ``--kfold``
   runs these rows only.

How it is measured: the files are written once to a temporary folder; each measurement runs in a fresh
Python process (this script with ``--child``), which reports its wall time (``time.perf_counter`` around
the call) and its peak resident memory (``VmHWM`` on Linux, else ``ru_maxrss``; it includes the
interpreter and the imported libraries, whose floor the "imports only" line gives). Memory is bounded
if the 100,000-claim batch peaks not much above the 10,000-claim one.

5. Generated accuracy boards (issue 33 item 2: any accuracy board in under 10 s and 1 GB), from
   ``_board_shapes.py``: 10 to 10^6 teams on n = 10,000 to 10^7, true accuracies in a band below 0.95
   (its width the spread; a share in a tail towards chance), analysed as in case 3. With few teams the
   pooled cdf of the bootstrap must scan past every team's mode; from n = 15,000 on the dependent model
   is computed on a lattice of counts. ``--shapes`` runs these rows only (not in the default run); the
   last column checks CPU seconds (the machine's load does not count) and peak memory.

Run: .venv/bin/python benchmarks/bench_scale.py [--sota | --kfold | --shapes] (also part of make bench).
Prints tables; asserts nothing.
Takes about twelve minutes on two cores, eight of them the accuracy boards and one and a half the AUC board
(POSIX only: it needs ``resource``).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _tables import print_table  # benchmarks/, the script's own folder

ROWS = 1_000_000
#: (label, teams, test size, decimals, inferred, positives): the sota boards of case 3 (AUC with positives).
BOARDS = (
    ("300 teams, n = 10,000", 300, 10_000, 4, False, None),
    ("1,000 teams, n = 10,000", 1_000, 10_000, 4, False, None),
    ("1,524 teams, n = 451,552", 1_524, 451_552, 6, False, None),
    ("2,664 teams, 6 decimals, auto", 2_664, 45_673, 6, True, None),
    ("AUC, 512 teams, n = 1,531, 560 positive", 512, 1_531, 5, False, 560),
)
#: (label, seed of the 48/115 claim or None for the GroupKFold one, fold sizes): the k-fold rows of case 4.
KFOLDS = (
    ("KFold 48+/115-, 10 folds, seed 15", 15, None),
    ("KFold 48+/115-, 10 folds, seed 15, any sizes", 15, "any"),
    ("GroupKFold 2+/4-, 2 folds, near-equal", None, None),
    ("GroupKFold 2+/4-, 2 folds, sizes 4,2", None, (4, 2)),
    ("GroupKFold 2+/4-, 2 folds, any sizes", None, "any"),
)
#: The scores scikit-learn prints for the GroupKFold of issue 29 §2 (folds of 4 and 2 items).
GROUP_KFOLD_SCORES = {"acc": "0.8750", "sens": "1.0000", "spec": "0.8333", "bacc": "0.9167"}
#: The peak memory every sota board must stay under (issue 29 §4), in MB.
SOTA_BOUND_MB = 2_000
TEST_SIZE = 10_000
CLAIMS = (10_000, 100_000)
KFOLD_SHARE = 0.05
FOLDS = 5


# --- the files --------------------------------------------------------------------------------------------


def write_leaderboard(path: Path, teams: int, seed: int) -> None:
    """A Kaggle raw download of ROWS submissions by `teams` teams, scores k/TEST_SIZE with five decimals."""
    import numpy as np

    rng = np.random.default_rng(seed)
    team = np.repeat(np.arange(teams), ROWS // teams)
    rng.shuffle(team)
    skill = rng.beta(8, 2, teams) * 0.5 + 0.45  # a team's accuracy, 0.45..0.95, most near 0.85
    k = rng.binomial(TEST_SIZE, skill[team])
    score = np.char.mod("%.5f", k / TEST_SIZE)
    ids = team.astype(str)
    day = np.char.mod("2019-%02d-", 1 + np.arange(ROWS) % 12)
    date = np.char.add(day, np.char.mod("%02d", 1 + np.arange(ROWS) % 28))
    fields = [ids, np.char.add("team ", ids), date, score]
    lines = fields[0]
    for column in fields[1:]:
        lines = np.char.add(np.char.add(lines, ","), column)
    path.write_text(
        "TeamId,TeamName,SubmissionDate,Score\n" + "\n".join(lines.tolist()) + "\n", encoding="utf-8"
    )


def write_claims(path: Path, rows: int, seed: int) -> None:
    """`rows` consistent claims: one test set, or 5-fold score of means, four scores rounded to 1e-4."""
    import numpy as np

    rng = np.random.default_rng(seed)
    p = rng.integers(20, 5001, rows)
    n = rng.integers(20, 5001, rows)
    tp = rng.binomial(p, rng.uniform(0.5, 0.99, rows))
    tn = rng.binomial(n, rng.uniform(0.5, 0.99, rows))
    tp = np.maximum(tp, 1)  # f1 needs tp > 0
    acc = (tp + tn) / (p + n)
    sens, spec = tp / p, tn / n
    f1 = 2 * tp / (2 * tp + (n - tn) + (p - tp))
    kfold = rng.uniform(size=rows) < KFOLD_SHARE
    lines = ["id,positives,negatives,folds,aggregation,acc,sens,spec,f1"]
    for i in range(rows):
        folds = f"{FOLDS},som" if kfold[i] else ","
        scores = f"{acc[i]:.4f},{sens[i]:.4f},{spec[i]:.4f},{f1[i]:.4f}"
        lines.append(f"c{i},{p[i]},{n[i]},{folds},{scores}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_board(path: Path, teams: int, test_size: int, places: int, seed: int) -> None:
    """A board of `teams` teams (TeamId, Score): accuracies k/test_size truncated to `places` decimals."""
    import numpy as np

    rng = np.random.default_rng(seed)
    skill = rng.beta(8, 2, teams) * 0.5 + 0.45
    k = rng.binomial(test_size, skill)
    scale = 10**places
    score = np.floor(k * scale / test_size) / scale  # truncated, as Kaggle displays scores
    lines = [f"{t},{value:.{places}f}" for t, value in enumerate(score)]
    path.write_text("TeamId,Score\n" + "\n".join(lines) + "\n", encoding="utf-8")


def write_auc_board(path: Path, teams: int, test_size: int, positives: int, places: int, seed: int) -> None:
    """A board of `teams` empirical AUCs on `test_size` items, `positives` of them positive, rounded to
    `places` decimals: true AUCs 0.5..0.95 (most near 0.86), each drawn under the binormal model."""
    import numpy as np

    from benchtrust.sota import sample_auc

    rng = np.random.default_rng(seed)
    skill = np.maximum(rng.beta(8, 2, teams) * 0.45 + 0.5, 0.501)
    score = sample_auc(skill, test_size=test_size, positives=positives, size=None, seed=rng)
    lines = [f"{t},{value:.{places}f}" for t, value in enumerate(score)]
    path.write_text("TeamId,Score\n" + "\n".join(lines) + "\n", encoding="utf-8")


# --- one measurement, in a fresh process --------------------------------------------------------------------


def child(case: str, path: str) -> dict:
    """Run one case in this (fresh) process; return its timings and peak memory."""
    out = {}
    if case == "imports":
        import numpy  # noqa: F401
        import pandas  # noqa: F401

        import benchtrust.consistency
        import benchtrust.sota  # noqa: F401
        from benchtrust.consistency._batch import check_batch
    elif case == "leaderboard":
        from benchtrust.sota import leaderboard, read_leaderboard

        start = time.perf_counter()
        board = read_leaderboard(path, direction="higher", classes=2)
        out["read_s"] = time.perf_counter() - start
        out["teams"], out["kept"] = board.teams, len(board.scores)
        start = time.perf_counter()
        result = leaderboard(path, test_size=TEST_SIZE, direction="higher", classes=2, resamples=200)
        out["analysis_s"] = time.perf_counter() - start
        out["observed_max"], out["cropped"] = result.observed_max, result.cropped.sota
    elif case.startswith("sota"):
        from benchtrust.sota import leaderboard

        _, size, positives = case.split(":")
        test_size = "auto" if size == "auto" else int(size)
        if positives == "None":
            options = {"rounding": "truncate"}
        else:  # the AUC path: scores rounded as Kaggle prints AUC
            options = {"metric": "auc", "positives": int(positives), "seed": 0}
        start, cpu = time.perf_counter(), time.process_time()
        result = leaderboard(path, test_size=test_size, direction="higher", **options)
        out["analysis_s"] = time.perf_counter() - start
        out["cpu_s"] = time.process_time() - cpu
        out["test_size"], out["cropped"] = result.test_size, result.cropped.sota
    elif case.startswith("kfold"):
        from bench_kfold_sklearn import claim_48_positives  # benchmarks/, the script's own folder
        from benchtrust import InputError
        from benchtrust.consistency import check_kfold

        _, seed, sizes = case.split(":")
        sizes = None if sizes == "None" else sizes if sizes == "any" else tuple(map(int, sizes.split(",")))
        if seed == "None":
            scores, p, n, k = GROUP_KFOLD_SCORES, 2, 4, 2
        else:
            scores, p, n, k = claim_48_positives(int(seed)), 48, 115, 10
        start = time.perf_counter()
        try:
            verdict = check_kfold(scores, positives=p, negatives=n, folds=k, fold_sizes=sizes).verdict
        except InputError as refusal:  # too many configurations: refused before any search
            verdict = f"refused ({str(refusal).split('more than ')[-1].split(';')[0]})"
        out["seconds"] = time.perf_counter() - start
        out["verdict"] = verdict.split(":")[0]
    elif case == "batch":
        from benchtrust.consistency._batch import check_batch

        calls = []
        start = time.perf_counter()
        result = check_batch(path, n_jobs=1, progress=lambda done, total: calls.append(done))
        out["batch_s"] = time.perf_counter() - start
        out["counts"], out["progress_calls"] = result.counts, len(calls)
    out["peak_mb"] = peak_memory() / 1e6
    return out


def peak_memory() -> int:
    """This process's peak resident memory in bytes.

    On Linux, ``VmHWM`` of ``/proc/self/status``: ``ru_maxrss`` there survives ``exec``, so a child would
    report its parent's peak if that were higher (this script's parent writes the big files). Elsewhere
    ``ru_maxrss`` (bytes on macOS).
    """
    import resource

    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB elsewhere
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit


def measure(case: str, path: Path | str = "") -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--child", case, str(path)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{case} {path}: failed\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def sota_rows(folder: Path) -> None:
    """Case 3: the largest real-board shapes, time and peak memory against the 2 GB bound."""
    rows = [("sota leaderboard board", "test size", "seconds", "peak MB", "bound MB", "within")]
    for label, teams, test_size, places, inferred, positives in BOARDS:
        path = folder / f"board-{teams}.csv"
        if positives is None:
            write_board(path, teams, test_size, places, seed=3)
        else:
            write_auc_board(path, teams, test_size, positives, places, seed=3)
        found = measure(f"sota:{'auto' if inferred else test_size}:{positives}", path)
        rows.append(
            (
                label,
                f"{found['test_size']:,}" + (" (inferred)" if inferred else ""),
                f"{found['analysis_s']:.0f}",
                f"{found['peak_mb']:.0f}",
                f"{SOTA_BOUND_MB:,}",
                "yes" if found["peak_mb"] < SOTA_BOUND_MB else "NO",
            )
        )
        path.unlink()
    print_table(rows)


def shape_rows(folder: Path) -> None:
    """Case 5: generated board shapes (``_board_shapes.SHAPES``), the exact bootstrap over teams of each."""
    from _board_shapes import SHAPES, board  # benchmarks/, the script's own folder

    rows = [("generated board", "test size", "spread, tail", "seconds", "CPU s", "peak MB", "< 10 s, 1 GB")]
    for teams, test_size, spread, tail, places in SHAPES:
        path = folder / f"shape-{teams}-{test_size}.csv"
        path.write_text(board(teams, test_size, spread=spread, tail=tail, places=places), encoding="utf-8")
        found = measure(f"sota:{test_size}:None", path)
        rows.append(
            (
                f"{teams:,} teams, {places} decimals",
                f"{test_size:,}",
                f"{spread:g}, {tail:g}",
                f"{found['analysis_s']:.1f}",
                f"{found['cpu_s']:.1f}",
                f"{found['peak_mb']:.0f}",
                "yes" if found["cpu_s"] < 10 and found["peak_mb"] < 1000 else "NO",
            )
        )
        path.unlink()
    print_table(rows)


def kfold_rows() -> None:
    """Case 4: the k-fold searches of issue 29 §4, time, peak memory and verdict within max_work."""
    rows = [("consistency kfold, mean of scores, unknown folds", "verdict", "seconds", "peak MB", "bound")]
    for label, seed, sizes in KFOLDS:
        text = "None" if sizes is None else sizes if sizes == "any" else ",".join(map(str, sizes))
        found = measure(f"kfold:{seed}:{text}")
        rows.append(
            (label, found["verdict"], f"{found['seconds']:.1f}", f"{found['peak_mb']:.0f}", "max_work 50,000")
        )
    print_table(rows)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="benchtrust-scale-") as folder:
        folder = Path(folder)
        floor = measure("imports")
        print(f"imports only (interpreter, numpy, pandas, benchtrust): peak {floor['peak_mb']:.0f} MB\n")
        if "--shapes" in sys.argv:
            shape_rows(folder)
            return
        if "--sota" not in sys.argv:
            kfold_rows()
        if "--kfold" in sys.argv:
            return
        sota_rows(folder)
        if "--sota" in sys.argv:
            return

        rows = [("leaderboard (10^6 rows)", "file MB", "teams", "read s", "read + analysis s", "peak MB")]
        for label, teams in (
            ("10^6 teams x 1 submission", ROWS),
            ("250,000 teams x 4 submissions", ROWS // 4),
        ):
            path = folder / f"leaderboard-{teams}.csv"
            write_leaderboard(path, teams, seed=1)
            found = measure("leaderboard", path)
            rows.append(
                (
                    label,
                    f"{path.stat().st_size / 1e6:.0f}",
                    f"{found['teams']:,}",
                    f"{found['read_s']:.1f}",
                    f"{found['analysis_s']:.1f}",
                    f"{found['peak_mb']:.0f}",
                )
            )
            path.unlink()
        print_table(rows)

        rows = [
            ("claims", "file MB", "consistent", "error", "progress calls", "seconds", "claims/s", "peak MB")
        ]
        peaks = {}
        for count in CLAIMS:
            path = folder / f"claims-{count}.csv"
            write_claims(path, count, seed=2)
            found = measure("batch", path)
            peaks[count] = found["peak_mb"]
            rows.append(
                (
                    f"{count:,}",
                    f"{path.stat().st_size / 1e6:.1f}",
                    f"{found['counts']['consistent']:,}",
                    f"{found['counts']['error']:,}",
                    f"{found['progress_calls']:,}",
                    f"{found['batch_s']:.1f}",
                    f"{count / found['batch_s']:,.0f}",
                    f"{found['peak_mb']:.0f}",
                )
            )
        print_table(rows)
        small, large = CLAIMS
        growth = (peaks[large] - peaks[small]) / (large - small) * 1e6 / 1e3
        print(
            f"peak memory: {peaks[small]:.0f} MB for {small:,} claims, {peaks[large]:.0f} MB for {large:,} "
            f"(imports alone {floor['peak_mb']:.0f} MB): {growth:.1f} kB more per extra claim (its verdict)"
        )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")))
    else:
        main()
