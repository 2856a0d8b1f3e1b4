"""The spec of a multiverse: measures, choices, options and defaults, from YAML (``safe_load``) or a dict.

A spec (the bundled ``herrmann-spec.yaml`` is a full example)::

    columns: {dataset: dataset, method: learner, iteration: iter}   # the results file's column names
    measures:                                 # each: its column (default: its name), which end is better,
      ibrier: {better: lower, random: 0.25}   # the value of a random prediction and values that mean
      cindex: {column: cindex_uno, better: higher, random: 0.5, failed_values: [0]}   # "failed"
    failure: any        # an iteration failed if any measure is missing ("each": each measure on its own)
    methods: [...]      # optional: the methods to rank, in this order (default: all, as first seen)
    choices:            # in the order of the combinations' columns
      datasets:         # the name; the family is the name, or set with "family:"
        default: all
        options:
          all: {rule: all}
          clin small: {rule: below_median, characteristic: p_clin}
      measure: {default: ibrier, options: [ibrier, cindex]}
      imputation: {default: threshold0.2, options: {threshold0.2: {rule: threshold, threshold: 0.2}}}
      aggregation: {default: mean, options: [mean, median, mean_rank]}
    stepwise: [imputation, aggregation, measure, datasets]  # optional; default: the choices' order
    unfolding: {conditionality: unconditional, dimensions: 2, penalty_strength: 0.5, penalty_range: 1.0}

Options may be a list of names (each then is a rule of that name without parameters, or for ``measure``
a measure's name) or a mapping from names to ``{rule: ..., <parameters>}``. A family left out has one
fixed option: every data set, the only measure, the mean of the non-failed iterations, the mean.
Every mistake raises :class:`benchtrust.InputError` naming the file, the line and the key.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any, TypedDict

from benchtrust._io import InputError, check_direction, read_text
from benchtrust.multiverse._options import FAMILIES, rule

__all__ = ["Choice", "Columns", "Measure", "Option", "Spec", "read_spec"]

_UNFOLDING_KEYS = ("conditionality", "dimensions", "penalty_strength", "penalty_range")
_FIXED = {"datasets": "all", "imputation": "mean", "aggregation": "mean"}


class Columns(TypedDict):
    """The names of the results file's columns: the data sets, the methods and the resampling iterations
    (None: the file has no such column)."""

    dataset: str
    method: str
    iteration: str | None


@dataclasses.dataclass(frozen=True)
class Measure:
    """A performance measure: its column, direction, random-prediction value and failure markers.

    ``direction`` is the spec's ``better:``, ``"lower"`` for a loss (such as the integrated Brier score) or
    ``"higher"`` for a score (such as the C-index).
    """

    name: str
    column: str
    direction: str
    random: float
    failed_values: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        check_direction(self.direction)

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower value is better: ``direction == "lower"`` (the old spelling, for old code)."""
        return self.direction == "lower"


@dataclasses.dataclass(frozen=True)
class Option:
    """One option of a choice: its name, rule (a measure's name for ``measure``), parameters and place."""

    name: str
    rule: str
    parameters: Mapping[str, object]
    place: str


@dataclasses.dataclass(frozen=True)
class Choice:
    """A choice of the multiverse: its name, family, options (in spec order) and default option."""

    name: str
    family: str
    options: tuple[Option, ...]
    default: str

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the options, in spec order."""
        return tuple(option.name for option in self.options)


@dataclasses.dataclass(frozen=True)
class Spec:
    """A parsed multiverse spec; see the module docstring for the YAML form.

    See Also
    --------
    read_spec : Read and check a multiverse spec.
    register_option : Add a rule to an option family.
    rankings : Rank the methods under every combination of the spec's options.
    study : Run the paper's analyses on one benchmark and spec.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §2 and Fig. 1 (the
       choices and their options); §3.1 (their combinations).
    """

    columns: Columns
    measures: tuple[Measure, ...]
    failure: str
    methods: tuple[str, ...] | None
    choices: tuple[Choice, ...]
    stepwise: tuple[str, ...]
    unfolding: Mapping[str, object]
    source: str

    def choice(self, family: str) -> Choice | None:
        """The choice of option family `family`, or None if the spec has none (:func:`read_spec` gives
        every family a choice)."""
        return next((c for c in self.choices if c.family == family), None)

    def measure(self, name: str) -> Measure:
        """The declared measure `name`."""
        return next(m for m in self.measures if m.name == name)


def choice_of(spec: Spec, family: str) -> Choice:
    """The spec's choice of option family `family` (:func:`read_spec` gives every family one); InputError
    for a spec made without one."""
    choice = spec.choice(family)
    if choice is None:
        raise InputError(f"{spec.source}: no choice of the option family {family!r}")
    return choice


class _Places:
    """Say where a key of the spec is: the file, its line (when read from YAML) and the dotted key."""

    def __init__(self, source: str, lines: dict[tuple[str, ...], int]):
        self.source = source
        self.lines = lines

    def __call__(self, *path: object) -> str:
        keys = tuple(str(key) for key in path)
        dotted = ".".join(keys) or "top level"
        for end in range(len(keys), -1, -1):
            if keys[:end] in self.lines:
                return f"{self.source}, line {self.lines[keys[:end]]} ({dotted})"
        return f"{self.source} ({dotted})"


def read_spec(spec: str | os.PathLike[str] | Mapping[str, Any]) -> Spec:
    """Read and check a multiverse spec from a YAML file (path) or a mapping.

    Parameters
    ----------
    spec : str, os.PathLike or mapping
        The YAML file, read as ``yaml.safe_load`` reads it (a key given twice is an error), or the same
        structure as a dict.

    Returns
    -------
    Spec

    Raises
    ------
    benchtrust.InputError
        Naming the file, the line and the key of the first mistake: malformed YAML, an unknown family or
        rule, a parameter the rule does not take, a default that is not an option, a duplicate name …

    See Also
    --------
    Spec : A parsed multiverse spec.
    register_option : Add a rule to an option family.
    rankings : Rank the methods under every combination of the spec's options.
    study : Run the paper's analyses on one benchmark and spec.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §2 and Fig. 1 (the
       choices and their options); §3.1 (their combinations).

    Examples
    --------
    >>> from benchtrust.multiverse._spec import read_spec
    >>> spec = read_spec({
    ...     "measures": {"accuracy": {"better": "higher", "random": 0.5}},
    ...     "choices": {"aggregation": {"default": "mean", "options": ["mean", "median"]}},
    ... })
    >>> for choice in spec.choices:  # the families left out get one fixed option each
    ...     print(choice.name, choice.names, choice.default)
    aggregation ('mean', 'median') mean
    datasets ('all',) all
    measure ('accuracy',) accuracy
    imputation ('mean',) mean
    """
    if isinstance(spec, (str, os.PathLike)):
        data, places = _load_yaml(spec)
    elif isinstance(spec, Mapping):
        data, places = spec, _Places("spec", {})
    else:
        raise InputError(f"spec: expected a YAML file path or a mapping, got {type(spec).__name__}")
    if not isinstance(data, Mapping):
        raise InputError(f"{places()}: expected a mapping with keys measures, choices, …")
    _only(data, ("columns", "measures", "failure", "methods", "choices", "stepwise", "unfolding"), places)
    columns = _columns(data.get("columns", {}), places)
    measures = _measures(data.get("measures"), places)
    failure = data.get("failure", "any")
    if failure not in ("any", "each"):
        raise InputError(f"{places('failure')}: expected 'any' or 'each', got {failure!r}")
    choices = _choices(data.get("choices", {}), measures, places)
    methods = data.get("methods")
    return Spec(
        columns=columns,
        measures=measures,
        failure=failure,
        methods=None if methods is None else _names(methods, places, "methods", "method names"),
        choices=choices,
        stepwise=_stepwise(data.get("stepwise"), choices, places),
        unfolding=_unfolding(data.get("unfolding", {}), places),
        source=places.source,
    )


def _load_yaml(path) -> tuple[object, _Places]:
    """The YAML document in `path` and the line of each key, or an InputError naming the place."""
    import yaml

    from benchtrust._yaml import load_yaml

    name = os.fspath(path)
    text = read_text(path)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = load_yaml(text)
    except RecursionError:
        raise InputError(f"{name}: not valid YAML (nested too deeply); a spec has a few levels") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InputError(f"{name}{where}: not valid YAML ({exc.problem or exc.context})") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{name}: not valid YAML ({exc})") from None
    if data is None:
        raise InputError(f"{name}: empty; expected a multiverse spec with keys measures and choices")
    lines: dict[tuple[str, ...], int] = {}
    _node_lines(node, (), lines, set())
    return data, _Places(name, lines)


def _node_lines(node, path, lines, seen) -> None:
    """Record the line of every key path under `node`; a node reached again by an alias is not re-entered
    (so that a "billion laughs" of aliases takes no longer than its text)."""
    import yaml

    lines.setdefault(path, node.start_mark.line + 1)
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            inner = (*path, str(key.value))
            lines[inner] = key.start_mark.line + 1
            _node_lines(value, inner, lines, seen)
    elif isinstance(node, yaml.SequenceNode):
        for k, item in enumerate(node.value):
            _node_lines(item, (*path, str(k)), lines, seen)


def _only(mapping, allowed, places, *path) -> None:
    for key in mapping:
        if key not in allowed:
            raise InputError(f"{places(*path, key)}: unknown key {key!r}; expected {', '.join(allowed)}")


def _mapping(value, places, *path) -> Mapping:
    if not isinstance(value, Mapping):
        raise InputError(f"{places(*path)}: expected a mapping (key: value lines), got {value!r}")
    return value


def _text(value, places, *path) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{places(*path)}: expected a name, got {value!r}")
    return value


def _number(value, places, *path) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise InputError(f"{places(*path)}: expected a number, got {value!r}")
    return float(value)


def _names(value, places, key, what) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise InputError(f"{places(key)}: expected a list of {what}, got {value!r}")
    names = tuple(_text(item, places, key, k) for k, item in enumerate(value))
    for k, name in enumerate(names):
        if name in names[:k]:
            raise InputError(f"{places(key, k)}: {name!r} is listed twice")
    return names


def _columns(value, places) -> Columns:
    columns = _mapping(value, places, "columns")
    _only(columns, ("dataset", "method", "iteration"), places, "columns")
    named = {key: _text(columns[key], places, "columns", key) for key in columns}
    return Columns(
        dataset=named.get("dataset", "dataset"),
        method=named.get("method", "method"),
        iteration=named.get("iteration"),
    )


def _measures(value, places) -> tuple[Measure, ...]:
    if value is None:
        raise InputError(f"{places()}: no 'measures'; declare each measure's direction and random value")
    measures = _mapping(value, places, "measures")
    if not measures:
        raise InputError(f"{places('measures')}: declare at least one measure")
    out: list[Measure] = []
    for name, entry in measures.items():
        entry = _mapping(entry, places, "measures", name)
        _only(entry, ("column", "better", "random", "failed_values"), places, "measures", name)
        better = entry.get("better")
        if better not in ("higher", "lower"):
            raise InputError(
                f"{places('measures', name, 'better')}: expected 'higher' or 'lower', got {better!r}"
            )
        if "random" not in entry:
            raise InputError(
                f"{places('measures', name)}: no 'random' (the measure's value for a random prediction, "
                "imputed for failed iterations)"
            )
        failed = entry.get("failed_values", [])
        if not isinstance(failed, list):
            raise InputError(f"{places('measures', name, 'failed_values')}: expected a list of numbers")
        out.append(
            Measure(
                name=_text(name, places, "measures", name),
                column=_text(entry.get("column", name), places, "measures", name, "column"),
                direction=better,
                random=_number(entry["random"], places, "measures", name, "random"),
                failed_values=tuple(
                    _number(v, places, "measures", name, "failed_values", k) for k, v in enumerate(failed)
                ),
            )
        )
    return tuple(out)


def _choices(value, measures, places) -> tuple[Choice, ...]:
    choices = _mapping(value, places, "choices")
    out: list[Choice] = []
    for name, entry in choices.items():
        entry = _mapping(entry, places, "choices", name)
        _only(entry, ("family", "default", "options"), places, "choices", name)
        family = entry.get("family", name)
        if family not in FAMILIES:
            raise InputError(
                f"{places('choices', name, 'family')}: unknown option family {family!r}; expected one of "
                f"{', '.join(FAMILIES)} (give it as 'family:' when the choice has another name)"
            )
        if any(c.family == family for c in out):
            raise InputError(f"{places('choices', name)}: a second choice of family {family!r}")
        options = _options(entry.get("options"), family, measures, places, "choices", name)
        default = entry.get("default", options[0].name)
        if default not in [o.name for o in options]:
            raise InputError(
                f"{places('choices', name, 'default')}: {default!r} is not one of its options "
                f"({', '.join(o.name for o in options)})"
            )
        out.append(Choice(str(name), family, options, default))
    for family in FAMILIES:
        if any(c.family == family for c in out):
            continue
        if family == "measure" and len(measures) > 1:
            raise InputError(
                f"{places('choices')}: several measures are declared, so a 'measure' choice must say which "
                "to use"
            )
        fixed = measures[0].name if family == "measure" else _FIXED[family]
        out.append(Choice(family, family, (Option(fixed, fixed, {}, places("choices")),), fixed))
    return tuple(out)


def _options(value, family, measures, places, *path) -> tuple[Option, ...]:
    entries: Mapping[str, object]
    if isinstance(value, list) and value:
        entries = {_text(item, places, *path, "options", k): {} for k, item in enumerate(value)}
        if len(entries) < len(value):
            raise InputError(f"{places(*path, 'options')}: an option is listed twice")
        shorthand = True
    elif isinstance(value, Mapping) and value:
        entries, shorthand = value, False
    else:
        raise InputError(
            f"{places(*path, 'options')}: expected a list of options or a mapping name → rule, "
            f"one option or more; got {value!r:.60}"
        )
    out: list[Option] = []
    for name, entry in entries.items():
        where = (*path, "options", name)
        entry = {} if entry is None else dict(_mapping(entry, places, *where))
        if family == "measure":
            measure = entry.pop("measure", name)
            _only(entry, ("measure",), places, *where)
            if measure not in [m.name for m in measures]:
                raise InputError(
                    f"{places(*where)}: {measure!r} is not a declared measure "
                    f"({', '.join(m.name for m in measures)})"
                )
            out.append(Option(str(name), measure, {}, places(*where)))
            continue
        rule_name = name if shorthand else entry.pop("rule", None)
        if rule_name is None:
            raise InputError(f"{places(*where)}: no 'rule' (the {family} rule this option uses)")
        try:
            found = rule(family, rule_name)
        except InputError as exc:
            raise InputError(f"{places(*where, 'rule')}: {exc}") from None
        for key in entry:
            if key not in found.parameters():
                takes = ", ".join(found.parameters()) or "no parameters"
                raise InputError(
                    f"{places(*where, key)}: {family} rule {rule_name!r} has no parameter {key!r}; it takes "
                    f"{takes}"
                )
        out.append(Option(str(name), rule_name, entry, places(*where)))
    return tuple(out)


def _stepwise(value, choices, places) -> tuple[str, ...]:
    names = tuple(c.name for c in choices)
    if value is None:
        return names
    order = _names(value, places, "stepwise", "choice names")
    for k, name in enumerate(order):
        if name not in names:
            raise InputError(f"{places('stepwise', k)}: {name!r} is not a choice ({', '.join(names)})")
    return order


def _unfolding(value, places) -> dict[str, object]:
    if value is False:
        return {"skip": True}
    unfolding = _mapping(value, places, "unfolding")
    _only(unfolding, _UNFOLDING_KEYS, places, "unfolding")
    return dict(unfolding)
