"""Tests of compare._pipelines._study: splits, seeds, replay, pairing, searches, resuming, backends."""

from __future__ import annotations

import json
import uuid

import numpy as np
import pytest

from benchtrust._io import InputError
from benchtrust.compare._pipelines._study import (
    NoisyGridSearch,
    RandomSearch,
    Run,
    Runs,
    Study,
    out_of_bootstrap,
)

P = 0.8  # accuracy of the simulated pipeline
INIT_SD = 0.01  # score standard deviation due to the weight initialisation seed
ORDER_SD = 0.005  # ... due to the data-order seed


def linear_pipeline(train, test, hyperparameters, seeds):
    """A noisy model whose score depends on every source in a known way.

    The test accuracy is Binomial(n', P)/n' drawn afresh for each test set; the initialisation and data
    order add independent normal terms; the learning rate costs (lr - 0.3)².
    """
    accuracy = (np.random.default_rng(test).random(test.size) < P).mean()
    init = np.random.default_rng(seeds["init"]).normal(0, INIT_SD)
    order = np.random.default_rng(seeds["order"]).normal(0, ORDER_SD)
    lr = hyperparameters.get("lr", 0.3)
    return float(accuracy + init + order - (lr - 0.3) ** 2)


def make_study(**kwargs):
    kwargs.setdefault("data_size", 300)
    kwargs.setdefault("sources", ("split", "init", "order"))
    return Study(linear_pipeline, **kwargs)


# ------------------------------------------------------------------------------------------- splits
def test_out_of_bootstrap_train_is_a_bootstrap_sample_and_test_the_rest():
    train, test = out_of_bootstrap(200, seed=1)
    assert train.size == 200
    assert not np.isin(test, train).any()
    assert np.array_equal(np.union1d(train, test), np.arange(200))
    assert len(np.unique(train)) < 200  # drawn with replacement


def test_out_of_bootstrap_is_reproducible_and_depends_on_the_seed():
    a, b, c = (out_of_bootstrap(100, seed=s) for s in (3, 3, 4))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])


def test_out_of_bootstrap_stratified_keeps_class_counts():
    labels = np.array([0] * 30 + [1] * 70)
    train, test = out_of_bootstrap(labels, seed=0)
    assert (labels[train] == 0).sum() == 30
    assert (labels[train] == 1).sum() == 70
    assert not np.isin(test, train).any()


def test_study_with_labels_splits_by_class():
    labels = ["cat"] * 10 + ["dog"] * 40
    seen = []

    def pipeline(train, test, hyperparameters, seeds):
        seen.append(train)
        return 0.5

    Study(pipeline, labels=labels, sources=("split",)).run(5, seed=0)
    for train in seen:
        assert (train < 10).sum() == 10 and (train >= 10).sum() == 40


# ------------------------------------------------------------------------------------------- seeds and runs
def test_run_table_has_one_row_per_run_with_every_seed():
    runs = make_study().run(4, seed=0)
    assert isinstance(runs, Runs) and len(runs) == 4
    assert [row.index for row in runs] == [0, 1, 2, 3]
    for row in runs:
        assert isinstance(row, Run)
        assert set(row.seeds) == {"split", "init", "order"}
        assert 0 < row.test_size < 300
    assert runs.scores.shape == (4,)
    json.dumps(runs.to_dict())
    frame = runs.to_frame()
    assert list(frame.columns) == ["run", "seed_split", "seed_init", "seed_order", "score", "test_size"]
    assert "Runs(4 runs" in repr(runs)


def test_fixed_sources_share_one_seed_randomised_sources_do_not():
    runs = make_study().run(6, seed=0, fixed=("init", "split"))
    assert len({row.seeds["init"] for row in runs}) == 1
    assert len({row.seeds["split"] for row in runs}) == 1
    assert len({row.seeds["order"] for row in runs}) == 6
    assert runs.fixed == ("split", "init")


def test_fixed_seed_is_the_same_whatever_else_is_fixed():
    study = make_study()
    a = study.run(3, seed=5, fixed="init")
    b = study.run(3, seed=5, fixed=("init", "order"))
    assert a[0].seeds["init"] == b[0].seeds["init"]


def test_same_seed_reproduces_the_study_and_another_seed_does_not():
    study = make_study()
    a, b, c = study.run(5, seed=7), study.run(5, seed=7), study.run(5, seed=8)
    assert a.rows == b.rows
    assert not np.array_equal(a.scores, c.scores)


def test_generator_seed_is_accepted_and_reproducible():
    study = make_study()
    a = study.run(3, seed=np.random.default_rng(1))
    b = study.run(3, seed=np.random.default_rng(1))
    assert a.rows == b.rows


def test_run_seeds_do_not_depend_on_the_number_of_runs():
    study = make_study()
    assert study.run(10, seed=2).rows[:3] == study.run(3, seed=2).rows


def test_replay_reproduces_every_run_exactly():
    study = make_study()
    for row in study.run(5, seed=0):
        assert study.replay(row) == row.score


def test_replay_from_recorded_json_row():
    study = make_study(search=RandomSearch({"lr": (0.0, 1.0)}, trials=4))
    row = study.run(2, seed=0)[1]
    again = Run._from_dict(json.loads(json.dumps(row.to_dict())))
    assert study.replay(again) == row.score


def test_pairing_a_and_b_see_the_same_splits_and_seeds():
    calls = {"A": [], "B": []}

    def pipeline(name, shift):
        def fit_and_score(train, test, hyperparameters, seeds):
            calls[name].append((train.tolist(), test.tolist(), dict(seeds)))
            return shift + linear_pipeline(train, test, hyperparameters, seeds)

        return fit_and_score

    sources = ("split", "init", "order")
    a = Study(pipeline("A", 0.0), data_size=100, sources=sources).run(8, seed=11)
    b = Study(pipeline("B", 0.01), data_size=100, sources=sources).run(8, seed=11)
    assert calls["A"] == calls["B"]
    assert [r.seeds for r in a] == [r.seeds for r in b]
    np.testing.assert_allclose(b.scores - a.scores, 0.01)


def test_variance_of_a_single_source_has_its_known_value():
    study = make_study()
    init_only = study.run(2000, seed=0, fixed=("split", "order")).scores
    assert init_only.var(ddof=1) == pytest.approx(INIT_SD**2, rel=0.1)
    nothing = study.run(20, seed=0, fixed=("split", "init", "order")).scores
    assert np.all(nothing == nothing[0])


# ------------------------------------------------------------------------------------------- searches
def test_random_search_candidates_lie_in_the_space():
    search = RandomSearch({"lr": (1e-4, 1e-1, "log"), "p": (0.0, 0.5)}, trials=50)
    candidates = search.candidates(np.random.default_rng(0))
    lr = np.array([c["lr"] for c in candidates])
    p = np.array([c["p"] for c in candidates])
    assert len(candidates) == 50
    assert ((lr >= 1e-4) & (lr <= 1e-1)).all() and ((p >= 0) & (p <= 0.5)).all()
    assert (lr < 1e-3).sum() > 10  # log-uniform: a third of the draws below 1e-3


def test_noisy_grid_search_is_a_regular_grid_with_noisy_ends():
    search = NoisyGridSearch({"a": (0.0, 1.0), "b": (1e-3, 1e-1, "log")}, points=5)
    candidates = search.candidates(np.random.default_rng(0))
    assert len(candidates) == 25
    a = np.unique([c["a"] for c in candidates])
    assert np.allclose(np.diff(a), np.diff(a)[0])
    delta = 0.25
    assert -delta / 2 <= a[0] <= delta / 2 and 1 - delta / 2 <= a[-1] <= 1 + delta / 2
    log_b = np.log(np.unique([c["b"] for c in candidates]))
    assert np.allclose(np.diff(log_b), np.diff(log_b)[0])


def test_noisy_grid_search_covers_the_grid_in_expectation():
    search = NoisyGridSearch({"a": (0.0, 1.0)}, points=3)
    rng = np.random.default_rng(0)
    grids = np.array([[c["a"] for c in search.candidates(rng)] for _ in range(4000)])
    np.testing.assert_allclose(grids.mean(axis=0), [0.0, 0.5, 1.0], atol=0.01)


def test_randomised_search_runs_one_hopt_per_run():
    study = make_study(search=RandomSearch({"lr": (0.0, 1.0)}, trials=20))
    runs = study.run(4, seed=0)
    assert "search" in runs.sources
    values = [row.hyperparameters["lr"] for row in runs]
    assert len(set(values)) == 4
    assert all(abs(v - 0.3) < 0.2 for v in values)


def test_fixed_search_reuses_one_set_of_hyperparameters():
    calls = []

    def pipeline(train, test, hyperparameters, seeds):
        calls.append(hyperparameters)
        return linear_pipeline(train, test, hyperparameters, seeds)

    study = Study(
        pipeline,
        data_size=200,
        sources=("split", "init", "order"),
        search=NoisyGridSearch({"lr": (0.0, 1.0)}, points=6),
    )
    runs = study.run(5, seed=0, fixed="search")
    assert len({row.hyperparameters["lr"] for row in runs}) == 1
    assert len(calls) == 6 + 5  # one HOpt of 6 trials (O(k + T)), then 5 trainings


def test_search_function_and_default_hyperparameters():
    def search(evaluate, rng):
        return max(({"lr": lr} for lr in (0.1, 0.3, 0.9)), key=evaluate)

    study = make_study(search=search, hyperparameters={"lr": 5.0, "width": 8})
    row = study.run(1, seed=0)[0]
    assert row.hyperparameters == {"lr": 0.3, "width": 8}


def test_minimising_search():
    study = make_study(search=RandomSearch({"lr": (0.0, 1.0)}, trials=20), direction="lower")
    assert all(abs(row.hyperparameters["lr"] - 0.3) > 0.3 for row in study.run(3, seed=0))


# ------------------------------------------------------------------------------------------- resuming
def test_interrupted_study_resumes_without_redoing_finished_runs(tmp_path):
    calls = []

    def pipeline(train, test, hyperparameters, seeds):
        calls.append(1)
        return linear_pipeline(train, test, hyperparameters, seeds)

    path = tmp_path / "runs.jsonl"
    study = Study(pipeline, data_size=100, sources=("split", "init", "order"), results=path)
    study.run(6, seed=3)  # interrupted after 6 runs
    assert len(calls) == 6
    resumed = study.run(10, seed=3)
    assert len(calls) == 10  # only 4 new trainings
    assert len(path.read_text().splitlines()) == 10
    assert resumed.rows == make_study(data_size=100).run(10, seed=3).rows


def test_resume_ignores_a_torn_last_line(tmp_path):
    path = tmp_path / "runs.jsonl"
    study = make_study(results=path)
    first = study.run(3, seed=0)
    with path.open("a") as handle:
        handle.write('{"run": 3, "seeds": {"spl')
    assert study.run(3, seed=0).rows == first.rows
    resumed = study.run(5, seed=0)  # appends after the torn line, which is then ignored
    assert resumed.rows == make_study().run(5, seed=0).rows
    assert study.run(5, seed=0).rows == resumed.rows


def test_corrupt_results_file_names_the_line(tmp_path):
    path = tmp_path / "runs.jsonl"
    path.write_text("not json\n" + json.dumps(make_study().run(1, seed=0)[0].to_dict()) + "\n")
    with pytest.raises(InputError, match=r"runs\.jsonl, line 1"):
        make_study(results=path).run(2, seed=0)


def _counted_pipeline(folder):
    def fit_and_score(train, test, hyperparameters, seeds):
        (folder / uuid.uuid4().hex).touch()  # a side channel that works across processes
        return linear_pipeline(train, test, hyperparameters, seeds)

    return fit_and_score


@pytest.mark.slow
def test_resume_in_parallel_counts_calls_across_processes(tmp_path, picklable_test_functions):
    counter = tmp_path / "calls"
    counter.mkdir()
    path = tmp_path / "runs.jsonl"
    study = Study(
        _counted_pipeline(counter), data_size=100, sources=("split", "init", "order"), results=path, n_jobs=2
    )
    study.run(6, seed=3)
    assert len(list(counter.iterdir())) == 6
    parallel = study.run(10, seed=3)
    assert len(list(counter.iterdir())) == 10
    assert parallel.rows == make_study(data_size=100).run(10, seed=3).rows


# ------------------------------------------------------------------------------------------- backends
@pytest.fixture
def picklable_test_functions():
    """Worker processes cannot import this test module: send its functions by value."""
    import sys

    try:
        from joblib.externals import cloudpickle
    except ImportError:  # joblib packaged without its vendored copy
        import cloudpickle

    module = sys.modules[linear_pipeline.__module__]
    cloudpickle.register_pickle_by_value(module)
    yield
    cloudpickle.unregister_pickle_by_value(module)


@pytest.mark.slow
def test_loky_backend_gives_the_serial_table(picklable_test_functions):
    serial = make_study().run(8, seed=0)
    assert make_study(n_jobs=2, backend="loky").run(8, seed=0).rows == serial.rows


@pytest.mark.slow
def test_dask_backend_on_a_local_cluster_gives_the_serial_table(tmp_path):
    distributed = pytest.importorskip(
        "dask.distributed", reason="dask.distributed is not installed (pip install 'benchtrust[dask]')"
    )
    serial = make_study().run(6, seed=0)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        path = tmp_path / "runs.jsonl"
        runs = make_study(backend="dask", n_jobs=-1, results=path).run(6, seed=0)
    assert runs.rows == serial.rows
    assert len(path.read_text().splitlines()) == 6


# ------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"data_size": 0}, "data_size"),
        ({"data_size": 1}, "data_size"),
        ({"data_size": 10, "labels": [0, 1]}, "data_size, labels"),
        ({"data_size": None}, "data_size, labels"),
        ({"sources": ("init",)}, "sources"),
        ({"sources": ("split", "split")}, "sources"),
        ({"sources": ("split", "search")}, "sources"),
        ({"sources": ("split", 3)}, "sources"),
        ({"search": 3}, "search"),
        ({"hyperparameters": [1]}, "hyperparameters"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"backend": 3}, "backend"),
        ({"labels": [[0, 1]], "data_size": None}, "labels"),
    ],
)
def test_bad_study_arguments_raise_input_error_naming_them(kwargs, argument):
    with pytest.raises(InputError, match=f"^{argument}:"):
        make_study(**kwargs)


def test_fit_and_score_must_be_callable():
    with pytest.raises(InputError, match=r"^fit_and_score:"):
        Study(3, data_size=10)


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"runs": 0, "seed": 0}, "runs"),
        ({"runs": 2.5, "seed": 0}, "runs"),
        ({"runs": 2, "seed": -1}, "seed"),
        ({"runs": 2, "seed": "a"}, "seed"),
        ({"runs": 2, "seed": 0, "fixed": ("dropout",)}, "fixed"),
        ({"runs": 2, "seed": 0, "fixed": 3}, "fixed"),
    ],
)
def test_bad_run_arguments_raise_input_error_naming_them(kwargs, argument):
    with pytest.raises(InputError, match=f"^{argument}:"):
        make_study().run(**kwargs)


@pytest.mark.parametrize(
    ("make", "argument"),
    [
        (lambda: RandomSearch({}, trials=3), "space"),
        (lambda: RandomSearch({"lr": (1.0, 0.0)}, trials=3), r"space\['lr'\]"),
        (lambda: RandomSearch({"lr": (0.0, 1.0, "log")}, trials=3), r"space\['lr'\]"),
        (lambda: RandomSearch({"lr": (0.0, 1.0, "exp")}, trials=3), r"space\['lr'\]"),
        (lambda: RandomSearch({"lr": ("a", 1.0)}, trials=3), r"space\['lr'\]"),
        (lambda: RandomSearch({"lr": (0.0, 1.0)}, trials=0), "trials"),
        (lambda: NoisyGridSearch({"lr": (0.0, 1.0)}, points=1), "points"),
    ],
)
def test_bad_search_arguments_raise_input_error_naming_them(make, argument):
    with pytest.raises(InputError, match=f"^{argument}:"):
        make()


def test_non_numeric_score_raises_input_error():
    study = Study(lambda train, test, hyperparameters, seeds: "high", data_size=10, sources=("split",))
    with pytest.raises(InputError, match=r"^fit_and_score:"):
        study.run(1, seed=0)


def test_search_function_must_return_a_dict():
    study = make_study(search=lambda evaluate, rng: 0.3)
    with pytest.raises(InputError, match=r"^search:"):
        study.run(1, seed=0)


def test_replay_needs_a_run_of_this_study():
    study = make_study()
    with pytest.raises(InputError, match=r"^run:"):
        study.replay({"score": 1})
    other = Study(linear_pipeline, data_size=300, sources=("split", "init", "order", "dropout"))
    with pytest.raises(InputError, match=r"^run:.*'dropout'"):
        other.replay(study.run(1, seed=0)[0])


def test_results_path_must_not_be_a_folder(tmp_path):
    with pytest.raises(InputError, match=r"^results:"):
        make_study(results=tmp_path)
