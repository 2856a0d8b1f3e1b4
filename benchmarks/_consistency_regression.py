"""Time benchtrust's regression-score check against mlscorecheck's, side by side, and check they agree.

Claims: 10,000 random regressions (n from 2 to 200, targets and predictions normal at random scales), each
reporting 2 to 4 of MSE, RMSE, MAE and R², rounded to 4 decimals, with the target's population variance;
one score of every other claim is perturbed by 1-30%. Both sides take ε = 1e-4 for every score (the peer
adds its numerical tolerance 1e-6; benchtrust widens by 1e-9 relative).

Timed (median of several repetitions after a warm-up; the peer times its own calls in its own environment,
``benchmarks/.venv-mlscorecheck``, see ``benchmarks/MLSCORECHECK_FACTS.md`` §8):

* all claims: benchtrust ``regression_verdicts(columns, size=n, target_variance=var, eps=1e-4)`` (one
  vectorised call) against a loop of mlscorecheck ``check_1_testset_no_kfold(var=..., n_samples=...,
  scores=..., eps=1e-4)``, which checks one claim per call. Target: at least 10x.
* one claim: ``check_regression`` against one ``check_1_testset_no_kfold`` call, for the record (both are a
  few microseconds of Python: benchtrust's builds a result that explains itself).

Agreement (printed): every claim mlscorecheck finds inconsistent, benchtrust does too; no unperturbed claim
is flagged by either; benchtrust also checks RMSE = √MSE, R² = 1 - MSE/Var(y) and RMSE ≤ √n·MAE, which
mlscorecheck does not, so it flags more of the perturbed claims.

Run: .venv/bin/python benchmarks/_consistency_regression.py (its ``main()`` is part of make bench).
"""

from __future__ import annotations

import numpy as np

from _peers import median_seconds, peer_python, ratio_text, run_peer, speed_up
from _tables import print_table
from benchtrust.consistency._regression import check_regression, regression_verdicts

CLAIMS = 10_000
REPEATS = 5
EPS = 1e-4
NAMES = ("mse", "rmse", "mae", "r2")

_PEER = """
import json, sys, time, statistics
from mlscorecheck.check.regression import check_1_testset_no_kfold as check
jobs = json.load(sys.stdin)
claims, eps = jobs["claims"], jobs["eps"]
def run(c):
    return check(var=c["var"], n_samples=c["n"], scores=c["scores"], eps=eps)["inconsistency"]
def run_all():
    return [run(c) for c in claims]
def run_one():
    return run(claims[0])
def timed(function, repeats):
    function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter(); function(); times.append(time.perf_counter() - start)
    return statistics.median(times)
flags = run_all()
seconds = {"all": timed(run_all, jobs["repeats"]), "one": timed(run_one, 200)}
print("PEER-JSON " + json.dumps({"flags": flags, "seconds": seconds}))
"""


def claims(count=CLAIMS, seed=17):
    """Random regression claims as the peer takes them, and which were perturbed."""
    rng = np.random.default_rng(seed)
    out, perturbed = [], []
    for _ in range(count):
        n = int(rng.integers(2, 201))
        y = rng.normal(size=n) * 10 ** rng.uniform(-1, 1)
        error = rng.normal(size=n) * 10 ** rng.uniform(-2, 1)
        mse = float(np.mean(error**2))
        variance = float(np.var(y))
        values = {
            "mse": mse,
            "rmse": mse**0.5,
            "mae": float(np.mean(np.abs(error))),
            "r2": 1 - mse / variance,
        }
        chosen = sorted(rng.choice(4, size=int(rng.integers(2, 5)), replace=False))
        scores = {NAMES[k]: round(values[NAMES[k]], 4) for k in chosen}
        changed = bool(rng.random() < 0.5)
        if changed:
            name = NAMES[chosen[int(rng.integers(len(chosen)))]]
            scores[name] = round(scores[name] * (1 + rng.choice([-1, 1]) * rng.uniform(0.01, 0.3)), 4)
        out.append({"scores": scores, "var": variance, "n": n})
        perturbed.append(changed)
    return out, np.array(perturbed)


def columns_of(claims_):
    """The claims as benchtrust's columns: one array per score (NaN where not reported), n and Var(y)."""
    columns = {name: np.array([c["scores"].get(name, np.nan) for c in claims_]) for name in NAMES}
    return columns, np.array([c["n"] for c in claims_]), np.array([c["var"] for c in claims_])


def main():
    claims_, perturbed = claims()
    columns, size, variance = columns_of(claims_)
    peer = run_peer(
        peer_python("mlscorecheck", "mlscorecheck"),
        _PEER,
        {"claims": claims_, "eps": EPS, "repeats": REPEATS},
    )
    theirs = peer.get("seconds", {})
    table, seconds_all = median_seconds(
        lambda: regression_verdicts(columns, size=size, target_variance=variance, eps=EPS), REPEATS
    )
    first = claims_[0]
    _, seconds_one = median_seconds(
        lambda: check_regression(first["scores"], size=first["n"], target_variance=first["var"], eps=EPS), 200
    )
    ratio = speed_up(seconds_all, theirs.get("all"))
    print(
        f"Regression scores (MSE, RMSE, MAE, R²): {CLAIMS:,} claims, n 2-200, 4 decimals, eps = {EPS:g}; "
        f"median of {REPEATS} repetitions\n"
    )

    def ms(value):
        return "n/a" if value is None else f"{value * 1e3:.3f}"

    print_table(
        [
            ("what", "benchtrust ms", "mlscorecheck ms", "speed-up"),
            (f"{CLAIMS:,} claims", ms(seconds_all), ms(theirs.get("all")), ratio_text(ratio)),
            (
                "one claim",
                ms(seconds_one),
                ms(theirs.get("one")),
                ratio_text(speed_up(seconds_one, theirs.get("one"))),
            ),
        ]
    )
    ours = (table.verdict == "inconsistent").to_numpy()
    if "flags" in peer:
        flags = np.array(peer["flags"])
        print(
            f"inconsistent: mlscorecheck {flags.sum():,}, benchtrust {ours.sum():,} of {perturbed.sum():,} "
            f"perturbed claims; flagged by mlscorecheck only: {(flags & ~ours).sum()}; unperturbed claims "
            f"flagged: mlscorecheck {(flags & ~perturbed).sum()}, benchtrust {(ours & ~perturbed).sum()}"
        )
    else:
        print(
            f"mlscorecheck: {peer.get('error')}; benchtrust flags {ours.sum():,} of {perturbed.sum():,} "
            "perturbed claims"
        )
    verdict = "n/a" if ratio is None else "met" if ratio >= 10 else "NOT met"
    print(f"target: at least 10x faster on {CLAIMS:,} claims: {verdict} ({ratio_text(ratio)})")


if __name__ == "__main__":
    main()
