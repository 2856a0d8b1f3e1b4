"""Non-metric multidimensional unfolding with penalised stress (PREFSCAL; Busing, Groenen & Heiser 2005).

Busing, F. M. T. A., Groenen, P. J. F. & Heiser, W. J. (2005). Avoiding degeneracy in multidimensional
unfolding by penalizing on the coefficient of variation. Psychometrika 70(1), 71-98.
de Leeuw, J. & Mair, P. (2009). Multidimensional scaling using majorization: SMACOF in R. Journal of
Statistical Software 31(3), §2.3 (rectangular SMACOF, unfolding).

The loss. An n x m matrix of dissimilarities δ (rows: subjects, or ideal points; columns: objects) is
represented by row points X (n x p) and column points Y (m x p) whose Euclidean distances
d_ij = ‖x_i - y_j‖ follow an ordinal transformation γ of δ, the disparities. Plain non-metric stress has
degenerate minima (all disparities equal, every distance equal); the penalised stress of Busing et al.
(their Eq. 8)

    σ²_p(γ, X, Y) = (σ²_n)^λ · μ(γ),   σ²_n = ‖γ - d‖² / ‖γ‖²,   μ(γ) = 1 + ω / ν²(γ),

with ν²(γ) = var(γ) / mean(γ)², the squared coefficient of variation of the disparities, grows without
bound as the disparities become constant. σ²_p is invariant to a common scaling of γ, X and Y.

The unconditional fit takes the steps of the reference implementation (R smacof's ``unfolding()``),
derived below from the loss and checked against its outputs run as a black box on the ranks of Nießl et
al.'s Fig. 6 (``tests/papers/smacof_blackbox/``: every stored iterate and a λ × ω grid, to about 1e-13).
smacof is GPL; its code was not read. N = n·m.

Start. Classical scaling of the squared dissimilarities: B = -½ J_n (δ∘δ) J_m = U S Vᵀ, rows X₀ = U_p,
columns Y₀ = V_p S_p, then both blocks brought to equal norm, X₀ ← X₀ √(‖Y₀‖/‖X₀‖), Y₀ ← Y₀ √(‖X₀‖/‖Y₀‖).
The disparities start as δ itself. The state before the first iteration pairs γ₀ = δ with the distances of
the start normalised to unit norm per block (‖X₀‖ = ‖Y₀‖ = 1): its normalised stress s² = ‖γ₀ - d₀‖²/‖γ₀‖²
weighs the first transformation update, and its penalised stress is the first value of the stop rule.

1. Configuration update (de Leeuw & Mair 2009, §2.3). For fixed γ, raw stress Σ_ij (γ_ij - d_ij)² is
   majorised at Z₀ = [X; Y] by tr ZᵀVZ - 2 tr ZᵀB(Z₀)Z₀ + const (Cauchy-Schwarz on -d_ij), V and B(Z₀) the
   Laplacians of the complete bipartite graph with weights 1 and γ_ij / d_ij(Z₀). Its minimiser, the
   Guttman transform, solves V Z⁺ = B(Z₀) Z₀, in closed form without forming V (:func:`_guttman`), the
   column points centred. After 100 iterations the step is over-relaxed, Z ← 2Z⁺ - Z₀, which still
   decreases the majoriser (it is a reflection through its minimum).
2. Transformation update. With d fixed, log σ²_p = λ log σ²_n + log μ is majorised at g, the previous
   disparities (floored at 1e-6 inside the update, since the bound below divides by their minimum): the
   stress part, divided by its value s² at g, by the quadratic λμ‖γ - d‖² / s² (up to terms constant in γ
   and the factor μ the penalty part is brought to), and the penalty part ω/ν²(γ), whose gradient is along
   g - G·1 with G = Σg²/Σg, by a quadratic of curvature L around the gradient step from g:
   ν² = N Σg²/(Σg)² - 1, μ = 1 + ω/ν², P = (1 + ν²)/ν⁴, Ψ = (1 + ν²)(ḡ + min g)/(ν² min g) (ḡ the mean)
   and L = Ψ(μ + ω) - ωP bounds the penalty's curvature over the cone. The minimiser of the sum over the
   ordinal cone is the ordinal (primary ties) least-squares fit to the weighted mean of the two centres,

       γ⁺ = iso( [λμ d + s² (L g + ωP (g - G·1))] / (λμ + s² L) ),

   by one isotonic regression over δ's order, each tie block sorted by its target; γ is not rescaled, and
   s² ← ‖γ⁺ - d‖²/‖γ⁺‖² for the next iteration.
3. Stop when 2(σ_old - σ_new) ≤ tol (σ_old + σ_new + 1e-15), σ = √(μ(γ) (‖γ - d‖²/N)^λ), the penalised
   stress on the iterations' own scale (the one R smacof prints and reports as ``pstress``).

Reported, as the reference does: X, Y, γ and d rescaled by one factor to Σ d² = N; stress-1 at the best
scale of the distances, √(1 - (Σγd)² / (Σγ² Σd²)), and the penalised stress σ of the last iteration.

The row-conditional fit has no reference outputs to check against; it alternates the same Guttman
transform (rows weighted by 1/‖γ_i‖²) with a projected-gradient step with Armijo backtracking on the
row-wise loss (:func:`unfold`, Notes), from the classical start fitted to γ₀ in least squares. Neither
step increases that loss. The penalty does not exclude every trivial solution: such a fit can reach a map
where columns coincide, which :meth:`UnfoldingResult.coincident_columns` reports.
"""

from __future__ import annotations

import dataclasses
import numbers
import os

import numpy as np

from benchtrust._io import InputError, read_table
from benchtrust._result import Description, Result
from benchtrust._words import paragraph
from benchtrust.multiverse import _text
from benchtrust.multiverse._data import file_names
from benchtrust.multiverse._plot import plot_unfolding_map

#: The conditionalities: one ordinal transformation for the whole matrix, or one per row.
CONDITIONALITIES = ("unconditional", "row")

#: Armijo constant: a projected-gradient step is accepted when it lowers the loss by at least this fraction
#: of the decrease predicted by the gradient.
_ARMIJO = 1e-4

#: Most halvings of the step size in one transformation update; if none is accepted, γ is kept.
_MAX_HALVINGS = 60

#: The unconditional fit over-relaxes its configuration update after this many iterations.
_RELAX_AFTER = 100

#: The least value of a disparity within the transformation update, whose bound divides by min γ.
_FLOOR = 1e-6


@dataclasses.dataclass(frozen=True, eq=False)
class UnfoldingResult(Result):
    """A fitted unfolding: row and column points, disparities and penalised stress (Busing et al. 2005).

    Attributes
    ----------
    row_points : numpy.ndarray
        X, the n x p coordinates of the rows (subjects, ideal points).
    column_points : numpy.ndarray
        Y, the m x p coordinates of the columns (objects).
    disparities : numpy.ndarray
        γ, the n x m ordinal transformation of the dissimilarities (non-negative), on the scale of the
        distances (the fit is reported, as the reference does, with Σ d² = n·m).
    distances : numpy.ndarray
        d, the n x m Euclidean distances between row and column points.
    stress : float
        Stress-1 of the fit, as the reference analysis (R smacof) reports it: √(1 - (Σγd)² / (Σγ² Σd²))
        over all cells, i.e. √(‖γ - b·d‖² / ‖γ‖²) at the best scale b of the distances (for "row"
        conditionality too).
    penalized_stress : float
        Unconditional: the penalised stress as the reference (R smacof) reports it, √(μ(γ) (‖γ - d‖²/N)^λ)
        on the iterations' scale (γ starting as δ); row-conditional: σ²_p, the loss minimised (see
        :func:`unfold`).
    iterations : int
        Iterations run (one configuration and one transformation update each).
    converged : bool
        Whether σ²_p fell by a relative amount below the tolerance before ``max_iterations``.
    row_stress, column_stress : numpy.ndarray
        Each row's and each column's share of ‖γ - d‖², in percent (each sums to 100).
    conditionality : str
        "unconditional" or "row".
    penalty_strength : float
        λ, the power of σ²_n in σ²_p.
    penalty_range : float
        ω, the weight of the penalty 1/ν²(γ).
    row_labels, column_labels : tuple of str or None
        The index and the columns of a pandas DataFrame given as dissimilarities, else None.

    See Also
    --------
    unfold : Non-metric unfolding by penalised stress.
    plot_unfolding : Draw an unfolding coloured by the options of each choice (Fig. 4).
    permutation_test : Test an unfolding's stress against refits on permuted data.
    congruence : Each row's congruence between its disparities and its distances.
    default_distances : How far one alternative option moves an ideal point.

    References
    ----------
    .. [1] F. M. T. A. Busing, P. J. F. Groenen and W. J. Heiser, "Avoiding degeneracy in multidimensional
       unfolding by penalizing on the coefficient of variation", Psychometrika 70(1), 71-98, 2005.
       doi:10.1007/s11336-001-0908-1. Eq. 8 (the penalised stress).
    .. [2] J. de Leeuw and P. Mair, "Multidimensional scaling using majorization: SMACOF in R", Journal of
       Statistical Software 31(3), 1-30, 2009. doi:10.18637/jss.v031.i03. §2.3 (rectangular SMACOF: the
       configuration update).
    .. [3] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3.2 (non-metric
       unfolding of the ranks), Fig. 4 and Fig. 6 (its fits).
    """

    row_points: np.ndarray
    column_points: np.ndarray
    disparities: np.ndarray
    distances: np.ndarray
    stress: float
    penalized_stress: float
    iterations: int
    converged: bool
    row_stress: np.ndarray
    column_stress: np.ndarray
    conditionality: str
    penalty_strength: float
    penalty_range: float
    row_labels: tuple[str, ...] | None = None
    column_labels: tuple[str, ...] | None = None

    def __repr__(self):
        (n, p), m = self.row_points.shape, self.column_points.shape[0]
        return (
            f"UnfoldingResult({n} rows x {m} columns in {p} dimensions, {self.conditionality}, "
            f"stress={self.stress:.4f}, penalized_stress={self.penalized_stress:.4f}, "
            f"iterations={self.iterations}, converged={self.converged})"
        )

    @property
    def degenerate(self) -> bool:
        """Whether some column points (nearly) coincide (:meth:`coincident_columns`): a map that does not
        separate objects the data rank differently should not be read."""
        return self.coincident_columns() > 0

    @property
    def verdict(self) -> str:
        """The fit in plain words: its settings, stress, iterations and whether it is degenerate."""
        return _text.unfolding_verdict(self)

    def describe(self) -> Description:
        """The verdict, as a paragraph (the text); the fit and the points of the columns (the section); the
        points, disparities, distances, stresses and settings (the data); one row per point: ``kind``
        ("row" or "column"), ``label`` (the DataFrame's labels, else the 1-based position), the coordinates
        ``dim1``, ``dim2``, … and ``stress_share`` (the point's share of the misfit, %) (the frame)."""
        points = self._points()
        columns = points[points["kind"] == "column"]
        dims = [name for name in points.columns if name.startswith("dim")]
        rows = tuple(
            (str(label), *(f"{value:.4f}" for value in values), f"{stress:.1f}")
            for label, values, stress in zip(
                columns["label"], columns[dims].to_numpy(), columns["stress_share"], strict=True
            )
        )
        return Description(
            question="Which rows rank alike, and which columns are ranked alike? (unfolding)",
            verdict=self.verdict,
            text=paragraph(self.verdict),
            data={
                "row_points": self.row_points,
                "column_points": self.column_points,
                "disparities": self.disparities,
                "distances": self.distances,
                "stress": self.stress,
                "penalized_stress": self.penalized_stress,
                "iterations": self.iterations,
                "converged": self.converged,
                "row_stress": self.row_stress,
                "column_stress": self.column_stress,
                "coincident_columns": self.coincident_columns(),
                "conditionality": self.conditionality,
                "penalty_strength": self.penalty_strength,
                "penalty_range": self.penalty_range,
                "row_labels": self.row_labels,
                "column_labels": self.column_labels,
            },
            columns=("column", *dims, "share of the stress (%)"),
            rows=rows,
            frame=dict(points.items()),
            assumptions=(
                ("unfolding", _text.unfolding_settings(self)),
                ("penalized stress", f"{self.penalized_stress:.4f}"),
            ),
            source=f"Busing, Groenen & Heiser 2005 (penalised stress); {_text.SOURCE}, §3.2, Fig. 4",
            inputs=self.inputs,
            analysis="multiverse unfold",
            figure=lambda: plot_unfolding_map(self),
            notes=(
                f"{len(self.row_points)} row points (ideal points) and {len(self.column_points)} column "
                "points; the table lists the column points.",
            ),
        )

    def _points(self):
        """One row per point, as :meth:`to_frame` gives it."""
        import pandas as pd

        dims = [f"dim{k + 1}" for k in range(self.row_points.shape[1])]
        parts = []
        for kind, points, labels, shares in (
            ("row", self.row_points, self.row_labels, self.row_stress),
            ("column", self.column_points, self.column_labels, self.column_stress),
        ):
            part = pd.DataFrame(points, columns=dims)
            if labels is None:
                labels = [str(k + 1) for k in range(len(points))]
            part.insert(0, "label", list(labels))
            part.insert(0, "kind", kind)
            part["stress_share"] = shares
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    def coincident_columns(self, tolerance=0.01):
        """How many column points lie within `tolerance` times the configuration's extent of another.

        A symptom of a degenerate solution (Busing et al. 2005, §2): objects the data rank differently
        drawn on top of each other. The extent is the largest distance between any two points, rows and
        columns together.

        Examples
        --------
        >>> unfold([[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 1, 2], [4, 3, 2, 1]]).coincident_columns()
        0
        """
        from scipy.spatial.distance import pdist, squareform

        points = np.vstack([self.row_points, self.column_points])
        extent = pdist(points).max()
        apart = squareform(pdist(self.column_points))
        np.fill_diagonal(apart, np.inf)
        return int((apart.min(axis=1) <= tolerance * extent).sum())


def unfold(
    dissimilarities,
    *,
    dimensions=2,
    conditionality="unconditional",
    penalty_strength=0.5,
    penalty_range=1.0,
    tolerance=1e-6,
    max_iterations=10_000,
) -> UnfoldingResult:
    """Non-metric unfolding of a rows x columns dissimilarity matrix by penalised stress (PREFSCAL).

    Minimises the penalised stress of Busing, Groenen & Heiser (2005, Psychometrika 70:71-98, Eq. 8),

        σ²_p(γ, X, Y) = (σ²_n)^λ · μ(γ),   σ²_n = ‖γ - d(X, Y)‖² / ‖γ‖²,   μ(γ) = 1 + ω / ν²(γ),

    over row points X, column points Y and disparities γ, where d_ij = ‖x_i - y_j‖, ν²(γ) is the squared
    coefficient of variation of the disparities (population variance over the squared mean of the
    entries) and the disparities are an ordinal transformation of the dissimilarities with the primary
    approach to ties: γ_a ≤ γ_b whenever δ_a < δ_b, tied δ leave their γ free. The row-conditional fit
    also keeps them non-negative (its projection onto the ordinal cone is clipped at 0, which for isotonic
    regression is the projection onto the cone intersected with γ ≥ 0); the unconditional fit, as the
    reference, does not clip.

    With ``conditionality="row"`` each row has its own ordinal transformation and the loss is the
    row-wise analogue

        σ²_p = ( (1/n) Σ_i ‖γ_i - d_i‖² / ‖γ_i‖² )^λ · ( (1/n) Σ_i μ(γ_i) ),   μ(γ_i) = 1 + ω / ν²(γ_i),

    with ν²(γ_i) from row i's entries only.

    Parameters
    ----------
    dissimilarities : array_like, pandas.DataFrame, str or os.PathLike
        n x m finite, non-negative dissimilarities (for preferences, ranks: 1 = most preferred; ties
        allowed). A DataFrame's index and columns become the result's labels. A path is read as a CSV/TSV
        table whose every column is a column of the matrix, its header the column labels.
    dimensions : int
        p, the number of dimensions, from 1 to m - 1.
    conditionality : {"unconditional", "row"}
        One ordinal transformation for the whole matrix, or one per row.
    penalty_strength : float
        λ in (0, 1], the power of σ²_n in the loss (the paper's lambda; 0.5 by default, as recommended).
    penalty_range : float
        ω > 0, the weight of the penalty on a small coefficient of variation (the paper's omega).
    tolerance : float
        Stop when σ²_p falls by a relative amount of at most this much in one iteration.
    max_iterations : int
        Stop after this many iterations; the result then says ``converged=False``.

    Returns
    -------
    UnfoldingResult
        Its ``inputs`` are `dissimilarities` when it names a file.

    Raises
    ------
    InputError
        Naming the argument at fault: non-finite or negative dissimilarities, fewer than 2 rows or
        columns, a matrix (or, for "row", a row) with all entries equal, dimensions outside 1..m - 1, an
        unknown conditionality, λ outside (0, 1], ω ≤ 0, a negative tolerance or a max_iterations that is
        not a positive whole number.

    See Also
    --------
    UnfoldingResult : A fitted unfolding: points, disparities, stress.
    plot_unfolding : Draw an unfolding coloured by the options of each choice (Fig. 4).
    permutation_test : Test an unfolding's stress against refits on permuted data.
    PermutationTestResult : A permutation test of an unfolding's stress.
    congruence : Each row's congruence between its disparities and its distances.
    default_distances : How far one alternative option moves an ideal point.

    Notes
    -----
    Unconditional: the alternating majorisation of Busing et al. as R smacof's ``unfolding()`` runs it
    (module docstring): a classical-scaling start with blocks of equal norm, then per iteration one Guttman
    transform (over-relaxed after 100 iterations) and one majorised ordinal update of γ, until the
    penalised stress σ = √(μ(γ) (‖γ - d‖²/N)^λ) changes by a relative amount of at most `tolerance`.
    On the ranks of Nießl et al.'s Fig. 6 it gives the reference fit iterate by iterate.

    Row-conditional (no reference to check against yet). Start: classical scaling, the squared
    dissimilarities scaled to ‖δ‖² = n·m, double-centred, B = -½ J_n Δ² J_m, and X = U_p S_p^½,
    Y = V_p S_p^½ from the SVD B = U S Vᵀ (singular values floored at 1e-3 of the largest so no dimension
    collapses), scaled jointly to fit γ₀ = δ with each row scaled to ‖γ₀_i‖² = m in least squares. Each
    iteration then

    1. updates X, Y by one Guttman transform of Σ_ij w_i (γ_ij - d_ij)² with w_i = 1/‖γ_i‖², so that it
       is the first factor of the row-conditional loss up to a constant;
    2. updates γ by one projected-gradient step on σ²_p (gradient in closed form; projection by sorting
       each tie block by its target and isotonic regression, clipped at 0), halving the step until the
       Armijo condition holds; the step carries over to the next iteration, doubled when it was accepted
       at the first try;
    3. rescales γ, X and Y by the same factor so that ‖γ‖² = n·m, which leaves σ²_p unchanged.

    Neither update increases σ²_p, so that loss never increases.

    References
    ----------
    .. [1] F. M. T. A. Busing, P. J. F. Groenen and W. J. Heiser, "Avoiding degeneracy in multidimensional
       unfolding by penalizing on the coefficient of variation", Psychometrika 70(1), 71-98, 2005.
       doi:10.1007/s11336-001-0908-1. Eq. 8 (the penalised stress).
    .. [2] J. de Leeuw and P. Mair, "Multidimensional scaling using majorization: SMACOF in R", Journal of
       Statistical Software 31(3), 1-30, 2009. doi:10.18637/jss.v031.i03. §2.3 (rectangular SMACOF: the
       configuration update).
    .. [3] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3.2 (non-metric
       unfolding of the ranks), Fig. 4 and Fig. 6 (its fits).

    Examples
    --------
    >>> ranks = [[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 1, 2], [4, 3, 2, 1], [1, 3, 2, 4]]
    >>> result = unfold(ranks)
    >>> result.row_points.shape, result.column_points.shape, result.converged
    ((5, 2), (4, 2), True)
    >>> bool(result.stress < 0.1)
    True
    """
    delta, row_labels, column_labels = _check_matrix(dissimilarities)
    options = check_options(
        delta,
        dimensions=dimensions,
        conditionality=conditionality,
        penalty_strength=penalty_strength,
        penalty_range=penalty_range,
        tolerance=tolerance,
        max_iterations=max_iterations,
    )
    p, lam, omega = options["dimensions"], options["penalty_strength"], options["penalty_range"]
    tol, max_iterations = options["tolerance"], options["max_iterations"]
    fit = _fit_by_row if conditionality == "row" else _fit_unconditional
    X, Y, gamma, d, penalized, iterations, converged = fit(delta, p, lam, omega, tol, max_iterations)
    residual = (gamma - d) ** 2
    return UnfoldingResult(
        row_points=_frozen(X),
        column_points=_frozen(Y),
        disparities=_frozen(gamma),
        distances=_frozen(d),
        stress=_stress_1(gamma, d),
        penalized_stress=penalized,
        iterations=iterations,
        converged=bool(converged),
        row_stress=_frozen(_shares(residual.sum(axis=1))),
        column_stress=_frozen(_shares(residual.sum(axis=0))),
        conditionality=conditionality,
        penalty_strength=lam,
        penalty_range=omega,
        row_labels=row_labels,
        column_labels=column_labels,
        inputs=file_names(dissimilarities),
    )


def _fit_unconditional(delta, p, lam, omega, tol, max_iterations):
    """Busing et al.'s alternating majorisation, as the reference (R smacof) runs it (module docstring):
    ``(X, Y, γ, d, penalised stress, iterations, converged)``, reported with Σ d² = n·m."""
    n, m = delta.shape
    N = n * m
    ranks = _dense_ranks(delta.reshape(1, N))[0]
    order = np.argsort(ranks, kind="stable")  # δ's order, refined by each update's targets
    X, Y = _reference_start(delta, p)
    # The state before the first iteration: γ = δ, and the distances of the start with each block at
    # unit norm (X and Y have equal norms after the start's last step).
    gamma, d = delta, _distances(X, Y) / np.linalg.norm(X)
    misfit, loss = _misfit_and_loss(gamma, d, lam, omega)
    d = _distances(X, Y)
    weights = np.ones(n)  # the Guttman transform's row weights: all 1 unconditionally
    converged, iterations = False, 0
    while iterations < max_iterations and not converged:
        iterations += 1
        X_new, Y_new = _guttman(X, Y, gamma, d, weights)
        if iterations > _RELAX_AFTER:  # over-relaxation: twice the Guttman step
            X_new, Y_new = 2 * X_new - X, 2 * Y_new - Y
        X, Y = X_new, Y_new
        d = _distances(X, Y)
        gamma, order = _majorised_disparities(gamma, d, misfit, ranks, order, lam, omega)
        misfit, new_loss = _misfit_and_loss(gamma, d, lam, omega)
        converged = 2 * (loss - new_loss) <= tol * (loss + new_loss + 1e-15)
        loss = new_loss
    scale = np.sqrt(N / _dot(d, d))  # reported as the reference does: Σ d² = n·m
    return scale * X, scale * Y, scale * gamma, scale * d, float(loss), iterations, bool(converged)


def _reference_start(delta, p):
    """The start: classical scaling of the squared dissimilarities, B = -½ J_n (δ∘δ) J_m = U S Vᵀ, rows
    X = U_p and columns Y = V_p S_p, then both blocks brought to equal norm (each times the square root of
    the ratio of the two norms). When B = 0 (every row the same), Y = V_p."""
    U, s, Vt = _double_centred_svd(delta**2)
    X, Y = U[:, :p], Vt[:p].T * (s[:p] if s[0] > 0 else 1.0)
    ratio = np.sqrt(np.linalg.norm(Y) / np.linalg.norm(X))
    return X * ratio, Y / ratio


def _majorised_disparities(previous, d, misfit, ranks, order, lam, omega):
    """One transformation update: the ordinal (primary) fit to the minimiser of the majorising function
    of the penalised stress at the previous disparities (module docstring, step 2), and the order of its
    targets (:func:`_ordinal_fit`)."""
    g = np.maximum(previous, _FLOOR)
    N, total, squares = g.size, g.sum(), _dot(g, g)
    nu = N * squares / total**2 - 1  # ν², the squared coefficient of variation
    mu = 1 + omega / nu
    penalty_curvature = (1 + nu) / nu**2
    bound = (1 + nu) * (total / N + g.min()) / (nu * g.min())
    curvature = bound * (mu + omega) - omega * penalty_curvature
    target = (lam * mu * d + misfit * (curvature * g + omega * penalty_curvature * (g - squares / total))) / (
        lam * mu + misfit * curvature
    )
    fitted, order = _ordinal_fit(target.ravel(), ranks, order)
    return fitted.reshape(d.shape), order


def _ordinal_fit(target, ranks, order):
    """The least-squares fit to `target` (flat) that is non-decreasing in `ranks` (primary ties), and the
    order it was fitted in: by rank, each tie block by its targets (Kruskal's primary approach), the one
    isotonic regression :func:`_project` runs per row, without the non-negativity.

    `order` is the previous call's: the targets of successive updates are nearly in the same order, so a
    stable sort (timsort, which merges the runs it finds) takes a fraction of the time of a fresh one.
    """
    from scipy.optimize import isotonic_regression

    order = order[np.argsort(target[order], kind="stable")]
    order = order[np.argsort(ranks[order], kind="stable")]
    fitted = np.empty_like(target)
    fitted[order] = isotonic_regression(target[order]).x
    return fitted, order


def _misfit_and_loss(gamma, d, lam, omega):
    """s² = ‖γ - d‖²/‖γ‖², which weighs the next transformation update, and the penalised stress the
    iterations minimise and report, √(μ(γ) (‖γ - d‖² / N)^λ)."""
    N, total, squares = gamma.size, gamma.sum(), _dot(gamma, gamma)
    residual = _dot(gamma - d, gamma - d)
    nu = N * squares / total**2 - 1
    return residual / squares, float(np.sqrt((1 + omega / nu) * (residual / N) ** lam))


def _fit_by_row(delta, p, lam, omega, tol, max_iterations):
    """The row-conditional fit: alternating Guttman and projected-gradient steps on the row-wise σ²_p
    (:func:`unfold`, Notes): ``(X, Y, γ, d, σ²_p, iterations, converged)``, reported with Σ d² = n·m."""
    n, m = delta.shape
    ranks = _dense_ranks(delta)
    gamma = delta / np.sqrt((delta**2).mean(axis=1, keepdims=True))
    X, Y = _classical_start(delta, p)
    d = _distances(X, Y)
    fit = _dot(gamma, d) / _dot(d, d)
    X, Y, d = fit * X, fit * Y, fit * d
    loss = _penalized_stress(gamma, d, lam, omega)
    step = None
    converged, iterations = False, 0
    while iterations < max_iterations and not converged:
        iterations += 1
        X, Y = _guttman(X, Y, gamma, d, 1 / (gamma**2).sum(axis=1))
        d = _distances(X, Y)
        new, new_loss, step = _transform_step(gamma, d, ranks, lam, omega, step)
        scale = np.sqrt(n * m / (new**2).sum())
        gamma, X, Y, d = scale * new, scale * X, scale * Y, scale * d
        converged = 2 * (loss - new_loss) <= tol * (loss + new_loss)
        loss = new_loss
    scale = np.sqrt(n * m / (d**2).sum())  # reported as the reference does: Σ d² = n·m
    gamma, X, Y, d = scale * gamma, scale * X, scale * Y, scale * d
    return X, Y, gamma, d, float(_penalized_stress(gamma, d, lam, omega)), iterations, bool(converged)


def check_options(
    delta, *, dimensions, conditionality, penalty_strength, penalty_range, tolerance, max_iterations
):
    """The options of :func:`unfold` for the n x m matrix `delta`, checked, as plain Python types.

    Raises an InputError naming the option at fault (see :func:`unfold`), or the first constant row of
    `delta` when ``conditionality="row"``.
    """
    p = _check_dimensions(dimensions, delta.shape[1])
    if conditionality not in CONDITIONALITIES:
        raise InputError(f"conditionality: expected 'unconditional' or 'row', got {conditionality!r}")
    if conditionality == "row":
        constant = np.flatnonzero(np.ptp(delta, axis=1) == 0)
        if constant.size:
            raise InputError(
                f"dissimilarities: row {constant[0] + 1} (1-based) has all entries equal, so there is no "
                f"order to fit with conditionality='row'; {constant.size} row(s) are constant"
            )
    lam = _check_number(penalty_strength, "penalty_strength")
    if not 0 < lam <= 1:
        raise InputError(f"penalty_strength: expected a value in (0, 1], got {penalty_strength!r}")
    omega = _check_number(penalty_range, "penalty_range")
    if omega <= 0:
        raise InputError(f"penalty_range: expected a positive number, got {penalty_range!r}")
    tol = _check_number(tolerance, "tolerance")
    if tol < 0:
        raise InputError(f"tolerance: expected a non-negative number, got {tolerance!r}")
    if not _is_whole(max_iterations) or max_iterations < 1:
        raise InputError(f"max_iterations: expected a positive whole number, got {max_iterations!r}")
    return {
        "dimensions": p,
        "conditionality": conditionality,
        "penalty_strength": lam,
        "penalty_range": omega,
        "tolerance": tol,
        "max_iterations": int(max_iterations),
    }


def _check_matrix(dissimilarities):
    """δ as an n x m float array with its row and column labels (None unless a DataFrame or a file: a file
    has column labels only), or an InputError naming the argument, or the file, line and column."""
    if isinstance(dissimilarities, (str, os.PathLike)):
        return _read_matrix(dissimilarities)
    row_labels = column_labels = None
    if hasattr(dissimilarities, "columns") and hasattr(dissimilarities, "index"):
        row_labels = tuple(str(label) for label in dissimilarities.index)
        column_labels = tuple(str(label) for label in dissimilarities.columns)
    try:
        delta = np.array(dissimilarities, dtype=float)
    except (TypeError, ValueError):
        raise InputError("dissimilarities: expected a numeric matrix (rows x columns)") from None
    if delta.ndim != 2:
        raise InputError(f"dissimilarities: expected a 2-D matrix (rows x columns), got shape {delta.shape}")
    n, m = delta.shape
    if n < 2 or m < 2:
        raise InputError(f"dissimilarities: expected at least 2 rows and 2 columns, got {n} x {m}")
    bad = np.argwhere(~np.isfinite(delta) | (delta < 0))
    if bad.size:
        i, j = bad[0]
        raise InputError(
            f"dissimilarities: entry ({i + 1}, {j + 1}) (1-based) is {delta[i, j]}; expected finite, "
            f"non-negative values, {len(bad)} entries are not"
        )
    if np.ptp(delta) == 0:
        raise InputError("dissimilarities: all entries are equal, so there is no order to fit")
    return delta, row_labels, column_labels


def _read_matrix(path):
    """The matrix in the table file `path`, every column a column of numbers, checked as _check_matrix."""
    table = read_table(path, example="A,B,C", what="a matrix of dissimilarities with one column per object")
    delta = np.column_stack([table.numbers(k) for k in range(len(table.header))])
    negative = np.argwhere(delta < 0)
    if negative.size:
        i, j = negative[0]
        raise InputError(
            f"{table.where(i)}, column {table.header[j]!r}: {table.cells(j)[i]!r} is negative; expected "
            "non-negative dissimilarities (such as ranks)"
        )
    return _check_matrix(delta)[0], None, tuple(table.header)


def _check_dimensions(dimensions, m):
    if not _is_whole(dimensions) or not 1 <= dimensions < m:
        raise InputError(
            f"dimensions: expected a whole number from 1 to {m - 1} (fewer than the columns), "
            f"got {dimensions!r}"
        )
    return int(dimensions)


def _is_whole(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_number(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise InputError(f"{name}: expected a finite number, got {value!r}")
    return float(value)


def _frozen(array):
    array = np.asarray(array, dtype=float)
    array.setflags(write=False)
    return array


def _shares(parts):
    """Parts of a total in percent; equal shares when the total is 0 (a perfect fit)."""
    total = parts.sum()
    return 100 * parts / total if total > 0 else np.full(parts.shape, 100 / parts.size)


def _dense_ranks(delta):
    """Dense ranks (0, 1, ...) of each row's values, as uint16 when they fit (numpy radix-sorts those)."""
    order = np.argsort(delta, axis=1, kind="stable")
    sorted_ = np.take_along_axis(delta, order, axis=1)
    steps = np.concatenate([np.zeros((len(delta), 1), dtype=np.int64), np.diff(sorted_, axis=1) > 0], axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.cumsum(steps, axis=1), axis=1)
    return ranks.astype(np.uint16) if ranks.max() < 2**16 else ranks


def _project(target, ranks):
    """Euclidean projection of each row of ``target`` onto its non-negative ordinal cone (primary ties).

    Row b's cone is {γ_b ≥ 0: γ_ba ≤ γ_bc whenever ranks_ba < ranks_bc}. Within each row, entries are
    ordered by (rank, target), i.e. each tie block by its targets, and fitted by isotonic regression
    (Kruskal's primary approach); clipping at 0 then gives the projection onto the cone intersected with
    the non-negative orthant. All rows are fitted by one isotonic regression: shifting row b's targets by
    b times twice the largest row range makes every row lie above the previous one, so no block of the
    pooled fit crosses a row boundary, and the shift is undone afterwards.
    """
    from scipy.optimize import isotonic_regression

    rows, size = target.shape
    start = size * np.arange(rows)[:, None]  # flat index of each row's first entry
    by_target = np.argsort(target, axis=1) + start
    order = by_target.take(np.argsort(ranks.take(by_target), axis=1, kind="stable") + start)
    ordered = target.take(order)
    low = ordered.min(axis=1, keepdims=True)
    span = 2 * float(np.max(ordered.max(axis=1, keepdims=True) - low)) or 1.0
    shift = low - span * np.arange(rows)[:, None]
    fitted = isotonic_regression((ordered - shift).ravel()).x.reshape(rows, size) + shift
    projection = np.empty(rows * size)
    projection[order.ravel()] = np.maximum(fitted, 0.0).ravel()
    return projection.reshape(rows, size)


def _dot(a, b):
    """Σ a_ij b_ij over all entries, summed by numpy rather than BLAS: OpenBLAS splits a dot product of
    more than 10,000 entries (the 774 x 13 subsample rankings of Fig. 6) over threads, which made the
    bundled study several times slower (45 s instead of 8 s on two cores shared with other work)."""
    return float(np.einsum("i,i->", np.ravel(a), np.ravel(b)))


def _stress_1(gamma, d):
    """Stress-1 at the best scale of the distances: √(1 - (Σγd)² / (Σγ² Σd²)) over all cells."""
    cosine = _dot(gamma, d) ** 2 / (_dot(gamma, gamma) * _dot(d, d))
    return float(np.sqrt(max(1.0 - cosine, 0.0)))


def _penalized_stress(gamma, d, lam, omega):
    """σ²_p for ``gamma`` and ``d`` laid out as the loss's rows (1 x n·m, or n x m for "row"); inf when a
    row's disparities are all equal or all zero."""
    return _loss_and_gradient(gamma, d, lam, omega, gradient=False)[0]


def _loss_and_gradient(gamma, d, lam, omega, *, gradient=True):
    """σ²_p = A^λ M with A = mean_b σ²_n(b), M = mean_b μ_b over the B rows of the layout, and ∇σ²_p.

    Per row b with N entries: ∇σ²_n = 2/‖γ‖² (γ - d - σ²_n γ); ν² = N‖γ‖²/(Σγ)² - 1 with
    ∇ν² = 2Nγ/(Σγ)² - 2N‖γ‖²/(Σγ)³; ∇μ = -ω ∇ν²/ν⁴. Then ∇σ²_p = (λ A^(λ-1) M ∇σ²_n + A^λ ∇μ) / B.
    """
    B, N = gamma.shape
    squares = (gamma**2).sum(axis=1, keepdims=True)
    total = gamma.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma = ((gamma - d) ** 2).sum(axis=1, keepdims=True) / squares
        nu = N * squares / total**2 - 1
        mu = 1 + omega / nu
    A, M = float(sigma.mean()), float(mu.mean())
    if not (np.all(nu > 0) and np.isfinite(A) and np.isfinite(M)):
        return np.inf, None
    loss = A**lam * M
    if not gradient:
        return loss, None
    grad_sigma = 2 / squares * (gamma - d - sigma * gamma)
    grad_nu = 2 * N * gamma / total**2 - 2 * N * squares / total**3
    grad_mu = -omega * grad_nu / nu**2
    power = lam * max(A, np.finfo(float).tiny) ** (lam - 1)
    return loss, (power * M * grad_sigma + A**lam * grad_mu) / B


def _transform_step(gamma, d, ranks, lam, omega, step):
    """One projected-gradient step on γ with Armijo backtracking: (new γ, its loss, next step size).

    ``step`` is the running step size (None at first: ‖γ‖/‖∇‖). It is halved until
    σ²_p(γ') ≤ σ²_p(γ) + c ∇ᵀ(γ' - γ) with γ' = proj(γ - t∇); the accepted step is passed on, doubled
    if it was accepted at the first try (so it can grow without costing a rejected trial every
    iteration). If no halving succeeds, γ is kept.
    """
    loss, grad = _loss_and_gradient(gamma, d, lam, omega)
    norm = np.sqrt(_dot(grad, grad))
    if norm == 0:
        return gamma, loss, step
    if step is None:
        step = np.sqrt(_dot(gamma, gamma)) / norm
    for halvings in range(_MAX_HALVINGS):
        trial = _project(gamma - step * grad, ranks)
        trial_loss = _penalized_stress(trial, d, lam, omega)
        if trial_loss <= loss + _ARMIJO * _dot(grad, trial - gamma):
            return trial, trial_loss, step if halvings else 2 * step
        step /= 2
    return gamma, loss, step


def _distances(X, Y):
    """d_ij = ‖x_i - y_j‖."""
    from scipy.spatial.distance import cdist

    return cdist(X, Y)


def _guttman(X, Y, gamma, d, weights):
    """One Guttman transform of Σ_ij w_i (γ_ij - d_ij)² for the complete bipartite graph (row weights w).

    With C = w_i γ_ij / d_ij (0 where d_ij = 0), the right-hand side B(Z)Z is R = C1 ∘ X - C Y for the
    rows and S = Cᵀ1 ∘ Y - Cᵀ X for the columns, and V Z⁺ = B(Z)Z reads
    m w_i x_i - w_i Σ_j y_j = R_i and W y_j - Σ_i w_i x_i = S_j (W = Σ_i w_i). Its solutions differ by a
    common translation. The one taken is the reference implementation's (rectangular SMACOF, de Leeuw &
    Mair 2009): X from the row equations and Y through the Moore-Penrose inverse of the Schur complement,
    which centres the column points, Σ_j y_j = 0 (the reference fit's column points are centred, its row
    points are not). Then x_i = R_i / (m w_i) and y_j = (S_j + Σ_i w_i x_i) / W; Σ_j y_j = 0 holds because
    Σ_i R_i + Σ_j S_j = 0. V is never formed.
    """
    m = gamma.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        C = np.where(d > 0, gamma / d, 0.0) * weights[:, None]
    R = C.sum(axis=1)[:, None] * X - C @ Y
    S = C.sum(axis=0)[:, None] * Y - C.T @ X
    X_new = R / (m * weights[:, None])
    return X_new, (S + weights @ X_new) / weights.sum()


def _classical_start(delta, p):
    """Classical-scaling start for unfolding: X = U_p S_p^½, Y = V_p S_p^½ from B = -½ J_n Δ² J_m."""
    U, s, Vt = _double_centred_svd((delta**2) / (delta**2).mean())
    root = np.sqrt(np.maximum(s[:p], 1e-3 * s[0] if s[0] > 0 else 1.0))
    return U[:, :p] * root, Vt[:p].T * root


def _double_centred_svd(squared):
    """The SVD U, s, Vᵀ of B = -½ J_n `squared` J_m, the double-centred squared dissimilarities of both
    starts."""
    centred = squared - squared.mean(axis=0) - squared.mean(axis=1, keepdims=True) + squared.mean()
    return np.linalg.svd(-0.5 * centred, full_matrices=False)
