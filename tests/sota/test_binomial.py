"""The binomial distribution without scipy.stats (benchtrust.sota._binomial).

log_pmf is checked against exact values, from rational arithmetic (small n) and from a table computed
with mpmath (n up to 10^7), to a few units in the last place of the log-pmf, and against
scipy.stats.binom over a broad grid to scipy's own accuracy (which is the weaker of the two there: up to
1e-11 relative in binom.pmf and 5e-8 absolute in binom.logpmf at n = 10^7). cdf, sf, ppf and the
Clopper-Pearson limits are compared with scipy.stats.binom and scipy.stats.beta.
"""

import itertools
import math
import subprocess
import sys
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from benchtrust.sota._binomial import cdf, central, clopper_pearson_limits, log_pmf, ppf, sf

ULPS = 3  # log_pmf's error bound, in units in the last place of the exact log-pmf

# log P(Bin(n, p) = x) from mpmath 1.4.1 (50 digits: loggamma, log, log1p on the exact double p), for
# n up to 10^7 with x at 1, n - 1, the mode and 5, 20, 37 (the pmf near 1e-300) and 60 standard
# deviations either side of the mean.
MPMATH_TABLE = [
    (1, 7, 1e-06, "-11.86960640891196084625421"),
    (6, 7, 1e-06, "-80.94715419873083159138696"),
    (1, 7, 0.003, "-3.881259895380506365992028"),
    (3, 7, 0.003, "-13.88409894553386322732359"),
    (5, 7, 0.003, "-26.00720153188731114646142"),
    (6, 7, 0.003, "-32.91195230184914945582282"),
    (1, 7, 0.3, "-1.398112318903016902838686"),
    (2, 7, 0.3, "-1.146797890622110878021312"),
    (6, 7, 0.3, "-5.634601620839035235728039"),
    (1, 7, 0.5, "-2.906120114864303860815272"),
    (4, 7, 0.5, "-1.296682202430203486214513"),
    (6, 7, 0.5, "-2.906120114864303860815272"),
    (1, 7, 0.9999, "-53.31623208780277726339152"),
    (5, 7, 0.9999, "-15.37665833123082948049552"),
    (6, 7, 0.9999, "-7.265030252922979649015574"),
    (1, 1000, 1e-06, "-6.908754279481637430260906"),
    (2, 1000, 1e-06, "-14.51065623935680337015085"),
    (999, 1000, 1e-06, "-13794.78729312732823815876"),
    (1, 1000, 0.003, "-1.902892222610313441801033"),
    (3, 1000, 0.003, "-1.494420599465808185289672"),
    (12, 1000, 0.003, "-9.838576405770212425687501"),
    (38, 1000, 0.003, "-64.82322535984154735137045"),
    (67, 1000, 0.003, "-149.1948257345795647454714"),
    (107, 1000, 0.003, "-287.2641069471109202509291"),
    (999, 1000, 0.003, "-5796.429096553751474172027"),
    (1, 1000, 0.3, "-350.6144865201374296668337"),
    (10, 1000, 0.3, "-311.2199255047161237231516"),
    (228, 1000, 0.3, "-16.51506923705802279202176"),
    (300, 1000, 0.3, "-3.592805790518698117918049"),
    (372, 1000, 0.3, "-15.50425863369048458603829"),
    (590, 1000, 0.3, "-183.3855967358304863045479"),
    (836, 1000, 0.3, "-622.1521238335817131757502"),
    (999, 1000, 0.3, "-1196.217751186566688911549"),
    (1, 1000, 0.5, "-686.2394252809631723651781"),
    (184, 1000, 0.5, "-219.1674022675252416233719"),
    (421, 1000, 0.5, "-16.20174615653335217962804"),
    (500, 1000, 0.5, "-3.679918992094129341723266"),
    (579, 1000, 0.5, "-16.20174615653335217962804"),
    (816, 1000, 0.5, "-219.1674022675252416233719"),
    (999, 1000, 0.5, "-686.2394252809631723651781"),
    (1, 1000, 0.9999, "-9194.222376330334773621079"),
    (981, 1000, 0.9999, "-83.35917021585097371618669"),
    (988, 1000, 0.9999, "-47.78329501399160872952666"),
    (994, 1000, 0.9999, "-20.50919431555202157386404"),
    (998, 1000, 0.9999, "-5.399122857214521105379449"),
    (999, 1000, 0.9999, "-2.402490088327169791640859"),
    (1, 100000, 1e-06, "-2.402584142993579057769731"),
    (2, 100000, 1e-06, "-5.398325416597070429459388"),
    (6, 100000, 1e-06, "-20.49490582272148369996045"),
    (12, 100000, 1e-06, "-47.71888368688592032553224"),
    (19, 100000, 1e-06, "-83.19069210953664429584869"),
    (99999, 100000, 1e-06, "-1381525.727361404480933415"),
    (1, 100000, 0.003, "-294.7441150461956877867610"),
    (214, 100000, 0.003, "-17.34774305562463721809717"),
    (300, 100000, 0.003, "-3.769605296205043924211384"),
    (386, 100000, 0.003, "-15.22543071545019985842730"),
    (646, 100000, 0.003, "-154.2453045013179504330582"),
    (940, 100000, 0.003, "-439.9673735223253939606313"),
    (1338, 100000, 0.003, "-972.4430608847489203391483"),
    (99999, 100000, 0.003, "-580896.9799674564700271667"),
    (1, 100000, 0.3, "-35656.82876626865328047747"),
    (21305, 100000, 0.3, "-1927.982252419399093322379"),
    (24638, 100000, 0.3, "-716.7416429976691109837510"),
    (27102, 100000, 0.3, "-209.7537773855263173846954"),
    (29275, 100000, 0.3, "-18.46142191691757601347411"),
    (30000, 100000, 0.3, "-5.895080526478087578491178"),
    (30725, 100000, 0.3, "-18.35999540118766242146125"),
    (32898, 100000, 0.3, "-202.4261579072843075430411"),
    (35362, 100000, 0.3, "-669.6982334972849075383419"),
    (38695, 100000, 0.3, "-1723.219644278668070869896"),
    (99999, 100000, 0.3, "-120384.9202092682455309314"),
    (1, 100000, 0.5, "-69303.20513052956071330312"),
    (40513, 100000, 0.5, "-1816.986669688942776491273"),
    (44150, 100000, 0.5, "-691.9955513182365489956429"),
    (46838, 100000, 0.5, "-206.0786331301347576211603"),
    (49209, 100000, 0.5, "-18.49627345531506727202010"),
    (50000, 100000, 0.5, "-5.982256585129841600741410"),
    (50791, 100000, 0.5, "-18.49627345531506727202010"),
    (53162, 100000, 0.5, "-206.0786331301347576211603"),
    (55850, 100000, 0.5, "-691.9955513182365489956429"),
    (59487, 100000, 0.5, "-1816.986669688942776491273"),
    (99999, 100000, 0.5, "-69303.20513052956071330312"),
    (1, 100000, 0.9999, "-921013.3140317973408316579"),
    (99800, 100000, 0.9999, "-412.8946000940479765812713"),
    (99873, 100000, 0.9999, "-209.1929845702654620158181"),
    (99927, 100000, 0.9999, "-85.19962323603894661451769"),
    (99974, 100000, 0.9999, "-11.39563952277095645750675"),
    (99990, 100000, 0.9999, "-2.078511640718233443377378"),
    (99999, 100000, 0.9999, "-7.697814935340463184749666"),
    (1, 10000000, 1e-06, "-7.697418907008787244214609"),
    (10, 10000000, 1e-06, "-2.078561143134816788220795"),
    (26, 10000000, 1e-06, "-11.39450084317477328670379"),
    (73, 10000000, 1e-06, "-85.18033201501931771405369"),
    (127, 10000000, 1e-06, "-209.1258195163678165553924"),
    (200, 10000000, 1e-06, "-412.7167636067333105640557"),
    (9999999, 10000000, 1e-06, "-138155075.6460375325715044"),
    (1, 10000000, 0.003, "-30034.77824581755416771832"),
    (19623, 10000000, 0.003, "-2058.392571763042871143091"),
    (23601, 10000000, 0.003, "-744.9296314543183843282211"),
    (26541, 10000000, 0.003, "-214.1611529109733416097893"),
    (29135, 10000000, 0.003, "-18.68688260285462901645078"),
    (30000, 10000000, 0.003, "-6.071915386819522495181460"),
    (30865, 10000000, 0.003, "-18.47587025076450086059733"),
    (33459, 10000000, 0.003, "-198.8871514763776967404328"),
    (36399, 10000000, 0.003, "-646.7475727646342057105109"),
    (40377, 10000000, 0.003, "-1629.132203909059399814593"),
    (9999999, 10000000, 0.003, "-58091407.97890614114637207"),
    (1, 10000000, 0.3, "-3566734.168589533059406976"),
    (2913052, 10000000, 0.3, "-1818.308508150941219716431"),
    (2946382, 10000000, 0.3, "-695.0480936322625068548919"),
    (2971017, 10000000, 0.3, "-208.5686825375540381143015"),
    (2992754, 10000000, 0.3, "-20.70380640873472424357412"),
    (3000000, 10000000, 0.3, "-8.197662515900704799281848"),
    (3007246, 10000000, 0.3, "-20.69368400294326052560661"),
    (3028983, 10000000, 0.3, "-207.8380902762023968623138"),
    (3053618, 10000000, 0.3, "-690.3972853411064217169929"),
    (3086948, 10000000, 0.3, "-1798.445437208989750884450"),
    (9999999, 10000000, 0.3, "-12039711.07786584895077835"),
    (1, 10000000, 0.5, "-6931455.687503802135852533"),
    (4905132, 10000000, 0.5, "-1808.380158024836816310398"),
    (4941498, 10000000, 0.5, "-692.7971902663989711728879"),
    (4968377, 10000000, 0.5, "-208.2889783947882463815864"),
    (4992094, 10000000, 0.5, "-20.78581036217026198726743"),
    (5000000, 10000000, 0.5, "-8.284839203123887326426026"),
    (5007906, 10000000, 0.5, "-20.78581036217026198726743"),
    (5031623, 10000000, 0.5, "-208.2889783947882463815864"),
    (5058502, 10000000, 0.5, "-692.7971902663989711728879"),
    (5094868, 10000000, 0.5, "-1808.380158024836816310398"),
    (9999999, 10000000, 0.5, "-6931455.687503802135852533"),
    (1, 10000000, 0.9999, "-92103378.39142691076768078"),
    (9997103, 10000000, 0.9999, "-1189.553055079063647976259"),
    (9997830, 10000000, 0.9999, "-515.9865177511547777627780"),
    (9998368, 10000000, 0.9999, "-172.0014730510187684496222"),
    (9998842, 10000000, 0.9999, "-16.31951681012807531099225"),
    (9999000, 10000000, 0.9999, "-4.372849503526963561663863"),
    (9999158, 10000000, 0.9999, "-17.48496081657371672404674"),
    (9999632, 10000000, 0.9999, "-268.0137394083632946078060"),
    (9999999, 10000000, 0.9999, "-993.1421480494908479311927"),
]

N_GRID = [1, 2, 3, 7, 20, 57, 100, 1000, 12345, 10**5, 10**6, 10**7]
P_GRID = [0.0, 1e-6, 1e-4, 0.003, 0.1, 0.3, 0.5, 0.77, 0.99, 1 - 1e-4, 1 - 1e-6, 1.0]


def grid_points(n, p, rng):
    """x across the support of Bin(n, p): both ends, outside it, the body and both far tails."""
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    spread = mean + sd * np.array([0, 1, 3, 10, 20, 30, 37, 45, 60, 100, 300])
    spread = np.concatenate([spread, 2 * mean - spread])
    special_points = [-5, -1, 0, 1, 2, n // 2, n - 2, n - 1, n, n + 1, n + 5]
    return np.unique(np.concatenate([special_points, np.round(spread), rng.integers(0, n + 1, 10)]))


def grid():
    rng = np.random.default_rng(2024)
    for n in N_GRID:
        for p in P_GRID:
            yield n, p, grid_points(n, p, rng).astype(float)


def scaled_pmf(x, n, p):
    """(P(Bin(n, p) = x) 2^shift, shift): the pmf exactly, as an integer over a power of 2."""
    a, b = Fraction(p).as_integer_ratio()  # p = a / b, b a power of 2
    return math.comb(n, x) * a**x * (b - a) ** (n - x), (b.bit_length() - 1) * n


def exact_log_pmf(x, n, p):
    """log P(Bin(n, p) = x) from exact rational arithmetic, as a 40-digit Decimal (None for P = 0)."""
    if not 0 <= x <= n:
        return None
    value, shift = scaled_pmf(x, n, p)
    if value == 0:
        return None
    with localcontext() as ctx:
        ctx.prec = 40
        rest = (1 << shift) - value
        if rest < value >> 20:  # P near 1: ln(1 - u) = -(u + u^2/2 + ...), without cancellation
            u = _leading(rest) / Decimal(2) ** (shift - _dropped(rest))
            return -sum(u**j / j for j in range(1, 8))
        return _leading(value).ln() + (_dropped(value) - shift) * Decimal(2).ln()


def _dropped(i):
    """Number of trailing bits of the integer i to leave out, keeping its leading 200 (plenty)."""
    return max(i.bit_length() - 200, 0)


def _leading(i):
    """The leading 200 bits of the integer i, as a Decimal: i = _leading(i) 2^_dropped(i) to 1e-60."""
    return Decimal(i >> _dropped(i))


def exact_float(i, shift):
    """i / 2^shift as a float, within an ulp (from the leading 64 bits of the integer i)."""
    drop = max(i.bit_length() - 64, 0)
    return math.ldexp(float(i >> drop), drop - shift)


def assert_within_ulps(got, want, context):
    """|got - want| <= ULPS units in the last place of the exact value ``want`` (a Decimal)."""
    err = abs(Decimal(float(got)) - want)
    assert err <= ULPS * Decimal(float(np.spacing(abs(float(want))))), (context, float(got), want, err)


# ------------------------------------------------------------------------------------ log_pmf: exact


@pytest.mark.parametrize(("x", "n", "p", "want"), MPMATH_TABLE)
def test_log_pmf_against_mpmath(x, n, p, want):
    assert_within_ulps(log_pmf(x, n, p), Decimal(want), (x, n, p))


def test_log_pmf_relative_error_where_pmf_is_representable():
    """Where the pmf is above 1e-300 its relative error is below 1.2e-13 (9.4e-14 measured; rounding
    log pmf ~ -690 to a double alone may cost 5.7e-14)."""
    x, n, p, want = (np.array(v, dtype=float) for v in zip(*MPMATH_TABLE, strict=True))
    above = want > np.log(1e-300)
    assert above.sum() > 50
    rel = np.abs(np.expm1(log_pmf(x, n, p) - want))[above]
    assert rel.max() < 1.2e-13


@pytest.mark.parametrize(("n", "p"), [(300, 0.3), (60, 1e-300), (25, 1 - 2**-53), (1, 0.5), (0, 0.5)])
def test_log_pmf_whole_support_against_exact_rationals(n, p):
    xs = range(-2, n + 3)
    for x, value in zip(xs, log_pmf(np.array(xs, dtype=float), n, p), strict=True):
        want = exact_log_pmf(x, n, p)
        if want is None:
            assert value == -np.inf, (x, n, p)
        else:
            assert_within_ulps(value, want, (x, n, p))


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=0, max_value=300),
    p=st.one_of(
        st.floats(min_value=0.0, max_value=1.0),
        st.floats(min_value=1e-30, max_value=1e-3),
        st.floats(min_value=0.999, max_value=1.0),
        st.sampled_from([0.0, 1.0, 0.5, 1e-300, 1 - 2**-53]),
    ),
    data=st.data(),
)
def test_log_pmf_property_against_exact_rationals(n, p, data):
    x = data.draw(st.integers(-2, n + 2))
    want = exact_log_pmf(x, n, p)
    value = log_pmf(x, n, p)
    if want is None:
        assert value == -np.inf, (x, n, p)
    else:
        assert_within_ulps(value, want, (x, n, p))


# ------------------------------------------------------------------------------------ log_pmf: scipy


def test_log_pmf_against_scipy_over_a_grid():
    """exp(log_pmf) against binom.pmf where that is above 1e-300, to binom.pmf's accuracy (Boost's; the
    exact values above show that the differences are its errors: 4e-15 (|log pmf| + 1) relative up to
    n = 1000, growing as sqrt(n), 2e-11 at n = 10^7); log_pmf against binom.logpmf elsewhere, to 1e-10
    absolute plus the rounding of binom.logpmf's gammaln(n + 1)."""
    for n, p, x in grid():
        got = log_pmf(x, n, p)
        pmf = stats.binom.pmf(x, n, p)
        big = pmf > 1e-300
        rtol = 4e-15 * (1.0 - got[big]) * max(1.0, math.sqrt(n / 1000))
        rel = np.abs(np.expm1(got[big] - np.log(pmf[big])))
        assert np.all(rel <= rtol), (n, p, x[big][rel > rtol], rel[rel > rtol])
        logpmf = stats.binom.logpmf(x[~big], n, p)
        finite = np.isfinite(logpmf)
        assert np.array_equal(np.isfinite(got[~big]), finite), (n, p)
        atol = 1e-10 + 8 * np.spacing(special.gammaln(n + 1.0))
        np.testing.assert_allclose(
            got[~big][finite], logpmf[finite], rtol=0, atol=atol, err_msg=f"n={n} p={p}"
        )


def test_log_pmf_edges():
    n = 10
    assert log_pmf(0, n, 0.3) == pytest.approx(n * math.log1p(-0.3), rel=1e-15)
    assert log_pmf(n, n, 0.3) == pytest.approx(n * math.log(0.3), rel=1e-15)
    assert log_pmf(0, n, 1e-20) == -n * 1e-20  # log1p keeps the tiny mass
    assert log_pmf([0, 1, n], n, 0.0).tolist() == [0.0, -np.inf, -np.inf]
    assert log_pmf([0, n - 1, n], n, 1.0).tolist() == [-np.inf, -np.inf, 0.0]
    assert log_pmf([0, 1], 0, [0.0, 0.4]).tolist() == [0.0, -np.inf]  # no trials: X = 0
    assert log_pmf([-1, n + 1, 2.5], n, 0.3).tolist() == [-np.inf] * 3  # outside the support, not whole
    assert np.isnan(log_pmf(1, [2.5, -1], 0.3)).all()  # no such binomial, as scipy
    assert np.isnan(log_pmf(1, 10, [-0.1, 1.1, np.nan])).all()
    assert np.isnan(log_pmf(np.nan, 10, 0.5))
    assert log_pmf(3, 10**7, 1e-300) == pytest.approx(-2025.7640565109941, rel=1e-15)  # mpmath
    assert log_pmf(5e6, 1e7, 5e-324) == pytest.approx(-3715268896.086146, rel=1e-15)  # denormal p


def test_log_pmf_broadcasts():
    got = log_pmf(np.arange(4)[:, None], np.array([3, 5]), 0.25)
    assert got.shape == (4, 2)
    np.testing.assert_allclose(np.exp(got), stats.binom.pmf(np.arange(4)[:, None], [3, 5], 0.25), rtol=1e-14)
    assert isinstance(log_pmf(1, 3, 0.25), np.float64)


# ------------------------------------------------------------------------------------ cdf, sf, ppf


def test_cdf_and_sf_against_scipy_over_a_grid():
    """Both call Boost's incomplete beta function as scipy.stats does: equal to rounding, except that
    scipy's cdf rounds 1 - p (where that is not a double) and so may be off by up to n ulps of it."""
    for n, p, x in grid():
        k = np.concatenate([x, x + 0.5])  # non-whole k is rounded down
        for got, want in [(cdf(k, n, p), stats.binom.cdf(k, n, p)), (sf(k, n, p), stats.binom.sf(k, n, p))]:
            assert np.array_equal(np.isnan(got), np.isnan(want))
            normal = want > 1e-300  # below, Boost's values are subnormal or zero
            assert np.all(got[~normal & ~np.isnan(want)] <= 1e-300), (n, p)
            rtol = 2e-15 if 1 - (1 - p) == p else 2e-15 + 1e-16 * n
            np.testing.assert_allclose(got[normal], want[normal], rtol=rtol, atol=0, err_msg=f"n={n} p={p}")


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=120),
    p=st.one_of(st.floats(min_value=0.0, max_value=1.0), st.floats(min_value=1e-30, max_value=1e-3)),
)
def test_cdf_and_sf_property_against_exact_rationals(n, p):
    """To 2e-13 relative (Boost's accuracy) where above 1e-250."""
    shift = scaled_pmf(0, n, p)[1]
    running = list(itertools.accumulate(scaled_pmf(x, n, p)[0] for x in range(n + 1)))  # ends at 2^shift
    below = np.array([exact_float(c, shift) for c in running])
    above = np.array([exact_float(running[-1] - c, shift) for c in running])
    k = np.arange(n + 1.0)
    for got, want in [(cdf(k, n, p), below), (sf(k, n, p), above)]:
        big = want > 1e-250
        np.testing.assert_allclose(got[big], want[big], rtol=2e-13, atol=0)
        assert np.all(got[~big] <= 1e-240)


def test_cdf_uses_p_itself_where_one_minus_p_is_rounded():
    """P(X <= 7), X ~ Bin(10^7, 1e-6): scipy.stats (through the rounded 1 - p) is off by 3e-10."""
    n, p = 10**7, 1e-6
    with localcontext() as ctx:
        ctx.prec = 50
        prob = Decimal(p)
        want = sum(math.comb(n, j) * prob**j * (1 - prob) ** (n - j) for j in range(8))
    assert cdf(7, n, p) == pytest.approx(float(want), rel=1e-12)


def test_cdf_and_sf_edges():
    assert cdf([-1, -0.5, 0, 10, 11], 10, 0.5).tolist() == [0.0, 0.0, 1 / 1024, 1.0, 1.0]
    assert sf([-1, -0.5, 0, 10, 11], 10, 0.5).tolist() == [1.0, 1.0, 1023 / 1024, 0.0, 0.0]
    assert cdf([-1, 0, 5], 10, 0.0).tolist() == [0.0, 1.0, 1.0]
    assert cdf([-1, 0, 9, 10], 10, 1.0).tolist() == [0.0, 0.0, 0.0, 1.0]
    assert sf([-1, 0, 9, 10], 10, 1.0).tolist() == [1.0, 1.0, 1.0, 0.0]
    assert cdf(0, 0, 0.3) == 1.0
    assert np.isnan(cdf(1, [2.5, -1], 0.3)).all()
    assert np.isnan(sf(1, 10, [-0.1, 1.1])).all()
    assert cdf(np.arange(3)[:, None], [2, 4], 0.5).shape == (3, 2)


def test_ppf_against_scipy_over_a_grid():
    """Equal to scipy for q from 1e-100 to 1 - 1e-10 away from ties (a cdf value within rounding of q).
    Below, Boost's search may stop short of the quantile; above, its cdf is too coarse."""
    rng = np.random.default_rng(7)
    fixed = [0.0, 1e-100, 1e-25, 1e-22, 1e-15, 0.025, 0.4, 0.6, 0.975, 0.999999, 1.0]
    for n in N_GRID:
        for p in P_GRID:
            q = np.concatenate(
                [fixed, rng.random(10), 10 ** rng.uniform(-100, -1, 10), 1 - 10 ** -rng.uniform(1, 10, 5)]
            )
            np.testing.assert_array_equal(ppf(q, n, p), stats.binom.ppf(q, n, p), err_msg=f"n={n} p={p}")


def reaches(k, q, n, p):
    """Whether P(X <= k) >= q, evaluated where it is accurate: the cdf, or 1 - q against the sf."""
    return bool(sf(k, n, p) <= 1 - q) if q > 0.5 else bool(cdf(k, n, p) >= q)


@settings(max_examples=100, deadline=None)
@given(
    n=st.sampled_from([1, 2, 5, 30, 1000, 10**5, 10**7]),
    p=st.floats(min_value=1e-9, max_value=1 - 1e-9),
    q=st.one_of(
        st.floats(min_value=1e-300, max_value=1.0, exclude_max=True),
        st.floats(min_value=-300.0, max_value=-1e-12).map(math.exp),
        st.floats(min_value=1e-16, max_value=0.5).map(lambda t: 1 - t),
    ),
)
def test_ppf_property_is_the_smallest_k_with_cdf_at_least_q(n, p, q):
    k = ppf(q, n, p)
    assert k == math.floor(k)
    assert 0 <= k <= n
    assert reaches(k, q, n, p)
    assert k == 0 or not reaches(k - 1, q, n, p)


def test_ppf_far_from_its_start():
    """bdtrik's start is 19549 below the quantile here: found by bisection, quickly."""
    assert ppf(1e-300, 10**7, 0.5) == stats.binom.ppf(1e-300, 10**7, 0.5) == 4941424


def test_ppf_edges():
    assert ppf([0.0, 0.3, 1.0], 10, 0.0).tolist() == [-1.0, 0.0, 10.0]
    assert ppf([0.0, 0.3, 1.0], 10, 1.0).tolist() == [-1.0, 10.0, 10.0]
    assert ppf([0.5, 0.5], [57, 12345], 0.5).tolist() == [28.0, 6172.0]  # cdf((n-1)/2) = 1/2 exactly
    assert ppf(1 - 2**-53, 10**7, 0.5) == 5012980  # the smallest k with P(X > k) <= 2^-53
    assert np.isnan(ppf([-0.1, 1.1, np.nan], 10, 0.5)).all()
    assert ppf(np.array([[0.1], [0.9]]), [10, 20], 0.5).shape == (2, 2)


# ------------------------------------------------------------------------------------ Clopper-Pearson


@pytest.mark.parametrize("n", [1, 2, 7, 100, 3000, 10**5, 10**7])
@pytest.mark.parametrize("alpha", [1e-10, 0.05, 0.3, 0.9])
def test_clopper_pearson_limits_match_scipy_beta(n, alpha):
    for correct in sorted(c for c in {0, 1, 2, n // 3, n // 2, n - 2, n - 1, n} if 0 <= c <= n):
        low, high = clopper_pearson_limits(correct, n, alpha)
        want_low = 0.0 if correct == 0 else stats.beta.ppf(alpha / 2, correct, n - correct + 1)
        want_high = 1.0 if correct == n else stats.beta.isf(alpha / 2, correct + 1, n - correct)
        assert low == pytest.approx(want_low, rel=1e-14, abs=0)
        assert high == pytest.approx(want_high, rel=1e-14, abs=0)


# ------------------------------------------------------------------------------------ start-up


def test_best_of_does_not_import_scipy_stats():
    code = "import sys, benchtrust.sota._best_of; print('scipy.stats' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "False"


def test_the_dependent_best_of_loads_no_scipy():
    """Table 2's dependent rows need only numpy (central, log_pmf): the CLI starts without scipy."""
    code = (
        "import sys; from benchtrust.sota import best_of; "
        "best_of(0.9, classifiers=10, test_size=300, correlation=0.6); "
        "print(sorted(m for m in sys.modules if m.startswith('scipy')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("n", [1, 2, 10, 50, 3000, 15_000, 10**7])
@pytest.mark.parametrize("p", [1e-6, 0.02, 0.5, 0.9132, 0.999, 1 - 1e-6, 0.0, 1.0])
@pytest.mark.parametrize("tail", [1e-15, 1e-3])
def test_central_is_the_range_between_the_tail_quantiles(n, p, tail):
    k, pmf = central(n, p, tail)
    assert (k[0], k[-1]) == (stats.binom.ppf(tail, n, p), n - stats.binom.ppf(tail, n, 1 - p))
    np.testing.assert_allclose(pmf, stats.binom.pmf(k, n, p), rtol=1e-11, atol=0)
