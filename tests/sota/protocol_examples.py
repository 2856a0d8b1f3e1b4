"""One small example of every public result of ``benchtrust.sota``, for ``tests/test_protocol.py``.

The best of m accuracies read from a file (its ``inputs`` named in the text), and a leaderboard of twenty
named teams given as a DataFrame (its top teams in the section).
"""

import dataclasses

import pandas as pd

from benchtrust.sota import best_of, leaderboard

#: Twenty teams on 500 items: the top is within the luck of the others.
TWENTY = [0.862, 0.858, 0.856, 0.854, 0.85, 0.85, 0.848, 0.846, 0.844, 0.84]
TWENTY += [0.838, 0.836, 0.83, 0.828, 0.82, 0.81, 0.8, 0.79, 0.75, 0.7]

EXAMPLES = {
    "BestOfResult": lambda: dataclasses.replace(
        best_of([0.875, 0.88, 0.9], test_size=300, correlation=0.6), inputs=("accuracies.csv",)
    ),
    "LeaderboardResult": lambda: leaderboard(
        pd.DataFrame({"team": [f"team {k}" for k in range(20)], "score": TWENTY}),
        test_size=500,
        direction="higher",
        correlation=0,
    ),
}
