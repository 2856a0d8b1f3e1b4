"""What to cite for which analysis: benchtrust, the seed paper of the analysis's subpackage and the method's
own papers, as BibTeX.

The entries follow the References sections of the analyses' docstrings: a DOI or an arXiv id where they
give one, none where they do not. No entry holds a URL, so that a report, which shows them, stays free of
external URLs (the JMLR papers are found by their volume and pages, Benavoli et al. 2017 also by arXiv id).
:data:`ANALYSIS_PAPERS` names, for every ``analysis`` of a :class:`~benchtrust._result.Description`, the
method papers beyond the seed paper of its subpackage (:data:`SEED_PAPERS`); :func:`citations` gives the
entries in the order to cite them.
``result.to_dict()["cite"]``, the ``Cite`` block of a report section and ``benchtrust cite [COMMAND...]``
all come from here.

Examples
--------
>>> [entry.split(",")[0] for entry in citations("compare aggregate")]
['@software{benchtrust', '@inproceedings{bouthillier2021variance', '@inproceedings{agarwal2021precipice']
"""

from __future__ import annotations

from benchtrust import __version__

__all__ = ["ANALYSIS_PAPERS", "BIBTEX", "SEED_PAPERS", "analyses_of", "citations", "command_citations"]

#: Every entry, by its BibTeX key.
BIBTEX: dict[str, str] = {
    "benchtrust": f"""@software{{benchtrust,
  author = {{{{The benchtrust developers}}}},
  title = {{benchtrust: how much to trust a machine-learning benchmark claim}},
  version = {{{__version__}}},
  year = {{2026}},
  license = {{BSD-3-Clause}}
}}""",
    # the four seed papers, one per subpackage
    "moellersen2023multiplicity": """@misc{moellersen2023multiplicity,
  author = {Kajsa M{\\o}llersen and Einar Holsb{\\o}},
  title = {Accounting for multiplicity in machine learning benchmark performance},
  year = {2023},
  eprint = {2303.07272},
  archiveprefix = {arXiv},
  note = {arXiv preprint, v4 2024}
}""",
    "fazekas2023consistency": """@misc{fazekas2023consistency,
  author = {Attila Fazekas and Gy{\\"o}rgy Kov{\\'a}cs},
  title = {Testing the consistency of performance scores reported for binary classification problems},
  year = {2023},
  eprint = {2310.12527},
  archiveprefix = {arXiv},
  note = {arXiv preprint}
}""",
    "bouthillier2021variance": """@inproceedings{bouthillier2021variance,
  author = {Xavier Bouthillier and Pierre Delaunay and Mirko Bronzi and Assya Trofimov and Brennan Nichyporuk
    and Justin Szeto and Naz Sepah and Edward Raff and Kanika Madan and Vikram Voleti
    and Samira Ebrahimi Kahou and Vincent Michalski and Dmitriy Serdyuk and Tal Arbel and Chris Pal
    and Ga{\\"e}l Varoquaux and Pascal Vincent},
  title = {Accounting for variance in machine learning benchmarks},
  booktitle = {Proceedings of Machine Learning and Systems 3 (MLSys 2021)},
  year = {2021},
  eprint = {2103.03098},
  archiveprefix = {arXiv}
}""",
    "niessl2022overoptimism": """@article{niessl2022overoptimism,
  author = {Christina Nie{\\ss}l and Moritz Herrmann and Chiara Wiedemann and Giuseppe Casalicchio
    and Anne-Laure Boulesteix},
  title = {Over-optimism in benchmark studies and the multiplicity of design and analysis options when
    interpreting their results},
  journal = {WIREs Data Mining and Knowledge Discovery},
  volume = {12},
  number = {2},
  pages = {e1441},
  year = {2022},
  doi = {10.1002/widm.1441}
}""",
    # the methods' own papers
    "clopper1934": """@article{clopper1934,
  author = {C. J. Clopper and E. S. Pearson},
  title = {The use of confidence or fiducial limits illustrated in the case of the binomial},
  journal = {Biometrika},
  volume = {26},
  number = {4},
  pages = {404--413},
  year = {1934},
  doi = {10.1093/biomet/26.4.404}
}""",
    "demsar2006": """@article{demsar2006,
  author = {Janez Dem{\\v{s}}ar},
  title = {Statistical comparisons of classifiers over multiple data sets},
  journal = {Journal of Machine Learning Research},
  volume = {7},
  pages = {1--30},
  year = {2006}
}""",
    "benavoli2017timeforachange": """@article{benavoli2017timeforachange,
  author = {Alessio Benavoli and Giorgio Corani and Janez Dem{\\v{s}}ar and Marco Zaffalon},
  title = {Time for a change: a tutorial for comparing multiple classifiers through Bayesian analysis},
  journal = {Journal of Machine Learning Research},
  volume = {18},
  number = {77},
  pages = {1--36},
  year = {2017},
  eprint = {1606.04316},
  archiveprefix = {arXiv}
}""",
    "corani2017hierarchical": """@article{corani2017hierarchical,
  author = {Giorgio Corani and Alessio Benavoli and Janez Dem{\\v{s}}ar and Francesca Mangili
    and Marco Zaffalon},
  title = {Statistical comparison of classifiers through Bayesian hierarchical modelling},
  journal = {Machine Learning},
  volume = {106},
  pages = {1817--1837},
  year = {2017},
  doi = {10.1007/s10994-017-5641-9}
}""",
    "nadeau2003": """@article{nadeau2003,
  author = {Claude Nadeau and Yoshua Bengio},
  title = {Inference for the generalization error},
  journal = {Machine Learning},
  volume = {52},
  number = {3},
  pages = {239--281},
  year = {2003},
  doi = {10.1023/A:1024068626366}
}""",
    "agarwal2021precipice": """@inproceedings{agarwal2021precipice,
  author = {Rishabh Agarwal and Max Schwarzer and Pablo Samuel Castro and Aaron Courville
    and Marc G. Bellemare},
  title = {Deep reinforcement learning at the edge of the statistical precipice},
  booktitle = {Advances in Neural Information Processing Systems 34 (NeurIPS 2021)},
  year = {2021},
  eprint = {2108.13264},
  archiveprefix = {arXiv}
}""",
    "herbold2020autorank": """@article{herbold2020autorank,
  author = {Steffen Herbold},
  title = {Autorank: a Python package for automated ranking of classifiers},
  journal = {Journal of Open Source Software},
  volume = {5},
  number = {48},
  pages = {2173},
  year = {2020},
  doi = {10.21105/joss.02173}
}""",
    "dror2017replicability": """@article{dror2017replicability,
  author = {Rotem Dror and Gili Baumer and Marina Bogomolov and Roi Reichart},
  title = {Replicability analysis for natural language processing: testing significance with multiple
    datasets},
  journal = {Transactions of the Association for Computational Linguistics},
  volume = {5},
  pages = {471--486},
  year = {2017},
  doi = {10.1162/tacl_a_00074}
}""",
    "dror2019deepdominance": """@inproceedings{dror2019deepdominance,
  author = {Rotem Dror and Segev Shlomov and Roi Reichart},
  title = {Deep dominance - how to properly compare deep neural models},
  booktitle = {Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics},
  pages = {2773--2785},
  year = {2019},
  doi = {10.18653/v1/P19-1266}
}""",
    "delbarrio2018aso": """@incollection{delbarrio2018aso,
  author = {Eustasio del Barrio and Juan A. Cuesta-Albertos and Carlos Matr{\\'a}n},
  title = {An optimal transportation approach for assessing almost stochastic order},
  booktitle = {The Mathematics of the Uncertain},
  publisher = {Springer},
  pages = {33--44},
  year = {2018},
  doi = {10.1007/978-3-319-73848-2_3}
}""",
    "noether1987": """@article{noether1987,
  author = {Gottfried E. Noether},
  title = {Sample size determination for some common nonparametric tests},
  journal = {Journal of the American Statistical Association},
  volume = {82},
  number = {398},
  pages = {645--647},
  year = {1987},
  doi = {10.1080/01621459.1987.10478478}
}""",
    "vargha2000": """@article{vargha2000,
  author = {Andr{\\'a}s Vargha and Harold D. Delaney},
  title = {A critique and improvement of the CL common language effect size statistics of McGraw and Wong},
  journal = {Journal of Educational and Behavioral Statistics},
  volume = {25},
  number = {2},
  pages = {101--132},
  year = {2000},
  doi = {10.3102/10769986025002101}
}""",
    "hedges1981": """@article{hedges1981,
  author = {Larry V. Hedges},
  title = {Distribution theory for Glass's estimator of effect size and related estimators},
  journal = {Journal of Educational Statistics},
  volume = {6},
  number = {2},
  pages = {107--128},
  year = {1981},
  doi = {10.3102/10769986006002107}
}""",
    "cliff1993": """@article{cliff1993,
  author = {Norman Cliff},
  title = {Dominance statistics: ordinal analyses to answer ordinal questions},
  journal = {Psychological Bulletin},
  volume = {114},
  number = {3},
  pages = {494--509},
  year = {1993},
  doi = {10.1037/0033-2909.114.3.494}
}""",
    "deleeuw2009smacof": """@article{deleeuw2009smacof,
  author = {Jan de Leeuw and Patrick Mair},
  title = {Multidimensional scaling using majorization: {SMACOF} in {R}},
  journal = {Journal of Statistical Software},
  volume = {31},
  number = {3},
  pages = {1--30},
  year = {2009},
  doi = {10.18637/jss.v031.i03}
}""",
    "busing2005unfolding": """@article{busing2005unfolding,
  author = {F. M. T. A. Busing and P. J. F. Groenen and W. J. Heiser},
  title = {Avoiding degeneracy in multidimensional unfolding by penalizing on the coefficient of variation},
  journal = {Psychometrika},
  volume = {70},
  number = {1},
  pages = {71--98},
  year = {2005},
  doi = {10.1007/s11336-001-0908-1}
}""",
}

#: The seed paper of each subpackage (the first word of an analysis).
SEED_PAPERS: dict[str, str] = {
    "sota": "moellersen2023multiplicity",
    "consistency": "fazekas2023consistency",
    "compare": "bouthillier2021variance",
    "multiverse": "niessl2022overoptimism",
}

_RANKS = ("demsar2006",)

#: Every analysis (a Description's ``analysis``) -> the method papers beyond its subpackage's seed paper. A
#: name also covers the analyses it starts (before a space or a parenthesis): "compare FixHOptEst" covers
#: "compare FixHOptEst(init)". An empty tuple: the seed paper is the method's own (Bouthillier et al.'s
#: pipelines, Fazekas and Kovács's checks, Møllersen and Holsbø's best-of, Nießl et al.'s multiverse).
ANALYSIS_PAPERS: dict[str, tuple[str, ...]] = {
    "sota best-of": (),
    "sota leaderboard": ("clopper1934",),
    "consistency test-set": (),
    "consistency kfold": (),
    "consistency multiclass": (),
    "consistency batch": (),
    "consistency protocols": (),
    "consistency regression": (),
    "compare outperform": (),
    "compare sample-size": ("noether1987",),
    "compare error-rates": (),
    "compare example": (),
    "compare study runs": (),
    "compare history": (),
    "compare source variances": (),
    "compare test-set variance": (),
    "compare IdealEst": (),
    "compare FixHOptEst": (),
    "compare single point": (),
    "compare average difference": (),
    "compare paired t-test": ("nadeau2003",),
    "compare Welch t-test": (),
    "compare pairwise": _RANKS,
    "compare wilcoxon signed-rank test over data sets": _RANKS,
    "compare friedman test over data sets": _RANKS,
    "compare better everywhere": ("dror2017replicability",),
    "compare choose": ("demsar2006", "benavoli2017timeforachange", "agarwal2021precipice"),
    "compare aggregate": ("agarwal2021precipice",),
    "compare profile": ("agarwal2021precipice",),
    "compare efficiency": ("agarwal2021precipice",),
    "compare improvement": ("agarwal2021precipice",),
    "compare bayes (signed-rank test)": ("benavoli2017timeforachange",),
    "compare bayes (correlated t-test)": ("benavoli2017timeforachange", "nadeau2003"),
    "compare hierarchical": ("corani2017hierarchical", "benavoli2017timeforachange"),
    "compare rank": _RANKS,
    "compare auto": ("herbold2020autorank", "demsar2006"),
    "compare effect": ("vargha2000", "cliff1993", "hedges1981"),
    "compare aso": ("dror2019deepdominance", "delbarrio2018aso"),
    "multiverse": (),
    "multiverse unfold": ("deleeuw2009smacof", "busing2005unfolding"),
}


def _covers(name: str, analysis: str) -> bool:
    """Whether the registry's `name` is `analysis` or starts it, before a space or a parenthesis."""
    return analysis == name or (analysis.startswith(name) and analysis[len(name)] in " (")


def analyses_of(words: str) -> list[str]:
    """The registered analyses that `words` (an analysis or a command, such as ``"compare bayes"``) covers."""
    return [name for name in ANALYSIS_PAPERS if _covers(words, name)]


def citations(analysis: str) -> tuple[str, ...]:
    """The BibTeX entries to cite for `analysis`: benchtrust, its group's seed paper, its methods' papers.

    Parameters
    ----------
    analysis : str
        A :class:`~benchtrust._result.Description`'s ``analysis``, such as ``"sota leaderboard"``. One the
        registry does not name (a user's own result, or none: ``""``) gets benchtrust and the seed paper
        of its group, if it names one; every analysis of benchtrust is named (tests/test_citations.py).

    Returns
    -------
    tuple of str
        The entries, each ``@type{key, field = {...}, ...}``, without repeats.
    """
    group = analysis.split()[0] if analysis else ""
    seed = [SEED_PAPERS[group]] if group in SEED_PAPERS else []
    names = [name for name in ANALYSIS_PAPERS if _covers(name, analysis)]
    methods = ANALYSIS_PAPERS[max(names, key=len)] if names else ()
    return _entries(["benchtrust", *seed, *methods])


def command_citations(words: str) -> tuple[str, ...]:
    """The BibTeX entries ``benchtrust cite WORDS`` prints: benchtrust's, the seed paper of the command's
    group and the method papers of every analysis `words` covers (:func:`analyses_of`); for no words,
    benchtrust's and the four seed papers.

    >>> len(command_citations("")), len(command_citations("compare bayes")), len(command_citations("report"))
    (5, 4, 1)
    """
    if not words:
        return _entries(["benchtrust", *SEED_PAPERS.values()])
    return tuple(dict.fromkeys(entry for name in [words, *analyses_of(words)] for entry in citations(name)))


def _entries(keys) -> tuple[str, ...]:
    """The entries of `keys`, each once, in order."""
    return tuple(BIBTEX[key] for key in dict.fromkeys(keys))
