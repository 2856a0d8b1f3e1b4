"""The exact bootstrap over teams on the window of counts that carries the mass (issue 33 item 2).

A pair (team, k) is computed only until its upper tail is proved negligible (``cdf_steps(tail=...)``, by
the log-concave pmf), past its mode in blocks of ``_two_binomials._AHEAD`` values, and the first pooled
run takes the teams the bound would add. None of this may move the distribution by more than the stated
tolerance (``conditional_cdfs``: the error section of its notes); a few teams, whose pooled cdf has to
scan deep (every team must pass its mode), and a board bunched below its best are checked.
"""

import numpy as np
import pytest
from scipy import stats

from benchtrust.sota import _conditional, _two_binomials
from benchtrust.sota._best_of import WINDOW_TAIL, _exact, _prepare
from benchtrust.sota._two_binomials import cdf_steps


def exact_cdf(n1, q1, n0, q0):
    pmf = np.convolve(stats.binom.pmf(np.arange(n1 + 1), n1, q1), stats.binom.pmf(np.arange(n0 + 1), n0, q0))
    return pmf, np.cumsum(pmf)


#: (start, n1, q1, n0, q0): from zero, directly past the mode, one degenerate binomial, a short support.
PAIRS = [(5, 300, 0.05, 60, 0.6), (80, 300, 0.05, 60, 0.6), (0, 200, 0.0, 40, 0.3), (0, 6, 0.5, 3, 0.5)]


@pytest.mark.parametrize("tail", [1e-6, 1e-15])
def test_a_pair_is_one_once_its_tail_is_proved_negligible(tail):
    """Yielded values equal the exact cdf until the pair is yielded as 1; from then on it stays 1, its
    exact upper tail is at most ``tail``, and it became 1 at the first check (every 8 steps) at which the
    bound c(z) r / (1 - r) of the exact pmf was at most half of it. The caller's masks drop pairs as
    :func:`benchtrust.sota._conditional._conditional_run` does (``kept``)."""
    arrays = [np.array(column, dtype=float) for column in zip(*PAIRS, strict=True)]
    below, steps = cdf_steps(*arrays, tail=np.full(len(PAIRS), tail))
    alive = np.arange(len(PAIRS))
    got = np.full((len(PAIRS), 400), np.nan)
    last = np.zeros(len(PAIRS))
    done = None
    for step in range(400):
        values, kept = steps.send(done) if step else next(steps)
        if kept is not None:
            alive = alive[kept]
        last[alive] = values
        got[:, step] = last
        done = np.zeros(alive.size, bool)
    for row, (start, n1, q1, n0, q0) in enumerate(PAIRS):
        pmf, cdf = exact_cdf(n1, q1, n0, q0)
        z = start + np.arange(400)
        want = np.cumsum(np.append(pmf, np.zeros(400))[start : start + 400])
        if below[row] == pytest.approx(pmf[:start].sum(), rel=1e-12):  # run up from zero: P(X < start) in
            want += pmf[:start].sum()
        one = np.flatnonzero(got[row] == 1.0)
        assert one.size, "never proved done"
        first = one[0]
        np.testing.assert_allclose(got[row, :first], want[:first], rtol=1e-11, atol=1e-300)
        assert (got[row, first:] == 1.0).all()
        assert 1.0 - cdf[min(z[first], cdf.size - 1)] <= tail
        padded = np.append(pmf, np.zeros(500))
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = padded[z] / padded[z - 1]
            bound = np.where(ratio < 1, padded[z] * ratio / (1 - ratio), np.inf)
        bound[z >= pmf.size] = 0.0  # past the support
        checks = np.flatnonzero((np.arange(400) % 8 == 0) & (np.arange(400) > 0) & (bound <= tail / 2))
        assert first <= checks[0]


def test_without_a_tail_nothing_changes():
    """``tail`` is optional: without it the values are the cdf's, never set to 1 early."""
    start, n1, q1, n0, q0 = PAIRS[1]
    _, steps = cdf_steps(*(np.array([v], dtype=float) for v in (start, n1, q1, n0, q0)))
    values = np.array([next(steps)[0][0] for _ in range(100)])
    pmf, _ = exact_cdf(n1, q1, n0, q0)  # started directly: P(X < start) left out
    np.testing.assert_allclose(values, np.cumsum(pmf[start : start + 100]), rtol=1e-11, atol=1e-300)


def model(accuracies, n):
    """The dependent model of a leaderboard (ρ = 0.6, θ0 the best): its teams' scores as accuracies."""
    return _prepare(
        np.asarray(accuracies),
        test_size=n,
        classifiers=len(accuracies),
        correlation=0.6,
        reference_accuracy=None,
        fixed_reference=False,
        alpha=0.05,
        invalid="drop",
    )


def cdf_at(result, score):
    return np.interp(score, result.score, result.cdf, left=0.0, right=1.0)


#: A few teams spread from chance to the best (the pooled cdf scans past every team's mode), and a board
#: bunched below its best (Beta(8, 2), as the generated shapes of benchmarks/_board_shapes.py).
BOARDS = {
    "few, spread": (np.linspace(0.55, 0.93, 7), 2000),
    "bunched": (0.93 - 0.3 * np.random.default_rng(4).beta(2, 8, 60), 2000),
}


@pytest.mark.parametrize("board", BOARDS)
def test_windows_and_first_choice_keep_the_distribution(board, monkeypatch):
    """Within WINDOW_TAIL of the computation that takes every team in its first run, ends no pair early
    (``tail`` off) and computes pmf values 64 at a time (the settings before issue 33)."""
    accuracies, n = BOARDS[board]
    default = _exact(model(accuracies, n), pooled=True)
    plain = _two_binomials.cdf_steps
    monkeypatch.setattr(_two_binomials, "cdf_steps", lambda *args, tail=None, **kw: plain(*args, **kw))
    monkeypatch.setattr(_two_binomials, "_AHEAD", 64)
    monkeypatch.setattr(_conditional, "_REACH", np.inf)
    before = _exact(model(accuracies, n), pooled=True)
    score = np.union1d(default.score, before.score)
    np.testing.assert_allclose(cdf_at(default, score), cdf_at(before, score), rtol=0, atol=WINDOW_TAIL * 10)
    assert default.expected_max == pytest.approx(before.expected_max, abs=1e-12)


@pytest.mark.parametrize("board", BOARDS)
def test_the_first_pooled_run_takes_the_teams_the_bound_needs(board, monkeypatch):
    """On these shapes one run suffices: the bound adds no team to the first (a second run repeats every
    pair of the first); with the first choice of before (no _BEYOND) both needed two."""
    accuracies, n = BOARDS[board]
    runs = []
    plain = _conditional._conditional_run
    monkeypatch.setattr(_conditional, "_conditional_run", lambda *a, **kw: runs.append(1) or plain(*a, **kw))
    _exact(model(accuracies, n), pooled=True)
    assert len(runs) == 1
