"""§3.3 of Fazekas & Kovács: p = 1000, n = 6000, acc, npv and f1 reported with ε = 10^-4.

The exhaustive search here is independent of the library: every (tp, tn) is tested in integer arithmetic,
v - ε <= f <= v + ε rewritten with the denominators multiplied out (values scaled by 10^4). The library
widens each interval by 10^-9; no value here can fall in that sliver without being on the interval's end:
the scores are fractions a/b with b < 10^4 and the ends multiples of 10^-4, so a value off an end is off
by at least 1/(10^4·b) > 10^-8.
"""

import numpy as np

from benchtrust.consistency._test_set import check_test_set

EPS = 1e-4


def exhaustive(acc, npv, f1, p, n):
    """All (tp, tn) with acc, npv, f1 within 10^-4 of the given 4-decimal values, in exact integers."""
    acc, npv, f1 = (round(value * 10**4) for value in (acc, npv, f1))
    tp, tn = np.meshgrid(np.arange(p + 1, dtype=np.int64), np.arange(n + 1, dtype=np.int64), indexing="ij")
    fp, fn = n - tn, p - tp

    def within(
        numerator, denominator, value
    ):  # (value - 1)/10^4 <= numerator/denominator <= (value + 1)/10^4
        scaled = 10**4 * numerator
        return (
            (denominator > 0) & ((value - 1) * denominator <= scaled) & (scaled <= (value + 1) * denominator)
        )

    ok = within(tp + tn, p + n, acc) & within(tn, tn + fn, npv) & within(2 * tp, 2 * tp + fp + fn, f1)
    return list(zip(tp[ok].tolist(), tn[ok].tolist(), strict=True))


def check(acc, npv, f1, p=1000, n=6000):
    return check_test_set({"acc": acc, "npv": npv, "f1": f1}, positives=p, negatives=n, eps=EPS)


def test_section_3_3_two_solutions():
    """acc = 0.6821, npv = 0.9401, f1 = 0.4004: exactly (743, 4031) and (743, 4032)."""
    result = check(0.6821, 0.9401, 0.4004)
    assert result.consistent
    assert result.solutions == ((743, 4031), (743, 4032))
    assert result.n_solutions == 2
    assert exhaustive(0.6821, 0.9401, 0.4004, 1000, 6000) == [(743, 4031), (743, 4032)]


def test_section_3_3_accuracy_changed_to_0_6811():
    assert not check(0.6811, 0.9401, 0.4004).consistent
    assert exhaustive(0.6811, 0.9401, 0.4004, 1000, 6000) == []


def test_section_3_3_other_number_of_positives():
    assert not check(0.6821, 0.9401, 0.4004, p=1100).consistent
    assert exhaustive(0.6821, 0.9401, 0.4004, 1100, 6000) == []


def test_section_3_3_printed_accuracy_is_a_typo():
    """The paper prints acc = 0.6801, but no confusion matrix of the 1001·6001 gives that triple: the two
    solutions it names have acc = 4774/7000 and 4775/7000, i.e. 0.6820 and 0.6821 (0.6821 ± 10^-4)."""
    assert exhaustive(0.6801, 0.9401, 0.4004, 1000, 6000) == []
    result = check(0.6801, 0.9401, 0.4004)
    assert not result.consistent and result.n_solutions == 0
    assert [round((743 + tn) / 7000, 4) for tn in (4031, 4032)] == [0.6820, 0.6821]
