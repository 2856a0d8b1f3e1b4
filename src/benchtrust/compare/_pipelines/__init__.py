"""Is pipeline A better than pipeline B, given all the sources of variance? (Bouthillier et al., 2021).

The analyses of two (or several) learning pipelines run many times with their sources of variance
randomised (data splits, seeds, hyperparameter search): P(A > B) with its exact bootstrap interval and the
paper's decision (:mod:`._outperform`), the criteria it is compared with and their error rates
(:mod:`._criteria`, :mod:`._error_rates`), several pipelines over several data sets (:mod:`._datasets`),
published improvements against the noise of the test set (:mod:`._history`), the study harness and the
estimators of each source's variance (:mod:`._study`, :mod:`._estimators`) and the worked example on
scikit-learn (:mod:`._example`), with their words (:mod:`._text`, :mod:`._datasets_text`,
:mod:`._study_text`). Each result describes itself once, in its ``describe()``
(:class:`benchtrust._result.Description`): its text, its section (the question and the paper of
:mod:`._text`) and its data. :func:`._outperform.direction_of` reads the direction of the scores every
function takes (``direction``, or the deprecated ``lower_is_better``).

The public names are re-exported by :mod:`benchtrust.compare`. This family never imports the one over many
tasks (:mod:`benchtrust.compare._tasks`), which builds on it.

References
----------
X. Bouthillier, P. Delaunay, M. Bronzi, A. Trofimov, B. Nichyporuk, J. Szeto, N. Sepah, E. Raff, K. Madan,
V. Voleti, S. E. Kahou, V. Michalski, D. Serdyuk, T. Arbel, C. Pal, G. Varoquaux and P. Vincent,
"Accounting for variance in machine learning benchmarks", Proceedings of Machine Learning and Systems 3
(MLSys 2021), arXiv:2103.03098.
"""
