"""What the multiverse says: rank distribution, step-wise optimisation and the impact of each choice."""

import itertools
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.multiverse import MultiverseResult, impact, rank_distribution, rankings, stepwise


def small_study(seed, *, with_fixed=True):
    """A real multiverse of random results: 4 data sets, 4 methods (one a copy: ties), 3 iterations."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in ["d1", "d2", "d3", "d4"]:
        for m in ["A", "B", "C"]:
            for _ in range(3):
                acc = float(rng.uniform(0.5, 0.9)) if rng.random() > 0.25 else None
                loss = float(rng.uniform(0.1, 0.3)) if rng.random() > 0.15 else None
                rows.append({"dataset": d, "method": m, "acc": acc, "loss": loss})
                if m == "A":
                    rows.append(dict(rows[-1], method="D"))
    characteristics = pd.DataFrame({"dataset": ["d1", "d2", "d3", "d4"], "n": [10, 40, 30, 20]})
    choices = {
        "data": {
            "family": "datasets",
            "options": {
                "all": {"rule": "all"},
                "small": {"rule": "below_median", "characteristic": "n"},
                "large": {"rule": "at_or_above_median", "characteristic": "n"},
            },
        },
        "measure": {"default": "loss", "options": ["acc", "loss"]},
        "aggregation": {
            "default": "median",
            "options": {
                "mean": {"rule": "mean"},
                "median": {"rule": "median"},
                "rank": {"rule": "mean_rank"},
                "best": {"rule": "best", "tolerance": 0.1},
            },
        },
    }
    if not with_fixed:
        choices["imputation"] = {
            "default": "mean",
            "options": {"thr": {"rule": "threshold", "threshold": 0.3}, "mean": {"rule": "mean"}},
        }
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}, "loss": {"better": "lower", "random": 0.25}},
        "choices": choices,
        "stepwise": ["aggregation", "measure", "data"],
    }
    return rankings(pd.DataFrame(rows), spec, characteristics=characteristics)


@pytest.fixture(scope="module")
def study():
    return small_study(0)


# ---------------------------------------------------------------------------------------------------------
# rank distribution


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_rank_distribution_shares_and_range(seed):
    """Per method the shares sum to 1, the counts to the combinations; best/worst are the ranks' min/max."""
    mv = small_study(seed)
    dist = rank_distribution(mv)
    assert dist.methods == mv.methods
    np.testing.assert_array_equal(dist.best, mv.ranks.min(axis=0))
    np.testing.assert_array_equal(dist.worst, mv.ranks.max(axis=0))
    table = dist.table
    assert list(table.columns) == ["method", "rank", "combinations", "share"]
    assert list(dict.fromkeys(table["method"])) == list(mv.methods)
    for k, method in enumerate(mv.methods):
        mine = table[table["method"] == method]
        assert mine["share"].sum() == pytest.approx(1.0)
        assert mine["combinations"].sum() == len(mv.ranks)
        assert list(mine["rank"]) == sorted(set(mv.ranks[:, k]))
        for rank, count in zip(mine["rank"], mine["combinations"], strict=True):
            assert count == np.sum(mv.ranks[:, k] == rank)
        assert mine["rank"].min() == dist.best[k] and mine["rank"].max() == dist.worst[k]
        assert dist.share_at_most(method, dist.worst[k]) == pytest.approx(1.0)
        at_best = np.mean(mv.ranks[:, k] == dist.best[k])
        assert dist.share_at_most(method, dist.best[k]) == pytest.approx(at_best)
        assert dist.share_at_most(method, 0.5) == 0


def test_rank_distribution_to_dict_and_repr(study):
    """to_dict gives the range and the shares by rank; repr names each method's best and worst."""
    dist = rank_distribution(study)
    d = dist.to_dict()
    assert list(d["rank_range"]) == list(study.methods)
    for k, m in enumerate(study.methods):
        assert d["rank_range"][m] == [float(study.ranks[:, k].min()), float(study.ranks[:, k].max())]
        assert sum(d["shares"][m].values()) == pytest.approx(1.0)
    assert repr(dist).startswith("RankDistributionResult(4 methods):")
    assert "best" in repr(dist) and "worst" in repr(dist)


def test_rank_distribution_of_a_hand_table():
    """Three combinations, two methods: the counts and shares read off by hand."""
    toy = SimpleNamespace(methods=("B", "A"), ranks=np.array([[1.0, 2.0], [1.0, 2.0], [2.0, 1.0]]))
    dist = rank_distribution(toy)
    assert dist.table.to_dict("list") == {
        "method": ["B", "B", "A", "A"],
        "rank": [1.0, 2.0, 1.0, 2.0],
        "combinations": [2, 1, 1, 2],
        "share": [2 / 3, 1 / 3, 1 / 3, 2 / 3],
    }
    assert dist.share_at_most("A", 1.5) == pytest.approx(1 / 3)


# ---------------------------------------------------------------------------------------------------------
# stepwise


def constructed():
    """Two choices X (x0, x1, x2; default x1) and Y (y0, y1, y2; default y0), methods A, B, C.

    Combinations with y2 rank lower values first. Unlisted (combination, method) cells: rank 3, value 0.
    """
    options = {"X": ("x0", "x1", "x2"), "Y": ("y0", "y1", "y2")}
    cells = {
        # A: nothing strictly better anywhere → keeps its defaults
        ("x1", "y0", "A"): (2, 0.6),
        ("x0", "y0", "A"): (2, 0.6),  # tie on rank and value: keep x1
        ("x1", "y1", "A"): (2, 0.6),
        ("x1", "y2", "A"): (2, 0.6),  # y2: lower first, so 0.6 is worse
        # B: X — x0 and x2 tie on rank 2, x2 has the higher value; Y — y1 and y2 tie on rank 1,
        # y1's 0.7 (higher first) beats y2's 0.3 (lower first: −0.7 < 0.3)
        ("x1", "y0", "B"): (3, 0.4),
        ("x0", "y0", "B"): (2, 0.5),
        ("x2", "y0", "B"): (2, 0.55),
        ("x2", "y1", "B"): (1, 0.7),
        ("x2", "y2", "B"): (1, 0.3),
        # C: X — x0 and x2 tie on both → the first, x0; Y — y1 (0.95, higher) and y2 (−0.95, lower) tie on
        # both and beat y0 (0.9) → y1
        ("x1", "y0", "C"): (3, 0.2),
        ("x0", "y0", "C"): (1, 0.9),
        ("x2", "y0", "C"): (1, 0.9),
        ("x0", "y1", "C"): (1, 0.95),
        ("x0", "y2", "C"): (1, -0.95),
    }
    methods = ("A", "B", "C")
    combos = list(itertools.product(range(3), range(3)))
    ranks = np.full((9, 3), 3.0)
    values = np.zeros((9, 3))
    for (x, y, m), (r, v) in cells.items():
        k = options["X"].index(x) * 3 + options["Y"].index(y)
        ranks[k, methods.index(m)], values[k, methods.index(m)] = r, v
    direction = np.array(["lower" if y == 2 else "higher" for _, y in combos])
    return MultiverseResult(
        choices=("X", "Y"),
        options=options,
        defaults={"X": "x1", "Y": "y0"},
        methods=methods,
        codes=np.array(combos),
        ranks=ranks,
        values=values,
        direction=direction,
        datasets={},
        spec=SimpleNamespace(stepwise=("X", "Y")),
    )


def test_stepwise_on_a_constructed_multiverse():
    """Each step as predicted: keep on ties, break rank ties by value (its direction), then spec order."""
    result = stepwise(constructed())
    assert result.order == ("X", "Y")
    rows = [tuple(r) for r in result.steps.itertuples(index=False)]
    assert rows == [
        ("A", 0, "", "", 2.0, 0.6, False),
        ("A", 1, "X", "x1", 2.0, 0.6, False),
        ("A", 2, "Y", "y0", 2.0, 0.6, False),
        ("B", 0, "", "", 3.0, 0.4, False),
        ("B", 1, "X", "x2", 2.0, 0.55, True),
        ("B", 2, "Y", "y1", 1.0, 0.7, True),
        ("C", 0, "", "", 3.0, 0.2, False),
        ("C", 1, "X", "x0", 1.0, 0.9, True),
        ("C", 2, "Y", "y1", 1.0, 0.95, True),
    ]
    assert result.best == {"A": 2.0, "B": 1.0, "C": 1.0}
    assert list(result.steps.columns) == ["method", "step", "choice", "option", "rank", "value", "changed"]


def test_stepwise_order_changes_the_path():
    """Y first: from (x1, y0) no Y option helps B or C (rank 3 elsewhere), then X as before."""
    result = stepwise(constructed(), order=["Y", "X"])
    assert result.order == ("Y", "X")
    options = [tuple(g["option"]) for _, g in result.steps.groupby("method", sort=False)]
    assert options == [("", "y0", "x1"), ("", "y0", "x2"), ("", "y0", "x0")]
    assert result.best == {"A": 2.0, "B": 2.0, "C": 1.0}


def test_stepwise_unknown_choice():
    """An order naming no choice is an InputError listing the choices."""
    with pytest.raises(InputError, match=r"order: 'Z' is not a choice \(X, Y\)"):
        stepwise(constructed(), order=["X", "Z"])


def merit(mv, selection, m):
    """Rank of method m under `selection`, then its value with the end that ranks first smallest."""
    k = mv.index(selection)
    value = mv.values[k, m]
    return mv.ranks[k, m], (value if mv.direction[k] == "lower" else -value)


def brute_stepwise(mv, order):
    """The docstring's rule, written out with option names: the held option is kept unless another is
    strictly better; among strictly better ones the best merit wins, then the first in spec order."""
    out = {}
    for m, method in enumerate(mv.methods):
        current = dict(mv.defaults)
        path = []
        for choice in order:
            merits = {o: merit(mv, {**current, choice: o}, m) for o in mv.options[choice]}
            held = merits[current[choice]]
            better = [o for o in mv.options[choice] if merits[o] < held]
            if better:
                top = min(merits[o] for o in better)
                current[choice] = next(o for o in better if merits[o] == top)
            path.append(current[choice])
        out[method] = (path, mv.ranks[mv.index(current), m])
    return out


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_stepwise_matches_the_rule_on_real_multiverses(seed):
    """On random multiverses: the options taken follow the rule; ranks never get worse along the steps."""
    mv = small_study(seed, with_fixed=False)
    result = stepwise(mv)
    assert result.order == ("aggregation", "measure", "data")
    expected = brute_stepwise(mv, result.order)
    for method, group in result.steps.groupby("method", sort=False):
        path, final = expected[method]
        assert list(group["option"])[1:] == path
        assert result.best[method] == final
        assert list(group["rank"]) == sorted(group["rank"], reverse=True)
        m = mv.methods.index(method)
        selection = dict(mv.defaults)
        for row in group.itertuples():
            if row.step:
                selection[row.choice] = row.option
            k = mv.index(selection)
            assert (row.rank, row.value) == (mv.ranks[k, m], mv.values[k, m])
            assert row.changed == (row.step > 0 and row.option != mv.defaults[row.choice])


def test_stepwise_to_dict_and_repr():
    """to_dict lists the steps with plain Python values; repr tells each method's changes."""
    result = stepwise(constructed())
    d = result.to_dict()
    assert d["order"] == ["X", "Y"] and d["best"] == {"A": 2.0, "B": 1.0, "C": 1.0}
    assert d["steps"][4] == {
        "method": "B",
        "step": 1,
        "choice": "X",
        "option": "x2",
        "rank": 2.0,
        "value": 0.55,
        "changed": True,
    }
    assert all(type(v) in (str, int, float, bool) for row in d["steps"] for v in row.values())
    text = repr(result)
    assert "A: default 2; no change" in text
    assert "B: default 3; X=x2 → 2; Y=y1 → 1" in text


# ---------------------------------------------------------------------------------------------------------
# impact


def brute_impact(mv):
    """Every pair of combinations that differ in one choice only, compared method by method."""
    combos = [
        dict(zip(mv.choices, (mv.options[c][i] for c, i in zip(mv.choices, codes, strict=True)), strict=True))
        for codes in mv.codes
    ]
    rows = []
    for choice in mv.choices:
        options = mv.options[choice]
        default = mv.defaults[choice]

        def summary(wanted, first, second, choice=choice, options=options):
            pairs = []
            for a, b in itertools.combinations(range(len(combos)), 2):
                ca, cb = combos[a], combos[b]
                if any(ca[c] != cb[c] for c in mv.choices if c != choice) or ca[choice] == cb[choice]:
                    continue
                if wanted(ca[choice], cb[choice]):
                    pairs.append((a, b))
            if not pairs:
                return (choice, first, second, 0, 0.0, 0.0, 0.0)
            changed = won = 0
            total = 0.0
            for a, b in pairs:
                changed += any(mv.ranks[a, m] != mv.ranks[b, m] for m in range(len(mv.methods)))
                top_a = {m for m in range(len(mv.methods)) if mv.ranks[a, m] == min(mv.ranks[a])}
                top_b = {m for m in range(len(mv.methods)) if mv.ranks[b, m] == min(mv.ranks[b])}
                won += top_a != top_b
                total += sum(abs(mv.ranks[a, m] - mv.ranks[b, m]) for m in range(len(mv.methods)))
            n = len(pairs)
            return (choice, first, second, n, changed / n, won / n, total / (n * len(mv.methods)))

        rows.append(summary(lambda x, y: True, "*", "*"))
        for option in options:
            if option != default:
                rows.append(summary(lambda x, y, o=option, d=default: {x, y} == {d, o}, default, option))
    return rows


def check_impact(mv):
    table = impact(mv).table
    assert list(table.columns) == [
        "choice",
        "from_option",
        "to_option",
        "pairs",
        "ranking_changed",
        "winner_changed",
        "mean_abs_rank_change",
    ]
    expected = brute_impact(mv)
    assert len(table) == len(expected)
    for got, want in zip(table.itertuples(index=False), expected, strict=True):
        assert tuple(got)[:4] == want[:4]
        assert tuple(got)[4:] == pytest.approx(want[4:], abs=1e-12)


def test_impact_matches_a_loop_over_pairs(study):
    """Overall ('*') and default-vs-option rows equal a loop over all pairs differing in one choice."""
    check_impact(study)
    table = impact(study).table
    # the fixed imputation has no pairs; the data choice has 3 pairs of options × 2 × 4 × 1 settings
    fixed = table[table["choice"] == "imputation"]
    assert fixed.values.tolist() == [["imputation", "*", "*", 0, 0.0, 0.0, 0.0]]
    data = table[table["choice"] == "data"]
    assert data.values[:, :4].tolist() == [
        ["data", "*", "*", 24],
        ["data", "all", "small", 8],
        ["data", "all", "large", 8],
    ]
    agg = table[table["choice"] == "aggregation"]
    assert agg["to_option"].tolist() == ["*", "mean", "rank", "best"]  # against the default median
    assert set(agg["from_option"].tolist()) == {"*", "median"}


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_impact_matches_a_loop_over_pairs_on_random_multiverses(seed):
    """The same on random multiverses with four choices."""
    check_impact(small_study(seed, with_fixed=False))


def test_impact_on_a_constructed_multiverse():
    """Hand check: the constructed multiverse's X pairs."""
    mv = constructed()
    check_impact(mv)
    table = impact(mv).table
    x = table[table["choice"] == "X"].iloc[0]
    # 3 pairs of X options × 3 Y options = 9 pairs
    assert x["pairs"] == 9
    text = repr(impact(mv))
    assert text.startswith("ImpactResult (changing one choice alone):") and "  X: ranking changes in" in text
    assert impact(mv).to_dict()["impact"][0]["choice"] == "X"


def test_bundled_study_consistency():
    """Smoke check on the bundled data: every analysis agrees with its definition."""
    from benchtrust.multiverse import bundled_study

    paths = bundled_study()
    mv = rankings(paths["results"], paths["spec"], characteristics=paths["characteristics"])
    dist = rank_distribution(mv)
    np.testing.assert_array_equal(dist.best, mv.ranks.min(0))
    assert dist.table.groupby("method")["share"].sum().to_numpy() == pytest.approx(np.ones(13))
    steps = stepwise(mv)
    for method, group in steps.steps.groupby("method", sort=False):
        assert steps.best[method] <= group["rank"].iloc[0]
        assert steps.best[method] >= dist.best[mv.methods.index(method)]
    table = impact(mv).table
    overall = table[table["from_option"] == "*"].set_index("choice")
    sizes = {c: len(mv.options[c]) for c in mv.choices}
    for c in mv.choices:
        others = int(np.prod([s for d, s in sizes.items() if d != c]))
        assert overall.loc[c, "pairs"] == sizes[c] * (sizes[c] - 1) // 2 * others


# ---------------------------------------------------------------------------------------------------------
# each result explains itself: verdict, to_frame, HTML


NASTY = '<b>"Ben & Jerry\'s"</b>'


def test_rank_distribution_explains_itself():
    toy = SimpleNamespace(methods=(NASTY, "A"), ranks=np.array([[1.0, 2.0], [1.0, 2.0], [2.0, 1.0]]))
    dist = rank_distribution(toy)
    assert dist.combinations == 3
    assert dist.verdict == (
        f"Over 3 combinations of options, a method's rank moves by up to 1 places ({NASTY}: best 1, worst 2)."
    )
    frame = dist.to_frame()
    assert list(frame.columns) == ["method", "rank", "combinations", "share"]
    frame.loc[0, "share"] = -1.0  # a copy
    assert dist.table.loc[0, "share"] > 0
    html = dist._repr_html_()
    assert NASTY not in html and "&lt;b&gt;&#34;Ben &amp; Jerry&#39;s&#34;&lt;/b&gt;" in html
    assert "<svg" in html and "<td>67%</td>" in html  # the share at the best rank of the first method


def test_stepwise_explains_itself():
    mv = constructed()
    result = stepwise(mv)
    assert result.rank_range == mv.rank_range()
    assert result.default == {"A": 2.0, "B": 3.0, "C": 3.0}
    assert result.improved == ("B", "C")
    reached = tuple(m for m in mv.methods if result.best[m] == mv.rank_range()[m][0])
    assert result.reached_best == reached
    assert result.verdict == (
        f"Optimising one choice at a time (X → Y), 2 of 3 methods improve on their rank at the defaults, and "
        f"{len(reached)} reach the best rank any combination gives them."
    )
    pd.testing.assert_frame_equal(result.to_frame(), result.steps)
    html = result._repr_html_()
    assert "<td>B</td><td>3</td><td>1</td>" in html and "X = x2 → 2; Y = y1 → 1" in html
    assert "<svg" in html


def test_impact_explains_itself(study):
    result = impact(study)
    overall = result.table[result.table["from_option"] == "*"]
    strongest = overall.loc[overall["mean_abs_rank_change"].idxmax()]
    assert result.strongest == strongest["choice"]
    assert result.verdict.startswith(f"Changing {result.strongest} alone moves a method's rank the most: by ")
    pd.testing.assert_frame_equal(result.to_frame(), result.table)
    html = result._repr_html_()
    assert html.count("<tr>") == 1 + len(result.table) and "every pair" in html


def test_impact_when_no_choice_moves_a_rank():
    mv = constructed()
    still = MultiverseResult(**{**vars(mv), "ranks": np.tile(mv.ranks[:1], (len(mv.ranks), 1))})
    result = impact(still)
    assert result.strongest is None
    assert result.verdict == "Changing one choice alone never changes a method's rank."


def test_method_names_are_escaped_in_every_section():
    """A method named like markup shows as text in the HTML of the rankings and each analysis."""
    rows = []
    for d, m, score in itertools.product(["d1", "d2"], [NASTY, "plain"], [0.6, 0.7]):
        rows.append({"dataset": d, "method": m, "acc": score + (0.1 if m == "plain" and d == "d2" else 0)})
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"aggregation": {"options": ["mean", "median"]}},
    }
    mv = rankings(pd.DataFrame(rows), spec)
    for result in (mv, rank_distribution(mv), stepwise(mv)):
        html = result._repr_html_()
        assert html.startswith('<div class="benchtrust">')
        assert "<b>" not in html and "<td>&lt;b&gt;&#34;Ben &amp; Jerry&#39;s&#34;&lt;/b&gt;</td>" in html
    assert "<b>" not in impact(mv)._repr_html_()  # names no method


def test_impact_of_a_single_combination_is_refused(tmp_path):
    """Every choice with one option: one combination, no pair to compare. A one-line InputError naming the
    spec, not a table of 0 % changes; the command stops with it before writing anything."""
    from typer.testing import CliRunner

    from benchtrust import cli

    rows = [
        {"dataset": d, "method": m, "acc": 0.5 + 0.1 * k}
        for k, (d, m) in enumerate(itertools.product(["d1", "d2"], ["A", "B"]))
    ]
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"aggregation": {"options": ["mean"]}},
    }
    mv = rankings(pd.DataFrame(rows), spec)
    assert len(mv.ranks) == 1
    with pytest.raises(InputError) as info:
        impact(mv)
    message = str(info.value)
    assert "every choice has one option" in message and "\n" not in message
    results = tmp_path / "results.csv"
    pd.DataFrame(rows).to_csv(results, index=False)
    (tmp_path / "spec.yaml").write_text(
        "measures:\n  acc: {better: higher, random: 0.5}\nchoices:\n  aggregation: {options: [mean]}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    ran = CliRunner().invoke(
        cli.app, ["multiverse", "run", str(results), "--spec", str(tmp_path / "spec.yaml"), "--out", str(out)]
    )
    assert ran.exit_code == 2 and not out.exists()
    assert ran.stderr.strip().splitlines() == [
        f"benchtrust: error: {tmp_path / 'spec.yaml'} (choices): " + message.split(": ", 1)[1]
    ]
