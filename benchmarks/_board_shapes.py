"""Accuracy boards of many shapes, written as Kaggle prints them (issue 33 item 2): a generator.

A shape is the number of teams, the test size n, how the teams' true accuracies spread (``spread``: the
width of the band of most teams below the best), the share of teams in a low tail (``tail``: baselines
and broken submissions, as the sample-submission rows of Titanic or Cassava's near-chance teams) and the
decimals printed. Each team's score is its count of right answers Bin(n, accuracy) over n, truncated to
the decimals (Kaggle truncates). The band follows a Beta(8, 2) below the top, the shape of the real
Titanic (2019-11-22) and Cassava boards shipped in ``src/benchtrust/data``: most teams bunched a little
below the best, a thinning tail towards chance.

Run: .venv/bin/python benchmarks/_board_shapes.py TEAMS N [--spread S --tail T --places D --seed S] > b.csv
(the shapes of SHAPES are timed by ``bench_scale.py --shapes``).
"""

from __future__ import annotations

import sys

import numpy as np

#: The best true accuracy of every shape.
TOP = 0.95


def accuracies(teams, *, spread=0.5, tail=0.0, seed=0):
    """True accuracies of ``teams`` teams: a Beta(8, 2) band of width ``spread`` below TOP, and a share
    ``tail`` of them uniform between chance (0.5) and the band's bottom."""
    rng = np.random.default_rng(seed)
    skill = TOP - spread + spread * rng.beta(8, 2, teams)
    low = rng.uniform(size=teams) < tail
    skill[low] = rng.uniform(0.5, max(TOP - spread, 0.5), int(low.sum()))
    return skill


def board(teams, test_size, *, spread=0.5, tail=0.0, places=4, seed=0):
    """A board's CSV text (TeamId,Score): scores k/test_size truncated to ``places`` decimals."""
    rng = np.random.default_rng(seed + 1)
    right = rng.binomial(test_size, accuracies(teams, spread=spread, tail=tail, seed=seed))
    scale = 10**places
    score = np.floor(right * scale / test_size) / scale
    return "TeamId,Score\n" + "".join(f"{t},{value:.{places}f}\n" for t, value in enumerate(score))


#: (teams, test size, spread, tail, decimals) of the shapes timed by ``bench_scale.py --shapes`` (issue 33
#: item 2: any accuracy board in under 10 s and 1 GB, from 10 to 10^6 teams and n up to 10^7). At
#: n = 10,000 the pooled cdf scans deepest with few teams; from n = 15,000 on the dependent model is
#: computed on a lattice of counts (``sota._characteristic``).
SHAPES = (
    (10, 10_000, 0.5, 0.0, 4),
    (100, 10_000, 0.5, 0.0, 4),
    (300, 10_000, 0.5, 0.0, 4),
    (1_000, 10_000, 0.5, 0.0, 4),
    (3_000, 10_000, 0.5, 0.0, 4),
    (10, 20_000, 0.5, 0.0, 4),
    (300, 20_000, 0.5, 0.0, 4),
    (10_000, 20_000, 0.5, 0.0, 4),
    (300, 49_999, 0.5, 0.0, 4),
    (3_000, 49_999, 0.5, 0.0, 4),
    (300, 100_000, 0.5, 0.0, 4),
    (1_000, 100_000, 0.1, 0.3, 5),
    (1_524, 451_552, 0.5, 0.0, 6),
    (300, 1_000_000, 0.5, 0.0, 6),
    (100_000, 1_000_000, 0.5, 0.1, 6),
    (10, 10_000_000, 0.5, 0.0, 7),
    (3_000, 10_000_000, 0.05, 0.0, 7),
    (1_000_000, 10_000_000, 0.5, 0.0, 4),
)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("teams", type=int)
    parser.add_argument("test_size", type=int)
    parser.add_argument("--spread", type=float, default=0.5)
    parser.add_argument("--tail", type=float, default=0.0)
    parser.add_argument("--places", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    a = parser.parse_args()
    sys.stdout.write(board(a.teams, a.test_size, spread=a.spread, tail=a.tail, places=a.places, seed=a.seed))
