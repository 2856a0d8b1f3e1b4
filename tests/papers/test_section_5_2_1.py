"""§5.2.1 of Møllersen & Holsbø: the best AUC of m = 1000 independent classifiers, true AUC 0.90.

n = 3000 test items, 52 of them positive (the class balance of the Melanoma challenge), binormal scores
with μ- = 0, σ- = σ+ = 1. The paper simulates 10,000 competitions and prints E = 0.9562, SD = 0.004459,
95 % interval (0.9486, 0.9662), and the 95 % interval (0.8558, 0.9376) of a single classifier's AUC.

The best of m is recomputed from the tabulated distribution of one classifier's AUC (benchtrust's
default: exact over the 52 positives, 256 Latin-hypercube replicates of the negatives; its seed-to-seed
SD of E is about 5e-5, measured in benchmarks/bench_auc.py, taken here as at most 1e-4); the single
classifier's interval by direct simulation. The tolerances combine that error with the Monte Carlo error
of the paper's own 10,000 repetitions and its rounding to the printed decimals.
"""

import math

import pytest

from benchtrust.sota._auc import best_of_auc

M, N, POSITIVES, AUC = 1000, 3000, 52, 0.90
#: Our error in E(best): the table's seed-to-seed SD, bounded.
TABLE_SE = 1e-4
#: The paper's repetitions and printed SD, for the Monte Carlo error of its own numbers.
PAPER_REPETITIONS, PAPER_SD = 10_000, 0.004459


@pytest.fixture(scope="module")
def best():
    return best_of_auc(AUC, classifiers=M, test_size=N, positives=POSITIVES, seed=5)


def test_section_5_2_1_expected_best_auc(best):
    """E(max AUC) = 0.9562: within its rounding (±0.00005) plus three combined errors (about ±0.00038)."""
    combined_se = math.sqrt(TABLE_SE**2 + PAPER_SD**2 / PAPER_REPETITIONS)
    assert abs(best.expected_max - 0.9562) < 0.00005 + 3 * combined_se, best.expected_max


def test_section_5_2_1_sd_of_best_auc(best):
    """SD(max AUC) = 0.004459: the paper's SD has a Monte Carlo SE of about SD / sqrt(2 R) = 3.2e-5, so
    ± 0.00012 is about three of them (plus ours, far smaller)."""
    assert abs(best.sd_max - 0.004459) < 0.00012, best.sd_max


def test_section_5_2_1_interval_of_best_auc(best):
    """95 % interval (0.9486, 0.9662), each limit ± 0.0005.

    The paper's Monte Carlo SE of the upper limit (the 97.5 % quantile of a right-skewed distribution) is
    about 0.0002, of the lower about 0.0001; ± 0.0005 is 2.5 of the larger plus the rounding.
    """
    low, high = best.ci
    assert abs(low - 0.9486) < 0.0005, low
    assert abs(high - 0.9662) < 0.0005, high
    assert best.metric == "auc" and best.model == "independent, identical (binormal)"
    assert (best.classifiers, best.test_size, best.positives) == (M, N, POSITIVES)
    assert best.method.startswith("exact over the positives")


def test_section_5_2_1_interval_of_one_classifier():
    """A single classifier with true AUC 0.90: 95 % interval (0.8558, 0.9376), each limit ± 0.001.

    With 200,000 draws the SEs of the 2.5 % and 97.5 % quantiles are about 0.0002 and 0.0001.
    """
    one = best_of_auc(AUC, classifiers=1, test_size=N, positives=POSITIVES, simulations=200_000, seed=7)
    low, high = one.ci
    assert abs(low - 0.8558) < 0.001, low
    assert abs(high - 0.9376) < 0.001, high
    assert abs(one.expected_max - AUC) < 0.0002  # E(AUC-hat) = AUC exactly; SE 0.00005
