"""A key given twice in a YAML file is an error naming its line, in every YAML reader (issue 19, §7):
PyYAML alone keeps the last value and drops the other without a word."""

import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from benchtrust import InputError, cli
from benchtrust._report.config import read_config
from benchtrust._yaml import load_yaml
from benchtrust.multiverse import read_spec

SRC = Path(__file__).resolve().parents[1] / "src" / "benchtrust"

CONFIG = """\
title: audit
analyses:
  - analysis: consistency test-set
    positives: 10
    negatives: 20
    positives: 11
    scores: {acc: "0.9"}
"""
SPEC = """\
columns: {dataset: data, method: method, iteration: fold}
measures:
  acc: {better: higher, random: 0.5}
choices:
  aggregation: {default: mean, options: [mean, median]}
  aggregation: {default: median, options: [mean, median]}
"""


def problem(text):
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        load_yaml(text)
    return caught.value.problem_mark.line + 1, caught.value.problem


@pytest.mark.parametrize(
    ("text", "line", "first", "key"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, 1, "'a'"),
        ("outer:\n  x: 1\n  y: 2\n  x: 1\n", 4, 2, "'x'"),  # nested, even with the same value
        ("{a: 1, b: 2, a: 3}\n", 1, 1, "'a'"),  # a flow mapping on one line
        ("- {a: 1}\n- b: 1\n  b: 2\n", 3, 2, "'b'"),  # in a list
        ("1: one\n1.0: also one\n", 2, 1, "1.0"),  # equal values: one key of the dict they become
    ],
)
def test_a_repeated_key_is_refused_at_its_second_line(text, line, first, key):
    assert problem(text) == (line, f"key {key} is given twice, first on line {first}")


def test_an_unhashable_key_is_still_pyyamls_error():
    assert "unhashable" in problem("? [a, b]\n: 1\n? [a, b]\n: 2\n")[1]


def test_what_is_not_a_repeated_key_still_loads():
    assert load_yaml("a: 1\nb: {a: 2}\nc: [{a: 3}, {a: 4}]\n") == {
        "a": 1,
        "b": {"a": 2},
        "c": [{"a": 3}, {"a": 4}],
    }
    # a key merged in from an anchor may be overridden, as YAML allows
    assert load_yaml("base: &b {x: 1, y: 2}\nmore: {<<: *b, x: 3}\n")["more"] == {"x": 3, "y": 2}
    assert load_yaml("") is None and load_yaml("- 1\n- 1\n") == [1, 1]
    with pytest.raises(yaml.YAMLError):  # still the safe loader: no Python objects
        load_yaml("!!python/object/apply:os.getcwd []\n")


def test_a_report_config_with_a_repeated_key_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "audit.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    message = f"{path}, line 6: key 'positives' is given twice, first on line 4"
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        read_config(path)
    result = CliRunner().invoke(cli.app, ["report", str(path), "--out", str(tmp_path / "r.html")])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"benchtrust: error: {message}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.yaml"]


def test_a_multiverse_spec_with_a_repeated_key_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    with pytest.raises(
        InputError, match=r"spec\.yaml, line 6, .*key 'aggregation' is given twice, first on line 5"
    ):
        read_spec(path)


def test_every_yaml_reader_uses_load_yaml():
    """No module but _yaml builds Python objects from YAML by itself (yaml.compose, for the lines of
    keys, builds none)."""
    loading = re.compile(r"\byaml\.(safe_load|load|full_load|unsafe_load|safe_load_all|load_all)\(")
    found = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "_yaml.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if loading.search(line)
    ]
    assert found == []
