"""``make demo``: Table 2 of Møllersen & Holsbø recomputed exactly, their Fig. 1 drawn, the state of the
art estimated from three real leaderboards with §5's method (Kaggle's Titanic, then the paper's own two
boards: Cassava Leaf Disease, §5.1.2, and SIIM-ISIC Melanoma, §5.2.1 and Fig. 12, each beside the paper's
numbers) with their Fig. 7, the consistency tests of Fazekas & Kovács on their own examples (§3.3 and the
EHG case of §5.2), a variance-aware comparison of two scikit-learn classifiers (Bouthillier et al.), several
methods over many tasks (the Atari 100k agents; five classifiers on 54 UCI data sets), and the multiverse
of design and analysis choices of Nießl et al. on the Herrmann et al. results; at its end, the HTML report
of them all (``demo-output/report.html``, a section per analysis).

The paper simulates the non-i.i.d. rows of its Table 2 (100,000 repetitions); benchtrust computes every
row exactly (:func:`benchtrust.sota.best_of`), so the two agree to the paper's printed decimals up to the
paper's Monte Carlo error, mostly in the last digit of the standard deviation.

Each leaderboard is analysed once (:func:`leaderboards`): the demo shows the ``benchtrust sota
leaderboard`` command and prints what that command prints for it, and the report reuses the results.

``make demo`` is run again and again, each time replacing what it wrote in ``demo-output/`` before, and
nothing else (:func:`owning`). It records what it wrote there (``demo-output/.benchtrust-demo.json``: each
file's SHA-256), and before writing anything it checks every file it would write: one that exists but is
not, byte for byte, the file the demo wrote there last (a user's own file, or one the user changed) stops
the demo with one line naming it and exit code 2; the demo has no ``--force``: move the file away. Files
of other names in the folder are never touched.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from pathlib import Path

#: Where the figures and the report go, relative to the current directory.
OUTPUT_FOLDER = "demo-output"
#: The demo's record of the files it wrote in :data:`OUTPUT_FOLDER`: name -> SHA-256 (:func:`owning`).
RECORD = ".benchtrust-demo.json"
FIGURE_NAME = "fig1-best-of-1000.png"
LEADERBOARD_FIGURE_NAME = "fig7-titanic-leaderboard.png"

#: The bundled leaderboards the demo analyses, in order: the competition (see
#: :func:`benchtrust.sota.bundled_leaderboard`), the options of ``benchtrust sota leaderboard`` by their
#: Python names (the keyword arguments of :func:`benchtrust.sota.leaderboard`), and the figure written.
#: Titanic's test labels are public, so its perfect scores are leakage, not skill: ``max_plausible``
#: leaves them out. Cassava: about 15,000 test images, 5 classes (§5.1.2). Melanoma: the paper's
#: simulation setting of Fig. 10-12, n = 3000 with 52 positives (the real test set has 7,687 images).
BOARDS = [
    (
        "titanic",
        {"test_size": 209, "direction": "higher", "classes": 2, "max_plausible": 0.999},
        LEADERBOARD_FIGURE_NAME,
    ),
    ("cassava", {"test_size": 15000, "direction": "higher", "classes": 5}, "fig7-cassava-leaderboard.png"),
    (
        "melanoma",
        {"metric": "auc", "test_size": 3000, "direction": "higher", "positives": 52, "seed": 1},
        "fig7-melanoma-leaderboard.png",
    ),
]

#: The paper's numbers for its two boards. Cassava (§5.1.2): 3,752 teams above chance, the best 0.9132,
#: its 95% interval (0.9086, 0.9177) with no other team in it, E(best) = the observed best without
#: cropping. Melanoma (§5.2.1, Fig. 12): m = 3,173 teams with AUC > 0.5, cropped at 0.8975, where the
#: expected best is the observed best 0.9490; 2,022 teams above the crop.
PAPER_CASSAVA = {"teams": 3752, "best": 0.9132, "interval": (0.9086, 0.9177), "others": 0, "expected": 0.9132}
PAPER_MELANOMA = {"teams": 3173, "crop": 0.8975, "expected": 0.9490, "above": 2022}

CLASSIFIERS = 1000
TEST_SIZE = 3000
CORRELATION = 0.6
REFERENCE_ACCURACY = 0.90

#: Table 2 rows: section, independent, identical, the arguments of best_of beyond m and n, and the paper's
#: upper 95% limit, expected value and standard deviation.
_ROWS = [
    ("3.4", "YES", "YES", {}, (0.9213, 0.9173, 0.001817)),
    ("4.1", "NO", "YES", {"correlation": CORRELATION}, (0.9207, 0.9140, 0.003481)),
    ("4.1", "NO*", "YES", {"correlation": CORRELATION, "fixed_reference": True}, (0.9173, 0.9140, 0.001484)),
    ("4.2", "YES", "NO", {}, (0.9177, 0.9130, 0.002129)),
    ("4.3", "NO", "NO", {"correlation": CORRELATION}, (0.9173, 0.9101, 0.003649)),
]


def table2():
    """Recompute Table 2 exactly.

    Returns
    -------
    list of tuple
        One row per line of the paper's table: (section, independent, identical, paper values, the
        :class:`~benchtrust.sota.BestOfResult`, seconds the exact computation took).
    """
    import time

    import numpy as np

    from benchtrust.sota import best_of

    rows = []
    for section, independent, identical, options, paper in _ROWS:
        if identical == "YES":
            accuracy, classifiers = 0.90, CLASSIFIERS
        else:
            accuracy, classifiers = np.linspace(0.875, 0.90, CLASSIFIERS), None
        if "correlation" in options:
            options = {**options, "reference_accuracy": REFERENCE_ACCURACY}
        start = time.perf_counter()
        result = best_of(accuracy, test_size=TEST_SIZE, classifiers=classifiers, **options)
        seconds = time.perf_counter() - start
        rows.append((section, independent, identical, paper, result, seconds))
    return rows


def format_table2(rows):
    """Table 2 as text: the paper's value beside benchtrust's for each column."""
    header = (
        f"{'section':<8}{'indep.':<7}{'ident.':<7}"
        f"{'upper 95% limit':^20}  {'expected value':^20}  {'standard deviation':^24}{'seconds':>9}"
    )
    sub = f"{'':<22}" + f"{'paper':>8}{'benchtrust':>12}  " * 2 + f"{'paper':>10}{'benchtrust':>14}"
    lines = [header, sub]
    for section, independent, identical, paper, result, seconds in rows:
        upper, expected, sd = paper
        lines.append(
            f"{section:<8}{independent:<7}{identical:<7}"
            f"{upper:>8.4f}{result.ci[1]:>12.4f}  "
            f"{expected:>8.4f}{result.expected_max:>12.4f}  "
            f"{sd:>10.6f}{result.sd_max:>14.6f}"
            f"{seconds:>9.3f}"
        )
    return "\n".join(lines)


def main() -> None:
    """Run the demo: print each analysis and write its figures and the report to ``demo-output/``.

    A file there that the demo would replace but did not write is refused: one line on stderr, exit code 2
    (:func:`owning`). Ctrl-C or SIGTERM stops it as it stops a command (exit code 130 or 143, one line),
    with what it wrote so far recorded as its own.
    """
    from benchtrust._io import InputError
    from benchtrust.cli._signals import stopped_line, stopping_on_signals

    try:
        with stopping_on_signals(), owning(OUTPUT_FOLDER, outputs()):
            _run(Path(OUTPUT_FOLDER))
    except InputError as exc:
        print(f"make demo: error: {' '.join(str(exc).split())}", file=sys.stderr)
        raise SystemExit(2) from None
    except SystemExit as stop:  # Ctrl-C or SIGTERM: one line, as the command prints
        line = stopped_line(stop.code)
        if line is not None:
            print(f"make demo: {line}", file=sys.stderr)
        raise


def outputs() -> list[str]:
    """The files the demo writes in :data:`OUTPUT_FOLDER`, relative to it."""
    from benchtrust.multiverse import bundled_study, study_files

    multiverse = study_files(bundled_study()["spec"], subsample=True, subsample_measure="all")
    figures = [FIGURE_NAME, *(figure for _, _, figure in BOARDS)]
    return [*figures, *(f"multiverse/{name}" for name in multiverse), REPORT_NAME]


@contextlib.contextmanager
def owning(folder, names):
    """Within the block, the files `names` in `folder` may be written if each is new or is the file the demo
    wrote there last; any other existing one is refused before the block starts (an InputError naming it).

    What the demo wrote there is recorded in `folder`/:data:`RECORD` (name -> SHA-256); after the block,
    even one stopped midway, the record gains every file of `names` that the block wrote.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with owning(folder, ["a.txt"]):
    ...     _ = (folder / "a.txt").write_text("the demo's", encoding="utf-8")
    >>> with owning(folder, ["a.txt"]):  # its own file: replaced
    ...     _ = (folder / "a.txt").write_text("the demo's, again", encoding="utf-8")
    >>> _ = (folder / "a.txt").write_text("the user's", encoding="utf-8")
    >>> with owning(folder, ["a.txt"]):
    ...     pass
    Traceback (most recent call last):
    ...
    benchtrust.InputError: .../a.txt exists already; the demo replaces only the files it wrote itself: ...
    >>> import shutil; shutil.rmtree(folder)
    """
    import hashlib
    import json
    import os

    from benchtrust._write import check_folder, write_atomic

    folder = Path(folder)

    def digest(name):
        with contextlib.suppress(OSError):
            return hashlib.sha256((folder / name).read_bytes()).hexdigest()

    def version(name):  # a file replaced by a rename is a new inode; rewritten in place, a new mtime
        with contextlib.suppress(OSError):
            status = os.stat(folder / name)
            return status.st_ino, status.st_mtime_ns, status.st_size

    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = {}
    record = record if isinstance(record, dict) else {}
    own = {name for name in names if name in record and record[name] == digest(name)}
    remedy = (
        "the demo replaces only the files it wrote itself: move this one away, or run it in another folder"
    )
    check_folder(folder, [*names, RECORD], force={*own, RECORD}, remedy=remedy)
    before = {name: version(name) for name in names}
    try:
        yield
    finally:
        written = {name: digest(name) for name in names if version(name) not in (None, before[name])}
        if written and folder.is_dir():
            record = {name: record[name] for name in own} | written
            write_atomic(folder / RECORD, json.dumps(record, indent=1, sort_keys=True) + "\n")


def _run(folder: Path) -> None:
    """The demo itself: each analysis printed, its figures and the report written into `folder`."""
    from benchtrust import save_figure
    from benchtrust.sota import plot_best_of

    print(
        f"Table 2 of Møllersen & Holsbø: the best of m = {CLASSIFIERS} classifiers on n = {TEST_SIZE} items,"
    )
    print("θ = 0.90, or θ_j equally spaced from 0.875 to 0.90 for the non-identical rows. Dependent rows:")
    print(
        f"correlation {CORRELATION} with a reference classifier Y0 of accuracy θ0 = {REFERENCE_ACCURACY:.2f},"
    )
    print("random, or fixed at exactly θ0·n items right (NO*). The paper simulates; benchtrust is exact.")
    print()
    rows = table2()
    print(format_table2(rows))
    print()

    folder.mkdir(parents=True, exist_ok=True)
    written = save_figure(plot_best_of(rows[0][4]), folder / FIGURE_NAME)
    print(
        f"Fig. 1 (independent, identical: m = {CLASSIFIERS}, n = {TEST_SIZE}, θ = 0.9) written to {written}"
    )
    print()
    boards = leaderboards(folder)
    consistency()
    example = comparison()
    print()
    tasks = many_tasks()
    herrmann = multiverse(folder)
    print()
    written = report(
        folder, table2_result=rows[0][4], example=example, boards=boards, tasks=tasks, herrmann=herrmann
    )
    print(f"Report written to {written.as_posix()}")


def leaderboards(folder):
    """Analyse each of :data:`BOARDS` once: show its ``benchtrust sota leaderboard`` command, print what
    the command prints (the analysis, then where its Fig. 7 went) and, for the paper's boards, the paper's
    numbers beside benchtrust's; return ``[(path, options, result), ...]`` for the report.
    """
    from benchtrust import save_figure
    from benchtrust.sota import plot_leaderboard

    boards = []
    for competition, options, figure in BOARDS:
        path, result = _board(competition, options)
        plot = (Path(folder) / figure).as_posix()
        words = [f"--{key.replace('_', '-')} {value}" for key, value in options.items()]
        print(f"$ benchtrust sota leaderboard {path.name} {' '.join(words)} --plot {plot}")
        save_figure(plot_leaderboard(result), plot)
        print(result)
        print(f"plot written to {plot}")
        if competition in PAPER_LINES:
            print(PAPER_LINES[competition](result))
        print()
        boards.append((path, options, result))
    return boards


def _board(competition, options):
    """The bundled leaderboard `competition` and its analysis with `options`, the file named as the demo's
    command names it (its file name)."""
    from benchtrust.sota import bundled_leaderboard, leaderboard

    path = bundled_leaderboard(competition)
    return path, dataclasses.replace(leaderboard(path, **options), inputs=(path.name,))


def _cassava_line(result):
    """The paper's Cassava numbers (§5.1.2) beside benchtrust's, in one line."""
    paper = PAPER_CASSAVA
    low, high = result.naive_ci
    return (
        f"Paper §5.1.2 / benchtrust: {paper['teams']} / {result.teams} teams above chance, the best "
        f"{paper['best']:.4f} / {result.observed_max:.4f} with 95% interval ({paper['interval'][0]:.4f}, "
        f"{paper['interval'][1]:.4f}) / ({low:.4f}, {high:.4f}) holding {paper['others']} / "
        f"{result.teams_in_naive_ci - result.teams_at_max} other teams, E(best) without cropping "
        f"{paper['expected']:.4f} / {result.plugin.expected_max:.4f}"
    )


def _melanoma_line(result):
    """The paper's Melanoma numbers (§5.2.1, Fig. 12) beside benchtrust's, in one line."""
    paper, crop = PAPER_MELANOMA, result.cropped
    return (
        f"Paper Fig. 12 / benchtrust: m = {paper['teams']} / {result.teams} teams with AUC > 0.5, cropped at "
        f"{paper['crop']:.4f} / {crop.sota:.4f}, E(best) there {paper['expected']:.4f} / "
        f"{crop.expected_max:.4f}, {paper['above']} / {crop.teams_above} teams above the crop"
    )


PAPER_LINES = {"cassava": _cassava_line, "melanoma": _melanoma_line}


#: The consistency examples of Fazekas & Kovács: §3.3 (one test set) and §5.2 (EHG, 5-fold, unknown folds,
#: the data set as published and with the positives oversampled before cross-validation), as the analyses
#: of a report config (``benchtrust report``); the commands the demo runs are made from them.
_EHG_SCORES = {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}
_CONSISTENCY_ANALYSES = [
    (
        "test-set",
        {
            "positives": 1000,
            "negatives": 6000,
            "scores": {"acc": "0.6821", "npv": "0.9401", "f1": "0.4004"},
            "eps": "1e-4",
        },
    ),
    *(
        (
            "kfold",
            {
                "positives": positives,
                "negatives": 262,
                "folds": 5,
                "aggregation": "mean_of_scores",
                "folding": "unknown",
                "scores": _EHG_SCORES,
                "eps": "1e-4",
            },
        )
        for positives in (38, 244)
    ),
]


def _command(command, entry):
    """The ``benchtrust consistency`` arguments of a consistency analysis, as one line."""
    words = [command]
    for key, value in entry.items():
        if key == "scores":
            words += [f"--score {name}={score}" for name, score in value.items()]
        else:
            words.append(f"--{key.replace('_', '-')} {value}")
    return " ".join(words)


_CONSISTENCY = [_command(command, entry) for command, entry in _CONSISTENCY_ANALYSES]

REPORT_NAME = "report.html"


def consistency():
    """The paper's consistency examples through the CLI: each command, then its readable output."""
    from benchtrust.cli import main

    for arguments in _CONSISTENCY:
        print(f"$ benchtrust consistency {arguments}")
        try:
            main(["consistency", *arguments.split()])
        except SystemExit as stop:
            if stop.code:
                raise
        print()


#: The bundled results of the multiverse, in words (as ``benchtrust multiverse example`` names them).
HERRMANN = "the bundled Herrmann et al. (2021) results"


def multiverse(folder):
    """Nießl et al.'s 288 combinations of the Herrmann et al. results: rank ranges, step-wise optimisation,
    the impact of each choice, the unfolding and the rankings on subsamples of the data sets (Fig. 6),
    written to `folder`/multiverse (replacing files of the same names) and printed as ``benchtrust
    multiverse example`` prints them; the study is returned, for the report (computed once: it takes most
    of the demo's multiverse time)."""
    from benchtrust.multiverse import bundled_orders, bundled_study, study

    out = f"{folder}/multiverse"
    print(f"$ benchtrust multiverse example --out {out}")
    result = study(**bundled_study(), orders=bundled_orders(), subsample_measure="all")  # Fig. 6 and S3
    written = tuple(result.write(out, force=True))  # its own files: main's owning
    result = dataclasses.replace(result, what=HERRMANN, inputs=(), written=written)
    print(result)
    return result


def comparison():
    """Two scikit-learn classifiers compared as Bouthillier et al. recommend: variance by source, P(A > B)."""
    from benchtrust.compare import sklearn_example

    print("Is A really better than B? (Bouthillier et al., §2-4 and appendix C)")
    example = sklearn_example()
    print(example)
    return example


def many_tasks():
    """Several methods over many tasks, on the bundled data: the Atari 100k agents' IQM with stratified
    bootstrap intervals (Agarwal et al. 2021), the ranks of five classifiers over 54 UCI data sets with the
    Nemenyi test (Demšar 2006) and the Bayesian signed-rank test of two of them (Benavoli et al. 2017).
    Prints each result and returns them, for the report."""
    from benchtrust.compare import aggregate, bundled_task_scores, rank_test, signed_rank_test

    atari, uci = bundled_task_scores("atari100k"), bundled_task_scores("uci")
    print("Several methods over many tasks (Agarwal et al. 2021; Demšar 2006; Benavoli et al. 2017)")
    results = [
        aggregate(atari, resamples=10_000, seed=0),
        rank_test(uci),
        signed_rank_test(uci, "nbc", "aode", rope=1.0, seed=0),
    ]
    for result in results:
        print(result)
        print()
    return results


def report(folder, *, table2_result=None, example=None, boards=None, tasks=None, herrmann=None):
    """Write `folder`/report.html: one section per bundled example, each with its question, verdict,
    numbers, plot, assumptions and paper section; return its path.

    The sections: Table 2's first row with Fig. 1 (if `table2_result` is given), the leaderboards of
    :data:`BOARDS` (Titanic, Cassava, Melanoma; `boards` as :func:`leaderboards` returns them, computed if
    not given), the consistency examples of §3.3 and §5.2, the scikit-learn comparison (`example`, computed
    if not given), the comparisons over many tasks (`tasks` as :func:`many_tasks` returns them, computed if
    not given) and the multiverse of the Herrmann et al. results (`herrmann`, the study
    :func:`multiverse` returns, computed if not given).
    """
    from benchtrust._report.analyses import run_analysis
    from benchtrust._report.html import write_report
    from benchtrust.compare import sklearn_example

    sections = []
    if table2_result is not None:
        sections.append(table2_result.section())
    if boards is None:
        results = [_board(competition, options)[1] for competition, options, _ in BOARDS]
    else:
        results = [result for _, _, result in boards]
    sections += [result.section() for result in results]
    sections += [
        run_analysis(f"consistency {command}", entry).section() for command, entry in _CONSISTENCY_ANALYSES
    ]
    sections.append((example if example is not None else sklearn_example()).section())
    sections += [result.section() for result in (tasks if tasks is not None else many_tasks())]
    sections.append((herrmann if herrmann is not None else run_analysis("multiverse example", {})).section())
    return write_report(sections, Path(folder) / REPORT_NAME, title="benchtrust: the bundled examples")


if __name__ == "__main__":
    main()
