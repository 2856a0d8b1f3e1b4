"""The rankings computed in blocks of data-set options (issue 33, item 6): the same numbers, to the bit,
however the blocks are cut; the progress counts the combinations ranked; ``index`` in constant time."""

import itertools

import pytest

from benchtrust.multiverse import _rankings, bundled_study, rankings


@pytest.fixture(scope="module")
def whole():
    return rankings(**bundled_study(), n_jobs=1)


@pytest.mark.parametrize("block", [1, 2000, 5000])  # data-set options per block: 1, 2, 5 (the study has 9)
def test_any_cut_into_blocks_gives_the_same_bits(block, whole, monkeypatch):
    monkeypatch.setattr(_rankings, "_BLOCK_CELLS", block)  # cells per block; a data-set option: 18 x 13
    calls = []
    cut = rankings(**bundled_study(), n_jobs=1, progress=lambda done, total: calls.append((done, total)))
    for name in ("ranks", "values", "direction", "codes"):
        assert getattr(cut, name).tobytes() == getattr(whole, name).tobytes(), name
    blocks = 32 * -(-9 // max(1, -(-block // (18 * 13))))  # 2 measures x 4 imputations x 4 aggregations
    assert len(calls) == 1 + blocks
    assert calls[0] == (0, 288) and calls[-1] == (288, 288)
    assert all(a < b for (a, _), (b, _) in itertools.pairwise(calls))


def test_index_finds_each_combination_and_refuses_an_unknown_option(whole):
    for k, row in enumerate(whole.combinations.head(40).itertuples(index=False)):
        assert whole.index(dict(zip(whole.choices, row, strict=True))) == k
    with pytest.raises(ValueError, match="'nowhere' is not an option of 'measure'"):
        whole.index({**whole.defaults, "measure": "nowhere"})
