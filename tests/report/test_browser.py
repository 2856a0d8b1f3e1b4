"""The HTML report in a real browser: headless Chromium opens it from a file, a screenshot is saved, and
the page has one section per analysis, every image rendered with non-zero size, no console errors."""

import re

import pytest

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A valid 1x1 PNG, shown 40x20: the report may inline raster plots as data URLs.
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
# The report's shape: a self-contained page, one section per analysis, plots inlined as <svg> in <figure>.
PAGE = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>benchtrust report</title></head>
<body>
<section class="analysis" id="leaderboard"><h2>Leaderboard</h2>
  <figure><svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
    <rect x="10" y="10" width="180" height="80" fill="steelblue"/></svg>
  <figcaption>An inline SVG plot.</figcaption></figure>
</section>
<section class="analysis" id="comparison"><h2>Comparison</h2>
  <figure><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" style="width: 150px">
    <circle cx="50" cy="50" r="40" fill="darkorange"/></svg></figure>
  <figure><img src="data:image/png;base64,{PIXEL}" width="40" height="20" alt="a raster plot"></figure>
</section>
</body></html>
"""
# Every img and svg element: its rendered box, and for images the decoded width.
IMAGES_JS = """
return Array.from(document.querySelectorAll('img, svg'), (element) => {
  const box = element.getBoundingClientRect();
  const tag = element.tagName.toLowerCase();
  const src = (element.getAttribute('src') || '').slice(0, 40);
  const name = element.id || src || element.outerHTML.slice(0, 60);
  return {tag: tag, name: name, width: box.width, height: box.height,
          natural: tag === 'img' ? element.naturalWidth : null};
});
"""


def open_report(driver, html, screenshot):
    """Open ``html`` as a file URL and save a screenshot; what the checks need to know about the page."""
    driver.get(html.resolve().as_uri())
    saved = driver.save_screenshot(str(screenshot))
    return {
        "saved": saved,
        "sections": len(driver.find_elements("css selector", "section.analysis")),
        "images": driver.execute_script(IMAGES_JS),
        "errors": [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"],
    }


def unrendered(images):
    """The images drawn with zero width or height, or (``img``) that did not decode."""
    return [
        image
        for image in images
        if image["width"] <= 0 or image["height"] <= 0 or (image["tag"] == "img" and image["natural"] <= 0)
    ]


def assert_screenshot(path):
    """A PNG that is not one flat colour."""
    from PIL import Image

    assert path.read_bytes().startswith(PNG_SIGNATURE)
    with Image.open(path) as image:
        assert image.width > 0 and image.height > 0
        low, high = image.convert("L").getextrema()
    assert low < high, "the screenshot is blank"


def test_self_made_page_passes_every_check(browser, tmp_path):
    """The harness on a page of the report's shape: 2 sections, 2 inline SVGs and a data-URL image."""
    html = tmp_path / "report.html"
    html.write_text(PAGE, encoding="utf-8")
    page = open_report(browser, html, tmp_path / "report.png")
    assert page["saved"]
    assert_screenshot(tmp_path / "report.png")
    assert page["sections"] == 2
    assert sorted(image["tag"] for image in page["images"]) == ["img", "svg", "svg"]
    assert unrendered(page["images"]) == []
    assert page["errors"] == []


def test_checks_catch_a_broken_image(browser, tmp_path):
    """The checks are not vacuous: a missing image file logs a console error and renders no picture."""
    html = tmp_path / "broken.html"
    html.write_text(
        '<!DOCTYPE html><html><body><section class="analysis">'
        '<img src="missing.png" alt="">'
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>'
        "</section></body></html>",
        encoding="utf-8",
    )
    page = open_report(browser, html, tmp_path / "broken.png")
    assert page["sections"] == 1
    assert [image["tag"] for image in unrendered(page["images"])] == ["img", "svg"]
    assert any("missing.png" in entry["message"] for entry in page["errors"])


@pytest.mark.slow
def test_demo_report_renders_in_chromium(demo, browser, tmp_path):
    """The demo's report (``demo-output/report.html`` as ``make demo`` writes it): one section per
    analysis, every plot drawn, no console errors."""
    demo_report = demo[1] / "report.html"
    assert demo_report.exists(), "make demo wrote no demo-output/report.html"
    source = demo_report.read_text(encoding="utf-8")
    expected = len(re.findall(r'<section\b[^>]*\bclass="(?:[^"]*\s)?analysis[\s"]', source))
    assert expected >= 4  # Titanic leaderboard, consistency examples, scikit-learn comparison, multiverse
    page = open_report(browser, demo_report, tmp_path / "report.png")
    assert page["saved"]
    assert_screenshot(tmp_path / "report.png")
    assert page["sections"] == expected
    assert page["images"], "the report shows no plot"
    assert unrendered(page["images"]) == []
    assert page["errors"] == []
