"""Resampling and simulation in bounded chunks (issue 29 §4).

Every long computation of :mod:`benchtrust.compare` draws its random numbers chunk by chunk, so that:

* what it must hold whole (the resampled values of a percentile interval, the posterior samples) is
  estimated before any draw, and above ``max_memory`` refused with an InputError naming that option; at
  the estimate itself it runs;
* the seeded result does not depend on the size of the chunks (the draws are taken in one fixed order);
* ``progress(done, total)`` counts up, chunk by chunk, to the total.

Each is checked on tables from a generator (methods with different runs on some tasks, so that several
groups of methods share resamples).
"""

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.compare import (
    _bootstrap,
    aggregate,
    effect_sizes,
    improvement_probabilities,
    performance_profile,
    probability_of_outperforming,
    read_task_scores,
    signed_rank_test,
)
from benchtrust.compare._pipelines import _error_rates, _outperform
from benchtrust.compare._pipelines._error_rates import error_rates
from benchtrust.compare._tasks import _pair_bootstrap, _signed_rank


def table(seed, methods=3, tasks=5, runs=6):
    """Scores of `methods` methods on `tasks` tasks, `runs` runs each but one run fewer for the last method
    on the first task (two groups of methods), drawn from `seed`."""
    rng = np.random.default_rng(seed)
    rows = [
        (f"m{m}", f"t{t}", r, float(rng.normal(0.5 + 0.05 * m, 0.1)))
        for m in range(methods)
        for t in range(tasks)
        for r in range(runs - (m == methods - 1 and t == 0))
    ]
    frame = pd.DataFrame(rows, columns=["method", "task", "run", "score"])
    return read_task_scores(frame, direction="higher")


#: name -> (call(scores, R, **options), the bytes it must hold for R resamples of a table of 3 methods)
RESAMPLING = {
    "aggregate": (lambda s, r, **o: aggregate(s, resamples=r, seed=2, **o), lambda r: 8 * r * (4 * 3 + 1)),
    "profile": (
        lambda s, r, **o: performance_profile(s, thresholds=[0.4, 0.5, 0.6], resamples=r, seed=2, **o),
        lambda r: 8 * r * (3 * 3 + 1),
    ),
    "improvement": (
        lambda s, r, **o: improvement_probabilities(s, resamples=r, seed=2, **o),
        lambda r: 8 * r * (3 + 1),
    ),
    "improvement paired": (
        lambda s, r, **o: improvement_probabilities(s, paired=True, resamples=r, seed=2, **o),
        lambda r: 8 * r * (3 + 1),
    ),
    "effect": (lambda s, r, **o: effect_sizes(s, "m0", "m1", resamples=r, seed=2, **o), lambda r: 8 * r * 2),
    "bayes": (lambda s, r, **o: signed_rank_test(s, "m0", "m1", samples=r, seed=2, **o), lambda r: 24 * r),
    "outperform": (
        lambda s, r, **o: probability_of_outperforming(
            s.scores[0, :, 0], s.scores[1, :, 0], resamples=r, seed=2, **o
        ),
        lambda r: 16 * r,
    ),
}


def paired_table(seed):
    """As :func:`table`, with every method's runs on every task (pairable)."""
    rng = np.random.default_rng(seed)
    rows = [
        (f"m{m}", f"t{t}", r, float(rng.normal(0.5, 0.1)))
        for m in range(3)
        for t in range(5)
        for r in range(6)
    ]
    return read_task_scores(
        pd.DataFrame(rows, columns=["method", "task", "run", "score"]), direction="higher"
    )


def scores_for(name, seed):
    return paired_table(seed) if "paired" in name else table(seed)


@pytest.mark.parametrize("name", RESAMPLING)
@pytest.mark.parametrize("resamples", [300, 1234])
def test_memory_above_max_memory_is_refused_before_any_draw_and_at_the_estimate_it_runs(name, resamples):
    call, need = RESAMPLING[name]
    scores = scores_for(name, resamples)
    drawn = []
    with pytest.raises(InputError, match=r"^max_memory=.*GB of memory; raise it to run anyway$") as refused:
        call(
            scores, resamples, max_memory=need(resamples) - 1, progress=lambda done, total: drawn.append(done)
        )
    assert "\n" not in str(refused.value)
    assert drawn == []  # refused before any work
    call(scores, resamples, max_memory=need(resamples))


def test_the_default_bound_refuses_what_would_take_gigabytes():
    with pytest.raises(InputError, match=r"max_memory=2e\+09: resamples=100,000,000 of 12 estimates"):
        aggregate(table(0), resamples=10**8)
    with pytest.raises(InputError, match=r"max_memory=2e\+09: samples=1,000,000,000 posterior"):
        signed_rank_test(table(0), "m0", "m1", samples=10**9)


#: module -> its constant of the chunk size
CHUNKS = {_bootstrap: "CHUNK_CELLS", _pair_bootstrap: "_CHUNK_ELEMENTS", _outperform: "_INDICES_PER_CHUNK"}


@pytest.mark.parametrize("name", [name for name in RESAMPLING if name != "bayes"])
@pytest.mark.parametrize("seed", [0, 1])
def test_seeded_results_do_not_depend_on_the_chunk_size(name, seed, monkeypatch):
    call, _ = RESAMPLING[name]
    scores = scores_for(name, seed)
    whole = call(scores, 203).to_dict()
    for size in (1, 7, 100):  # one resample per chunk, a few, many
        for module, constant in CHUNKS.items():
            monkeypatch.setattr(module, constant, size * 36)  # 36: the cells of one resample of a method
        assert call(scores, 203).to_dict() == whole, size


def test_simulated_error_rates_do_not_depend_on_the_chunk_size(monkeypatch):
    options = {"conditional_sd": 0.01, "bias_sd": 0.004, "simulations": 301, "seed": 5}
    whole = error_rates(0.01, **options).to_dict()
    for size in (1, 5000, 10**6):
        monkeypatch.setattr(_error_rates, "_CHUNK", size)
        assert error_rates(0.01, **options).to_dict() == whole


#: Every long computation: name -> call(scores, total, **options).
PROGRESS = {
    **{name: call for name, (call, _) in RESAMPLING.items()},
    "error-rates": lambda s, r, **o: error_rates(0.01, simulations=r, seed=1, **o),
}


@pytest.mark.parametrize("name", PROGRESS)
def test_progress_counts_up_to_the_total(name, monkeypatch):
    monkeypatch.setattr(_bootstrap, "CHUNK_CELLS", 36 * 50)  # several chunks
    monkeypatch.setattr(_pair_bootstrap, "_CHUNK_ELEMENTS", 36 * 50)
    monkeypatch.setattr(_outperform, "_INDICES_PER_CHUNK", 6 * 50)
    monkeypatch.setattr(_error_rates, "_CHUNK", 27 * 50 * 10)
    monkeypatch.setattr(_signed_rank, "_CHUNK", 6 * 100)
    call = PROGRESS[name]
    calls = []
    call(scores_for(name, 3), 1001, progress=lambda done, total: calls.append((done, total)))
    done, totals = [d for d, _ in calls], {t for _, t in calls}
    assert len(totals) == 1 and len(calls) >= 3, calls
    assert done == sorted(done) and done[-1] == totals.pop()
    if name not in ("improvement", "improvement paired", "effect"):  # these count chunks, the others draws
        assert calls[-1] == (1001, 1001)
