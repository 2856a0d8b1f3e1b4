"""docs/benchtrust.ipynb runs in a real Jupyter kernel (nbclient, ipykernel) and prints what it shows.

Every code cell is executed in order; none may raise, and its printed text (stdout and the plain-text form of
its value) must equal the output stored in the notebook, exactly, as the docs' examples are checked in
tests/test_docs.py. Rich forms are not compared byte for byte, but a result left as a cell's value must show
its report section (``_repr_html_``: self-contained, its verdict escaped), and the plot must be drawn.
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "benchtrust.ipynb"


def printed(cell):
    """The text a code cell printed: its stdout streams and the plain-text form of its value, in order."""
    texts = []
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream" and output["name"] == "stdout":
            texts.append(output["text"])
        elif output["output_type"] == "execute_result":
            texts.append(output["data"].get("text/plain", ""))
    return "".join(texts)


@pytest.mark.slow
def test_notebook_runs_and_prints_what_it_shows():
    stored = nbformat.read(NOTEBOOK, as_version=4)
    executed = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(executed, timeout=600, kernel_name="python3", record_timing=False)
    client.execute(cwd=str(NOTEBOOK.parent))
    code = [(a, b) for a, b in zip(stored.cells, executed.cells, strict=True) if a.cell_type == "code"]
    assert len(code) == 8, "a setup cell, three for the leaderboard, one per other question and the maps"
    for number, (shown, ran) in enumerate(code, 1):
        assert not [o for o in ran.outputs if o["output_type"] == "error"], f"code cell {number} raised"
        assert printed(ran) == printed(shown), f"code cell {number} printed something else"
    assert "teams used             16066" in printed(code[1][1])
    drawn = [o for o in code[3][1].outputs if "image/png" in o.get("data", {})]
    assert drawn, "the plot is drawn on the Axes given"
    section = html(code[4][1])
    assert section.startswith('<div class="benchtrust">') and "<script" not in section.lower()
    assert '<p class="verdict">Inconsistent: no split into 5 folds of near-equal size' in section
    assert "8 of 13 methods rank first" in printed(code[6][1])
    maps = [o for o in code[7][1].outputs if "image/png" in o.get("data", {})]
    assert len(maps) == 3, "Fig. 4, Fig. 6 and Fig. S3 are drawn"


def html(cell):
    """The HTML form of a cell's value."""
    (value,) = [o for o in cell.outputs if o["output_type"] == "execute_result"]
    return value["data"]["text/html"]
