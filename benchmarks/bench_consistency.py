"""Time the consistency checks (benchtrust.consistency) against mlscorecheck 1.0.3, in one run.

Cases (issue: "consistency tests of reported scores"; paper by Fazekas & Kovács):

1. One large test set, p = 100,000, n = 900,000: all 22 scores computed exactly from tp = 81,234,
   tn = 812,345 (β = 2 for fbp and fbn) and rounded to 4 decimals, checked with eps = 1e-4 and 0.5e-4.
   Only (81234, 812345) gives all 22 values (benchtrust must report exactly that one pair; mlscorecheck's
   interval inversions are looser and report more). mlscorecheck is timed twice: its default call (pair
   prefiltering on, what users run) and with ``prefilter_by_pairs=False``. Target: benchtrust at least 10x
   faster than the default call, and exact.
2. Paper §3.3: p = 1000, n = 6000, acc 0.6821, npv 0.9401, f1 0.4004, eps = 1e-4 (consistent; the pairs
   (743, 4031) and (743, 4032)). No target: a sub-millisecond case, timed for completeness.
3. EHG (paper §5.2): p = 38, n = 262, 5-fold cross-validation, mean of scores acc 0.9447, sens 0.9139,
   spec 0.9733, eps = 1e-4, unknown folds: inconsistent; mlscorecheck tests all 918 fold configurations.
   Target: benchtrust at least 10x faster.
4. The same scores with p = 244: consistent. Target: at least 10x faster. The evidence (per-fold counts)
   each library returns is printed and re-checked here: the mean of each score over its folds must lie
   within eps of the reported value.
5. Regression scores (MSE, RMSE, MAE, R²): 10,000 random claims against mlscorecheck's regression check
   (``_consistency_regression.py``). Target: at least 10x faster.
6. Which protocol fits on DRIVE (test images, annotator 1): ``check_protocols`` over fov/all x mos/som
   against mlscorecheck's ``check_drive_vessel_aggregated``, two score sets, eps 1e-4 or inferred; verdicts
   must agree. Target: at least 10x faster (``_consistency_named.py``).
7. 10,000 claims on named test sets (half the mean of per-image scores) through ``check_batch``. Target:
   under 10 s; mlscorecheck's per-claim equivalents timed on a sample (``_consistency_named.py``).
8. Multiclass k-fold cross-validation, micro and macro, mean of scores and score of means, 5 known folds:
   ``check_multiclass_kfold`` against ``check_1_dataset_known_folds_{mos,som}_{micro,macro}``, 30 claims
   each, half perturbed; verdicts compared. Target: at least 10x faster (``_consistency_multiclass.py``).

How it is timed: mlscorecheck runs in its own environment, ``benchmarks/.venv-mlscorecheck`` (created with
``python -m venv`` and ``pip install -r benchmarks/requirements-mlscorecheck.txt`` when missing; without
network the script says so and times benchtrust alone). A small snippet runs there in a subprocess, times
each call with ``time.perf_counter`` around the call only (logging switched off, which favours
mlscorecheck) and prints JSON. benchtrust is timed in this process the same way. Both report the median
of several calls; mlscorecheck's k-fold cases take seconds, so they run once or twice only. mlscorecheck's
code is only called, never copied (see benchmarks/MLSCORECHECK_FACTS.md).

Run: make bench (or .venv/bin/python benchmarks/bench_consistency.py). Prints tables; asserts nothing.
Takes about two minutes on two cores (a few more the first time, when it installs mlscorecheck).
"""

from __future__ import annotations

import math
import os
import statistics
import textwrap
import time
from pathlib import Path

import _consistency_multiclass  # benchmarks/, the script's own folder
import _consistency_named
import _consistency_regression
from _peers import (
    UNAVAILABLE,
    peer_python,
    ratio_text,
    run_peer,
    speed_up,
)
from _tables import print_table
from benchtrust.consistency._test_set import check_test_set

HERE = Path(__file__).resolve().parent

#: Case 1: the confusion matrix the 22 scores come from.
LARGE = {"p": 100_000, "n": 900_000, "tp": 81_234, "tn": 812_345, "beta": 2.0}
LARGE_EPS = (1e-4, 0.5e-4)
PAPER_33 = {"p": 1000, "n": 6000, "scores": {"acc": 0.6821, "npv": 0.9401, "f1": 0.4004}, "eps": 1e-4}
PAPER_33_PAIRS = [(743, 4031), (743, 4032)]
EHG_SCORES = {"acc": 0.9447, "sens": 0.9139, "spec": 0.9733}
EHG = {"n": 262, "folds": 5, "eps": 1e-4}
EHG_CONFIGURATIONS = 918  # the paper's count for p = 38
SPEED_UP_TARGET = 10

#: Calls timed per case (median reported). mlscorecheck's k-fold calls take several seconds each.
MLS_REPEAT = {"test set": 7, "no prefilter": 3, "paper": 50, "ehg 38": 2, "ehg 244": 1}
BENCHTRUST_MIN_REPEAT, BENCHTRUST_MAX_REPEAT, BENCHTRUST_BUDGET = 3, 50, 1.0

#: Runs inside benchmarks/.venv-mlscorecheck. Reads a list of jobs (JSON) on stdin, prints one JSON line.
MLS_SNIPPET = r"""
import json, logging, statistics, sys, time
logging.disable(logging.INFO)
from mlscorecheck.check.binary import check_1_dataset_unknown_folds_mos, check_1_testset_no_kfold

def call(job):
    if job["kind"] == "test set":
        return check_1_testset_no_kfold({"p": job["p"], "n": job["n"]}, job["scores"], job["eps"],
                                        prefilter_by_pairs=job["prefilter"])
    return check_1_dataset_unknown_folds_mos({"p": job["p"], "n": job["n"]},
                                             {"n_folds": job["folds"], "n_repeats": 1},
                                             job["scores"], job["eps"], verbosity=0)

def summary(job, result):
    out = {"consistent": not result["inconsistency"]}
    if job["kind"] == "test set":
        out["pairs"] = result["n_valid_tptn_pairs"]
        evidence = result["evidence"]
        out["evidence"] = None if evidence is None else [evidence["tp"], evidence["tn"]]
        return out
    out["configurations"] = len(result["details"])
    out["evidence"] = None
    if out["consistent"]:
        last = result["details"][-1]["details"]["lp_configuration"]["evaluations"][0]["folds"]["folds"]
        out["evidence"] = [[int(f["fold"][key]) for key in ("p", "n", "tp", "tn")] for f in last]
    return out

results = []
for job in json.load(sys.stdin):
    try:
        times = []
        for _ in range(job["repeat"]):
            start = time.perf_counter()
            result = call(job)
            times.append(time.perf_counter() - start)
        results.append({"seconds": statistics.median(times), "calls": len(times), **summary(job, result)})
    except Exception as error:
        results.append({"error": f"{type(error).__name__}: {error}"})
print("PEER-JSON " + json.dumps(results))
"""


# ---------------------------------------------------------------------------------------------- helpers


def exact_scores(tp, tn, p, n, beta):
    """The 22 scores of (tp, tn) on p positives and n negatives, from their textbook formulas."""
    fp, fn = n - tn, p - tp
    tpr, tnr, fpr = tp / p, tn / n, fp / n
    ppv, npv = tp / (tp + fp), tn / (tn + fn)
    b2 = beta**2
    return {
        "acc": (tp + tn) / (p + n),
        "sens": tpr,
        "spec": tnr,
        "ppv": ppv,
        "npv": npv,
        "bacc": (tpr + tnr) / 2,
        "f1p": 2 * tp / (2 * tp + fp + fn),
        "f1n": 2 * tn / (2 * tn + fn + fp),
        "fbp": (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp),
        "fbn": (1 + b2) * tn / ((1 + b2) * tn + b2 * fp + fn),
        "fm": math.sqrt(ppv * tpr),
        "upm": 4 * tp * tn / (4 * tp * tn + (tp + tn) * (fp + fn)),
        "gm": math.sqrt(tpr * tnr),
        "mk": ppv + npv - 1,
        "lrp": tpr / fpr,
        "lrn": (1 - tpr) / tnr,
        "mcc": (tp * tn - fp * fn) / math.sqrt(p * n * (tp + fp) * (tn + fn)),
        "bm": tpr + tnr - 1,
        "pt": (math.sqrt(tpr * fpr) - fpr) / (tpr - fpr),
        "dor": tp * tn / (fp * fn),
        "ji": tp / (tp + fp + fn),
        "kappa": 2 * (tp * tn - fp * fn) / (n * (tp + fp) + p * (tn + fn)),
    }


def fold_means(evidence):
    """Mean acc, sens and spec over folds given as (p_i, n_i, tp_i, tn_i)."""
    k = len(evidence)
    return {
        "acc": sum((tp + tn) / (p + n) for p, n, tp, tn in evidence) / k,
        "sens": sum(tp / p for p, _, tp, _ in evidence) / k,
        "spec": sum(tn / n for _, n, _, tn in evidence) / k,
    }


def gives_scores(evidence, scores, eps):
    """Whether the folds' mean scores lie within eps of the reported ones (1e-9 of floating-point slack)."""
    means = fold_means(evidence)
    return all(abs(means[name] - value) <= eps + 1e-9 for name, value in scores.items())


def benchtrust_time(function):
    """Median wall time of repeated calls (at least 3, up to a 1 s budget or 50 calls), and the result."""
    times = []
    while len(times) < BENCHTRUST_MIN_REPEAT or (
        sum(times) < BENCHTRUST_BUDGET and len(times) < BENCHTRUST_MAX_REPEAT
    ):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(times), result


def run_mlscorecheck(python, jobs):
    """Run ``jobs`` in mlscorecheck's environment: a result dict per job (``{"error": ...}`` on failure)."""
    results = run_peer(python, MLS_SNIPPET, jobs, timeout=900)
    return [results] * len(jobs) if isinstance(results, dict) else results


def seconds(value):
    return "n/a" if value is None else f"{value:.4f}" if value < 1 else f"{value:.2f}"


def eps_text(eps):
    """1e-4 as "1e-4", 0.5e-4 as "0.5e-4"."""
    return f"{eps * 1e4:g}e-4"


def verdict(consistent, count=None, unit="pair"):
    word = "consistent" if consistent else "inconsistent"
    return word if count is None else f"{word}, {count:,} {unit}{'s' * (count != 1)}"


def mls_verdict(result, key, unit):
    if result.get("error") == UNAVAILABLE:
        return "n/a"
    if "error" in result:
        return f"error: {result['error']}"
    return verdict(result["consistent"], result[key], unit)


def agreement(label, ok):
    print(f"Check: {label}: {'agrees' if ok else 'DISAGREES'}")
    return ok


def target(label, value, correct=True, failure="NOT exact"):
    """Print a target line: ``value`` is the speed-up (None without mlscorecheck)."""
    if value is None:
        print(f"Target: {label}: not judged (no mlscorecheck timing){'' if correct else '; ' + failure}")
        return
    met = value >= SPEED_UP_TARGET and correct
    detail = ratio_text(value) + ("" if correct else ", " + failure)
    print(f"Target: {label}: {detail} ({'met' if met else 'not met'})")


# ------------------------------------------------------------------------------------------------ cases


def case_large(python):
    """Case 1: all 22 scores of one large test set, at two values of eps."""
    p, n, tp, tn, beta = (LARGE[key] for key in ("p", "n", "tp", "tn", "beta"))
    scores = {name: round(value, 4) for name, value in exact_scores(tp, tn, p, n, beta).items()}
    print(f"Case 1: one test set, p = {p:,}, n = {n:,}; all 22 scores of (tp, tn) = ({tp}, {tn}), beta = 2,")
    listed = "rounded to 4 decimals: " + ", ".join(f"{name} {value:g}" for name, value in scores.items())
    print(textwrap.fill(listed, width=110))
    mls_scores = {**scores, "beta_positive": beta, "beta_negative": beta}
    jobs = [
        {"kind": "test set", "p": p, "n": n, "scores": mls_scores, "eps": eps, "prefilter": prefilter}
        | {"repeat": MLS_REPEAT["test set" if prefilter else "no prefilter"]}
        for eps in LARGE_EPS
        for prefilter in (True, False)
    ]
    mls = iter(run_mlscorecheck(python, jobs))
    header = (
        "eps",
        "mlscorecheck call",
        "benchtrust s",
        "mlscorecheck s",
        "speed-up",
        "benchtrust",
        "mlscorecheck",
    )
    rows, outcomes = [header], []
    for eps in LARGE_EPS:
        ours, calls, result = benchtrust_time(
            lambda eps=eps: check_test_set(scores, positives=p, negatives=n, eps=eps, beta=beta)
        )
        exact = result.consistent and result.n_solutions == 1 and result.solutions[0] == (tp, tn)
        ratios = []
        for call in ("default (prefilter)", "prefilter_by_pairs=False"):
            theirs = next(mls)
            ratios.append(speed_up(ours, theirs.get("seconds")))
            rows.append(
                (
                    eps_text(eps),
                    call,
                    f"{seconds(ours)} ({calls})",
                    "n/a" if "error" in theirs else f"{seconds(theirs['seconds'])} ({theirs['calls']})",
                    ratio_text(ratios[-1]),
                    verdict(result.consistent, result.n_solutions),
                    mls_verdict(theirs, "pairs", "pair"),
                )
            )
        outcomes.append((eps, result, exact, ratios[0]))
    print("(seconds are medians; in parentheses, the number of calls timed)")
    print_table(rows)
    for eps, result, exact, _ in outcomes:
        agreement(
            f"eps = {eps_text(eps)}: benchtrust finds exactly 1 pair, ({tp}, {tn}) "
            f"(it reports {result.n_solutions}: {', '.join(map(str, result.solutions))})",
            exact,
        )
    for eps, _, exact, value in outcomes:
        target(
            f"case 1, eps = {eps_text(eps)}: >= 10x faster than mlscorecheck's default call, and exact",
            value,
            exact,
        )
    print()


def case_paper(python):
    """Case 2: the example of §3.3."""
    p, n, scores, eps = (PAPER_33[key] for key in ("p", "n", "scores", "eps"))
    print(
        f"Case 2: paper §3.3, p = {p}, n = {n}, "
        + ", ".join(f"{k} {v}" for k, v in scores.items())
        + f", eps = {eps_text(eps)}"
    )
    job = {"kind": "test set", "p": p, "n": n, "scores": scores, "eps": eps, "prefilter": True}
    (theirs,) = run_mlscorecheck(python, [job | {"repeat": MLS_REPEAT["paper"]}])
    ours, calls, result = benchtrust_time(lambda: check_test_set(scores, positives=p, negatives=n, eps=eps))
    header = ("benchtrust s", "mlscorecheck s", "speed-up", "benchtrust", "mlscorecheck")
    print_table(
        [
            header,
            (
                f"{seconds(ours)} ({calls})",
                "n/a" if "error" in theirs else f"{seconds(theirs['seconds'])} ({theirs['calls']})",
                ratio_text(speed_up(ours, theirs.get("seconds"))),
                verdict(result.consistent, result.n_solutions) + f": {', '.join(map(str, result.solutions))}",
                mls_verdict(theirs, "pairs", "pair")
                + ("" if "error" in theirs else f", evidence {tuple(theirs['evidence'] or ())}"),
            ),
        ]
    )
    agreement(
        f"benchtrust consistent with the pairs {', '.join(map(str, PAPER_33_PAIRS))}",
        result.consistent and list(result.solutions) == PAPER_33_PAIRS,
    )
    print()


def benchtrust_folds(result):
    """benchtrust's k-fold evidence as (p_i, n_i, tp_i, tn_i) per fold, or None if it has none."""
    evidence = result.evidence
    if not isinstance(evidence, dict) or "configuration" not in evidence or "counts" not in evidence:
        return None
    return [
        (int(p), int(n), int(tp), int(tn))
        for (p, n), (tp, tn) in zip(evidence["configuration"], evidence["counts"], strict=True)
    ]


def folds_text(folds):
    return ", ".join(f"({p},{n})->({tp},{tn})" for p, n, tp, tn in folds)


def print_evidence(library, folds, raw):
    """Print a library's k-fold evidence and whether its mean scores are the reported ones."""
    if folds is None:
        print(f"{library} evidence (not in the expected per-fold form): {raw!r}")
        return False
    means = ", ".join(f"{name} {value:.6f}" for name, value in fold_means(folds).items())
    print(f"{library} evidence, folds (p_i,n_i)->(tp_i,tn_i): {folds_text(folds)}")
    print(f"  mean scores {means}")
    return agreement(
        f"{library}'s evidence gives the reported scores", gives_scores(folds, EHG_SCORES, EHG["eps"])
    )


def case_ehg(python, check_kfold, positives, expected):
    """Cases 3 and 4: the EHG scores, 5 folds, mean of scores, unknown folds."""
    number = 3 if not expected else 4
    n, folds, eps = EHG["n"], EHG["folds"], EHG["eps"]
    print(
        f"Case {number}: EHG (§5.2), p = {positives}, n = {n}, {folds} folds, unknown folds, mean of scores\n"
        + ", ".join(f"{k} {v}" for k, v in EHG_SCORES.items())
        + f", eps = {eps_text(eps)}"
    )
    job = {"kind": "unknown folds", "p": positives, "n": n, "folds": folds, "scores": EHG_SCORES, "eps": eps}
    (theirs,) = run_mlscorecheck(python, [job | {"repeat": MLS_REPEAT[f"ehg {positives}"]}])
    ours, calls, result = benchtrust_time(
        lambda: check_kfold(
            EHG_SCORES,
            positives=positives,
            negatives=n,
            folds=folds,
            aggregation="mos",
            folding="unknown",
            eps=eps,
        )
    )
    ratio_value = speed_up(ours, theirs.get("seconds"))
    header = ("benchtrust s", "mlscorecheck s", "speed-up", "benchtrust", "mlscorecheck")
    print_table(
        [
            header,
            (
                f"{seconds(ours)} ({calls})",
                "n/a" if "error" in theirs else f"{seconds(theirs['seconds'])} ({theirs['calls']})",
                ratio_text(ratio_value),
                verdict(result.consistent, result.configurations_tested, "configuration") + " tested",
                mls_verdict(theirs, "configurations", "configuration") + " tested" * ("error" not in theirs),
            ),
        ]
    )
    word = "consistent" if expected else "inconsistent"
    ok = agreement(f"benchtrust {word}, as in the paper", result.consistent == expected)
    if "error" not in theirs:
        agreement(f"mlscorecheck {word}, as in the paper", theirs["consistent"] == expected)
    if expected:
        ok &= print_evidence("benchtrust", benchtrust_folds(result), result.evidence)
        if "error" not in theirs:
            print_evidence("mlscorecheck", theirs["evidence"], theirs["evidence"])
    else:
        print(
            f"Note: the paper enumerates {EHG_CONFIGURATIONS} fold configurations; mlscorecheck tested "
            f"{theirs.get('configurations', 'n/a')}, benchtrust {result.configurations_tested:,}."
        )
    target(
        f"case {number}, EHG p = {positives}: benchtrust >= 10x faster than mlscorecheck",
        ratio_value,
        ok,
        "benchtrust's answer WRONG",
    )
    print()


def load_check_kfold():
    """benchtrust's k-fold check, or None while it does not exist yet."""
    try:
        from benchtrust.consistency._kfold import check_kfold
    except ImportError as error:
        print(f"benchtrust k-fold check unavailable ({error}); cases 3 and 4 skipped.\n")
        return None
    return check_kfold


def main():
    python = peer_python("mlscorecheck", "mlscorecheck")
    case_large(python)
    case_paper(python)
    check_kfold = load_check_kfold()
    if check_kfold is not None:
        case_ehg(python, check_kfold, 38, expected=False)
        case_ehg(python, check_kfold, 244, expected=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores)")
    print()
    _consistency_regression.main()
    print()
    _consistency_named.main()
    print()
    _consistency_multiclass.main()


if __name__ == "__main__":
    main()
