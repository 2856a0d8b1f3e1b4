"""The bundled multi-task data, read once per test session for the analyses over many tasks."""

import pytest

from benchtrust.compare import bundled_task_scores


@pytest.fixture(scope="session")
def atari_runs():
    """The Atari 100k runs of Agarwal et al. (2021), human-normalised: 7 agents × 26 games."""
    return bundled_task_scores("atari100k")


@pytest.fixture(scope="session")
def uci_runs():
    """The UCI accuracies (percent) of Benavoli et al. (2017): 5 classifiers × 54 data sets × 100 folds."""
    return bundled_task_scores("uci")
