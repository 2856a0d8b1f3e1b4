"""Whether integer counts exist that give the reported scores: the solver machinery of the checks.

The checks (:mod:`benchtrust.consistency`) state their problems in integers; this folder decides them,
exactly:

* :mod:`._linear_counts`: the confusion matrices of one test set whose scores' intervals are linear
  inequalities, counted and listed exactly (paper §3);
* :mod:`._mean_of_scores`: a mean of scores over several evaluation sets (paper §4.3, Eq. 8-10), with
  :mod:`._mean_constraints` (what the per-set counts must give, checked exactly),
  :mod:`._mean_relaxation` (the real relaxation, decided exactly, and a witness by rounding),
  :mod:`._state_search` (the exact dynamic programme over the sets) and :mod:`._highs` (HiGHS through
  :func:`scipy.optimize.milp` for problems too large for the search, its solutions checked exactly, its
  printed output kept off the standard output);
* :mod:`._integer_problems`: many problems of the same shape at once (the fold configurations of §4.4.3);
* :mod:`._fold_search`: the search of fold configurations (paper §4.3-4.4);
* :mod:`._macro_witness`: fast answers for a macro mean over folds before the integer program.

References
----------
G. Fazekas and G. Kovács, "Testing the consistency of performance scores reported for binary
classification problems", arXiv:2310.12527 (2023), §3-4.
"""
