"""Time benchtrust's multiclass k-fold checks against mlscorecheck's, side by side, and check they agree.

Claims: random multiclass data sets (3-6 classes of 30-400 items) cut into 5 stratified folds (the folds'
class counts given to both libraries), each fold's confusion matrix drawn at random (every true class
predicted right with its own probability, wrong predictions spread at random); acc, sens, spec and bacc
averaged over the classes (micro: of the pooled one-vs-rest matrix; macro: the mean of the classes'
scores) and over the folds (mean of scores) or of the summed matrices (score of means), rounded to 4
decimals; every other claim has one score moved by 0.002-0.02. Both sides take eps = 1e-4.

Checks, each against mlscorecheck 1.0.3's ``mlscorecheck.check.multiclass`` equivalent:
``check_multiclass_kfold(..., average=..., aggregation=...)`` against
``check_1_dataset_known_folds_{mos,som}_{micro,macro}``. Target (issue 17): at least 10x faster.

Times are medians per claim. mlscorecheck's CBC runs for minutes on some claims; it is stopped after
``TIMEOUT`` seconds (its ``timeout`` argument; its som micro check takes none, solving no program) and
the stopped claims are counted.

Agreement (printed): the verdicts of the two libraries on every claim; no unperturbed claim may be flagged.

Run: .venv/bin/python benchmarks/_consistency_multiclass.py (its ``main()`` is part of make bench).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from _peers import peer_python, ratio_text, run_peer, speed_up
from _tables import print_table
from benchtrust.consistency._multiclass_kfold import check_multiclass_kfold

CLAIMS = 30
EPS = 1e-4
#: mlscorecheck's solver (CBC) may run for many minutes on one claim; it is stopped after this many seconds.
TIMEOUT = 10
FOLDS = 5
NAMES = ("acc", "sens", "spec", "bacc")
CHECKS = (("mos", "micro"), ("mos", "macro"), ("som", "micro"), ("som", "macro"))

_PEER = """
import json, sys, time, logging
logging.disable(logging.CRITICAL)
import warnings
warnings.simplefilter("ignore")
import mlscorecheck.check.multiclass as multiclass
jobs = json.load(sys.stdin)
out = []
for claim in jobs["claims"]:
    check = getattr(multiclass, f"check_1_dataset_known_folds_{claim['aggregation']}_{claim['average']}")
    dataset = {i: n for i, n in enumerate(claim["counts"])}
    folding = {"folds": [{i: n for i, n in enumerate(fold)} for fold in claim["folds"]]}
    solver = {} if claim["aggregation"] == "som" and claim["average"] == "micro" else {
        "verbosity": 0, "timeout": jobs["timeout"]
    }
    start = time.perf_counter()
    result = check(dataset=dataset, folding=folding, scores=claim["scores"], eps=jobs["eps"], **solver)
    out.append({
        "seconds": time.perf_counter() - start,
        "inconsistent": bool(result["inconsistency"]),
        "status": str(result.get("lp_status")),
    })
print("PEER-JSON " + json.dumps(out))
"""


def _fold_scores(matrix, average):
    """acc, sens, spec, bacc of one confusion matrix, micro or macro averaged (one-vs-rest)."""
    tp = np.diag(matrix).astype(float)
    p = matrix.sum(axis=1)
    n = matrix.sum() - p
    tn = n - matrix.sum(axis=0) + tp
    if average == "micro":
        tp, tn, p, n = tp.sum(), tn.sum(), p.sum(), n.sum()
    acc, sens, spec = (tp + tn) / (p + n), tp / p, tn / n
    bacc = (sens + spec) / 2
    return {"acc": np.mean(acc), "sens": np.mean(sens), "spec": np.mean(spec), "bacc": np.mean(bacc)}


def claims(count=CLAIMS, seed=17):
    """``count`` claims per check: dicts of counts, folds, scores, aggregation, average, perturbed."""
    rng = np.random.default_rng(seed)
    out = []
    for aggregation, average in CHECKS:
        for i in range(count):
            classes = int(rng.integers(3, 7))
            counts = rng.integers(30, 401, size=classes)
            y = np.repeat(np.arange(classes), counts)
            folds = np.array([np.bincount(y[f::FOLDS], minlength=classes) for f in range(FOLDS)])
            right = rng.uniform(0.3, 0.95, size=classes)
            matrices = []
            for fold in folds:
                matrix = np.zeros((classes, classes), dtype=np.int64)
                for c, size in enumerate(fold):
                    correct = rng.binomial(size, right[c])
                    wrong = rng.multinomial(size - correct, np.full(classes - 1, 1 / (classes - 1)))
                    matrix[c] = np.insert(wrong, c, correct)
                matrices.append(matrix)
            if aggregation == "som":
                values = _fold_scores(sum(matrices), average)
            else:
                per_fold = [_fold_scores(m, average) for m in matrices]
                values = {name: np.mean([s[name] for s in per_fold]) for name in NAMES}
            scores = {name: round(float(values[name]), 4) for name in NAMES}
            perturbed = i % 2 == 1
            if perturbed:
                name = NAMES[int(rng.integers(len(NAMES)))]
                scores[name] = round(scores[name] + float(rng.choice([-1, 1]) * rng.uniform(0.002, 0.02)), 4)
            out.append(
                {
                    "counts": counts.tolist(),
                    "folds": folds.tolist(),
                    "scores": scores,
                    "aggregation": aggregation,
                    "average": average,
                    "perturbed": perturbed,
                }
            )
    return out


def _ours(claim):
    start = time.perf_counter()
    result = check_multiclass_kfold(
        claim["scores"],
        class_counts=claim["counts"],
        folds=FOLDS,
        average=claim["average"],
        aggregation=claim["aggregation"],
        folding=claim["folds"],
        eps=EPS,
    )
    return time.perf_counter() - start, not result.consistent


def main() -> int:
    every = claims()
    check_multiclass_kfold({"acc": 0.5}, class_counts=[5, 5, 5], folds=3, average="macro")  # imports
    ours = [_ours(claim) for claim in every]
    jobs = {"claims": every, "eps": EPS, "timeout": TIMEOUT}
    peer = run_peer(peer_python("mlscorecheck", "mlscorecheck"), _PEER, jobs)
    if not isinstance(peer, list):
        print(f"mlscorecheck: {peer['error']}")
    rows = []
    for aggregation, average in CHECKS:
        index = [i for i, c in enumerate(every) if (c["aggregation"], c["average"]) == (aggregation, average)]
        mine = statistics.median(ours[i][0] for i in index)
        flagged = sum(ours[i][1] for i in index)
        honest_flags = sum(ours[i][1] for i in index if not every[i]["perturbed"])
        theirs = agree = stopped = None
        if isinstance(peer, list):
            theirs = statistics.median(peer[i]["seconds"] for i in index)
            agree = sum(peer[i]["inconsistent"] == ours[i][1] for i in index)
            stopped = sum(peer[i]["seconds"] >= TIMEOUT for i in index)
        rows.append(
            (
                f"{aggregation} {average}",
                f"{len(index)}",
                f"{1e3 * mine:.2f}",
                "n/a" if theirs is None else f"{1e3 * theirs:.2f}",
                ratio_text(speed_up(mine, theirs)),
                f"{flagged} ({honest_flags} honest)",
                "n/a" if agree is None else f"{agree}/{len(index)}",
                "n/a" if stopped is None else f"{stopped}",
            )
        )
    print(
        "Multiclass k-fold checks (5 known folds, acc/sens/spec/bacc, 4 decimals, eps 1e-4): "
        "median ms per claim"
    )
    header = (
        "check",
        "claims",
        "benchtrust",
        "mlscorecheck",
        "speed-up",
        "benchtrust flags",
        "agree",
        "peer stopped",
    )
    print_table([header, *rows])
    print("Target: every check >= 10x faster than mlscorecheck; no honest claim flagged.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
