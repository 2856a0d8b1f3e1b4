"""Noether's sample size for the test of P(A > B) (paper C.3)."""

import math

import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.compare import SampleSizeResult, runs_needed, sample_size


def noether(gamma, alpha, beta):
    return ((stats.norm.ppf(1 - alpha) - stats.norm.ppf(beta)) / (math.sqrt(6) * (0.5 - gamma))) ** 2


@pytest.mark.parametrize("gamma", [0.51, 0.55, 0.6, 0.65, 0.75, 0.8, 0.9, 0.99])
@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.05), (0.05, 0.2), (0.01, 0.1), (0.1, 0.5)])
def test_smallest_integer_above_noether_bound(gamma, alpha, beta):
    n = sample_size(gamma, alpha=alpha, beta=beta)
    bound = noether(gamma, alpha, beta)
    assert isinstance(n, int)
    assert n >= bound - 1e-9
    assert n - 1 < bound or n == 1


def test_runs_needed_is_the_sample_size_as_a_result():
    result = runs_needed(0.6, alpha=0.01, beta=0.2)
    assert isinstance(result, SampleSizeResult)
    assert (result.runs, result.gamma, result.alpha, result.beta) == (
        sample_size(0.6, alpha=0.01, beta=0.2),
        0.6,
        0.01,
        0.2,
    )
    assert result.to_dict().items() >= {"runs": result.runs, "gamma": 0.6, "alpha": 0.01, "beta": 0.2}.items()
    assert " ".join(str(result).split()) == result.verdict
    assert (
        result.verdict.startswith(f"{result.runs} runs of each pipeline") and "(power 80%)" in result.verdict
    )
    with pytest.raises(InputError, match=r"gamma: expected a value strictly between 0\.5 and 1"):
        runs_needed(0.5)


def test_more_runs_for_smaller_improvements_and_more_power():
    sizes = [sample_size(g) for g in (0.55, 0.6, 0.7, 0.75, 0.8, 0.9)]
    assert sizes == sorted(sizes, reverse=True)
    assert sample_size(0.75, beta=0.05) > sample_size(0.75, beta=0.2)
    assert sample_size(0.75, alpha=0.01) > sample_size(0.75, alpha=0.05)


def test_at_least_one_run():
    assert sample_size(0.99, alpha=0.5, beta=0.5) == 1


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"gamma": 0.5}, "gamma: expected a value strictly between 0.5 and 1"),
        ({"gamma": 0.25}, "gamma: expected a value strictly between 0.5 and 1"),
        ({"gamma": 1.0}, "gamma: expected a value strictly between 0 and 1"),
        ({"gamma": float("nan")}, "gamma: expected a finite number"),
        ({"alpha": 0.0}, "alpha: expected a value strictly between 0 and 1"),
        ({"alpha": 1.0}, "alpha: expected a value strictly between 0 and 1"),
        ({"beta": -0.1}, "beta: expected a value strictly between 0 and 1"),
        ({"beta": "0.05"}, "beta: expected a number"),
    ],
)
def test_bad_input_names_the_argument(kwargs, named):
    gamma = kwargs.pop("gamma", 0.75)
    with pytest.raises(InputError) as info:
        sample_size(gamma, **kwargs)
    assert str(info.value).startswith(named)
