"""Time ranks over data sets (benchtrust.compare.rank_test, critical_difference_svg and
plot_critical_difference) against autorank and scikit-posthocs, on the bundled UCI data, and check that
their numbers agree.

Data: the accuracies (percent) of 5 classifiers on 54 UCI data sets, 10 runs of 10-fold cross-validation
(Benavoli et al. 2017); each classifier's score on a data set is the mean of its 100 fold accuracies. The
peers get these 54 × 5 means (the same floats, through JSON) as a DataFrame, one column per classifier.

Timed (each the median of several repetitions, after a warm-up call; the peer times its own calls in its
own environment, ``benchmarks/.venv-autorank``, see ``benchmarks/AUTORANK_FACTS.md``):

* Friedman + Nemenyi + CD diagram as SVG, the way the report gets it: benchtrust ``rank_test(uci)`` +
  ``critical_difference_svg(result)`` (the diagram's layout written directly as SVG text, no matplotlib),
  against autorank ``autorank(means, alpha=0.05, force_mode="nonparametric")`` + ``plot_stats(result)`` +
  ``savefig`` to an in-memory SVG; and against scikit-posthocs ``posthoc_nemenyi_friedman(means)`` + the
  average ranks (pandas) + ``critical_difference_diagram(ranks, p_values)`` + ``savefig`` (it draws no CD
  bar unless given one).
* The same with benchtrust drawing through matplotlib: ``rank_test(uci)`` + ``plot_critical_difference
  (result)`` + ``savefig`` to an in-memory SVG and PNG (matplotlib's defaults; PNG at 100 dpi), against the
  same peer calls to SVG and PNG.
* The statistics alone: ``rank_test(uci)`` against ``autorank(...)`` (which also runs Shapiro-Wilk,
  Levene and confidence intervals) and against ``posthoc_nemenyi_friedman`` (the p-values only).
* The other post-hoc tests, Holm-adjusted: ``rank_test(uci, posthoc="conover" / "siegel" / "wilcoxon")``
  (with the Friedman test and the ranks) against scikit-posthocs' ``posthoc_conover_friedman(means,
  p_adjust="holm")``, ``posthoc_siegel_friedman(means, p_adjust="holm")`` and ``posthoc_wilcoxon(long
  table, p_adjust="holm")`` (the p-values only).

Target: Friedman + Nemenyi + CD diagram at least 5x faster than autorank's; printed for the report's SVG
and, separately, for benchtrust's matplotlib paths (there both sides draw with matplotlib, whose fixed
costs dominate).

Agreement (printed): average ranks (autorank), the Nemenyi p-values (scikit-posthocs, to 1e-10), Holm over
all pairs (``posthoc_siegel_friedman(p_adjust="holm")``) and against aode (``posthoc_demsar(control=
"aode", p_adjust="holm")``), the Conover-Friedman and Wilcoxon p-values (Holm), Friedman's χ² (scipy's,
tie-corrected, as benchtrust and autorank report it), and the CD (autorank's uses an approximation of
the studentized range quantile, so it agrees to about 1e-5 only).

Run: .venv/bin/python benchmarks/_compare_ranks.py (its ``main()`` is part of make bench). Takes about
half a minute.
"""

from __future__ import annotations

import io
import os

import numpy as np

from _peers import (  # benchmarks/, the script's own folder
    median_seconds,
    peer_python,
    ratio_text,
    run_peer,
    speed_up,
    uci_scores,
)
from _tables import print_table
from benchtrust.compare import (
    critical_difference_svg,
    plot_critical_difference,
    rank_test,
)

ALPHA = 0.05
CONTROL = "aode"
REPEATS = 15
TARGET_SPEED_UP = 5
#: The largest difference from a peer's exact numbers allowed.
AGREEMENT = 1e-10

_PEER = r"""
import contextlib, io, json, statistics, sys, time
import numpy as np, pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import scikit_posthocs as sp
from autorank import autorank, plot_stats
from scipy import stats

jobs = json.load(sys.stdin)
means = pd.DataFrame(jobs["means"], columns=jobs["methods"])
alpha = jobs["alpha"]


def median(function):
    function()
    seconds = []
    for _ in range(jobs["repeats"]):
        start = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def autorank_quietly():
    with contextlib.redirect_stdout(io.StringIO()):  # it prints its choice of tests
        return autorank(means, alpha=alpha, force_mode="nonparametric")


def autorank_figure(form):
    ax = plot_stats(autorank_quietly())
    ax.figure.savefig(io.BytesIO(), format=form)
    plt.close(ax.figure)


def posthocs_figure(form):
    p = sp.posthoc_nemenyi_friedman(means)
    ranks = means.rank(axis=1, ascending=False).mean()  # rank 1 = the highest accuracy
    figure, ax = plt.subplots(figsize=(6, 2))
    sp.critical_difference_diagram(ranks, p, alpha=alpha, ax=ax)
    figure.savefig(io.BytesIO(), format=form)
    plt.close(figure)


long = means.melt(var_name="method", value_name="score")  # posthoc_wilcoxon takes a long table


def wilcoxon():
    p = sp.posthoc_wilcoxon(long, val_col="score", group_col="method", p_adjust="holm")
    return p.loc[jobs["methods"], jobs["methods"]]


result = autorank_quietly()
friedman = stats.friedmanchisquare(*(means[c] for c in means.columns))
control = jobs["control"]
demsar = sp.posthoc_demsar(means, control=control, p_adjust="holm")
out = {
    "meanrank": result.rankdf["meanrank"].to_dict(),
    "cd": float(result.cd),
    "pvalue": float(result.pvalue),
    "omnibus": result.omnibus,
    "posthoc": result.posthoc,
    "friedman": [float(friedman.statistic), float(friedman.pvalue)],
    "nemenyi": sp.posthoc_nemenyi_friedman(means).to_numpy().tolist(),
    "holm": sp.posthoc_siegel_friedman(means, p_adjust="holm").to_numpy().tolist(),
    "holm_control": demsar.loc[control].to_dict(),
    "conover": sp.posthoc_conover_friedman(means, p_adjust="holm").to_numpy().tolist(),
    "wilcoxon": wilcoxon().to_numpy().tolist(),
    "seconds": {
        "autorank svg": median(lambda: autorank_figure("svg")),
        "autorank png": median(lambda: autorank_figure("png")),
        "posthocs svg": median(lambda: posthocs_figure("svg")),
        "posthocs png": median(lambda: posthocs_figure("png")),
        "autorank stats": median(autorank_quietly),
        "posthocs stats": median(lambda: sp.posthoc_nemenyi_friedman(means)),
        "posthocs conover": median(lambda: sp.posthoc_conover_friedman(means, p_adjust="holm")),
        "posthocs siegel": median(lambda: sp.posthoc_siegel_friedman(means, p_adjust="holm")),
        "posthocs wilcoxon": median(wilcoxon),
    },
}
print("PEER-JSON " + json.dumps(out))
"""


def _ours(uci, form):
    """rank_test + the CD diagram, drawn with matplotlib to an in-memory file."""
    ax = plot_critical_difference(rank_test(uci, alpha=ALPHA))
    ax.figure.savefig(io.BytesIO(), format=form)


def _ours_svg(uci):
    """rank_test + the CD diagram as SVG text, as the report makes it."""
    return critical_difference_svg(rank_test(uci, alpha=ALPHA))


def _difference(ours, theirs):
    """The largest |ours - theirs| where ours is defined (ours is NaN on the diagonal and, against a
    control, off the control's row; the peers have 1 or NaN there)."""
    return float(np.nanmax(np.abs(np.asarray(ours, dtype=float) - np.asarray(theirs, dtype=float))))


def _shown(value):
    array = np.atleast_1d(np.asarray(value, dtype=float))
    return f"{array[0]:.10g}" if array.size == 1 else f"{array.size} values"


def _agreement(uci, peer):
    """Rows comparing our numbers with the peers'."""
    nemenyi = rank_test(uci, alpha=ALPHA)
    holm = rank_test(uci, alpha=ALPHA, posthoc="holm")
    control = rank_test(uci, alpha=ALPHA, posthoc="holm", control=CONTROL)
    conover = rank_test(uci, alpha=ALPHA, posthoc="conover", p_adjust="holm")
    wilcoxon = rank_test(uci, alpha=ALPHA, posthoc="wilcoxon", p_adjust="holm")
    comparisons = [
        (
            "average ranks (autorank meanrank)",
            nemenyi.average_ranks,
            [peer["meanrank"][m] for m in uci.methods],
        ),
        ("Nemenyi p (posthoc_nemenyi_friedman)", nemenyi.p_values, peer["nemenyi"]),
        ("Holm p, all pairs (posthoc_siegel_friedman)", holm.p_values, peer["holm"]),
        (
            f"Holm p vs {CONTROL} (posthoc_demsar)",
            control.p_values[uci.methods.index(CONTROL)],
            [peer["holm_control"][m] for m in uci.methods],
        ),
        ("Conover-Friedman p, Holm (posthoc_conover_friedman)", conover.p_values, peer["conover"]),
        ("Wilcoxon p, Holm (posthoc_wilcoxon)", wilcoxon.p_values, peer["wilcoxon"]),
        ("Friedman chi2, tie-corrected (scipy)", nemenyi.friedman, peer["friedman"][0]),
        ("Friedman p, tie-corrected (autorank)", nemenyi.friedman_p_value, peer["pvalue"]),
    ]
    rows = [("quantity", "benchtrust", "peer", "largest difference", "agrees")]
    for name, ours, theirs in comparisons:
        difference = _difference(ours, theirs)
        rows.append((name, _shown(ours), _shown(theirs), f"{difference:.1e}", str(difference <= AGREEMENT)))
    difference = abs(nemenyi.critical_difference - peer["cd"])  # autorank's q_α is an approximation
    rows.append(
        (
            "CD (autorank: qsturng approximation)",
            _shown(nemenyi.critical_difference),
            _shown(peer["cd"]),
            f"{difference:.1e}",
            f"{difference <= 1e-4} (to 1e-4)",
        )
    )
    return rows


def main():
    uci = uci_scores()
    means = np.nanmean(uci.scores, axis=2)
    jobs = {
        "means": means.T.tolist(),
        "methods": list(uci.methods),
        "alpha": ALPHA,
        "control": CONTROL,
        "repeats": REPEATS,
    }
    python = peer_python("autorank", "autorank")
    peer = run_peer(python, _PEER, jobs)
    theirs = peer.get("seconds", {})
    _, stats_seconds = median_seconds(lambda: rank_test(uci, alpha=ALPHA), REPEATS)
    print(
        f"Ranks over {len(uci.tasks)} data sets, {len(uci.methods)} classifiers (UCI, mean of 100 fold "
        f"accuracies each), alpha = {ALPHA}; median of {REPEATS} repetitions\n"
    )
    rows = [("what", "benchtrust ms", "autorank ms", "speed-up", "scikit-posthocs ms", "speed-up")]
    _, seconds = median_seconds(lambda: _ours_svg(uci), REPEATS)
    report = speed_up(seconds, theirs.get("autorank svg"))
    rows.append(
        _timing_row("Friedman + Nemenyi + CD diagram, SVG as in the report", seconds, theirs, "svg", report)
    )
    ratios = []
    for form in ("svg", "png"):
        _, seconds = median_seconds(lambda form=form: _ours(uci, form), REPEATS)
        ratio = speed_up(seconds, theirs.get(f"autorank {form}"))
        ratios.append(ratio)
        rows.append(
            _timing_row(f"Friedman + Nemenyi + CD diagram, matplotlib {form}", seconds, theirs, form, ratio)
        )
    rows.append(
        _timing_row(
            "statistics only",
            stats_seconds,
            theirs,
            "stats",
            speed_up(stats_seconds, theirs.get("autorank stats")),
        )
    )
    for posthoc, name in (
        ("conover", "Conover-Friedman"),
        ("siegel", "Siegel-Castellan"),
        ("wilcoxon", "Wilcoxon"),
    ):
        _, seconds = median_seconds(lambda posthoc=posthoc: rank_test(uci, posthoc=posthoc), REPEATS)
        rows.append(_timing_row(f"Friedman + {name} p-values (Holm)", seconds, theirs, posthoc, None))
    print_table(rows)
    if "error" in peer:
        print(f"autorank / scikit-posthocs: {peer['error']}; agreement not checked.")
        return
    print_table(_agreement(uci, peer))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    svg, png = ratios
    chose = f"{peer['omnibus']} + {peer['posthoc']}"
    print(f"(load average {load:.1f} on {os.cpu_count()} cores; autorank chose {chose})")
    print(
        f"Target: Friedman + Nemenyi + CD diagram at least {TARGET_SPEED_UP}x faster than autorank's "
        f"(plot_stats + savefig):\n"
        f"  the report's SVG (critical_difference_svg): {ratio_text(report)} against its SVG "
        f"({_met(report)});\n"
        f"  matplotlib (plot_critical_difference + savefig): {ratio_text(svg)} to SVG, {ratio_text(png)} to "
        f"PNG ({_met(svg, png)})."
    )


def _met(*ratios):
    return "met" if min(ratios) >= TARGET_SPEED_UP else "not met"


def _timing_row(name, seconds, theirs, key, ratio):
    autorank = theirs.get(f"autorank {key}")
    posthocs = theirs.get(f"posthocs {key}")
    return (
        name,
        f"{1000 * seconds:.2f}",
        "n/a" if autorank is None else f"{1000 * autorank:.2f}",
        ratio_text(ratio),
        "n/a" if posthocs is None else f"{1000 * posthocs:.2f}",
        ratio_text(speed_up(seconds, posthocs)),
    )


if __name__ == "__main__":
    main()
