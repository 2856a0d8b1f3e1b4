"""history: which published state-of-the-art increments exceed the benchmark's noise (Fig. 3)."""

import datetime
import json
import math

import numpy as np
import pytest

from benchtrust import InputError
from benchtrust.compare._pipelines._history import history

Z95 = 1.6448536269514722  # Φ⁻¹(0.95)


def test_hand_example_with_sigma():
    # σ = 0.01: threshold 1.645 √2 0.01 = 0.02326. Increments over the prior best: 0.03 (yes),
    # 0.01 (no), -0.005 (a result below the state of the art: no), 0.025 over 0.84 (yes).
    r = history(
        ["2017-01-10", "2018-03-01", "2018-11-20", "2019-02-01", "2019-06-01"],
        [0.80, 0.83, 0.84, 0.835, 0.865],
        sigma=0.01,
    )
    threshold = Z95 * math.sqrt(2) * 0.01
    assert r.thresholds[1:] == pytest.approx([threshold] * 4)
    assert np.isnan(r.thresholds[0]) and np.isnan(r.increments[0])
    assert r.prior_best[1:].tolist() == [0.80, 0.83, 0.84, 0.84]
    assert r.increments[1:] == pytest.approx([0.03, 0.01, -0.005, 0.025])
    assert r.significant.tolist() == [False, True, False, False, True]
    assert r.dates.dtype == np.dtype("datetime64[D]")


def test_binomial_sigma_from_the_test_size():
    # n = 1000: σ(0.90) = sqrt(0.09/1000), σ(0.93) = sqrt(0.0651/1000); threshold = 1.645 sqrt(sum).
    r = history([2018, 2019, 2020], [0.90, 0.93, 0.945], test_size=1000)
    s = [math.sqrt(p * (1 - p) / 1000) for p in (0.90, 0.93, 0.945)]
    assert r.sigma == pytest.approx(s)
    assert r.thresholds[1] == pytest.approx(Z95 * math.sqrt(s[0] ** 2 + s[1] ** 2))  # 0.0205
    assert r.thresholds[2] == pytest.approx(Z95 * math.sqrt(s[1] ** 2 + s[2] ** 2))  # 0.0180
    assert r.significant.tolist() == [False, True, False]
    assert r.test_size == 1000


def test_alpha_changes_z():
    r = history([1, 2], [0.5, 0.53], sigma=0.01, alpha=0.01)
    assert r.z == pytest.approx(2.3263478740408408)
    assert r.thresholds[1] == pytest.approx(2.3263478740408408 * math.sqrt(2) * 0.01)
    assert not r.significant[1]


def test_sorted_by_date_and_lower_is_better():
    dates = [datetime.date(2020, 1, 1), datetime.datetime(2018, 1, 1, 12), np.datetime64("2019-01-01")]
    r = history(dates, [0.10, 0.20, 0.15], sigma=0.01, direction="lower")
    assert [str(d) for d in r.dates] == ["2018-01-01", "2019-01-01", "2020-01-01"]
    assert r.scores.tolist() == [0.20, 0.15, 0.10]
    assert r.increments[1:] == pytest.approx([0.05, 0.05])  # decreases count as improvements
    assert r.significant.tolist() == [False, True, True]


def test_single_result_and_json():
    r = history([2019.5], [0.9], sigma=0.01)
    assert r.significant.tolist() == [False]
    d = json.loads(json.dumps(r.to_dict()))
    assert d["dates"] == [2019.5] and d["increments"] == [None] and d["test_size"] is None
    assert "results=1" in repr(r)
    d2 = history(["2019-01-01", "2020-01-01"], [0.5, 0.6], sigma=0.01).to_dict()
    assert d2["dates"] == ["2019-01-01", "2020-01-01"] and d2["significant"] == [False, True]


@pytest.mark.parametrize(
    ("args", "kwargs", "name"),
    [
        (([2018, 2019], [0.5, 0.6]), {}, "sigma"),
        (([2018, 2019], [0.5, 0.6]), {"sigma": 0.1, "test_size": 100}, "sigma"),
        (([2018, 2019], [0.5, 0.6]), {"sigma": -0.1}, "sigma"),
        (([2018, 2019], [0.5, 0.6]), {"test_size": 0}, "test_size"),
        (([2018, 2019], [0.5, 1.6]), {"test_size": 100}, "scores"),
        (([2018, 2019], [0.5]), {"sigma": 0.1}, "scores"),
        (([2018, 2019], ["a", 0.5]), {"sigma": 0.1}, "scores"),
        (([2018, 2019], [0.5, np.inf]), {"sigma": 0.1}, "scores"),
        (([], []), {"sigma": 0.1}, "dates"),
        (("2018", [0.5]), {"sigma": 0.1}, "dates"),
        ((["2018-01-01", "not a date"], [0.5, 0.6]), {"sigma": 0.1}, "dates"),
        ((["2018-01-01", None], [0.5, 0.6]), {"sigma": 0.1}, "dates"),
        (([2018, 2019], [0.5, 0.6]), {"sigma": 0.1, "alpha": 1}, "alpha"),
        (([2018, 2019], [0.5, 0.6]), {"sigma": 0.1, "direction": True}, "direction"),
    ],
)
def test_bad_input_names_the_argument(args, kwargs, name):
    with pytest.raises(InputError, match=f"^{name}"):
        history(*args, **kwargs)
