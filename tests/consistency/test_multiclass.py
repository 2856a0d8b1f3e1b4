"""check_multiclass against every confusion matrix of tiny test sets, and on scores of real matrices."""

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.consistency import SCORES, reported_scores
from benchtrust.consistency._multiclass import check_multiclass
from benchtrust.consistency._one_vs_rest import MARGIN, off_diagonal

LINEAR = ["acc", "sens", "spec", "bacc", "err", "fnr", "fpr"]


def all_matrices(counts):
    """Every confusion matrix with these row sums (true classes), shape (matrices, C, C)."""
    classes = len(counts)
    rows = []
    for total in counts:
        splits = [c for c in itertools.product(range(total + 1), repeat=classes) if sum(c) == total]
        rows.append(splits)
    return np.array([list(choice) for choice in itertools.product(*rows)])


def one_vs_rest(matrices, counts):
    """tp, tn, p, n of each class against the rest, each of shape (matrices, C)."""
    counts = np.asarray(counts)
    total = counts.sum()
    tp = np.diagonal(matrices, axis1=1, axis2=2)
    columns = matrices.sum(axis=1)
    tn = total - counts - columns + tp
    return tp, tn, counts, total - counts


def macro_values(name, matrices, counts):
    tp, tn, p, n = one_vs_rest(matrices, counts)
    return SCORES[name](tp, tn, p, n).mean(axis=1)


def micro_values(name, matrices, counts, beta=None):
    total, classes = sum(counts), len(counts)
    correct = np.trace(matrices, axis1=1, axis2=2)
    return SCORES[name](correct, (classes - 2) * total + correct, total, (classes - 1) * total, beta)


def exact_macro(name, matrix, counts):
    """The macro average of one matrix in exact arithmetic, from the textbook one-vs-rest counts."""
    total = sum(counts)
    values = []
    for c, positives in enumerate(counts):
        tp = Fraction(matrix[c][c])
        fp = Fraction(sum(matrix[i][c] for i in range(len(counts)))) - tp
        fn = positives - tp
        tn = total - positives - fp
        sens, spec, acc = tp / positives, tn / (total - positives), (tp + tn) / total
        values.append(
            {
                "acc": acc,
                "sens": sens,
                "spec": spec,
                "bacc": (sens + spec) / 2,
                "err": 1 - acc,
                "fnr": fn / positives,
                "fpr": fp / (total - positives),
            }[name]
        )
    return sum(values) / len(values)


def assert_evidence(result, counts):
    """The evidence has the class counts and gives every score, checked here in exact arithmetic."""
    matrix = result.evidence
    assert [sum(row) for row in matrix] == list(counts)
    assert all(cell >= 0 and isinstance(cell, int) for row in matrix for cell in row)
    for rep in result.scores:
        low, high = rep.interval
        assert Fraction(low) <= exact_macro(rep.score, matrix, counts) <= Fraction(high)


def brute_macro(values, counts, matrices, widen=0.0):
    ok = np.ones(len(matrices), dtype=bool)
    for rep in reported_scores(values):
        got = macro_values(rep.score, matrices, counts)
        ok &= (got >= rep.interval.low - widen) & (got <= rep.interval.high + widen)
    return ok.any()


COUNTS = [(4, 4, 4), (1, 2, 3), (5, 1, 1), (2, 2, 8), (3, 3, 3), (1, 1, 1), (6, 5, 1)]


@pytest.mark.parametrize("counts", COUNTS)
def test_macro_agrees_with_all_confusion_matrices(counts):
    matrices = all_matrices(counts)
    rng = np.random.default_rng(sum(counts))
    verdicts = set()
    for _ in range(25):
        names = list(rng.choice(LINEAR, size=int(rng.integers(1, 4)), replace=False))
        if rng.random() < 0.5:  # the scores of one of the matrices, perturbed sometimes
            matrix = matrices[rng.integers(len(matrices))][None]
            noise = rng.normal(0, 0.01) if rng.random() < 0.3 else 0.0
            values = {
                str(name): f"{float(macro_values(name, matrix, counts)[0]) + noise:.2f}" for name in names
            }
        else:
            values = {str(name): f"{rng.uniform(0, 1):.2f}" for name in names}
        result = check_multiclass(values, class_counts=counts, average="macro")
        if brute_macro(values, counts, matrices):
            assert result.consistent, values
            assert_evidence(result, counts)
        elif brute_macro(values, counts, matrices, widen=MARGIN):
            assert result.consistent and result.evidence is None  # within MARGIN: never called inconsistent
        else:
            assert not result.consistent and result.evidence is None, values
        verdicts.add(result.consistent)
    assert verdicts == {True, False}


@pytest.mark.parametrize("counts", COUNTS)
def test_micro_agrees_with_all_confusion_matrices(counts):
    matrices = all_matrices(counts)
    total, classes = sum(counts), len(counts)
    rng = np.random.default_rng(sum(counts) + 1)
    verdicts = set()
    for _ in range(25):
        names = [
            str(name) for name in rng.choice(sorted(SCORES), size=int(rng.integers(1, 4)), replace=False)
        ]
        matrix = matrices[rng.integers(len(matrices))][None]
        values = {}
        for name in names:
            value = float(micro_values(name, matrix, counts, beta=1.5)[0])
            value = rng.uniform(0, 1) if np.isnan(value) or rng.random() < 0.3 else value
            values[name] = f"{value:.2f}"
        result = check_multiclass(values, class_counts=counts, average="micro", beta=1.5, examples=100)
        ok = np.ones(len(matrices), dtype=bool)
        for rep in reported_scores(values, beta=1.5):
            got = micro_values(rep.score, matrices, counts, beta=1.5)
            ok &= (got >= rep.interval.low) & (got <= rep.interval.high)
        correct = sorted(set(np.trace(matrices[ok], axis1=1, axis2=2).tolist()))
        assert list(result.solutions) == correct and result.n_solutions == len(correct), values
        assert result.pooled == tuple((k, (classes - 2) * total + k) for k in correct)
        assert result.consistent == bool(correct) and result.evidence is None
        verdicts.add(result.consistent)
    assert verdicts == {True, False}


def test_micro_pooled_matrix_by_hand():
    """Three classes of 10, 20, 30 with 48 correct: pooled tp = 48, fp = fn = 12, tn = 60 + 48 = 108."""
    result = check_multiclass({"f1": "0.80", "spec": "0.9"}, class_counts=[10, 20, 30], average="micro")
    assert result.solutions == (48,) and result.pooled == ((48, 108),)
    # the micro accuracy is the pooled binary accuracy (2k + (C - 2)N) / (CN), not k / N
    result = check_multiclass(
        {"acc": f"{(2 * 48 + 60) / 180:.6f}"}, class_counts=[10, 20, 30], average="micro"
    )
    assert result.solutions == (48,)


@st.composite
def confusion_matrices(draw):
    classes = draw(st.integers(2, 6), label="classes")
    cells = draw(st.lists(st.integers(0, 40), min_size=classes**2, max_size=classes**2), label="cells")
    matrix = np.array(cells).reshape(classes, classes) + np.eye(classes, dtype=int)  # every class present
    return matrix


@settings(max_examples=300, deadline=None)
@given(matrix=confusion_matrices(), decimals=st.integers(2, 4), data=st.data())
def test_scores_of_a_real_matrix_are_consistent(matrix, decimals, data):
    counts = matrix.sum(axis=1).tolist()
    names = data.draw(st.lists(st.sampled_from(LINEAR), min_size=1, max_size=4, unique=True), label="macro")
    values = {name: f"{float(macro_values(name, matrix[None], counts)[0]):.{decimals}f}" for name in names}
    result = check_multiclass(values, class_counts=counts, average="macro")
    assert result.consistent
    # The solver maximises the room inside the intervals, so it finds a verifiable witness whenever the true
    # matrix has room beyond its tolerances (module notes); only values at a hair from an end may lack one.
    true = {rep.score: exact_macro(rep.score, matrix.tolist(), counts) for rep in result.scores}
    room = min(
        min(true[rep.score] - Fraction(rep.interval.low), Fraction(rep.interval.high) - true[rep.score])
        for rep in result.scores
    )
    if room > 1e-6:
        assert result.evidence is not None
    if result.evidence is not None:
        assert_evidence(result, counts)

    names = data.draw(
        st.lists(st.sampled_from(sorted(SCORES)), min_size=1, max_size=4, unique=True), label="micro"
    )
    values = {}
    for name in names:
        value = float(micro_values(name, matrix[None], counts, beta=2.0)[0])
        if not np.isnan(value):
            values[name] = f"{value:.{decimals}f}"
    if values:
        result = check_multiclass(values, class_counts=counts, average="micro", beta=2.0, examples=10**6)
        assert int(np.trace(matrix)) in result.solutions


def test_macro_many_classes():
    """Ten classes of 100 to 1000 items: the macro scores of a real matrix, to 4 decimals."""
    rng = np.random.default_rng(7)
    counts = rng.integers(100, 1001, size=10)
    matrix = np.array(
        [rng.multinomial(c, rng.dirichlet(np.ones(10) + 20 * np.eye(10)[i])) for i, c in enumerate(counts)]
    )
    values = {
        name: f"{float(macro_values(name, matrix[None], counts)[0]):.4f}" for name in ("acc", "sens", "spec")
    }
    result = check_multiclass(values, class_counts=counts.tolist(), average="macro")
    assert result.consistent and result.evidence is not None
    assert_evidence(result, counts.tolist())
    values["spec"] = f"{float(values['spec']) + 0.01:.4f}"
    assert not check_multiclass(values, class_counts=counts.tolist(), average="macro").consistent


def test_macro_specificity_is_fixed_by_sensitivity_for_equal_classes():
    """Classes of equal size r: macro sens = trace/N and macro spec = 1 - (N - trace)/(C·(N - r)) both
    depend on the trace only; with r = 4, C = 3, sens = 3/4 means trace 9 and spec 7/8."""
    counts = [4, 4, 4]
    assert check_multiclass(
        {"sens": "0.75", "spec": "0.875"}, class_counts=counts, average="macro"
    ).consistent
    assert not check_multiclass(
        {"sens": "0.75", "spec": "0.80"}, class_counts=counts, average="macro"
    ).consistent


def test_result_as_dict_and_repr():
    result = check_multiclass({"sens": "0.75"}, class_counts=[4, 4, 4], average="macro")
    out = result.to_dict()
    assert json.loads(json.dumps(out)) == out
    assert out["average"] == "macro" and out["class_counts"] == [4, 4, 4] and out["solutions"] is None
    assert "evidence=[[" in repr(result)
    result = check_multiclass({"f1": "0.80"}, class_counts=[10, 20, 30], average="micro")
    out = result.to_dict()
    assert json.loads(json.dumps(out)) == out
    assert out["solutions"] == [48] and out["pooled"] == [[48, 108]] and out["evidence"] is None
    assert "n_solutions=1" in repr(result)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"average": "weighted"}, "average"),
        ({"class_counts": [5]}, "class_counts"),
        ({"class_counts": [5, 0]}, r"class_counts\[1\]"),
        ({"class_counts": [5, 2.5]}, r"class_counts\[1\]"),
        ({"class_counts": "55"}, "class_counts"),
        ({"class_counts": 5}, "class_counts"),
        ({"scores": {"mcc": 0.5, "acc": 0.9}}, "mcc"),
        ({"scores": {"f1": 0.5}}, "acc, sens, spec, bacc"),
        ({"scores": {"fbp": 0.5}, "average": "micro"}, "beta"),
        ({"scores": {"nope": 0.5}}, "nope"),
        ({"examples": -1}, "examples"),
    ],
)
def test_bad_input(kwargs, named):
    arguments = {"scores": {"acc": 0.9}, "class_counts": [5, 6, 7], "average": "macro", **kwargs}
    with pytest.raises(InputError, match=named):
        check_multiclass(arguments.pop("scores"), **arguments)


def test_a_real_matrix_with_room_gets_a_witness():
    """The case test_scores_of_a_real_matrix_are_consistent drew once: macro bacc and spec to 2 decimals.

    The true matrix has 1.5e-4 of room inside bacc's interval, yet the solver stopped at a slack of 3.8e-7:
    the slack ran over [0, 2·MARGIN], within HiGHS's optimality gap of 1e-6, so "optimal" left every score
    outside its unwidened interval and no witness passed. The slack now runs over [0, 1]."""
    matrix = np.array(
        [[41, 0, 0, 31, 40], [0, 29, 30, 40, 40], [0, 0, 14, 33, 40], [0, 0, 9, 41, 40], [0, 0, 22, 40, 41]]
    )
    counts = matrix.sum(axis=1).tolist()
    values = {name: f"{float(macro_values(name, matrix[None], counts)[0]):.2f}" for name in ("bacc", "spec")}
    result = check_multiclass(values, class_counts=counts, average="macro")
    assert result.consistent
    assert result.evidence is not None


# --- issue 19: scikit-learn's accuracy, clean --json, bounded work ---------------------------------------


def test_accuracy_score_is_scikit_learns():
    """``accuracy_score`` is sklearn.metrics.accuracy_score (k / N); ``acc`` is the one-vs-rest accuracy."""
    from sklearn.metrics import accuracy_score, recall_score

    rng = np.random.default_rng(5)
    for _ in range(8):
        classes = int(rng.integers(3, 7))
        truth = rng.integers(0, classes, size=int(rng.integers(50, 400)))
        truth[:classes] = np.arange(classes)  # every class present
        predicted = np.where(
            rng.random(truth.size) < rng.uniform(0.3, 0.95), truth, rng.integers(0, classes, truth.size)
        )
        counts = np.bincount(truth, minlength=classes).tolist()
        correct = int((truth == predicted).sum())
        value = f"{accuracy_score(truth, predicted):.4f}"
        micro = check_multiclass(
            {"accuracy_score": value}, class_counts=counts, average="micro", examples=10**6
        )
        assert correct in micro.solutions
        assert float(micro.to_frame()["accuracy_score"].iloc[0]) == micro.solutions[0] / sum(counts)
        pooled = check_multiclass({"acc": value}, class_counts=counts, average="micro", examples=10**6)
        assert correct not in pooled.solutions  # the one-vs-rest accuracy is another number
        recall = f"{recall_score(truth, predicted, average='macro'):.4f}"  # macro sensitivity
        macro = check_multiclass(
            {"sens": recall, "Accuracy-Score": value}, class_counts=counts, average="macro"
        )
        assert macro.consistent and macro.evidence is not None
        trace = Fraction(int(np.trace(np.array(macro.evidence))), sum(counts))
        interval = macro.scores[1].interval
        assert macro.scores[1].score == "accuracy_score" and Fraction(interval.low) <= trace <= Fraction(
            interval.high
        )
    both = check_multiclass(
        {"acc": "0.9", "accuracy_score": "0.85"}, class_counts=[30, 40, 50], average="macro"
    )
    assert [rep.score for rep in both.scores] == ["acc", "accuracy_score"]
    assert len(both.notes) == 2 and both.to_dict()["notes"] == list(both.notes)
    assert "not scikit-learn's accuracy_score" in str(both) and "accuracy_score is scikit-learn's" in str(
        both
    )
    assert not check_multiclass({"sens": "0.5"}, class_counts=[3, 4], average="micro").notes


def test_macro_of_many_classes():
    """The integer program is over the diagonal and the column sums (2C numbers, not C²)."""
    rng = np.random.default_rng(11)
    counts = rng.integers(20, 200, size=300)
    matrix = np.array(
        [rng.multinomial(c, rng.dirichlet(np.ones(300) + 300 * np.eye(300)[i])) for i, c in enumerate(counts)]
    )
    values = {name: f"{float(macro_values(name, matrix[None], counts)[0]):.4f}" for name in ("sens", "bacc")}
    result = check_multiclass(values, class_counts=counts.tolist(), average="macro")
    assert result.consistent and result.evidence is not None
    assert_evidence(result, counts.tolist())
    values["bacc"] = f"{float(values['bacc']) + 0.002:.4f}"
    assert not check_multiclass(values, class_counts=counts.tolist(), average="macro").consistent


def test_off_diagonal_matrices_exist_exactly_when_promised():
    """A zero-diagonal matrix with row sums a and column sums b exists iff a_c + b_c <= S for every c."""
    rng = np.random.default_rng(2)
    for _ in range(300):
        classes = int(rng.integers(2, 6))
        matrix = rng.integers(0, 4, size=(classes, classes)) * (rng.random((classes, classes)) < 0.6)
        np.fill_diagonal(matrix, 0)
        a, b = matrix.sum(axis=1), matrix.sum(axis=0)
        built = off_diagonal(a, b)
        assert built is not None and (np.diag(built) == 0).all() and (built >= 0).all()
        assert built.sum(axis=1).tolist() == a.tolist() and built.sum(axis=0).tolist() == b.tolist()
    # the condition fails: no matrix at all (every one of the 2 x 2 case has b_1 = a_2)
    assert off_diagonal(np.array([2, 1]), np.array([2, 1])) is None
    assert off_diagonal(np.array([3, 0, 0]), np.array([3, 0, 0])) is None


def test_micro_counts_exactly_at_any_size():
    """Micro F1 on the pooled matrix is k / N (fp = fn = N - k): the k in the interval, counted exactly."""
    counts = [10**11, 2 * 10**11, 3 * 10**11 + 7]
    total = sum(counts)
    result = check_multiclass(
        {"f1": "0.8123", "acc": "0.87487"}, class_counts=counts, average="micro", max_work=1
    )
    f1, acc = (rep.interval for rep in result.scores)
    low = max(Fraction(f1.low) * total, (Fraction(acc.low) * 3 * total - total) / 2)  # acc = (2k + N) / 3N
    high = min(Fraction(f1.high) * total, (Fraction(acc.high) * 3 * total - total) / 2)
    assert result.n_solutions == int(high // 1) - -int(-low // 1) + 1 > 10**6
    assert result.solutions[0] == -int(-low // 1)


def test_micro_search_in_chunks(monkeypatch):
    from benchtrust.consistency import _multiclass

    values = {"gm": "0.7"}  # not affine on the micro line (mcc is), so every k is evaluated
    whole = check_multiclass(values, class_counts=[300, 500, 700], average="micro", examples=30)
    monkeypatch.setattr(_multiclass, "CHUNK", 17)
    calls = []
    chunked = check_multiclass(
        values,
        class_counts=[300, 500, 700],
        average="micro",
        examples=30,
        progress=lambda *c: calls.append(c),
    )
    assert whole.n_solutions > 30 and (chunked.n_solutions, chunked.solutions) == (
        whole.n_solutions,
        whole.solutions,
    )
    assert len(calls) > 3 and calls[-1][0] == calls[-1][1]


def test_the_budget_is_stated_before_the_check():
    with pytest.raises(InputError, match=r"^max_work=5e\+09: this macro check of 5,000 classes would take"):
        check_multiclass({"sens": "0.5"}, class_counts=[1] * 5000, average="macro")
    with pytest.raises(InputError, match="max_work=1e"):
        check_multiclass({"gm": "0.5"}, class_counts=[10**6] * 3, average="micro", max_work=10**6)
    from typer.testing import CliRunner

    from benchtrust import cli

    args = ["consistency", "multiclass", "--class-counts", ",".join(["1"] * 5000), "--average", "macro"]
    result = CliRunner().invoke(cli.app, [*args, "--score", "sens=0.5"])
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith("benchtrust: error: --max-work=5e+09: ")


def test_json_stdout_parses_whatever_the_solver_prints():
    """HiGHS writes with C's printf, under Python: its output is kept off file descriptor 1 (--json)."""
    import subprocess
    import sys

    guarded = (
        "import ctypes, json\n"
        "from benchtrust.consistency._solver._highs import quiet_stdout\n"
        "with quiet_stdout():\n"
        "    ctypes.CDLL(None).printf(b'Running HiGHS (a banner)\\n')\n"
        "print(json.dumps({'consistent': True}))\n"
    )
    out = subprocess.run([sys.executable, "-c", guarded], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == {"consistent": True}
    command = [
        sys.executable,
        "-m",
        "benchtrust",
        "consistency",
        "multiclass",
        "--class-counts",
        "41,29,14,41,41",
    ]
    command += ["--average", "macro", "--score", "bacc=0.58", "--score", "spec=0.83", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)  # the whole of stdout is the one object
    assert result["consistent"] is True and result["evidence"] is not None
