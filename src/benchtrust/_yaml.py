"""Reading YAML: PyYAML's safe loader, except that a key given twice in one mapping is an error.

PyYAML keeps the last of two equal keys and says nothing, so a config that sets ``test_size`` twice, or a
spec that lists a choice twice, would run with one of the values silently dropped. :func:`load_yaml` is
the one way benchtrust reads a YAML document (report configs, multiverse specs); a repeated key is a
:class:`yaml.constructor.ConstructorError` marked at the second key, which the readers report as
``<file>, line N: ...`` like any other YAML error. Import this module inside the functions that read
YAML: it imports PyYAML.
"""

from __future__ import annotations

import re

import yaml

__all__ = ["load_yaml"]

_MERGE = "tag:yaml.org,2002:merge"


class _UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.SafeLoader``, refusing a mapping that gives one key twice."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):  # else the base class says what it is instead
            _check_unique_keys(self, node)
        return super().construct_mapping(node, deep=deep)


# YAML 1.1 (PyYAML) reads 1e9, 1E-3 and 1.5e3 (an exponent without a decimal point, or without a sign) as
# text; YAML 1.2 and people read them as numbers, and so does benchtrust (a quoted '1e9' stays text).
_UniqueKeyLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$"),
    list("-+.0123456789"),
)


def load_yaml(text: str):
    """The YAML document `text` as Python objects (as ``yaml.safe_load``), refusing a repeated key.

    Keys are compared as the values they load as (``1`` and ``1.0`` are one key, as in the dict they
    become). Keys merged in by ``<<: *anchor`` may be overridden, as YAML allows.

    Raises
    ------
    yaml.YAMLError
        Not valid YAML. A repeated key is a :class:`yaml.MarkedYAMLError` whose ``problem_mark`` is the
        second key and whose ``problem`` names the key and the line of its first use.

    Examples
    --------
    >>> load_yaml("a: 1\\nb: {c: 2}\\n")
    {'a': 1, 'b': {'c': 2}}
    >>> try:
    ...     load_yaml("a: 1\\nb: 2\\na: 3\\n")
    ... except yaml.MarkedYAMLError as exc:
    ...     print(f"line {exc.problem_mark.line + 1}: {exc.problem}")
    line 3: key 'a' is given twice, first on line 1
    """
    return yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader: no Python objects are built


def _check_unique_keys(loader, node) -> None:
    """Raise ConstructorError at the second of two equal keys of mapping `node` (merge keys aside)."""
    first: dict = {}
    for key_node, _ in node.value:
        if key_node.tag == _MERGE:
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            seen = key in first
        except TypeError:  # an unhashable key: the base class reports it
            continue
        if seen:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                f"key {key!r} is given twice, first on line {first[key]}",
                key_node.start_mark,
            )
        first[key] = key_node.start_mark.line + 1
