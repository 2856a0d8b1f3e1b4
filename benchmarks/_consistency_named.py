"""Cases 6 and 7 of ``bench_consistency.py``: named test sets (issue 17), benchtrust against mlscorecheck.

6. Which protocol fits, on DRIVE (test images, annotator 1): the two score sets of
   ``MLSCORECHECK_FACTS.md`` ("Which protocol fits"), with eps = 1e-4 and with eps inferred from the 4
   decimals (benchtrust: rounding "round"; mlscorecheck: eps = 5e-5). benchtrust ``check_protocols(scores,
   dataset="drive/test/manual1/fov", candidates={"aggregation": ["mos", "som"]})``: 4 protocols, the field
   of view or all pixels times the mean of per-image scores or the score of the summed counts, against
   mlscorecheck ``check_drive_vessel_aggregated("test", 1, scores, eps)``, which tests the same four.
   Verdicts must agree. Target: at least 10x faster.
7. A batch of 10,000 claims on named test sets through ``check_batch`` (a CSV with a ``dataset`` column,
   one job): every other claim is one test set (each named set in turn, pooled counts), the others the mean
   of per-image scores over a per-image collection (each in turn: DRIVE, STARE, HRF, CHASE_DB1 images and
   DIARETDB0 batches); acc, sens, spec of honest random counts, 4 decimals. Target: under 10 s. mlscorecheck
   has an equivalent call per claim (``check_1_testset_no_kfold`` on the pooled counts; the
   ``check_*_aggregated_mos*`` / ``check_diaretdb0_class_mos`` bundles per collection); it is timed on a
   sample of 100 claims of each kind, and its time for the whole table extrapolated from their means.

mlscorecheck runs in ``benchmarks/.venv-mlscorecheck`` (see ``_peers.py``); its wall time counts, since its
linear programmes run in a CBC subprocess. Run: ``.venv/bin/python benchmarks/_consistency_named.py`` (its
``main()`` is part of ``bench_consistency.py``).
"""

from __future__ import annotations

import csv
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from _peers import UNAVAILABLE, median_seconds, peer_python, ratio_text, run_peer, speed_up
from _tables import print_table

DRIVE_SCORES = (
    {"acc": "0.9557", "sens": "0.7761", "spec": "0.9792"},
    {"acc": "0.9494", "sens": "0.7450", "spec": "0.9793"},
)
PROTOCOLS = [(region, aggregation) for region in ("fov", "all") for aggregation in ("mos", "som")]
#: benchtrust's aggregation words as mlscorecheck abbreviates them.
_PEER_AGGREGATION = {"mean_of_scores": "mos", "score_of_means": "som"}
CLAIMS, SAMPLE, DECIMALS = 10_000, 100, 4
BATCH_TARGET = 10.0
REPEAT = {"benchtrust": 50, "mlscorecheck": 20}

#: Runs in mlscorecheck's environment: jobs (JSON) on stdin, one call each, timed; prints PEER-JSON.
_PEER = r"""
import importlib, json, logging, statistics, sys, time
logging.disable(logging.INFO)
out = []
for job in json.load(sys.stdin):
    module, name = job["function"].split(":")
    function = getattr(importlib.import_module(module), name)
    times = []
    try:
        for _ in range(job["repeat"]):
            start = time.perf_counter()
            result = function(*job["args"], **job["kwargs"])
            times.append(time.perf_counter() - start)
        out.append({"seconds": statistics.median(times), "inconsistency": result["inconsistency"]})
    except Exception as error:
        out.append({"error": f"{type(error).__name__}: {error}"})
print("PEER-JSON " + json.dumps(out))
"""
_RETINA = "mlscorecheck.check.bundles.retina:"


def case_drive_protocols(python):
    """Case 6: which protocol fits on DRIVE: check_protocols against check_drive_vessel_aggregated."""
    from benchtrust.consistency import check_protocols

    print("Case 6: which protocol fits, DRIVE test images, annotator 1: fov/all x mos/som (4 protocols)")
    variants = [(scores, eps) for scores in DRIVE_SCORES for eps in (1e-4, None)]
    jobs = [
        {
            "function": _RETINA + "check_drive_vessel_aggregated",
            "args": ["test", 1, {k: float(v) for k, v in scores.items()}, eps or 0.5 * 10**-DECIMALS],
            "kwargs": {"verbosity": 0},
            "repeat": REPEAT["mlscorecheck"],
        }
        for scores, eps in variants
    ]
    peer = run_peer(python, _PEER, jobs)
    peer = [peer] * len(jobs) if isinstance(peer, dict) else peer
    rows = [("scores", "eps", "benchtrust ms", "mlscorecheck ms", "speed-up", "consistent (both)", "agree")]
    ratios, agreed = [], True
    for (scores, eps), theirs in zip(variants, peer, strict=True):
        candidates = {"aggregation": ["mos", "som"]} | ({} if eps else {"rounding": ["round"]})
        result, ours = median_seconds(
            lambda scores=scores, eps=eps, candidates=candidates: check_protocols(
                scores, dataset="drive/test/manual1/fov", eps=eps, candidates=candidates
            ),
            REPEAT["benchtrust"],
        )
        verdicts = {  # keyed as mlscorecheck names its flags
            (row["region"], _PEER_AGGREGATION[row["aggregation"]]): row["verdict"] == "consistent"
            for row in result.rows
        }
        same = "n/a"
        if "inconsistency" in theirs:
            flags = theirs["inconsistency"]
            same = all(verdicts[key] == (not flags[f"inconsistency_{key[0]}_{key[1]}"]) for key in PROTOCOLS)
            agreed &= same
        ratios.append(speed_up(ours, theirs.get("seconds")))
        rows.append(
            (
                ", ".join(scores.values()),
                "1e-4" if eps else f"inferred ({DECIMALS} decimals)",
                f"{ours * 1e3:.2f}",
                "n/a" if "seconds" not in theirs else f"{theirs['seconds'] * 1e3:.2f}",
                ratio_text(ratios[-1]),
                ", ".join(f"{r}/{a}" for r, a in PROTOCOLS if verdicts[(r, a)]) or "none",
                "yes" if same is True else "NO" if same is False else same,
            )
        )
    print("(wall-time medians of 50 benchtrust and 20 mlscorecheck calls)")
    print_table(rows)
    if any("error" in theirs for theirs in peer):
        print(f"mlscorecheck: {next(t['error'] for t in peer if 'error' in t)}")
    known = [r for r in ratios if r is not None]
    worst = min(known) if known else None
    verdict = "n/a" if worst is None else "met" if worst >= 10 and agreed else "NOT met"
    least = ratio_text(worst)
    print(f"Target: case 6, every variant >= 10x faster, verdicts agreeing: {verdict} (least {least})")
    print()


def claims_table(path, count=CLAIMS, seed=17):
    """Write the claims of case 7 to ``path``; return them as dicts (name, aggregation, scores, counts)."""
    from benchtrust.consistency import dataset, dataset_names

    rng = np.random.default_rng(seed)
    names = dataset_names()
    per_image = [name for name in names if dataset(name).folds]
    claims = []
    for i in range(count):
        mos = i % 2 == 1
        counts = dataset(per_image[i // 2 % len(per_image)] if mos else names[i // 2 % len(names)])
        if mos:
            p, n = (np.array(v) for v in zip(*counts.folds, strict=True))
        else:
            p, n = np.array([counts.positives]), np.array([counts.negatives])
        tp = rng.binomial(p, rng.uniform(0.5, 0.95))
        tn = rng.binomial(n, rng.uniform(0.8, 0.99))
        with np.errstate(invalid="ignore", divide="ignore"):
            values = {"acc": np.mean((tp + tn) / (p + n)), "sens": np.mean(tp / p), "spec": np.mean(tn / n)}
        scores = {name: f"{value:.{DECIMALS}f}" for name, value in values.items() if np.isfinite(value)}
        claims.append(
            {"name": counts.name, "mos": mos, "scores": scores, "p": counts.positives, "n": counts.negatives}
        )
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, ["id", "dataset", "aggregation", "acc", "sens", "spec"])
        writer.writeheader()
        for i, claim in enumerate(claims):
            writer.writerow(
                {"id": i, "dataset": claim["name"], "aggregation": "mos" * claim["mos"], **claim["scores"]}
            )
    return claims


def peer_job(claim):
    """mlscorecheck's call for a claim: the per-collection mean-of-scores bundle, or one test set."""
    scores = {name: float(value) for name, value in claim["scores"].items()}
    eps, quiet = 0.5 * 10**-DECIMALS, {"verbosity": 0}
    if not claim["mos"]:
        call = (
            "mlscorecheck.check.binary:check_1_testset_no_kfold",
            [{"p": claim["p"], "n": claim["n"]}],
            {},
        )
    else:
        collection, *parts = claim["name"].split("/")
        call = {
            "drive": lambda: (
                "check_drive_vessel_aggregated_mos_assumption",
                [parts[0], parts[2], int(parts[1][-1])],
            ),
            "stare": lambda: ("check_stare_vessel_aggregated_mos", ["all", parts[0]]),
            "hrf": lambda: ("check_hrf_vessel_aggregated_mos_assumption", ["all", parts[0]]),
            "chase_db1": lambda: ("check_chasedb1_vessel_aggregated_mos", ["all", parts[0]]),
            "diaretdb0": lambda: ("check_diaretdb0_class_mos", [parts[0], "all", parts[1]]),
        }[collection]()
        call = (_RETINA + call[0], call[1], quiet)
    function, args, kwargs = call
    return {"function": function, "args": [*args, scores, eps], "kwargs": kwargs, "repeat": 1}


def case_named_batch(python):
    """Case 7: 10,000 named claims through check_batch; mlscorecheck per claim on a sample."""
    from benchtrust.consistency import check_batch

    print(
        f"Case 7: {CLAIMS:,} claims on named test sets through check_batch (one job): half one test set "
        "(pooled counts),\nhalf the mean of per-image scores over a per-image collection; acc, sens, spec "
        f"of honest counts, {DECIMALS} decimals"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "claims.csv"
        claims = claims_table(path)
        start = time.perf_counter()
        result = check_batch(path)
        ours = time.perf_counter() - start
    kinds = {"mean of per-image scores": True, "one test set": False}
    sample = {
        label: [i for i, claim in enumerate(claims) if claim["mos"] == mos][:: CLAIMS // 2 // SAMPLE][:SAMPLE]
        for label, mos in kinds.items()
    }
    peer = run_peer(python, _PEER, [peer_job(claims[i]) for rows in sample.values() for i in rows])
    peer = iter([peer] * 2 * SAMPLE if isinstance(peer, dict) else peer)
    rows = [
        ("claims", "count", "benchtrust verdicts", "mlscorecheck s per claim (sample)", "agree on sample")
    ]
    extrapolated = 0.0
    for label, indices in sample.items():
        theirs = [next(peer) for _ in indices]
        mine = [result.rows[i]["verdict"] == "consistent" for i in indices]
        timed = [t["seconds"] for t in theirs if "seconds" in t]
        agree = sum(
            m == (not t["inconsistency"]) for m, t in zip(mine, theirs, strict=True) if "inconsistency" in t
        )
        counted = [row["verdict"] for row in result.rows if claims[int(row["id"])]["mos"] == kinds[label]]
        extrapolated += statistics.mean(timed) * len(counted) if timed else float("nan")
        rows.append(
            (
                label,
                f"{len(counted):,}",
                ", ".join(f"{counted.count(v):,} {v}" for v in sorted(set(counted))),
                f"{statistics.mean(timed) * 1e3:.2f} ms" if timed else UNAVAILABLE,
                f"{agree} of {len(indices)}" if timed else "n/a",
            )
        )
    print_table(rows)
    ratio = speed_up(ours, extrapolated) if extrapolated == extrapolated else None
    theirs_text = "n/a" if ratio is None else f"{extrapolated:.1f} s (extrapolated)"
    print(f"benchtrust {ours:.2f} s for all {CLAIMS:,} claims; mlscorecheck {theirs_text}", end="")
    print(f"; speed-up {ratio_text(ratio)}")
    met = "met" if ours < BATCH_TARGET else "NOT met"
    print(f"Target: case 7, {CLAIMS:,} named claims in under {BATCH_TARGET:g} s: {met} ({ours:.2f} s)")
    print()


def main():
    python = peer_python("mlscorecheck", "mlscorecheck")
    case_drive_protocols(python)
    case_named_batch(python)


if __name__ == "__main__":
    main()
