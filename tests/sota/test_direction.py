"""A leaderboard's direction is declared, never guessed (issue 29, item 1).

* The direction has no default, as in ``compare``: a call of ``leaderboard``, ``read_leaderboard`` or
  ``top_teams`` without it is a TypeError naming it (no public function of ``sota`` has a default one),
  and a report config entry without ``direction`` is refused (``tests/cli`` has the command's
  ``--direction``).
* A lower-is-better board (error rates 1 - accuracy, or 1 - AUC) is analysed as the accuracies 1 - score
  and reported back in its own terms: generated boards and the bundled ones reversed give the mirror of
  the accuracy board's result (the same best team, SOTA 1 - SOTA, intervals flipped, the same counts).
* A board whose own order contradicts the direction (ranked by a column, or a leaderboard sorted by
  score) is refused; a short sorted list gets a warning.
* Scores that are not proportions (log-loss, RMSE, negative numbers) are refused in one line naming the
  file, line and column, with a percentage hint only when every score looks like a percentage.
"""

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust._report.analyses import entry_keys
from benchtrust.sota import bundled_leaderboard, leaderboard, plot_leaderboard, read_leaderboard
from benchtrust.sota._read import top_teams

TOLERANCE = 1e-12


def written(values, decimals, shorten):
    """Scores as a board writes them: rounded, or truncated (as Kaggle does) to `decimals` places."""
    scale = 10**decimals
    cut = [
        math.floor(v * scale + 1e-9) / scale if shorten == "truncate" else round(v, decimals) for v in values
    ]
    return [f"{v:.{decimals}f}" for v in cut]


def complement(texts):
    """Each written score x as 1 - x, written with the same decimals."""
    out = []
    for text in texts:
        decimals = len(text.split(".")[1]) if "." in text else 0
        out.append(f"{1 - float(text):.{decimals}f}")
    return out


def board_file(path, texts, *, teams=None):
    teams = teams or [f"team {k}" for k in range(len(texts))]
    rows = "".join(f'"{team}",{text}\n' for team, text in zip(teams, texts, strict=True))
    path.write_text("TeamName,Score\n" + rows, encoding="utf-8")
    return path


def assert_mirror(accuracy, error):
    """`error` is the result of the complement board: every estimate 1 - the accuracy's, the same counts."""
    assert (accuracy.direction, error.direction) == ("higher", "lower")
    pairs = [
        (accuracy.observed_max, error.observed_max),
        (accuracy.plugin.expected_max, error.plugin.expected_max),
        (accuracy.plugin.sota, error.plugin.sota),
        (accuracy.cropped.sota, error.cropped.sota),
        (accuracy.cropped.expected_max, error.cropped.expected_max),
        (accuracy.conservative.sota, error.conservative.sota),
    ]
    for a, e in pairs:
        assert e == pytest.approx(1 - a, abs=TOLERANCE)
    for a, e in [
        (accuracy.naive_ci, error.naive_ci),
        (accuracy.plugin.ci, error.plugin.ci),
        (accuracy.cropped.ci, error.cropped.ci),
        (accuracy.conservative.ci, error.conservative.ci),
    ]:
        assert e[0] <= e[1]
        assert (e[0], e[1]) == pytest.approx((1 - a[1], 1 - a[0]), abs=TOLERANCE)
    np.testing.assert_allclose(np.sort(error.scores), np.sort(1 - accuracy.scores), atol=TOLERANCE)
    for name in ("teams", "teams_at_max", "teams_in_naive_ci", "excluded", "top_reading", "test_size"):
        assert getattr(error, name) == getattr(accuracy, name), name
    for name in ("teams_above", "dropped"):
        for approach in ("plugin", "cropped", "conservative"):
            assert getattr(getattr(error, approach), name) == getattr(getattr(accuracy, approach), name)
    frame_a, frame_e = accuracy.to_frame(), error.to_frame()
    np.testing.assert_allclose(frame_e["sota"], 1 - frame_a["sota"], atol=TOLERANCE)
    np.testing.assert_allclose(frame_e["low"], 1 - frame_a["high"], atol=TOLERANCE)
    assert (frame_e["teams_above"] == frame_a["teams_above"]).all()


@st.composite
def boards(draw):
    """A board listed best first: m teams' counts out of n, written with 4-6 decimals (rounded or
    truncated), a broken submission (0) and a team at chance perhaps, and its options."""
    n = draw(st.integers(20, 600))
    m = draw(st.integers(2, 20))
    counts = draw(st.lists(st.integers(n // 2 + 1, n - 1), min_size=m, max_size=m))
    decimals = draw(st.integers(4, 6))
    assume_unique_lattice = 10**decimals > 2 * n  # each written score holds one count out of n
    if not assume_unique_lattice:
        decimals = len(str(2 * n))
    shorten = draw(st.sampled_from(["round", "truncate"]))
    texts = written(sorted((k / n for k in counts), reverse=True), decimals, shorten)
    if draw(st.booleans()):
        texts += [f"{0:.{decimals}f}", f"{0.25:.{decimals}f}"]  # broken, and below chance for 2 classes
    options = {
        "test_size": n,
        "classes": 2,
        "correlation": draw(st.sampled_from([0.0, 0.6])),
        "resamples": draw(st.sampled_from([0, 1000])),
    }
    return texts, options


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(boards())
def test_an_error_board_gives_the_mirror_of_its_accuracy_board(tmp_path_factory, board):
    texts, options = board
    folder = tmp_path_factory.mktemp("mirror")
    accuracy = leaderboard(board_file(folder / "accuracy.csv", texts), direction="higher", **options)
    error = leaderboard(board_file(folder / "error.csv", complement(texts)), direction="lower", **options)
    assert_mirror(accuracy, error)
    # the same teams lead, named in the board's terms
    assert [name for name, _ in error.top_teams] == [name for name, _ in accuracy.top_teams]


@settings(max_examples=5, deadline=None)
@given(st.lists(st.integers(160, 299), min_size=3, max_size=12, unique=True))
def test_one_minus_auc_gives_the_mirror_of_the_auc_board(tmp_path_factory, counts):
    # n = 40 items, 10 positive: AUCs are multiples of 1/300, written with 5 decimals
    texts = written(sorted((k / 300 for k in counts), reverse=True), 5, "round")
    folder = tmp_path_factory.mktemp("auc")
    options = {"test_size": 40, "positives": 10, "metric": "auc", "seed": 3, "resamples": 0}
    auc = leaderboard(board_file(folder / "auc.csv", texts), direction="higher", **options)
    lower = leaderboard(board_file(folder / "lower.csv", complement(texts)), direction="lower", **options)
    assert_mirror(auc, lower)
    assert "1 - AUC" in str(lower)


def reversed_copy(path, folder):
    """A bundled board with every score written as 1 - score, in the same order, as a new file."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    column = next(name for name in frame.columns if name.lower() == "score")
    frame[column] = complement(frame[column].tolist())
    out = folder / f"reversed-{path.name}"
    frame.to_csv(out, index=False)
    return out


@pytest.mark.parametrize(
    ("competition", "options", "plausible"),
    [
        ("titanic", {"test_size": 209, "classes": 2}, 0.999),
        ("titanic", {"test_size": 209, "classes": 2, "correlation": 0}, None),
        ("cassava", {"test_size": 15000, "classes": 5, "correlation": 0, "resamples": 0}, None),
    ],
    ids=["titanic", "titanic-independent", "cassava"],
)
def test_the_bundled_boards_reversed_give_the_mirror_result(tmp_path, competition, options, plausible):
    path = bundled_leaderboard(competition)
    accuracy = leaderboard(path, direction="higher", max_plausible=plausible, **options)
    lower = None if plausible is None else round(1 - plausible, 12)
    error = leaderboard(reversed_copy(path, tmp_path), direction="lower", max_plausible=lower, **options)
    assert_mirror(accuracy, error)
    assert error.observed_max < 0.5 < accuracy.observed_max  # the best team, not the last placed


def test_the_order_of_a_reversed_leaderboard_refuses_the_wrong_direction(tmp_path):
    # Kaggle's final boards are listed best first: read with the other direction, refused in one line.
    for competition in ("cassava", "melanoma"):
        path = bundled_leaderboard(competition)
        with pytest.raises(InputError) as error:
            read_leaderboard(reversed_copy(path, tmp_path), direction="higher")
        message = str(error.value)
        assert "\n" not in message and "reversed-" in message and "line 2" in message
        assert "--direction lower" in message and "listed best first" in message
        with pytest.raises(InputError, match="--direction higher"):
            read_leaderboard(path, direction="lower")
    # Kaggle's raw download is in the order of submission: nothing to check
    warnings = read_leaderboard(reversed_copy(bundled_leaderboard(), tmp_path), direction="higher").warnings
    assert not any("down the file" in warning for warning in warnings)


@st.composite
def ordered(draw):
    """Distinct proportions listed best first for a direction, and the board's size."""
    m = draw(st.integers(2, 150))
    scores = draw(st.lists(st.integers(1, 9999), min_size=m, max_size=m, unique=True))
    direction = draw(st.sampled_from(["higher", "lower"]))
    listed = sorted(scores, reverse=direction == "higher")
    return [k / 10000 for k in listed], direction


@settings(max_examples=40, deadline=None)
@given(ordered(), st.booleans())
def test_an_order_that_contradicts_the_direction_is_refused_or_warned(board, ranked):
    scores, direction = board
    other = "lower" if direction == "higher" else "higher"
    frame = pd.DataFrame({"team": [f"t{k}" for k in range(len(scores))], "score": scores})
    if ranked:
        frame["Rank"] = range(1, len(scores) + 1)
    assert "scores" not in " ".join(read_leaderboard(frame, direction=direction).warnings)
    if ranked or len(scores) >= 100:
        with pytest.raises(InputError) as error:
            read_leaderboard(frame, direction=other)
        message = str(error.value)
        assert "\n" not in message and f"--direction {direction}" in message
        assert ("by the column 'Rank'" in message) == ranked
    elif len(scores) >= 5:
        (warning,) = read_leaderboard(frame, direction=other).warnings
        assert f"--direction {direction}" in warning and "row 0" in warning
    else:  # too few scores for their order to say anything
        assert read_leaderboard(frame, direction=other).warnings == ()
    # ties never contradict; a list in no order says nothing
    shuffled = frame.sample(frac=1, random_state=1).drop(columns="Rank", errors="ignore")
    if not np.all(np.diff(shuffled["score"]) >= 0) and not np.all(np.diff(shuffled["score"]) <= 0):
        assert read_leaderboard(shuffled, direction=other).warnings == ()


def test_scores_given_as_a_list_have_no_order_to_check():
    scores = [0.70, 0.72, 0.75, 0.78, 0.80, 0.81, 0.83]  # np.sort order
    assert leaderboard(scores, test_size=500, direction="higher", resamples=0).warnings == ()


@pytest.mark.parametrize(
    ("scores", "line"),
    [
        (["0.41", "0.52", "1.00076", "0.9"], 4),  # log-loss
        (["40.2", "41.5", "150.1"], 2),  # RMSE
        (["0.12", "-0.03"], 3),  # a negative difference
        (["0.5", "inf"], 3),
    ],
)
@pytest.mark.parametrize("metric", ["accuracy", "auc"])
@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_scores_that_are_not_proportions_are_refused(tmp_path, scores, line, metric, direction):
    path = board_file(tmp_path / "loss.csv", scores)
    options = {"positives": 10} if metric == "auc" else {}
    with pytest.raises(InputError) as error:
        leaderboard(path, test_size=100, metric=metric, direction=direction, **options)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{path}, line {line}, column 'Score': expected a score between 0 and 1")
    assert "need proportions in [0, 1]" in message and "percentage" not in message


def test_the_direction_is_in_every_view_of_the_result(tmp_path):
    errors = [0.101, 0.104, 0.11, 0.112, 0.115, 0.12, 0.13, 0.15, 0.2, 0.3]
    result = leaderboard(
        board_file(tmp_path / "e.csv", [f"{e:.3f}" for e in errors]), test_size=1000, direction="lower"
    )
    assert result.observed_max == 0.101 and result.teams_at_max == 1
    data = json.loads(json.dumps(result.to_dict()))
    assert data["direction"] == "lower" and data["observed_max"] == 0.101
    text = str(result)
    assert "lower is better: error rate = 1 - accuracy" in text and "observed best          0.1010" in text
    cropping = next(line for line in text.splitlines() if "cropping: SOTA" in line)
    assert cropping.endswith(" below")  # teams better than the SOTA error rate
    assert "direction" in result._repr_html_() and "lower is better" in result._repr_html_()
    assert ("direction", "lower is better: error rate = 1 - accuracy, analysed as accuracy") in (
        result.section().assumptions
    )
    ax = plot_leaderboard(result)
    assert ax.get_xlabel().startswith("error rate")
    low, high = ax.get_xlim()
    assert low < result.observed_max < high and low < result.conservative.sota < high
    assert any(text.get_text().startswith("observed min = 0.1010") for text in ax.get_legend().get_texts())


def test_the_direction_has_no_default():
    # As compare's read_task_scores: an error board read as accuracies names its worst team the best.
    with pytest.raises(TypeError, match="'direction'"):
        leaderboard([0.8, 0.9], test_size=100)
    required, optional = entry_keys("sota leaderboard")
    assert "direction" in required and "direction" not in optional


@pytest.mark.parametrize("read", [read_leaderboard, top_teams])
def test_a_board_is_never_read_without_a_direction(read):
    # Read as accuracies, this error board would keep a's worst score, 0.3, and list b last.
    board = pd.DataFrame({"TeamName": ["a", "b", "a"], "Score": [0.2, 0.1, 0.3]})
    with pytest.raises(TypeError, match="'direction'"):
        read(board)
    with pytest.raises(TypeError):
        read(board, "lower")  # keyword-only: never taken from a position


def test_no_public_function_of_sota_has_a_default_direction():
    # Every public name (and the report's top_teams) that takes a direction needs it declared: a
    # function by keyword, a result (Leaderboard, LeaderboardResult) as a field without a default.
    import inspect

    import benchtrust.sota as sota

    names = {name: getattr(sota, name) for name in sota.__all__} | {"top_teams": top_teams}
    takers = {
        name: (value, inspect.signature(value).parameters["direction"])
        for name, value in names.items()
        if callable(value) and "direction" in inspect.signature(value).parameters
    }
    assert {"leaderboard", "read_leaderboard", "top_teams", "Leaderboard", "LeaderboardResult"} <= set(takers)
    assert {name for name, (_, p) in takers.items() if p.default is not p.empty} == set()
    positional = {
        name
        for name, (value, p) in takers.items()
        if not isinstance(value, type) and p.kind != p.KEYWORD_ONLY
    }
    assert positional == set()


@pytest.mark.parametrize("direction", ["up", "Lower", "", None, 1])
def test_a_direction_other_than_higher_or_lower_is_refused(direction):
    with pytest.raises(InputError, match=r"^direction: expected one of 'higher', 'lower', got "):
        leaderboard([0.8, 0.9], test_size=100, direction=direction)
