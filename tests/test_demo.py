"""``make demo``: Table 2 beside the paper's values, Fig. 1, the Titanic leaderboard with its Fig. 7, the
consistency examples of Fazekas & Kovács, the comparison of two scikit-learn classifiers, the multiverse of
Nießl et al., and the HTML report of them all."""

from benchtrust import _demo

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_demo_prints_table_2_and_writes_fig_1(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _demo.main()
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines()]
    rows = [line for line in lines if line and line[0] in {"3.4", "4.1", "4.2", "4.3"}]
    assert [row[:3] for row in rows] == [
        ["3.4", "YES", "YES"],
        ["4.1", "NO", "YES"],
        ["4.1", "NO*", "YES"],
        ["4.2", "YES", "NO"],
        ["4.3", "NO", "NO"],
    ]
    for row in rows:
        # Upper limit and expected value agree with the paper to its four printed decimals.
        assert row[3] == row[4]
        assert row[5] == row[6]
    figure = tmp_path / "demo-output" / "fig1-best-of-1000.png"
    assert figure.read_bytes().startswith(PNG_SIGNATURE)
    assert "demo-output/fig1-best-of-1000.png" in out
    leaderboard = figure.parent / "fig7-titanic-leaderboard.png"
    assert leaderboard.read_bytes().startswith(PNG_SIGNATURE)
    assert sorted(p.name for p in figure.parent.iterdir()) == [
        figure.name,
        leaderboard.name,
        "multiverse",
        "report.html",
    ]
    assert (figure.parent / "multiverse" / "unfolding.png").read_bytes().startswith(PNG_SIGNATURE)
    # The Titanic analysis, perfect (leaked) scores left out, in plain words.
    assert "teams used             16066 (excluded: 39 broken, 57 chance, 111 implausible)" in out
    assert "A sober state of the art is" in out
    # The consistency examples of Fazekas & Kovács, §3.3 and §5.2, in plain words.
    text = " ".join(out.split())
    assert "consistent: 2 confusion matrices of 1000 positives and 6000 negatives" in text
    assert "(tp, tn) = (743, 4031), (743, 4032)" in text
    assert "inconsistent: no per-fold confusion matrices of any of the 918 fold configurations" in text
    assert "(1, 101), (4, 97), (40, 61), (99, 2), (100, 1)" in text
    # The variance-aware comparison of two scikit-learn classifiers (Bouthillier et al.).
    assert "Is A really better than B?" in out
    assert "P(A > B) = " in out and "Runs needed (C.3, " in out and "0.05): 29;" in out
    # The multiverse of Nießl et al. on the Herrmann et al. results.
    assert "$ benchtrust multiverse example --out demo-output/multiverse" in out
    assert "288 combinations (9 datasets" in text
    assert "Kaplan-Meier 7 3 13" in text
    # The report of every bundled example: one section per analysis, the plots inlined as SVG.
    assert out.rstrip().endswith("Report written to demo-output/report.html")
    page = (figure.parent / "report.html").read_text(encoding="utf-8")
    analyses = [
        "sota best-of",
        "sota leaderboard",
        "consistency test-set",
        "consistency kfold",
        "consistency kfold",
        "compare example",
        "multiverse",
    ]
    assert page.count('<section class="analysis"') == len(analyses)
    for analysis in set(analyses):
        assert page.count(f"benchtrust {analysis}</p>") == analyses.count(analysis)
    assert page.count("<svg") == page.count("<figure>") == 3  # Fig. 1, Fig. 7, the rank distribution
    assert "<script" not in page and "http://" not in page and "https://" not in page
    report = " ".join(page.split())
    assert "(tp, tn) = (743, 4031), (743, 4032)" in report
    assert "any of the 918 fold configurations" in report
    assert "Top of the board" in report
