"""The bundled multi-task data, read once per test session for the analyses over many tasks."""

import pytest

from benchtrust.compare import bundled_results, read_task_scores


@pytest.fixture(scope="session")
def atari_runs():
    """The Atari 100k runs of Agarwal et al. (2021), human-normalised: 7 agents × 26 games."""
    return read_task_scores(
        bundled_results("atari100k"),
        direction="higher",
        method_column="algorithm",
        task_column="game",
        normalise="reference",
        reference=bundled_results("atari_reference"),
    )


@pytest.fixture(scope="session")
def uci_runs():
    """The UCI accuracies (percent) of Benavoli et al. (2017): 5 classifiers × 54 data sets × 100 folds."""
    return read_task_scores(
        bundled_results("uci"),
        direction="higher",
        method_column="classifier",
        task_column="dataset_index",
        run_column="score_index",
        score_column="accuracy_percent",
    )
