"""Reading a multiverse spec: dict and YAML forms, fixed options, errors naming file, line and key."""

import re
import textwrap

import pytest

from benchtrust import InputError
from benchtrust.multiverse import read_spec

MEASURE = {"acc": {"better": "higher", "random": 0.5}}


def write(tmp_path, text, name="spec.yaml"):
    """Write dedented YAML `text` to tmp_path/name and return the path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def raises_at(path, line, key, *more):
    """pytest.raises for an InputError naming the file, the line and the dotted key (and `more` words)."""
    pattern = re.escape(f"{path}, line {line} ({key})") + "".join(f".*{re.escape(m)}" for m in more)
    return pytest.raises(InputError, match=pattern)


# ---------------------------------------------------------------------------------------------------------
# valid specs


def test_minimal_dict_spec():
    """A dict with one measure and no choices: four fixed choices, defaults for columns and failure."""
    spec = read_spec({"measures": MEASURE})
    assert spec.source == "spec"
    assert spec.columns == {"dataset": "dataset", "method": "method", "iteration": None}
    assert spec.failure == "any"
    assert spec.methods is None
    (acc,) = spec.measures
    assert (acc.name, acc.column, acc.direction, acc.random, acc.failed_values) == (
        "acc",
        "acc",
        "higher",
        0.5,
        (),
    )
    assert [c.family for c in spec.choices] == ["datasets", "measure", "imputation", "aggregation"]
    assert [c.names for c in spec.choices] == [("all",), ("acc",), ("mean",), ("mean",)]
    assert spec.stepwise == ("datasets", "measure", "imputation", "aggregation")


def test_full_dict_spec_keeps_order_names_and_parameters():
    """Choices keep the spec's order and names; a renamed choice sets its family; parameters are kept."""
    spec = read_spec(
        {
            "columns": {"dataset": "ds", "method": "learner", "iteration": "iter"},
            "measures": {
                "ibrier": {"better": "lower", "random": 0.25},
                "cindex": {"column": "cindex_uno", "better": "higher", "random": 0.5, "failed_values": [0]},
            },
            "failure": "each",
            "methods": ["B", "A"],
            "choices": {
                "agg": {
                    "family": "aggregation",
                    "default": "best0.05",
                    "options": {"mean": {"rule": "mean"}, "best0.05": {"rule": "best", "tolerance": 0.05}},
                },
                "measure": {"default": "cindex", "options": ["ibrier", "cindex"]},
                "imputation": {"options": {"thr": {"rule": "threshold", "threshold": 0.3}}},
            },
            "stepwise": ["measure", "agg"],
        }
    )
    assert spec.columns == {"dataset": "ds", "method": "learner", "iteration": "iter"}
    assert spec.failure == "each" and spec.methods == ("B", "A")
    assert spec.measure("cindex").column == "cindex_uno"
    assert spec.measure("cindex").failed_values == (0.0,)
    assert spec.measure("ibrier").direction == "lower" and spec.measure("ibrier").lower_is_better
    assert [c.name for c in spec.choices] == ["agg", "measure", "imputation", "datasets"]
    agg = spec.choice("aggregation")
    assert agg.name == "agg" and agg.default == "best0.05" and agg.names == ("mean", "best0.05")
    assert dict(agg.options[1].parameters) == {"tolerance": 0.05} and agg.options[1].rule == "best"
    imputation = spec.choice("imputation")
    assert imputation.default == "thr"  # no default: the first option
    assert dict(imputation.options[0].parameters) == {"threshold": 0.3}
    assert spec.stepwise == ("measure", "agg")


def test_list_shorthand_names_rules_and_measures():
    """A list of option names: each a parameterless rule of that name (or, for measure, a measure)."""
    spec = read_spec(
        {
            "measures": {"a": {"better": "higher", "random": 0.5}, "b": {"better": "lower", "random": 1}},
            "choices": {
                "aggregation": {"options": ["median", "mean_rank", "best"]},
                "measure": {"default": "b", "options": ["a", "b"]},
            },
        }
    )
    agg = spec.choice("aggregation")
    assert [(o.name, o.rule, dict(o.parameters)) for o in agg.options] == [
        ("median", "median", {}),
        ("mean_rank", "mean_rank", {}),
        ("best", "best", {}),
    ]
    assert agg.default == "median"
    assert [(o.name, o.rule) for o in spec.choice("measure").options] == [("a", "a"), ("b", "b")]


def test_measure_option_may_rename_a_measure():
    """A measure option given as a mapping names its measure with ``measure:``."""
    spec = read_spec(
        {
            "measures": {"a": {"better": "higher", "random": 0.5}, "b": {"better": "lower", "random": 1}},
            "choices": {"measure": {"options": {"first": {"measure": "a"}, "second": {"measure": "b"}}}},
        }
    )
    assert [(o.name, o.rule) for o in spec.choice("measure").options] == [("first", "a"), ("second", "b")]


@pytest.mark.parametrize(
    ("family", "fixed"),
    [("datasets", "all"), ("measure", "acc"), ("imputation", "mean"), ("aggregation", "mean")],
)
def test_a_family_left_out_gets_its_one_fixed_option(family, fixed):
    """Each family not in the spec is a choice of that name with one option, the default."""
    others = {"datasets": ["all"], "measure": ["acc"], "imputation": ["random"], "aggregation": ["median"]}
    del others[family]
    spec = read_spec({"measures": MEASURE, "choices": {f: {"options": o} for f, o in others.items()}})
    choice = spec.choice(family)
    assert choice.name == family and choice.names == (fixed,) and choice.default == fixed
    assert choice.options[0].rule == fixed
    assert spec.choices[-1] is choice  # left-out families come after the declared ones


def test_yaml_file_reads_like_the_dict(tmp_path):
    """The same spec as YAML and as dict parse to the same choices and measures; source is the file."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          imputation:
            default: thr
            options:
              thr: {rule: threshold, threshold: 0.2}
              w: {rule: weighted}
          aggregation: {options: [mean, median]}
    """,
    )
    as_dict = read_spec(
        {
            "measures": MEASURE,
            "choices": {
                "imputation": {
                    "default": "thr",
                    "options": {"thr": {"rule": "threshold", "threshold": 0.2}, "w": {"rule": "weighted"}},
                },
                "aggregation": {"options": ["mean", "median"]},
            },
        }
    )
    from_file = read_spec(path)
    assert from_file.source == str(path)
    assert from_file.measures == as_dict.measures
    assert [
        (c.name, c.family, c.default, [(o.name, o.rule, dict(o.parameters)) for o in c.options])
        for c in from_file.choices
    ] == [
        (c.name, c.family, c.default, [(o.name, o.rule, dict(o.parameters)) for o in c.options])
        for c in as_dict.choices
    ]


def test_bundled_spec_reads():
    """The bundled Herrmann spec: 9 × 2 × 4 × 4 options, defaults as in the paper."""
    from benchtrust.multiverse import bundled_study

    spec = read_spec(bundled_study()["spec"])
    assert [len(c.options) for c in spec.choices] == [9, 2, 4, 4]
    assert [c.default for c in spec.choices] == ["all", "ibrier", "threshold0.2", "mean"]


# ---------------------------------------------------------------------------------------------------------
# errors in YAML files: file, line, key


def test_malformed_yaml_names_line_and_column(tmp_path):
    """A YAML syntax error names the file, its line and column."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5
        choices: {}
    """,
    )
    with pytest.raises(InputError, match=re.escape(f"{path}, line 3, column 8: not valid YAML")):
        read_spec(path)


def test_empty_yaml_file(tmp_path):
    """An empty file is an error naming the file."""
    path = write(tmp_path, "# nothing\n")
    with pytest.raises(InputError, match=re.escape(f"{path}: empty")):
        read_spec(path)


def test_unknown_option_family(tmp_path):
    """A choice whose name (no ``family:``) is not a family: line of the choice, the families listed."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          summary:
            options: [mean]
    """,
    )
    with raises_at(
        path,
        4,
        "choices.summary.family",
        "unknown option family 'summary'",
        "datasets, measure, imputation, aggregation",
    ):
        read_spec(path)


def test_unknown_explicit_family(tmp_path):
    """A misspelt ``family:`` names its own line."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          summary:
            family: agregation
            options: [mean]
    """,
    )
    with raises_at(path, 5, "choices.summary.family", "unknown option family 'agregation'"):
        read_spec(path)


def test_unknown_rule_lists_known_ones(tmp_path):
    """An unknown rule names the option's line and lists the family's known rules."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          aggregation:
            default: mean
            options:
              mean: {rule: mean}
              med: {rule: medain}
    """,
    )
    with raises_at(
        path,
        8,
        "choices.aggregation.options.med.rule",
        "unknown aggregation rule 'medain'",
        "known:",
        "mean_rank",
        "median",
    ):
        read_spec(path)


def test_unknown_rule_in_list_shorthand(tmp_path):
    """In the list form the option's name is its rule; an unknown one is named."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          imputation:
            options: [mean, treshold]
    """,
    )
    with pytest.raises(
        InputError,
        match=re.escape(f"{path}, line 5 (choices.imputation.options.treshold")
        + ".*unknown imputation rule 'treshold'.*threshold",
    ):
        read_spec(path)


def test_unknown_parameter_for_a_rule(tmp_path):
    """A parameter the rule does not take: the parameter's line, and the ones it takes."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          imputation:
            options:
              thr:
                rule: threshold
                treshold: 0.2
    """,
    )
    with raises_at(
        path,
        8,
        "choices.imputation.options.thr.treshold",
        "has no parameter 'treshold'",
        "it takes threshold",
    ):
        read_spec(path)


def test_parameter_for_a_rule_without_parameters(tmp_path):
    """A rule without parameters says so."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          aggregation:
            options:
              m: {rule: mean, cut: 0.1}
    """,
    )
    with raises_at(path, 6, "choices.aggregation.options.m.cut", "no parameters"):
        read_spec(path)


def test_option_without_rule(tmp_path):
    """A mapping option without ``rule:`` names the option."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          aggregation:
            options:
              m: {}
    """,
    )
    with raises_at(path, 6, "choices.aggregation.options.m", "no 'rule'"):
        read_spec(path)


def test_default_that_is_not_an_option(tmp_path):
    """A default not among the options: the default's line, the options listed."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          aggregation:
            options: [mean, median]
            default: best
    """,
    )
    with raises_at(path, 6, "choices.aggregation.default", "'best' is not one of its options (mean, median)"):
        read_spec(path)


def test_missing_measures(tmp_path):
    """No ``measures``: the top level, line 1."""
    path = write(
        tmp_path,
        """
        choices:
          aggregation: {options: [mean]}
    """,
    )
    with raises_at(path, 1, "top level", "no 'measures'"):
        read_spec(path)


def test_empty_measures(tmp_path):
    """An empty ``measures`` mapping."""
    path = write(
        tmp_path,
        """
        failure: any
        measures: {}
    """,
    )
    with raises_at(path, 2, "measures", "at least one measure"):
        read_spec(path)


def test_measure_option_naming_an_undeclared_measure(tmp_path):
    """A measure option that is not a declared measure: its line, the declared ones listed."""
    path = write(
        tmp_path,
        """
        measures:
          ibrier: {better: lower, random: 0.25}
          cindex: {better: higher, random: 0.5}
        choices:
          measure:
            options:
              ibrier: {}
              auc: {}
    """,
    )
    with raises_at(
        path, 8, "choices.measure.options.auc", "'auc' is not a declared measure", "(ibrier, cindex)"
    ):
        read_spec(path)


def test_measure_option_in_list_naming_an_undeclared_measure(tmp_path):
    """The same in the list form."""
    path = write(
        tmp_path,
        """
        measures:
          ibrier: {better: lower, random: 0.25}
        choices:
          measure: {options: [ibrier, auc]}
    """,
    )
    with pytest.raises(
        InputError,
        match=re.escape(f"{path}, line 4 (choices.measure.options.auc)") + ".*not a declared measure",
    ):
        read_spec(path)


def test_bad_better(tmp_path):
    """``better`` must be higher or lower: the line of ``better``."""
    path = write(
        tmp_path,
        """
        measures:
          acc:
            random: 0.5
            better: high
    """,
    )
    with raises_at(path, 4, "measures.acc.better", "expected 'higher' or 'lower', got 'high'"):
        read_spec(path)


def test_missing_better(tmp_path):
    """A missing ``better`` names the measure's line."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {random: 0.5}
    """,
    )
    with raises_at(path, 2, "measures.acc.better", "got None"):
        read_spec(path)


def test_missing_random(tmp_path):
    """A measure without ``random``: the measure's line."""
    path = write(
        tmp_path,
        """
        measures:
          ibrier: {better: lower, random: 0.25}
          acc: {better: higher}
    """,
    )
    with raises_at(path, 3, "measures.acc", "no 'random'"):
        read_spec(path)


def test_random_that_is_not_a_number(tmp_path):
    """``random`` must be a number."""
    path = write(
        tmp_path,
        """
        measures:
          acc:
            better: higher
            random: half
    """,
    )
    with raises_at(path, 4, "measures.acc.random", "expected a number, got 'half'"):
        read_spec(path)


def test_unknown_measure_key(tmp_path):
    """A key a measure does not take."""
    path = write(
        tmp_path,
        """
        measures:
          acc:
            better: higher
            random: 0.5
            direction: up
    """,
    )
    with raises_at(path, 5, "measures.acc.direction", "unknown key 'direction'"):
        read_spec(path)


def test_stepwise_naming_an_unknown_choice(tmp_path):
    """``stepwise`` entries must be choices: the entry's line, the choices listed."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          aggregation: {options: [mean, median]}
        stepwise:
          - aggregation
          - imputaton
    """,
    )
    with raises_at(
        path, 7, "stepwise.1", "'imputaton' is not a choice", "(aggregation, datasets, measure, imputation)"
    ):
        read_spec(path)


def test_two_choices_of_one_family(tmp_path):
    """Two choices of one family: the second choice's line."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          aggregation: {options: [mean]}
          summary:
            family: aggregation
            options: [median]
    """,
    )
    with raises_at(path, 5, "choices.summary", "a second choice of family 'aggregation'"):
        read_spec(path)


def test_several_measures_but_no_measure_choice(tmp_path):
    """Several measures need a measure choice: the ``choices`` line."""
    path = write(
        tmp_path,
        """
        measures:
          ibrier: {better: lower, random: 0.25}
          cindex: {better: higher, random: 0.5}
        choices:
          aggregation: {options: [mean]}
    """,
    )
    with raises_at(path, 4, "choices", "several measures", "'measure' choice"):
        read_spec(path)


def test_unknown_top_level_key(tmp_path):
    """An unknown top-level key: its line, the allowed keys listed."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choice:
          aggregation: {options: [mean]}
    """,
    )
    with raises_at(path, 3, "choice", "unknown key 'choice'", "columns, measures, failure, methods, choices"):
        read_spec(path)


def test_bad_failure_and_columns(tmp_path):
    """``failure`` is any or each; ``columns`` takes dataset, method, iteration."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        failure: all
    """,
    )
    with raises_at(path, 3, "failure", "expected 'any' or 'each', got 'all'"):
        read_spec(path)
    path = write(
        tmp_path,
        """
        columns:
          dataset: ds
          learner: method
        measures:
          acc: {better: higher, random: 0.5}
    """,
        name="columns.yaml",
    )
    with raises_at(path, 3, "columns.learner", "unknown key 'learner'"):
        read_spec(path)


def test_option_listed_twice_and_method_listed_twice(tmp_path):
    """Duplicate names in an options list or in ``methods``."""
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        choices:
          aggregation: {options: [mean, mean]}
    """,
    )
    with raises_at(path, 4, "choices.aggregation.options", "listed twice"):
        read_spec(path)
    path = write(
        tmp_path,
        """
        measures:
          acc: {better: higher, random: 0.5}
        methods: [A, B, A]
    """,
        name="methods.yaml",
    )
    with raises_at(path, 3, "methods.2", "'A' is listed twice"):
        read_spec(path)


# ---------------------------------------------------------------------------------------------------------
# errors in dict specs and other inputs


def test_dict_spec_errors_name_the_key():
    """A dict spec has no lines: the message says 'spec' and the dotted key."""
    with pytest.raises(InputError, match=re.escape("spec (choices.aggregation.default)")):
        read_spec({"measures": MEASURE, "choices": {"aggregation": {"default": "x", "options": ["mean"]}}})
    with pytest.raises(InputError, match=re.escape("spec (measures.acc.better)")):
        read_spec({"measures": {"acc": {"better": 1, "random": 0.5}}})


def test_not_a_spec():
    """Neither a path nor a mapping; a YAML document that is not a mapping."""
    with pytest.raises(InputError, match="expected a YAML file path or a mapping, got int"):
        read_spec(3)


def test_yaml_that_is_not_a_mapping(tmp_path):
    """A YAML list at the top level."""
    path = write(tmp_path, "- measures\n- choices\n")
    with pytest.raises(InputError, match=re.escape(f"{path}, line 1 (top level): expected a mapping")):
        read_spec(path)


def test_missing_file(tmp_path):
    """A path that does not exist."""
    path = tmp_path / "nope.yaml"
    with pytest.raises(InputError, match=re.escape(f"{path}: no such file")):
        read_spec(path)
