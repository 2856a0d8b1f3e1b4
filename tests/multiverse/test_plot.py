"""plot_rank_distribution (Fig. 2), plot_stepwise (Fig. 3) and plot_unfolding (Fig. 4) of Nießl et al.:
written atomically in the suffix's format, shapes checked, every variant draws."""

import itertools
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.multiverse._maps import _default_pairs, plot_unfolding
from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _average_ranks(scores):
    """Ranks of each row's scores (1 = smallest), ties sharing their average rank."""
    return np.vstack([pd.Series(row).rank(method="average").to_numpy() for row in scores])


@pytest.fixture(scope="module")
def rank_case():
    rng = np.random.default_rng(0)
    scores = np.round(rng.normal(size=(48, 7)) + np.arange(7) * 0.3, 1)  # rounding makes ties
    return _average_ranks(scores), [f"method {j}" for j in range(7)]


@pytest.fixture(scope="module")
def step_case():
    steps = pd.DataFrame(
        {
            "method": ["A"] * 4 + ["B"] * 4 + ["C"] * 4,
            "step": [0, 1, 2, 3] * 3,
            "choice": [None, "imputation", "aggregation", "measure"] * 3,
            "option": [
                *("threshold", "mean", "median", "cindex"),
                *("threshold", "threshold", "mean", "ibrier"),  # never changes
                *("threshold", "mean", "trimmed", "ibrier"),  # a change that keeps the rank
            ],
            "rank": [5, 3, 2.5, 1, 1, 1, 1, 1, 3, 3, 3, 3],
            "changed": [False, True, True, True, False, False, False, False, False, True, False, False],
        }
    )
    return steps, {"A": (1, 6), "B": (1, 4), "C": (2, 5.5)}


def _product_case(levels, M, seed):
    """A full product of options (choice k has levels[k] options) with random ideal and method points."""
    rng = np.random.default_rng(seed)
    names = [f"choice {k}" for k in range(len(levels))]
    combos = pd.DataFrame(
        list(itertools.product(*[[f"c{k}-o{o}" for o in range(n)] for k, n in enumerate(levels)])),
        columns=names,
    )
    defaults = {name: f"c{k}-o0" for k, name in enumerate(names)}
    C = len(combos)
    return rng.normal(size=(C, 2)), rng.normal(size=(M, 2)), [f"m{j}" for j in range(M)], combos, defaults


@pytest.fixture(scope="module")
def unfolding_case():
    return _product_case([3, 2, 2], 5, seed=1)


def _draw(which, case, path, **kwargs):
    if which == "ranks":
        ranks, methods = case
        return plot_rank_distribution(ranks, methods, path, **kwargs)
    if which == "steps":
        steps, rank_range = case
        return plot_stepwise(steps, rank_range, path, **kwargs)
    return plot_unfolding(*case, path, **kwargs)


FIXTURES = {"ranks": "rank_case", "steps": "step_case", "unfolding": "unfolding_case"}


@pytest.mark.parametrize("which", list(FIXTURES))
def test_writes_a_png_and_returns_its_path(tmp_path, which, request):
    case = request.getfixturevalue(FIXTURES[which])
    target = tmp_path / "fig.png"
    written = _draw(which, case, target)
    assert written == target
    data = target.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000
    assert [p.name for p in tmp_path.iterdir()] == ["fig.png"]  # no temporary file left


@pytest.mark.parametrize("which", list(FIXTURES))
def test_replaces_a_file_and_follows_the_suffix(tmp_path, which, request):
    case = request.getfixturevalue(FIXTURES[which])
    target = tmp_path / "fig.svg"
    target.write_bytes(b"old")
    written = _draw(which, case, str(target), title="custom")
    assert written == target
    assert b"<svg" in target.read_bytes()[:1000]
    assert [p.name for p in tmp_path.iterdir()] == ["fig.svg"]


@pytest.mark.parametrize("which", list(FIXTURES))
def test_bad_paths_raise_input_error_and_leave_nothing(tmp_path, which, request):
    case = request.getfixturevalue(FIXTURES[which])
    with pytest.raises(InputError, match="not an image format"):
        _draw(which, case, tmp_path / "fig.docx")
    with pytest.raises(InputError):
        _draw(which, case, tmp_path / "missing" / "fig.png")
    assert list(tmp_path.iterdir()) == []


def test_rank_distribution_checks_its_arguments(tmp_path, rank_case):
    ranks, methods = rank_case
    target = tmp_path / "fig.png"
    with pytest.raises(InputError, match="methods"):
        plot_rank_distribution(ranks, methods[:-1], target)
    with pytest.raises(InputError, match="ranks"):
        plot_rank_distribution(ranks[0], methods, target)  # 1-D
    with pytest.raises(InputError, match="ranks"):
        plot_rank_distribution(ranks + 1, methods, target)  # a rank above M
    bad = ranks.copy()
    bad[0, 0] = np.nan
    with pytest.raises(InputError, match="ranks"):
        plot_rank_distribution(bad, methods, target)
    assert list(tmp_path.iterdir()) == []


def test_rank_distribution_variants(tmp_path):
    plot_rank_distribution([[1.0]], ["alone"], tmp_path / "one.png")
    rng = np.random.default_rng(3)
    many = _average_ranks(rng.integers(0, 5, size=(30, 18)))  # many ties, 18 methods: 5 columns, 4 rows
    plot_rank_distribution(many, [f"m{j}" for j in range(18)], tmp_path / "many.png")
    for name in ("one.png", "many.png"):
        assert (tmp_path / name).read_bytes().startswith(PNG_SIGNATURE)


def test_stepwise_checks_its_arguments(tmp_path, step_case):
    steps, rank_range = step_case
    target = tmp_path / "fig.png"
    with pytest.raises(InputError, match="rank_range"):
        plot_stepwise(steps, {"A": (1, 6), "B": (1, 4)}, target)
    with pytest.raises(InputError, match="rank_range"):
        plot_stepwise(steps, {**rank_range, "C": (2,)}, target)
    with pytest.raises(InputError, match="changed"):
        plot_stepwise(steps.drop(columns="changed"), rank_range, target)
    with pytest.raises(InputError, match="step 0"):
        plot_stepwise(steps[steps["step"] > 0], rank_range, target)
    with pytest.raises(InputError, match="DataFrame"):
        plot_stepwise(steps.to_dict("list"), rank_range, target)
    assert list(tmp_path.iterdir()) == []


def test_stepwise_with_methods_that_never_change(tmp_path):
    steps = pd.DataFrame(
        {
            "method": ["A", "A", "B", "B"],
            "step": [0, 1, 0, 1],
            "choice": ["", "data sets", "", "data sets"],
            "option": ["all", "all", "all", "all"],
            "rank": [1.5, 1.5, 1.5, 1.5],
            "changed": [False, False, False, False],
        }
    )
    plot_stepwise(steps, {"A": (1, 2), "B": (1, 2)}, tmp_path / "fig.png")
    only_defaults = steps[steps["step"] == 0]
    plot_stepwise(only_defaults, {"A": (1, 2), "B": (1, 2)}, tmp_path / "defaults.png")
    for name in ("fig.png", "defaults.png"):
        assert (tmp_path / name).read_bytes().startswith(PNG_SIGNATURE)


def test_default_pairs_differ_only_in_their_choice(unfolding_case):
    *_, combos, defaults = unfolding_case
    options = pd.DataFrame({k: combos[c].to_numpy() for k, c in enumerate(combos.columns)})
    options["row"] = np.arange(len(combos))
    for k, choice in enumerate(combos.columns):
        first, second = _default_pairs(options, k, defaults[choice])
        levels = combos[choice].nunique()
        # Every default row pairs with each alternative option once: 12 / levels * (levels - 1) pairs.
        assert first.size == len(combos) // levels * (levels - 1)
        a, b = combos.iloc[first].reset_index(drop=True), combos.iloc[second].reset_index(drop=True)
        assert (a[choice] == defaults[choice]).all() and (b[choice] != defaults[choice]).all()
        others = [c for c in combos.columns if c != choice]
        assert a[others].equals(b[others])


def test_default_pairs_of_a_single_choice_connect_everything():
    options = pd.DataFrame({0: ["x", "y", "x", "z"], "row": np.arange(4)})
    first, second = _default_pairs(options, 0, "x")
    assert sorted(zip(first.tolist(), second.tolist(), strict=True)) == [(0, 1), (0, 3), (2, 1), (2, 3)]


def test_unfolding_checks_its_arguments(tmp_path, unfolding_case):
    X, Y, methods, combos, defaults = unfolding_case
    target = tmp_path / "fig.png"
    with pytest.raises(InputError, match="methods"):
        plot_unfolding(X, Y, methods[:-1], combos, defaults, target)
    with pytest.raises(InputError, match="combinations"):
        plot_unfolding(X[:-1], Y, methods, combos, defaults, target)
    with pytest.raises(InputError, match="row_points"):
        plot_unfolding(np.hstack([X, X]), Y, methods, combos, defaults, target)
    with pytest.raises(InputError, match="column_points"):
        plot_unfolding(X, Y[:, :1], methods, combos, defaults, target)
    with pytest.raises(InputError, match="defaults"):
        plot_unfolding(X, Y, methods, combos, {"choice 0": "c0-o0"}, target)
    with pytest.raises(InputError, match="defaults"):
        plot_unfolding(X, Y, methods, combos, {**defaults, "choice 1": "nowhere"}, target)
    with pytest.raises(InputError, match="defaults"):
        plot_unfolding(X, Y, methods, combos, {**defaults, "other": "x"}, target)
    assert list(tmp_path.iterdir()) == []


def test_unfolding_variants(tmp_path):
    single = _product_case([4], 3, seed=2)  # one choice: one panel, every default/alternative pair
    plot_unfolding(*single, tmp_path / "single.png")
    X, Y, methods, combos, _ = _product_case([3, 2], 3, seed=4)
    combos = combos.set_index(np.arange(10, 10 + len(combos)))  # the index is not used
    combos["choice 1"] = combos["choice 1"].map({"c1-o0": 0, "c1-o1": 1})  # options compared as strings
    plot_unfolding(X, Y, methods, combos, {"choice 0": "c0-o0", "choice 1": 0}, tmp_path / "ints.png")
    for name in ("single.png", "ints.png"):
        assert (tmp_path / name).read_bytes().startswith(PNG_SIGNATURE)


def test_unfolding_of_a_large_multiverse(tmp_path):
    X, Y, methods, combos, defaults = _product_case([10, 2, 4, 5, 5], 20, seed=5)
    assert len(combos) == 2000
    written = plot_unfolding(X, Y, methods, combos, defaults, tmp_path / "large.png")
    assert written.read_bytes().startswith(PNG_SIGNATURE)


def test_importing_the_modules_does_not_load_matplotlib():
    modules = "benchtrust.multiverse._plot, benchtrust.multiverse._maps"
    code = f"import sys, {modules}; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
