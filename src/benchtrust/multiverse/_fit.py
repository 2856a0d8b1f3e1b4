"""How well an unfolding fits, and how far one choice moves an ideal point (Nießl et al. 2022, §4.2, Fig. 5
and the supplement's "Goodness-of-fit unfolding solutions").

The paper judges its unfolding of the 288 x 13 rank matrix (Fig. 4) following Mair, Borg & Rusch (2016):
a permutation test (p < 0.001 for all three of its unfolding models), scree plots and stress per point.
:func:`permutation_test` is the first; stress per point is ``UnfoldingResult.row_stress`` and
``UnfoldingResult.column_stress``. :func:`congruence` adds a per-row measure of fit on a 0-1 scale that the
paper does not use. :func:`default_distances` gives the distances the paper's Fig. 5 summarises as box
plots: between the ideal point of each combination with an alternative option of one choice and the ideal
point of the combination that takes the default option there and agrees in every other choice.

Mair, P., Borg, I. & Rusch, T. (2016). Goodness-of-fit assessment in multidimensional scaling and
unfolding. Multivariate Behavioral Research 51, 772-789.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal

import numpy as np

from benchtrust._io import InputError, Seed, check_seed
from benchtrust._result import Description, Result
from benchtrust.multiverse import _text
from benchtrust.multiverse._data import file_names, read_frame
from benchtrust.multiverse._unfolding import (
    UnfoldingResult,
    _check_matrix,
    _is_whole,
    check_options,
    unfold,
)

if TYPE_CHECKING:
    from typing import Protocol

    import pandas as pd
    from numpy.typing import ArrayLike

    class _Combinations(Protocol):
        """What :func:`default_distances` reads of a multiverse: one row per combination and one column per
        choice, and each choice's default option (a :class:`MultiverseResult`, or any such object)."""

        @property
        def combinations(self) -> pd.DataFrame: ...

        @property
        def defaults(self) -> Mapping[str, object]: ...


__all__ = [
    "PermutationTestResult",
    "congruence",
    "default_distance_summary",
    "default_distances",
    "permutation_test",
]

#: The options of :func:`~benchtrust.multiverse.unfold` a permutation test passes on, with their defaults.
_UNFOLD_OPTIONS = {
    "dimensions": 2,
    "conditionality": "unconditional",
    "penalty_strength": 0.5,
    "penalty_range": 1.0,
    "transformation": "ordinal",
    "ties": "primary",
    "tolerance": 1e-6,
    "max_iterations": 10_000,
}

#: The options an :class:`UnfoldingResult` records, so a permutation test can take them from a given fit.
_RECORDED = ("dimensions", "conditionality", "penalty_strength", "penalty_range", "transformation", "ties")

#: Most refits sent to a worker at once: enough to outweigh the cost of sending a task, few enough that
#: every worker gets several chunks and the progress callback is called often.
_CHUNK = 25

#: The p-value at or below which the verdict says the configuration reflects structure (Mair et al. 2016
#: test at the 5 % level).
_LEVEL = 0.05

#: Columns of :func:`default_distances` besides one per choice.
_DISTANCE_COLUMNS = ("choice", "default", "option", "row", "default_row", "distance")


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class PermutationTestResult(Result):
    """A permutation test of an unfolding's stress (Mair, Borg & Rusch 2016; Nießl et al. 2022, supplement).

    Attributes
    ----------
    stress : float
        Stress-1 of the fit to the data (``UnfoldingResult.stress``).
    permuted_stresses : numpy.ndarray
        Stress-1 of each refit to data whose values were permuted within each row, in the order of the
        permutations.
    p_value : float
        The share of permuted stresses at or below the observed one. 0 when none is: the p-value is then
        below 1 / `permutations`, which :attr:`p_value_text` says.
    at_or_below : int
        How many permuted stresses are at or below the observed one.
    permutations : int
        The number of refits.
    seed : int or None
        The seed of the permutations (the entropy drawn when none was given); None when a
        ``numpy.random.Generator`` was given.
    not_converged : int
        How many refits stopped at ``max_iterations`` before converging.
    options : dict
        The :func:`~benchtrust.multiverse.unfold` options of the fit and of every refit.

    See Also
    --------
    permutation_test : Test an unfolding's stress against refits on permuted data.
    unfold : Non-metric unfolding by penalised stress.
    UnfoldingResult : A fitted unfolding: points, disparities, stress.
    congruence : Each row's congruence between its disparities and its distances.

    References
    ----------
    .. [1] P. Mair, I. Borg and T. Rusch, "Goodness-of-fit assessment in multidimensional scaling and
       unfolding", Multivariate Behavioral Research 51(6), 772-789, 2016. doi:10.1080/00273171.2016.1235966.
       The permutation test of an unfolding.
    .. [2] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2 and
       supplement, "Goodness-of-fit unfolding solutions" (p < 0.001 for each of its three unfolding models).
    """

    stress: float
    permuted_stresses: np.ndarray
    p_value: float
    at_or_below: int
    permutations: int
    seed: int | None
    not_converged: int
    options: Mapping[str, object]

    @property
    def p_value_text(self) -> str:
        """The p-value in words: ``"p = 0.012"``, or ``"p < 0.002"`` when no permuted stress is as low."""
        if self.at_or_below == 0:
            return f"p < {1 / self.permutations:.3g}"
        return f"p = {self.p_value:.3g}"

    @property
    def significant(self) -> bool:
        """Whether the p-value is surely at most 0.05: the configuration reflects structure, not chance.

        When no refit is as good as the fit, the p-value is only known to be below 1 / `permutations`:
        that is significant from 20 refits on, not with fewer.
        """
        return self.p_bound <= _LEVEL

    @property
    def p_bound(self) -> float:
        """The largest the p-value can be: :attr:`p_value`, or 1 / `permutations` when it is 0."""
        return self.p_value if self.at_or_below else 1 / self.permutations

    @property
    def verdict(self) -> str:
        """The result in one sentence."""
        stress, n = f"stress {self.stress:.3f}", self.permutations
        refits = (
            f"{n} refit{'s' if n != 1 else ''} on within-row permuted dissimilarities ({self.p_value_text})"
        )
        if self.at_or_below == 0:
            every = "all" if n > 1 else "the"
            if not self.significant:
                return (
                    f"{stress} is lower than {every} {refits}, but so few refits cannot show a p-value "
                    f"below {_LEVEL:g}: run at least {math.ceil(1 / _LEVEL)}"
                )
            return (
                f"{stress} is lower than {every} {refits}: the configuration reflects structure, not chance"
            )
        head = f"{stress} is matched or beaten by {self.at_or_below} of {refits}"
        if self.significant:
            return f"{head}: the configuration likely reflects structure"
        return f"{head}: the configuration cannot be told apart from one fitted to noise"

    def summary(self) -> dict[str, float]:
        """Smallest, 5th-percentile, median and largest permuted stress."""
        low, p5, median, high = np.quantile(self.permuted_stresses, [0.0, 0.05, 0.5, 1.0])
        return {"min": float(low), "p5": float(p5), "median": float(median), "max": float(high)}

    def describe(self) -> Description:
        """The verdict and the spread of the permuted stresses (the text); the observed and permuted
        stresses, the count at or below, the p-value and the refits not converged (the section); every
        field, the p-value in words, whether it is significant and the verdict (the data); one row per
        permutation: ``permutation`` (1-based), ``stress`` and ``at_or_below`` (the frame)."""
        s = self.summary()
        seed = "a generator" if self.seed is None else str(self.seed)
        return Description(
            question="Does the unfolding reflect structure, or chance? (permutation test)",
            verdict=f"{self.verdict}.",
            text=(
                f"{self.verdict}.\n"
                f"Permuted stresses: min {s['min']:.3f}, 5th percentile {s['p5']:.3f}, median "
                f"{s['median']:.3f}, max {s['max']:.3f} ({self.permutations} refits, seed {seed}; "
                f"{self.not_converged} did not converge)."
            ),
            data={
                "stress": self.stress,
                "permuted_stresses": self.permuted_stresses,
                "p_value": self.p_value,
                "p_value_text": self.p_value_text,
                "at_or_below": self.at_or_below,
                "permutations": self.permutations,
                "seed": self.seed,
                "not_converged": self.not_converged,
                "options": dict(self.options),
                "significant": self.significant,
                "verdict": self.verdict,
            },
            columns=("", "value"),
            rows=(
                ("observed stress (stress-1)", f"{self.stress:.4f}"),
                (
                    "permuted stresses: min / 5th percentile / median / max",
                    "{min:.4f} / {p5:.4f} / {median:.4f} / {max:.4f}".format(**s),
                ),
                ("refits at or below the observed stress", f"{self.at_or_below} of {self.permutations}"),
                ("p-value", self.p_value_text),
                ("refits not converged", str(self.not_converged)),
            ),
            frame={
                "permutation": np.arange(1, self.permutations + 1),
                "stress": self.permuted_stresses,
                "at_or_below": self.permuted_stresses <= self.stress,
            },
            assumptions=(
                ("seed", seed),
                ("unfolding", ", ".join(f"{k} = {v}" for k, v in self.options.items())),
            ),
            source=(
                "Nießl et al. 2022, supplement \N{LEFT DOUBLE QUOTATION MARK}Goodness-of-fit unfolding "
                "solutions\N{RIGHT DOUBLE QUOTATION MARK}; Mair, Borg & Rusch 2016"
            ),
            inputs=self.inputs,
            analysis=_text.ANALYSIS,
        )

    def __repr__(self) -> str:
        return (
            f"PermutationTestResult(stress={self.stress:.4f}, {self.p_value_text}, "
            f"at_or_below={self.at_or_below}, permutations={self.permutations}, seed={self.seed})"
        )


def permutation_test(
    dissimilarities: ArrayLike | pd.DataFrame | str | os.PathLike[str],
    *,
    permutations: int = 500,
    seed: Seed = 0,
    n_jobs: int | None = None,
    progress: Callable[[int], object] | None = None,
    fitted: UnfoldingResult | None = None,
    **unfold_options: float | str,
) -> PermutationTestResult:
    """Test whether an unfolding's stress is lower than that of unfoldings of permuted data.

    The goodness-of-fit check of Nießl et al. (2022, supplement "Goodness-of-fit unfolding solutions"),
    after Mair, Borg & Rusch (2016): under the null hypothesis the data are a random permutation of the
    dissimilarities, with no structure for a configuration to represent. The data are unfolded once (or
    `fitted` is taken as that fit), then each of `permutations` matrices whose values are permuted
    independently within each row (each subject's preferences shuffled, so each row keeps its values) is
    unfolded with the same options. The p-value is the share of permuted stresses at or below the
    observed one (stress-1, ``UnfoldingResult.stress``); when none is, it is reported as
    p < 1 / permutations.
    The paper reports p < 0.001 for each of its three unfolding models; its analysis ran 500 refits
    (reference code, ``permtest(..., nrep = 500)``), so none of them was at or below the observed stress.

    Parameters
    ----------
    dissimilarities : array_like, pandas.DataFrame, str or os.PathLike
        The n x m dissimilarities that were (or are to be) unfolded, such as ``MultiverseResult.ranks``; a
        path is read as :func:`~benchtrust.multiverse.unfold` reads it.
    permutations : int
        The number of refits on permuted data (a p-value below 0.001 needs at least 1000).
    seed : int, numpy.random.Generator or None
        Seed of the permutations. Each permutation gets its own child of ``numpy.random.default_rng(seed)``'s
        seed sequence (``SeedSequence.spawn``), so the result does not depend on `n_jobs`.
    n_jobs : int, optional
        Refits run in parallel, as in :class:`joblib.Parallel`; None or -1: one per CPU, 1: in this
        process. Refits go to the workers in chunks.
    progress : callable, optional
        Called as ``progress(done)`` with the number of refits done so far: with 0 first, then after each
        chunk (so ``done`` may grow by more than one); the last call has ``done == permutations``.
    fitted : UnfoldingResult, optional
        The fit of `dissimilarities`, if already computed; its dimensions, conditionality, penalty strength
        and penalty range are used for the refits. Pass the tolerance and the iteration limit it was fitted
        with in `unfold_options` if they were not the defaults (an UnfoldingResult does not record them).
    **unfold_options
        Options of :func:`~benchtrust.multiverse.unfold`: ``dimensions``, ``conditionality``,
        ``penalty_strength``, ``penalty_range``, ``tolerance``, ``max_iterations``.

    Returns
    -------
    PermutationTestResult
        Its ``inputs`` are `dissimilarities` when it names a file.

    Raises
    ------
    InputError
        Naming the argument: invalid dissimilarities or unfold options, `permutations` not a positive whole
        number, `seed` not an int, Generator or None, `n_jobs` 0 or not a whole number, `progress` not
        callable, `fitted` not an UnfoldingResult or of another shape, or an unfold option that contradicts
        it.

    See Also
    --------
    PermutationTestResult : A permutation test of an unfolding's stress.
    unfold : Non-metric unfolding by penalised stress.
    UnfoldingResult : A fitted unfolding: points, disparities, stress.
    congruence : Each row's congruence between its disparities and its distances.

    References
    ----------
    .. [1] P. Mair, I. Borg and T. Rusch, "Goodness-of-fit assessment in multidimensional scaling and
       unfolding", Multivariate Behavioral Research 51(6), 772-789, 2016. doi:10.1080/00273171.2016.1235966.
       The permutation test of an unfolding.
    .. [2] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2 and
       supplement, "Goodness-of-fit unfolding solutions" (p < 0.001 for each of its three unfolding models).

    Examples
    --------
    Thirty subjects rank eight objects by their distance in a plane: the configuration beats every refit
    on ranks shuffled within subjects.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> subjects, objects = rng.normal(size=(30, 2)), rng.normal(size=(8, 2))
    >>> distances = np.linalg.norm(subjects[:, None] - objects[None], axis=2)
    >>> ranks = distances.argsort(axis=1).argsort(axis=1) + 1  # 1 = the nearest object
    >>> result = permutation_test(ranks, permutations=20, seed=1, n_jobs=1)
    >>> result.at_or_below, result.p_value_text
    (0, 'p < 0.05')
    >>> print(result.verdict)  # doctest: +ELLIPSIS
    stress 0.0... is lower than all 20 refits on within-row permuted dissimilarities (p < 0.05): ...
    """
    delta = _check_matrix(dissimilarities)[0]
    options = _options(unfold_options, fitted, delta)
    if not _is_whole(permutations) or permutations < 1:
        raise InputError(f"permutations: expected a positive whole number, got {permutations!r}")
    permutations = int(permutations)
    if n_jobs is None:
        n_jobs = -1
    if not _is_whole(n_jobs) or n_jobs == 0:
        raise InputError(
            f"n_jobs: expected a non-zero whole number (-1: one per CPU) or None, got {n_jobs!r}"
        )
    if progress is not None and not callable(progress):
        raise InputError(
            f"progress: expected a callable progress(done) or None, got {type(progress).__name__}"
        )
    recorded, children = _children(seed, permutations)

    if fitted is None:
        fitted = unfold(delta, **options)
    observed = float(fitted.stress)

    from joblib import Parallel, delayed, effective_n_jobs

    workers = max(1, effective_n_jobs(n_jobs))
    size = max(1, min(_CHUNK, math.ceil(permutations / (4 * workers))))
    chunks = [children[start : start + size] for start in range(0, permutations, size)]
    tasks = (delayed(_refit)(delta, chunk, options) for chunk in chunks)
    stresses, converged = [], []
    if progress is not None:
        progress(0)  # the count shows from the start; the first chunks may take a while
    # A stop (Ctrl-C, SIGTERM) unwinds this loop: joblib then cancels the chunks not started and ends its
    # worker processes, so that it does not wait for the chunks under way.
    for chunk_stresses, chunk_converged in Parallel(n_jobs=n_jobs, return_as="generator")(tasks):
        stresses.append(chunk_stresses)
        converged.append(chunk_converged)
        if progress is not None:
            progress(sum(len(part) for part in stresses))
    permuted = np.concatenate(stresses)
    permuted.setflags(write=False)
    at_or_below = int(np.count_nonzero(permuted <= observed))
    return PermutationTestResult(
        stress=observed,
        permuted_stresses=permuted,
        p_value=at_or_below / permutations,
        at_or_below=at_or_below,
        permutations=permutations,
        seed=recorded,
        not_converged=int(np.count_nonzero(~np.concatenate(converged))),
        options=options,
        inputs=file_names(dissimilarities),
    )


def _options(given, fitted, delta):
    """The unfold options of the fit and the refits: the defaults, updated by `given` and by `fitted`."""
    unknown = sorted(set(given) - set(_UNFOLD_OPTIONS))
    if unknown:
        raise InputError(
            f"unfold_options: unknown option(s) {', '.join(map(repr, unknown))}; expected some of "
            f"{', '.join(_UNFOLD_OPTIONS)}"
        )
    options = {**_UNFOLD_OPTIONS, **given}
    if fitted is not None:
        if not isinstance(fitted, UnfoldingResult):
            raise InputError(
                f"fitted: expected an UnfoldingResult (from unfold), got {type(fitted).__name__}"
            )
        shape = (fitted.row_points.shape[0], fitted.column_points.shape[0])
        if shape != delta.shape:
            raise InputError(
                f"fitted: it was fitted to a {shape[0]} x {shape[1]} matrix, but dissimilarities is "
                f"{delta.shape[0]} x {delta.shape[1]}"
            )
        recorded = {
            "dimensions": fitted.row_points.shape[1],
            "conditionality": fitted.conditionality,
            "penalty_strength": fitted.penalty_strength,
            "penalty_range": fitted.penalty_range,
            "transformation": fitted.transformation,
            "ties": fitted.ties,
        }
        for name in _RECORDED:
            if name in given and given[name] != recorded[name]:
                raise InputError(
                    f"{name}: {given[name]!r} contradicts the fitted unfolding's {recorded[name]!r}; leave "
                    "it out to refit with the fitted options"
                )
        options.update(recorded)
    # The refits run in workers: check here, as unfold does, and as plain types for to_dict's JSON.
    return check_options(delta, **options)


def _children(seed, count):
    """(seed to record, `count` child SeedSequences of ``default_rng(seed)``); InputError for a bad seed."""
    if seed is None:
        sequence = np.random.SeedSequence()
        return int(sequence.entropy), sequence.spawn(count)
    if isinstance(seed, np.random.Generator):
        return None, seed.bit_generator.seed_seq.spawn(count)
    check_seed(seed)  # the one check of a seed: a non-negative int here
    return int(seed), np.random.default_rng(int(seed)).bit_generator.seed_seq.spawn(count)


def _refit(delta, seeds, options):
    """Stress-1 and convergence of the unfoldings of `delta` permuted within rows, one per seed (a worker)."""
    stresses = np.empty(len(seeds))
    converged = np.empty(len(seeds), dtype=bool)
    for k, child in enumerate(seeds):
        permuted = np.random.default_rng(child).permuted(delta, axis=1)
        fit = unfold(permuted, **options)
        stresses[k], converged[k] = fit.stress, fit.converged
    return stresses, converged


def congruence(fitted: UnfoldingResult) -> np.ndarray:
    """Each row's congruence coefficient between its disparities and its distances.

    For row i (a subject, here a combination of options),

        c_i = Σ_j γ_ij d_ij / √(Σ_j γ_ij² · Σ_j d_ij²),

    Tucker's congruence coefficient of the disparities γ and the fitted distances d: the cosine of the
    angle between the two vectors, 1 for distances proportional to the disparities, and (all entries
    being non-negative) between 0 and 1. It is the row's analogue of the stress-1 the unfolding reports:
    ‖γ_i - b d_i‖² / ‖γ_i‖² = 1 - c_i² at the row's best scale b of the distances.

    Nießl et al. (2022) do not use it: their per-combination check (supplement, Fig. S7, following Mair,
    Borg & Rusch 2016) is the stress per point, ``UnfoldingResult.row_stress``, a row's share of the misfit in
    percent, which grows with the row's size relative to the others; c_i is on the same 0-1 scale for every
    row. The paper reports no rank correlation between ranks and distances either.

    Parameters
    ----------
    fitted : UnfoldingResult
        A fit from :func:`~benchtrust.multiverse.unfold`.

    Returns
    -------
    numpy.ndarray
        Shape (n,): c_i for each row; NaN for a row whose disparities or distances are all 0.

    Raises
    ------
    InputError
        If `fitted` is not an UnfoldingResult.

    See Also
    --------
    unfold : Non-metric unfolding by penalised stress.
    UnfoldingResult : A fitted unfolding: points, disparities, stress.
    permutation_test : Test an unfolding's stress against refits on permuted data.
    PermutationTestResult : A permutation test of an unfolding's stress.

    References
    ----------
    .. [1] P. Mair, I. Borg and T. Rusch, "Goodness-of-fit assessment in multidimensional scaling and
       unfolding", Multivariate Behavioral Research 51(6), 772-789, 2016. doi:10.1080/00273171.2016.1235966.
       Stress per point, which congruence complements.
    .. [2] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. Supplement,
       Fig. S7-S9 (stress per point of its three unfolding models).

    Examples
    --------
    >>> from benchtrust.multiverse import unfold
    >>> fit = unfold([[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 1, 2], [4, 3, 2, 1], [1, 3, 2, 4]])
    >>> c = congruence(fit)
    >>> c.shape, bool(((c > 0.9) & (c <= 1)).all())
    ((5,), True)
    """
    if not isinstance(fitted, UnfoldingResult):
        raise InputError(f"fitted: expected an UnfoldingResult (from unfold), got {type(fitted).__name__}")
    gamma, d = np.asarray(fitted.disparities), np.asarray(fitted.distances)
    numerator = (gamma * d).sum(axis=1)
    denominator = np.sqrt((gamma**2).sum(axis=1) * (d**2).sum(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / denominator, np.nan)


def default_distances(multiverse: _Combinations, fitted: UnfoldingResult | ArrayLike) -> pd.DataFrame:
    """The distances the paper's Fig. 5 summarises: how far one alternative option moves an ideal point.

    For each choice, and each combination whose option of that choice is not the default, the Euclidean
    distance between its ideal point and the ideal point of the combination that takes the default option
    of that choice and the same option of every other choice (Nießl et al. 2022, §4.2, Fig. 5: "distances
    between ideal points of combinations that represent default and alternative options of one specific
    choice (given that the other three choices remain the same)"). These are the grey lines of Fig. 4; the
    larger the distance, the more the ranking changes when the alternative option replaces the default.
    Pairs of two alternative options are not compared, as in the paper.

    Parameters
    ----------
    multiverse : MultiverseResult
        The rankings (from :func:`~benchtrust.multiverse.rankings`), or any object with ``combinations``
        (a DataFrame, one row per combination and one column per choice, compared as strings) and
        ``defaults`` (choice → default option).
    fitted : UnfoldingResult or array_like
        The unfolding of ``multiverse.ranks``, or its ideal points (one row per combination, in the order
        of ``multiverse.combinations``, any number of dimensions).

    Returns
    -------
    pandas.DataFrame
        One row per (choice, combination with an alternative option of it), grouped by choice in the order
        of the choices, then by option in order of appearance, then in the order of the combinations.
        Columns: ``choice``, ``default`` (the choice's default option), ``option`` (the alternative), one
        column per choice with the combination's options, ``row`` and ``default_row`` (the positions of the
        combination and of its default partner among the combinations) and ``distance``. A combination
        whose default partner is not among the combinations is left out.

    Raises
    ------
    InputError
        If `multiverse` lacks combinations or defaults, a default option does not occur, two combinations
        are the same, a choice is named like one of the other columns, or the ideal points are not a
        finite matrix with one row per combination.

    See Also
    --------
    default_distance_summary : Count, quartiles and range of those distances.
    plot_default_distances : Draw those distances as box plots (Fig. 5).
    unfold : Non-metric unfolding by penalised stress.
    plot_unfolding : Draw an unfolding coloured by the options of each choice (Fig. 4).
    impact : Compare the rankings of combinations that differ in one choice only.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 4 (the
       grey lines) and Fig. 5 (their lengths as box plots).

    Examples
    --------
    >>> import itertools
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> combos = pd.DataFrame(list(itertools.product(["ibrier", "cindex"], ["mean", "median"])),
    ...                       columns=["measure", "aggregation"])
    >>> toy = SimpleNamespace(combinations=combos, defaults={"measure": "ibrier", "aggregation": "mean"})
    >>> points = [[0, 0], [0, 1], [3, 0], [3, 5]]
    >>> default_distances(toy, points)[["choice", "option", "measure", "aggregation", "distance"]]
            choice  option measure aggregation  distance
    0      measure  cindex  cindex        mean       3.0
    1      measure  cindex  cindex      median       5.0
    2  aggregation  median  ibrier      median       1.0
    3  aggregation  median  cindex      median       5.0
    """
    import pandas as pd

    combinations, defaults = _multiverse_parts(multiverse)
    X = _ideal_points(fitted, len(combinations))
    choices = list(combinations.columns)
    clash = sorted(set(map(str, choices)) & set(_DISTANCE_COLUMNS))
    if clash:
        raise InputError(
            f"multiverse: choice(s) named {', '.join(map(repr, clash))} clash with the columns of the "
            f"distance table ({', '.join(_DISTANCE_COLUMNS)}); rename them"
        )
    strings = combinations.astype(str)
    codes = np.column_stack([pd.factorize(strings[c])[0] for c in choices])
    if len(np.unique(codes, axis=0)) != len(codes):
        raise InputError("multiverse: two combinations have the same option of every choice")

    parts = []
    for k, choice in enumerate(choices):
        levels = list(pd.unique(strings[choice]))
        default = str(defaults[choice])
        if default not in levels:
            raise InputError(
                f"multiverse: the default option {default!r} of {choice!r} is not among its options "
                f"({', '.join(levels[:10])}{' ...' if len(levels) > 10 else ''})"
            )
        others = np.delete(codes, k, axis=1)
        group = (
            np.unique(others, axis=0, return_inverse=True)[1].ravel()
            if others.shape[1]
            else np.zeros(len(codes), int)
        )
        is_default = codes[:, k] == levels.index(default)
        partner_of_group = np.full(group.max() + 1, -1)
        partner_of_group[group[is_default]] = np.flatnonzero(is_default)
        rows = np.flatnonzero(~is_default)
        partners = partner_of_group[group[rows]]
        keep = partners >= 0
        rows, partners = rows[keep], partners[keep]
        order = np.lexsort((rows, codes[rows, k]))  # by option in order of appearance, then by row
        rows, partners = rows[order], partners[order]
        part = strings.iloc[rows].reset_index(drop=True)
        part.insert(0, "option", strings[choice].to_numpy()[rows])
        part.insert(0, "default", default)
        part.insert(0, "choice", str(choice))
        part["row"] = rows
        part["default_row"] = partners
        part["distance"] = np.linalg.norm(X[rows] - X[partners], axis=1)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def default_distance_summary(
    table: pd.DataFrame | str | os.PathLike[str], *, by: Literal["choice", "option"] = "choice"
) -> pd.DataFrame:
    """Count, quartiles and range of the distances of :func:`default_distances`, per choice or per option.

    The numbers behind the box plots of the paper's Fig. 5 (Nießl et al. 2022, §4.2): the paper draws one
    box per alternative option of each choice (``by="option"``); ``by="choice"`` pools a choice's
    alternatives. Quartiles interpolate linearly between order statistics (numpy's and R's default, as
    ggplot2's box plots use).

    Parameters
    ----------
    table : pandas.DataFrame, str or os.PathLike
        From :func:`default_distances` (needs ``choice``, ``option`` and ``distance``), or its CSV file
        (``default_distances.csv`` of :meth:`MultiverseStudyResult.write
        <benchtrust.multiverse.MultiverseStudyResult.write>`).
    by : {"choice", "option"}
        One row per choice, or per (choice, alternative option).

    Returns
    -------
    pandas.DataFrame
        Columns ``choice`` (and ``option``), ``count``, ``min``, ``q1``, ``median``, ``q3``, ``max``,
        ``mean``; in the order of `table`.

    Raises
    ------
    InputError
        If `table` is not such a table or `by` is neither "choice" nor "option".

    See Also
    --------
    default_distances : How far one alternative option moves an ideal point.
    plot_default_distances : Draw those distances as box plots (Fig. 5).
    impact : Compare the rankings of combinations that differ in one choice only.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 5 (the
       distances between ideal points of default and alternative options).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"choice": ["measure"] * 2 + ["aggregation"] * 3,
    ...                       "option": ["cindex"] * 2 + ["median", "median", "rank"],
    ...                       "distance": [3.0, 5.0, 1.0, 4.0, 0.0]})
    >>> default_distance_summary(table)
            choice  count  min   q1  median   q3  max      mean
    0      measure      2  3.0  3.5     4.0  4.5  5.0  4.000000
    1  aggregation      3  0.0  0.5     1.0  2.5  4.0  1.666667
    """
    table = distance_table(table)
    if by not in ("choice", "option"):
        raise InputError(f"by: expected 'choice' or 'option', got {by!r}")
    keys = ["choice"] if by == "choice" else ["choice", "option"]
    grouped = table.groupby(keys, sort=False)["distance"]
    summary = grouped.agg(
        count="count",
        min="min",
        q1=lambda x: x.quantile(0.25),
        median="median",
        q3=lambda x: x.quantile(0.75),
        max="max",
        mean="mean",
    )
    return summary.reset_index()


def distance_table(table: pd.DataFrame | str | os.PathLike[str]) -> pd.DataFrame:
    """The table of :func:`default_distances` as a DataFrame (read from the file if `table` is a path,
    such as ``default_distances.csv``); InputError unless it has the columns choice, option and distance."""
    import pandas as pd

    table = read_frame(
        table, what="a table of distances", example="choice,option,distance", numbers=("distance",)
    )
    if not isinstance(table, pd.DataFrame):
        raise InputError(
            f"table: expected the DataFrame of default_distances or a path to its CSV file, got "
            f"{type(table).__name__}"
        )
    missing = [c for c in ("choice", "option", "distance") if c not in table.columns]
    if missing:
        raise InputError(
            f"table: lacks the column(s) {', '.join(missing)} (expected default_distances' table)"
        )
    return table


def _multiverse_parts(multiverse):
    """(combinations DataFrame, defaults mapping) of `multiverse`; InputError otherwise."""
    import pandas as pd

    combinations = getattr(multiverse, "combinations", None)
    defaults = getattr(multiverse, "defaults", None)
    if not isinstance(combinations, pd.DataFrame) or not isinstance(defaults, Mapping):
        raise InputError(
            "multiverse: expected a MultiverseResult (from rankings), or an object with a DataFrame "
            f"`combinations` and a mapping `defaults`; got {type(multiverse).__name__}"
        )
    if combinations.shape[1] == 0 or len(combinations) == 0:
        raise InputError(f"multiverse: its combinations are empty (shape {combinations.shape})")
    missing = [c for c in combinations.columns if c not in defaults]
    if missing:
        raise InputError(f"multiverse: no default option for the choice(s) {', '.join(map(repr, missing))}")
    return combinations, defaults


def _ideal_points(fitted, count):
    """The ideal points of `fitted` (an UnfoldingResult or a matrix) as a finite count x p array, or
    InputError."""
    points = fitted.row_points if isinstance(fitted, UnfoldingResult) else fitted
    try:
        X = np.asarray(points, dtype=float)
    except (TypeError, ValueError):
        raise InputError("fitted: expected an UnfoldingResult or a matrix of ideal points") from None
    if X.ndim != 2 or X.shape[0] != count or X.shape[1] < 1:
        raise InputError(
            f"fitted: expected {count} ideal points (one per combination) as a {count} x p matrix, got shape "
            f"{X.shape}"
        )
    if not np.isfinite(X).all():
        raise InputError("fitted: the ideal points contain NaN or infinite values")
    return X
