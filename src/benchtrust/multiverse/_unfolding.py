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
2. Transformation update. The iterations decrease F = log σ² = λ log‖γ - d‖² + log μ(γ) + const, with
   σ² = μ(γ)(‖γ - d‖²/N)^λ the penalised raw stress of the stop rule (σ²_p times (‖γ‖²/N)^λ; γ is never
   rescaled). At (g, d_old), g the disparities (floored at 1e-6 here, so that min g > 0), with μ = μ(g),
   ν² = NΣg²/(Σg)² - 1, P = (1 + ν²)/ν⁴, G = Σg²/Σg and ḡ the mean, μF is majorised term by term by
       M(γ, d) = λμ‖γ - d‖²/(s²‖g‖²) - (2ωP/‖g‖²)(g - G·1)ᵀ(γ - g) + (L/‖g‖²)‖γ - g‖² + const:
   - log is concave: λ log‖γ - d‖² lies below its tangent at ‖g - d_old‖² = s²‖g‖², for all γ and d, s²
     being the normalised stress of the previous iteration (for the first, of the start);
   - μ log μ(γ) lies below its gradient, ∇μ(g) = -(2ωP/‖g‖²)(g - G·1), plus curvature L: μ = γᵀAγ/γᵀBγ
     with B = N·I - 11ᵀ, A = B + ω11ᵀ, and ∇² log γᵀAγ ≼ 2A/γᵀAγ give, in units of 2/‖g‖²,
         μ ∇² log μ(g) ≼ -ωP·I + ωx² uuᵀ + 2μx vvᵀ,   x = (1 + ν²)/ν², u = 1/√N, v = (g - ḡ1)/‖g - ḡ1‖,
     whose largest eigenvalue is at most 2x(μ + ω) - ωP ≤ L = Ψ(μ + ω) - ωP, Ψ = x(ḡ + min g)/min g ≥ 2x.
     The bound is nearly attained at a nearly constant g (where μ itself curves up to 3 times as much:
     hence log μ). It is proved at g; that it holds along the step from g to γ⁺ is checked on the ibrier
     fit and on random data (tests/multiverse/test_unfolding_bound.py), not proved.
   Then μF(γ⁺, d) ≤ M(γ⁺, d) ≤ M(g, d) ≤ M(g, d_old) = μF(g, d_old) (up to the floor): γ⁺ minimises M
   over the admissible γ, and step 1 does not increase ‖g - d‖² (in the first iteration too: the Guttman
   transform of cZ does not depend on c, so d_old may be the start's distances at any scale). So σ never
   increases. As M is isotropic, M = (λμ + s²L)‖γ - t‖²/(s²‖g‖²) + const, its minimiser is the fit to t,

       γ⁺ = fit(t),   t = [λμ d + s² (L g + ωP (g - G·1))] / (λμ + s² L),

   for ordinal data (primary ties) one isotonic regression over δ's order, each tie block sorted by its
   target; γ is not rescaled (but for a ratio transformation: :func:`unfold`, Notes), and
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
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from benchtrust._io import InputError, is_number, read_table
from benchtrust._result import Description, Result
from benchtrust._words import paragraph
from benchtrust.multiverse import _text
from benchtrust.multiverse._data import file_names
from benchtrust.multiverse._plot import plot_unfolding_map

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

#: The conditionalities: one transformation for the whole matrix, or one per row.
CONDITIONALITIES = ("unconditional", "row")

#: The transformations of the dissimilarities into disparities (R smacof's ``type``): order-preserving,
#: affine (a + bδ) or proportional (bδ), each non-decreasing.
TRANSFORMATIONS = ("ordinal", "interval", "ratio")

#: Kruskal's approaches to tied dissimilarities in an ordinal transformation: their disparities free
#: (primary) or equal (secondary).
TIES = ("primary", "secondary")

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
    transformation : str
        "ordinal", "interval" or "ratio": how the disparities follow the dissimilarities (:func:`unfold`).
    ties : str
        "primary" or "secondary": Kruskal's approach to tied dissimilarities (ordinal only).
    penalty_strength : float
        λ, the power of σ²_n in σ²_p.
    penalty_range : float
        ω, the weight of the penalty 1/ν²(γ).
    row_labels, column_labels : tuple of str or None
        The index and the columns of a pandas DataFrame given as dissimilarities; of a file, its header
        and the column named by ``row_labels`` (else None).

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
    transformation: str = "ordinal"
    ties: str = "primary"

    def __repr__(self) -> str:
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
                "transformation": self.transformation,
                "ties": self.ties,
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

    def _points(self) -> pd.DataFrame:
        """One row per point, as :meth:`to_frame` gives it."""
        import pandas as pd

        dims = [f"dim{k + 1}" for k in range(self.row_points.shape[1])]
        parts = []
        for kind, points, labels, shares in (
            ("row", self.row_points, self.row_labels, self.row_stress),
            ("column", self.column_points, self.column_labels, self.column_stress),
        ):
            part = pd.DataFrame(points, columns=dims)
            named = [str(k + 1) for k in range(len(points))] if labels is None else list(labels)
            part.insert(0, "label", named)
            part.insert(0, "kind", kind)
            part["stress_share"] = shares
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    def coincident_columns(self, tolerance: float = 0.01) -> int:
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
    dissimilarities: ArrayLike | pd.DataFrame | str | os.PathLike[str],
    *,
    dimensions: int = 2,
    conditionality: Literal["unconditional", "row"] = "unconditional",
    transformation: Literal["ordinal", "interval", "ratio"] = "ordinal",
    ties: Literal["primary", "secondary"] = "primary",
    penalty_strength: float = 0.5,
    penalty_range: float = 1.0,
    init: tuple[ArrayLike, ArrayLike] | None = None,
    tolerance: float = 1e-6,
    max_iterations: int = 10_000,
    row_labels: str | None = None,
) -> UnfoldingResult:
    """Non-metric unfolding of a rows x columns dissimilarity matrix by penalised stress (PREFSCAL).

    Minimises the penalised stress of Busing, Groenen & Heiser (2005, Psychometrika 70:71-98, Eq. 8),

        σ²_p(γ, X, Y) = (σ²_n)^λ · μ(γ),   σ²_n = ‖γ - d(X, Y)‖² / ‖γ‖²,   μ(γ) = 1 + ω / ν²(γ),

    over row points X, column points Y and disparities γ, where d_ij = ‖x_i - y_j‖, ν²(γ) is the squared
    coefficient of variation of the disparities (population variance over the squared mean of the
    entries) and the disparities are a transformation of the dissimilarities of the kind
    `transformation` names (by default ordinal with the primary approach to ties: γ_a ≤ γ_b whenever
    δ_a < δ_b, tied δ leave their γ free). The row-conditional fit also keeps them non-negative; the
    unconditional fit, as the reference, does not.

    With ``conditionality="row"`` each row has its own transformation and the loss is the
    row-wise analogue

        σ²_p = ( (1/n) Σ_i ‖γ_i - d_i‖² / ‖γ_i‖² )^λ · ( (1/n) Σ_i μ(γ_i) ),   μ(γ_i) = 1 + ω / ν²(γ_i),

    with ν²(γ_i) from row i's entries only.

    Parameters
    ----------
    dissimilarities : array_like, pandas.DataFrame, str or os.PathLike
        n x m finite, non-negative dissimilarities (for preferences, ranks: 1 = most preferred; ties
        allowed). A DataFrame's index and columns become the result's labels. A path is read as a CSV/TSV
        table whose every column (but `row_labels`) is a column of the matrix, its header the column
        labels.
    dimensions : int
        p, the number of dimensions, from 1 to m - 1.
    conditionality : {"unconditional", "row"}
        One transformation for the whole matrix, or one per row.
    transformation : {"ordinal", "interval", "ratio"}
        The disparities allowed for the dissimilarities δ of the matrix (or of each row), R smacof's
        ``type`` [4]_: ``"ordinal"`` any non-decreasing function of δ (non-metric unfolding, the paper's;
        smacof's default is ratio), ``"interval"`` γ = a + bδ and ``"ratio"`` γ = bδ, with b ≥ 0. For
        "row" the disparities are also kept ≥ 0, so an interval row whose best line has a negative
        intercept gets the best line with a + b·min δ ≥ 0 instead; unconditionally, as for ordinal, γ is
        left unbounded below.
    ties : {"primary", "secondary"}
        Kruskal's approach to tied dissimilarities in an ordinal transformation [5]_: their disparities
        may differ (primary) or are equal (secondary). Interval and ratio transformations give ties equal
        disparities whatever this says.
    penalty_strength : float
        λ in (0, 1], the power of σ²_n in the loss (the paper's lambda; 0.5 by default, as recommended).
    penalty_range : float
        ω > 0, the weight of the penalty on a small coefficient of variation (the paper's omega).
    init : (array_like, array_like) or None
        A start (X, Y): row points n x p and column points m x p, finite, neither all 0. None: the
        classical-scaling start (Notes). The unconditional fit brings the two blocks to equal norm first,
        as it does its own start.
    tolerance : float
        Stop when σ²_p falls by a relative amount of at most this much in one iteration.
    max_iterations : int
        Stop after this many iterations; the result then says ``converged=False``.
    row_labels : str or None
        For a file only: the name of its column of row labels (text); the other columns are the matrix.

    Returns
    -------
    UnfoldingResult
        Its ``inputs`` are `dissimilarities` when it names a file.

    Raises
    ------
    InputError
        Naming the argument at fault: non-finite or negative dissimilarities, fewer than 2 rows or
        columns, a matrix (or, for "row", a row) with all entries equal, dimensions outside 1..m - 1, an
        unknown conditionality, transformation or ties, λ outside (0, 1], ω ≤ 0, an init that is not a
        pair of finite arrays of the shapes above, a negative tolerance, a max_iterations that is not a
        positive whole number, or row_labels given with anything but a file (or naming no column of it).

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
    transform (over-relaxed after 100 iterations) and one majorised update of γ, until the penalised
    stress σ = √(μ(γ) (‖γ - d‖²/N)^λ) changes by a relative amount of at most `tolerance`. On the ranks
    of Nießl et al.'s Fig. 6 it gives the reference fit iterate by iterate. The majoriser of the update is
    a quadratic with equal weights on every γ_ij, so its minimiser over the admissible disparities is the
    least-squares fit of its centre among them: ordinal with primary ties, isotonic regression over δ's
    order with each tie block sorted by its target; with secondary ties, isotonic regression of the
    tie-block means weighted by the block sizes, each member given its block's value; interval and ratio,
    the least-squares line (with b ≥ 0) through the centre as a function of δ. Both updates are
    equivariant under a common scaling of γ, X and Y; a ratio fit, whose penalty μ(bδ) = μ(δ) is
    constant, is rescaled after each iteration so that ‖γ‖ = ‖δ‖, which changes neither the map nor
    σ²_p: without it, nothing holds its scale, the alternation shrinks γ, X and Y towards 0, and the
    penalised stress on the iterations' scale falls with them though the fit does not improve.

    Row-conditional (no reference to check against yet). Start: classical scaling, the squared
    dissimilarities scaled to ‖δ‖² = n·m, double-centred, B = -½ J_n Δ² J_m, and X = U_p S_p^½,
    Y = V_p S_p^½ from the SVD B = U S Vᵀ (singular values floored at 1e-3 of the largest so no dimension
    collapses), scaled jointly to fit γ₀ = δ with each row scaled to ‖γ₀_i‖² = m in least squares. Each
    iteration then

    1. updates X, Y by one Guttman transform of Σ_ij w_i (γ_ij - d_ij)² with w_i = 1/‖γ_i‖², so that it
       is the first factor of the row-conditional loss up to a constant;
    2. updates γ by one projected-gradient step on σ²_p (gradient in closed form; projection onto each
       row's admissible disparities intersected with γ ≥ 0: for ordinal, the isotonic regression of the
       unconditional update, clipped at 0; for interval, the exact solution of the 2-D quadratic program
       over {a + b·min δ ≥ 0, b ≥ 0}, found among the unconstrained line and the best lines on the two
       edges, b = 0 and a + b·min δ = 0; for ratio, b = max(Σδt/Σδ², 0)), halving the step until the
       Armijo condition holds; the step carries over to the next iteration, doubled when it was accepted
       at the first try;
    3. rescales γ, X and Y by the same factor so that ‖γ‖² = n·m, which leaves σ²_p unchanged.

    Neither update increases σ²_p, so that loss never increases. A user start (`init`) replaces the
    classical one and is scaled in the same way.

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
    .. [4] P. Mair, P. J. F. Groenen and J. de Leeuw, "More on multidimensional scaling and unfolding in R:
       smacof version 2", Journal of Statistical Software 102(10), 1-47, 2022. doi:10.18637/jss.v102.i10.
       The options of ``unfolding()``: ``type`` (ratio, interval, ordinal), ``ties``, ``init``.
    .. [5] J. B. Kruskal, "Nonmetric multidimensional scaling: a numerical method", Psychometrika 29(2),
       115-129, 1964. doi:10.1007/BF02289694. The primary and secondary approaches to ties.

    Examples
    --------
    >>> ranks = [[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 1, 2], [4, 3, 2, 1], [1, 3, 2, 4]]
    >>> result = unfold(ranks)
    >>> result.row_points.shape, result.column_points.shape, result.converged
    ((5, 2), (4, 2), True)
    >>> bool(result.stress < 0.1)
    True
    """
    delta, labels, column_labels = _check_matrix(dissimilarities, row_labels)
    options = check_options(
        delta,
        dimensions=dimensions,
        conditionality=conditionality,
        transformation=transformation,
        ties=ties,
        penalty_strength=penalty_strength,
        penalty_range=penalty_range,
        tolerance=tolerance,
        max_iterations=max_iterations,
    )
    p, lam, omega = options["dimensions"], options["penalty_strength"], options["penalty_range"]
    tol, max_iterations = options["tolerance"], options["max_iterations"]
    n, m = delta.shape
    start = _check_start(init, n, m, p)
    by_row = conditionality == "row"
    if start is None:
        start = (_classical_start if by_row else _reference_start)(delta, p)
    admissible = _Transformation(
        delta if by_row else delta.reshape(1, -1), transformation, ties, non_negative=by_row
    )
    fit = _fit_by_row if by_row else _fit_unconditional
    X, Y, gamma, d, penalized, iterations, converged = fit(
        delta, start, admissible, lam, omega, tol, max_iterations
    )
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
        row_labels=labels,
        column_labels=column_labels,
        transformation=transformation,
        ties=ties,
        inputs=file_names(dissimilarities),
    )


def _fit_unconditional(delta, start, admissible, lam, omega, tol, max_iterations):
    """Busing et al.'s alternating majorisation, as the reference (R smacof) runs it (module docstring),
    from `start` (X, Y), its blocks brought to equal norm, with the disparities `admissible` (a
    :class:`_Transformation` of the matrix as one block): ``(X, Y, γ, d, penalised stress, iterations,
    converged)``, reported with Σ d² = n·m."""
    n, m = delta.shape
    N = n * m
    X, Y = _equal_norms(*start)
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
        gamma = _majorised_disparities(gamma, d, misfit, admissible, lam, omega)
        if admissible.transformation == "ratio":  # held at the scale of γ₀ = δ (unfold, Notes)
            scale = np.sqrt(_dot(delta, delta) / _dot(gamma, gamma))
            gamma, X, Y, d = scale * gamma, scale * X, scale * Y, scale * d
        misfit, new_loss = _misfit_and_loss(gamma, d, lam, omega)
        converged = 2 * (loss - new_loss) <= tol * (loss + new_loss + 1e-15)
        loss = new_loss
    scale = np.sqrt(N / _dot(d, d))  # reported as the reference does: Σ d² = n·m
    return scale * X, scale * Y, scale * gamma, scale * d, float(loss), iterations, bool(converged)


def _reference_start(delta, p):
    """The start: classical scaling of the squared dissimilarities, B = -½ J_n (δ∘δ) J_m = U S Vᵀ, rows
    X = U_p and columns Y = V_p S_p (brought to equal norm by :func:`_equal_norms`, as any start). When
    B = 0 (every row the same), Y = V_p."""
    U, s, Vt = _double_centred_svd(delta**2)
    return U[:, :p], Vt[:p].T * (s[:p] if s[0] > 0 else 1.0)


def _equal_norms(X, Y):
    """Both blocks brought to equal norm, each times the square root of the ratio of the two norms, as
    the reference does to any start."""
    ratio = np.sqrt(np.linalg.norm(Y) / np.linalg.norm(X))
    return X * ratio, Y / ratio


def _majorised_disparities(previous, d, misfit, admissible, lam, omega):
    """One transformation update: the least-squares fit among the `admissible` disparities (a
    :class:`_Transformation` of the whole matrix as one block) to the minimiser of the majorising function
    of the penalised stress at the previous disparities (module docstring, step 2). The majoriser is
    isotropic in γ, so its minimiser over any convex set of disparities is that fit."""
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
    return admissible.fit(target.reshape(1, -1)).reshape(d.shape)


class _Transformation:
    """The admissible disparities of each block of the loss, and the least-squares fit of a target among
    them (:meth:`fit`), the one projection both fits use.

    A block is a row of `delta`: the whole matrix as one row (unconditional) or each row of it ("row").
    For a block's dissimilarities δ, the admissible γ are

    - ``"ordinal"``, ``ties="primary"``: γ_a ≤ γ_c whenever δ_a < δ_c; tied δ leave their γ free
      (Kruskal's primary approach);
    - ``"ordinal"``, ``ties="secondary"``: the same, and γ_a = γ_c whenever δ_a = δ_c (Kruskal's
      secondary approach);
    - ``"interval"``: γ = a + bδ with b ≥ 0 (ties get equal γ whatever `ties` says);
    - ``"ratio"``: γ = bδ with b ≥ 0;

    each intersected with γ ≥ 0 when `non_negative` (the row-conditional fit; the unconditional one, as
    the reference, leaves γ unbounded below). Every set is a closed convex cone, so the fit is the
    Euclidean projection onto it.
    """

    def __init__(self, delta, transformation="ordinal", ties="primary", *, non_negative):
        self.delta = delta
        self.transformation = transformation
        self.ties = ties
        self.non_negative = non_negative
        rows, size = delta.shape
        self._row = np.repeat(np.arange(rows), size)  # each flat entry's block
        if transformation == "interval":
            self._spread = delta - delta.min(axis=1, keepdims=True)  # γ = c + b·spread, c = a + b·min δ
        if transformation != "ordinal":
            return
        self.ranks = _dense_ranks(delta)
        # One block with primary ties: the order of the previous fit's targets (_ordinal_fit).
        self._order = np.argsort(self.ranks[0], kind="stable") if rows == 1 and ties == "primary" else None
        if ties == "secondary":  # the tie blocks: (block, rank) pairs, in the order of both
            keys = self._row * (int(self.ranks.max()) + 1) + self.ranks.ravel()
            _, self._tie_block, sizes = np.unique(keys, return_inverse=True, return_counts=True)
            self._tie_sizes = sizes.astype(float)
            self._tie_row = self._row[np.unique(self._tie_block, return_index=True)[1]]

    def fit(self, target):
        """The admissible γ (the shape of `delta`) nearest to `target` in least squares."""
        if self.transformation == "ratio":
            # b = max(Σδt / Σδ², 0); bδ ≥ 0 as δ ≥ 0
            slope = np.maximum((self.delta * target).sum(axis=1) / (self.delta**2).sum(axis=1), 0.0)
            return slope[:, None] * self.delta
        if self.transformation == "interval":
            return self._interval(target)
        if self.ties == "secondary":
            # Equal γ within a tie block: ‖γ - t‖² over a block of k entries at γ = c is k (c - mean t)² plus
            # a constant, so the block means are fitted by isotonic regression weighted by the block sizes.
            means = np.bincount(self._tie_block, weights=target.ravel()) / self._tie_sizes
            fitted = _isotonic_by_row(means, self._tie_row, self._tie_sizes)[self._tie_block]
        elif self._order is not None:
            fitted, self._order = _ordinal_fit(target[0], self.ranks[0], self._order)
        else:
            fitted = _ordinal_fit_by_row(target, self.ranks, self._row)
        fitted = fitted.reshape(target.shape)
        # Clipping an isotonic regression at 0 gives the fit over the cone intersected with γ ≥ 0.
        return np.maximum(fitted, 0.0) if self.non_negative else fitted

    def _interval(self, target):
        """Per block, the least-squares γ = c + b·s (s = δ - min δ, so c = a + b·min δ is the least γ)
        with b ≥ 0, and c ≥ 0 when `non_negative` (a + bδ ≥ 0 for every δ of the block).

        A convex quadratic in (c, b) over a cone in the plane has its minimum at the unconstrained
        minimiser if that is admissible, else on an edge of the cone: b = 0 (γ constant, c = mean t,
        clipped at 0 when `non_negative`) or, when `non_negative`, c = 0 (γ = b·s, b = max(Σst/Σs², 0)).
        Each block takes the admissible candidate with the least residual: the exact minimiser.
        """
        s, t = self._spread, target
        s_mean, t_mean = s.mean(axis=1, keepdims=True), t.mean(axis=1, keepdims=True)
        centred = s - s_mean
        slope = (centred * t).sum(axis=1, keepdims=True) / (centred**2).sum(axis=1, keepdims=True)
        intercept = t_mean - slope * s_mean
        free = (slope >= 0) & ((intercept >= 0) | (not self.non_negative))
        constant = np.maximum(t_mean, 0.0) if self.non_negative else t_mean
        candidates = [np.where(free, intercept + slope * s, np.inf), np.broadcast_to(constant, t.shape)]
        if self.non_negative:
            through_zero = (s * t).sum(axis=1, keepdims=True) / (s**2).sum(axis=1, keepdims=True)
            candidates.append(np.maximum(through_zero, 0.0) * s)
        residuals = np.column_stack([((candidate - t) ** 2).sum(axis=1) for candidate in candidates])
        best = residuals.argmin(axis=1)
        return np.stack(candidates)[best, np.arange(len(t))]


def _ordinal_fit(target, ranks, order):
    """The least-squares fit to `target` (flat) that is non-decreasing in `ranks` (primary ties), and the
    order it was fitted in: by rank, each tie block by its targets (Kruskal's primary approach), the one
    isotonic regression :func:`_ordinal_fit_by_row` runs per row.

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


def _fit_by_row(delta, start, admissible, lam, omega, tol, max_iterations):
    """The row-conditional fit: alternating Guttman and projected-gradient steps on the row-wise σ²_p
    (:func:`unfold`, Notes), from `start` (X, Y), with the disparities `admissible` (a
    :class:`_Transformation` by row): ``(X, Y, γ, d, σ²_p, iterations, converged)``, reported with
    Σ d² = n·m."""
    n, m = delta.shape
    gamma = delta / np.sqrt((delta**2).mean(axis=1, keepdims=True))
    X, Y = start
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
        new, new_loss, step = _transform_step(gamma, d, admissible, lam, omega, step)
        scale = np.sqrt(n * m / (new**2).sum())
        gamma, X, Y, d = scale * new, scale * X, scale * Y, scale * d
        converged = 2 * (loss - new_loss) <= tol * (loss + new_loss)
        loss = new_loss
    scale = np.sqrt(n * m / (d**2).sum())  # reported as the reference does: Σ d² = n·m
    gamma, X, Y, d = scale * gamma, scale * X, scale * Y, scale * d
    return X, Y, gamma, d, float(_penalized_stress(gamma, d, lam, omega)), iterations, bool(converged)


def check_options(
    delta: np.ndarray,
    *,
    dimensions: int,
    conditionality: str,
    penalty_strength: float,
    penalty_range: float,
    tolerance: float,
    max_iterations: int,
    transformation: str = "ordinal",
    ties: str = "primary",
) -> dict[str, Any]:
    """The options of :func:`unfold` for the n x m matrix `delta`, checked, as plain Python types.

    Raises an InputError naming the option at fault (see :func:`unfold`), or the first constant row of
    `delta` when ``conditionality="row"``.
    """
    p = _check_dimensions(dimensions, delta.shape[1])
    if conditionality not in CONDITIONALITIES:
        raise InputError(f"conditionality: expected 'unconditional' or 'row', got {conditionality!r}")
    if transformation not in TRANSFORMATIONS:
        raise InputError(f"transformation: expected 'ordinal', 'interval' or 'ratio', got {transformation!r}")
    if ties not in TIES:
        raise InputError(f"ties: expected 'primary' or 'secondary', got {ties!r}")
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
        "transformation": transformation,
        "ties": ties,
    }


def _check_start(init, n, m, p):
    """The user start `init` = (X, Y) as float arrays of shapes (n, p) and (m, p), or an InputError naming
    `init`; None when `init` is None."""
    if init is None:
        return None
    try:
        X, Y = init
    except (TypeError, ValueError):
        raise InputError(
            f"init: expected a pair (X, Y) of row points ({n} x {p}) and column points ({m} x {p}), got "
            f"{type(init).__name__}"
        ) from None
    start = []
    for name, points, rows, what in (("X", X, n, "row points"), ("Y", Y, m, "column points")):
        try:
            points = np.array(points, dtype=float)
        except (TypeError, ValueError):
            raise InputError(f"init: {name}, the {what}, is not a numeric matrix") from None
        if points.shape != (rows, p):
            raise InputError(
                f"init: {name}, the {what}, has shape {points.shape}; expected ({rows}, {p}), one row per "
                f"{what[:-1]} and one column per dimension"
            )
        bad = np.argwhere(~np.isfinite(points))
        if bad.size:
            i, k = bad[0]
            raise InputError(
                f"init: {name}, the {what}, has entry ({i + 1}, {k + 1}) (1-based) = {points[i, k]}; "
                "expected finite coordinates"
            )
        if not points.any():
            raise InputError(f"init: {name}, the {what}, is all 0; expected a start that places them")
        start.append(points)
    if not _distances(*start).any():
        raise InputError("init: every row point lies on every column point; expected a start with distances")
    return tuple(start)


def _check_matrix(dissimilarities, row_labels=None):
    """δ as an n x m float array with its row and column labels (None unless a DataFrame or a file: a file
    has row labels in its column `row_labels` if given), or an InputError naming the argument, or the
    file, line and column."""
    if isinstance(dissimilarities, (str, os.PathLike)):
        return _read_matrix(dissimilarities, row_labels)
    if row_labels is not None:
        raise InputError(
            "row_labels: names the column of row labels in a file of dissimilarities; a DataFrame's index "
            "labels its rows"
        )
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


def _read_matrix(path, row_labels):
    """The matrix in the table file `path`, every column but `row_labels` (if given: the rows' labels, as
    text) a column of numbers, checked as _check_matrix."""
    if row_labels is not None and not isinstance(row_labels, str):
        raise InputError(f"row_labels: expected the name of a column, got {row_labels!r}")
    table = read_table(path, example="A,B,C", what="a matrix of dissimilarities with one column per object")
    labels, columns = None, list(range(len(table.header)))
    if row_labels is not None:
        label_column = table.column(row_labels, purpose=" of row labels (row_labels)")
        labels = tuple(table.texts(label_column, "a row label"))
        columns.remove(label_column)
    delta = np.column_stack([_numbers(table, k, row_labels) for k in columns])
    negative = np.argwhere(delta < 0)
    if negative.size:
        i, j = negative[0]
        raise InputError(
            f"{table.where(i)}, column {table.header[columns[j]]!r}: {table.cells(columns[j])[i]!r} is "
            "negative; expected non-negative dissimilarities (such as ranks)"
        )
    return _check_matrix(delta)[0], labels, tuple(table.header[k] for k in columns)


def _numbers(table, column, row_labels):
    """The table's `column` as numbers; a column of text, when no column of row labels is named, is
    suggested as one."""
    try:
        return table.numbers(column)
    except InputError as exc:
        if row_labels is None and not any(map(is_number, table.cells(column))):
            raise InputError(
                f"{exc}; if column {table.header[column]!r} labels the rows, name it as the column of row "
                "labels (row_labels)"
            ) from None
        raise


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


def _ordinal_fit_by_row(target, ranks, row):
    """The least-squares fit to each row of `target` that is non-decreasing in that row's `ranks` (primary
    ties), flat; `row` is each flat entry's row. Within each row, entries are ordered by (rank, target),
    i.e. each tie block by its targets (Kruskal's primary approach), and fitted by isotonic regression.
    """
    rows, size = target.shape
    start = size * np.arange(rows)[:, None]  # flat index of each row's first entry
    by_target = np.argsort(target, axis=1) + start
    order = by_target.take(np.argsort(ranks.take(by_target), axis=1, kind="stable") + start).ravel()
    fitted = np.empty(rows * size)
    fitted[order] = _isotonic_by_row(target.take(order), row)
    return fitted


def _isotonic_by_row(values, row, weights=None):
    """Isotonic regression of each row's run of the flat `values` (`row`: each entry's row, 0, 1, ...,
    non-decreasing), with `weights`, by one call: shifting row b's values up by b times twice the largest
    range of a row makes every row lie above the previous one, so no pooled block of the fit crosses a
    row boundary, and the shift is undone afterwards."""
    from scipy.optimize import isotonic_regression

    starts = np.flatnonzero(np.concatenate([[True], row[1:] != row[:-1]]))
    low = np.minimum.reduceat(values, starts)
    span = 2 * float(np.max(np.maximum.reduceat(values, starts) - low)) or 1.0
    shift = (low - span * np.arange(len(starts)))[row]
    return isotonic_regression(values - shift, weights=weights).x + shift


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


def _transform_step(gamma, d, admissible, lam, omega, step):
    """One projected-gradient step on γ with Armijo backtracking: (new γ, its loss, next step size).

    ``step`` is the running step size (None at first: ‖γ‖/‖∇‖). It is halved until
    σ²_p(γ') ≤ σ²_p(γ) + c ∇ᵀ(γ' - γ) with γ' = proj(γ - t∇), the projection onto the `admissible`
    disparities (a :class:`_Transformation` by row); the accepted step is passed on, doubled
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
        trial = admissible.fit(gamma - step * grad)
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
