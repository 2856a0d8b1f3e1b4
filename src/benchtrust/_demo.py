"""``make demo``: Table 2 of Møllersen & Holsbø recomputed exactly, their Fig. 1 drawn, the state of the
art estimated from a real leaderboard (Kaggle's Titanic, §5's method) with its Fig. 7, the consistency
tests of Fazekas & Kovács on their own examples (§3.3 and the EHG case of §5.2), a variance-aware
comparison of two scikit-learn classifiers (Bouthillier et al.), and the multiverse of design and analysis
choices of Nießl et al. on the Herrmann et al. results.

The paper simulates the non-i.i.d. rows of its Table 2 (100,000 repetitions); benchtrust computes every
row exactly (:func:`benchtrust.sota.best_of`), so the two agree to the paper's printed decimals up to the
paper's Monte Carlo error, mostly in the last digit of the standard deviation.
"""

from __future__ import annotations

#: Where the figure goes, relative to the current directory.
OUTPUT_FOLDER = "demo-output"
FIGURE_NAME = "fig1-best-of-1000.png"
LEADERBOARD_FIGURE_NAME = "fig7-titanic-leaderboard.png"

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
    """Print Table 2 (paper beside benchtrust) and write Fig. 1 to ``demo-output/``."""
    from pathlib import Path

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

    folder = Path(OUTPUT_FOLDER)
    folder.mkdir(parents=True, exist_ok=True)
    written = plot_best_of(rows[0][4], folder / FIGURE_NAME)
    print(
        f"Fig. 1 (independent, identical: m = {CLASSIFIERS}, n = {TEST_SIZE}, θ = 0.9) written to {written}"
    )
    print()
    titanic(folder)
    print()
    consistency()
    comparison()
    print()
    multiverse(folder)


def titanic(folder):
    """The bundled Kaggle Titanic leaderboard (n = 209 public test items): the CLI's analysis and Fig. 7.

    Perfect scores are left out (``--max-plausible 0.999``): the Titanic test labels are public, so a
    perfect score is leakage, not skill (the command keeps them unless asked).
    """
    from benchtrust._io import bundled_leaderboard
    from benchtrust.cli import main

    path = bundled_leaderboard()
    figure = folder / LEADERBOARD_FIGURE_NAME
    arguments = ["sota", "leaderboard", str(path), "--test-size", "209", "--classes", "2"]
    print("$ benchtrust " + " ".join([*arguments[:2], path.name, *arguments[3:]]) + " --max-plausible 0.999")
    try:
        main([*arguments, "--max-plausible", "0.999", "--plot", str(figure)])
    except SystemExit as stop:
        if stop.code:
            raise


#: The consistency examples of Fazekas & Kovács: §3.3 (one test set) and §5.2 (EHG, 5-fold, unknown folds,
#: the data set as published and with the positives oversampled before cross-validation).
_EHG = (
    "kfold --positives {} --negatives 262 --folds 5 --aggregation mos --folding unknown "
    "--score acc=0.9447 --score sens=0.9139 --score spec=0.9733 --eps 1e-4"
)
_CONSISTENCY = [
    "test-set --positives 1000 --negatives 6000 --score acc=0.6821 --score npv=0.9401 --score f1=0.4004 "
    "--eps 1e-4",
    _EHG.format(38),
    _EHG.format(244),
]


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


def multiverse(folder):
    """Nießl et al.'s 288 combinations of the Herrmann et al. results: rank ranges, step-wise optimisation,
    the impact of each choice and the unfolding, written to `folder`/multiverse."""
    from benchtrust.cli import main

    arguments = ["multiverse", "example", "--out", f"{folder}/multiverse"]
    print("$ benchtrust " + " ".join(arguments))
    try:
        main(arguments)
    except SystemExit as stop:
        if stop.code:
            raise


def comparison():
    """Two scikit-learn classifiers compared as Bouthillier et al. recommend: variance by source, P(A > B)."""
    from benchtrust.compare._example import sklearn_example

    print("Is A really better than B? (Bouthillier et al., §2-4 and appendix C)")
    print(sklearn_example().to_text())


if __name__ == "__main__":
    main()
