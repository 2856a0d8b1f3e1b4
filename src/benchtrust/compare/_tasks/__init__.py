"""How do several methods compare over many tasks, given the variance of their runs?

The analyses of a long table of scores (method, task, run, score; the direction declared), read by
:mod:`._scores`: which analysis fits (:mod:`._chooser`); aggregate performance, performance profiles and
probabilities of improvement with stratified bootstrap intervals (:mod:`._aggregate`, :mod:`._profiles`,
:mod:`._improvement`, :mod:`._pair_bootstrap`; Agarwal et al. 2021); mean ranks, the Friedman test and
the critical-difference diagram (:mod:`._ranks`, :mod:`._rank_plot`; Demšar 2006); the Bayesian
correlated t-test and signed-rank test (:mod:`._correlated_t`, :mod:`._signed_rank`, :mod:`._bayes`;
Benavoli et al. 2017); effect sizes (:mod:`._effect`, :mod:`._effect_stats`); and almost stochastic
order (:mod:`._aso`; Dror et al. 2019, as deepsig).

The public names are re-exported by :mod:`benchtrust.compare`. This family builds on the one of two
pipelines (:mod:`benchtrust.compare._pipelines`: P(A > B), Holm's procedure), never the other way round.

References
----------
R. Agarwal, M. Schwarzer, P. S. Castro, A. Courville and M. G. Bellemare, "Deep reinforcement learning at
the edge of the statistical precipice", NeurIPS 2021, arXiv:2108.13264.

J. Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine Learning
Research 7 (2006), 1-30.

A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a change: a tutorial for comparing multiple
classifiers through Bayesian analysis", Journal of Machine Learning Research 18(77) (2017), 1-36.
"""
