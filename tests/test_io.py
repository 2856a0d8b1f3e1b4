"""benchtrust._io: reading numbers with precise error messages, and atomic writes."""

import hashlib
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust._io import check_seed, json_text, read_numbers
from benchtrust._write import atomic_path, check_folder, write_atomic, write_together
from benchtrust.compare import probability_of_outperforming
from benchtrust.multiverse import permutation_test
from benchtrust.sota import sample_auc, simulate_best_of


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Work inside tmp_path, so files can be named as a user would name them: 'accuracies.csv'."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(name: str, content: str | bytes) -> str:
    data = content.encode("utf-8") if isinstance(content, str) else content
    Path(name).write_bytes(data)
    return name


def read_unchanged(name: str, **kwargs) -> np.ndarray:
    """read_numbers(name), checking the file is byte for byte the same afterwards, even on error."""
    before = sha256(Path(name))
    try:
        return read_numbers(name, **kwargs)
    finally:
        assert sha256(Path(name)) == before


def raises_input_error(name: str, message: str, **kwargs) -> None:
    """read_numbers(name) must raise InputError with exactly `message`, leaving the file as it was."""
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        read_unchanged(name, **kwargs)


# ---------------------------------------------------------------------------------------------------------
# Happy paths


def test_plain_lines_with_blanks_and_comments(in_tmp):
    name = write("accuracies.txt", "# accuracies of 4 runs\n0.91\n\n  0.875 \n# a comment\n1e-1\n0.5")
    values = read_unchanged(name)
    np.testing.assert_array_equal(values, [0.91, 0.875, 0.1, 0.5])
    assert values.dtype == np.float64
    assert values.ndim == 1


def test_plain_lines_with_windows_line_endings(in_tmp):
    name = write("accuracies.txt", "0.9\r\n0.8\r\n")
    np.testing.assert_array_equal(read_unchanged(name), [0.9, 0.8])


def test_csv_with_bom(in_tmp):
    name = write("accuracies.csv", b'\xef\xbb\xbfmodel,accuracy\nA,0.91\n\n# skipped\n"B, large",0.88\n')
    np.testing.assert_array_equal(read_unchanged(name), [0.91, 0.88])


def test_tsv(in_tmp):
    name = write("accuracies.tsv", "model\ttest accuracy\tseed\nA\t0.91\t1\nB\t0.88\t2\n")
    np.testing.assert_array_equal(read_unchanged(name, column="test accuracy"), [0.91, 0.88])


def test_semicolon_separated(in_tmp):
    name = write("accuracies.csv", "model;accuracy\nA;0.91\nB;0.88\n")
    np.testing.assert_array_equal(read_unchanged(name), [0.91, 0.88])


def test_one_column_table(in_tmp):
    name = write("accuracies.csv", "accuracy\n0.91\n0.88\n")
    np.testing.assert_array_equal(read_unchanged(name), [0.91, 0.88])


def test_other_column(in_tmp):
    name = write("scores.csv", "model,accuracy,f1\nA,0.91,0.5\nB,0.88,0.25\n")
    np.testing.assert_array_equal(read_unchanged(name, column="f1", what="F1 score"), [0.5, 0.25])


def test_accepts_path_objects(in_tmp):
    name = write("accuracies.txt", "0.5\n")
    np.testing.assert_array_equal(read_numbers(Path(name)), [0.5])


finite_floats = st.floats(allow_nan=False, allow_infinity=False)


@given(values=st.lists(finite_floats, min_size=1, max_size=50))
def test_plain_round_trip(tmp_path_factory, values):
    path = tmp_path_factory.mktemp("plain") / "values.txt"
    path.write_text("\n".join(map(repr, values)) + "\n", encoding="utf-8")
    np.testing.assert_array_equal(read_numbers(path), values)


@given(
    values=st.lists(finite_floats, min_size=1, max_size=50),
    delimiter=st.sampled_from([",", "\t", ";"]),
    bom=st.booleans(),
)
def test_table_round_trip(tmp_path_factory, values, delimiter, bom):
    path = tmp_path_factory.mktemp("table") / "values.csv"
    lines = [delimiter.join(["model", "accuracy"])]
    lines += [delimiter.join([f"m{k}", repr(v)]) for k, v in enumerate(values)]
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + "\n".join(lines).encode("utf-8"))
    np.testing.assert_array_equal(read_numbers(path), values)


# ---------------------------------------------------------------------------------------------------------
# Errors: the message names the file, the 1-based line and, for tables, the column


def test_missing_file(in_tmp):
    with pytest.raises(InputError, match=r"^nothing\.csv: no such file$"):
        read_numbers("nothing.csv")


def test_folder(in_tmp):
    os.mkdir("results")
    with pytest.raises(InputError, match=r"^results: is a folder, expected a file$"):
        read_numbers("results")


def test_unreadable_file(in_tmp, monkeypatch):
    name = write("secret.txt", "0.5\n")

    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)  # chmod 0 would not stop root
    with pytest.raises(InputError, match=r"^secret\.txt: cannot read the file \(permission denied\)$"):
        read_numbers(name)


@pytest.mark.parametrize("content", ["", "\n\n  \n", "# only a comment\n\n"])
def test_empty_file(in_tmp, content):
    name = write("accuracies.txt", content)
    raises_input_error(
        name,
        "accuracies.txt: no accuracy values found (the file is empty or holds only blank and comment "
        "lines); expected one number per line, or a table with a column 'accuracy'",
    )


def test_header_only(in_tmp):
    name = write("accuracies.csv", "# results\nmodel,accuracy\n\n")
    raises_input_error(name, "accuracies.csv: no accuracy values below the header (line 2)")


def test_non_numeric_csv_value(in_tmp):
    name = write("accuracies.csv", "model,accuracy\nA,0.91\nB,0.88\nC,abc\nD,0.5\n")
    raises_input_error(name, "accuracies.csv, line 4, column 'accuracy': 'abc' is not a number")


def test_non_numeric_plain_value(in_tmp):
    name = write("accuracies.txt", "0.91\n\n0.88 0.87\n")
    raises_input_error(name, "accuracies.txt, line 3: '0.88 0.87' is not a number")


def test_empty_cell(in_tmp):
    name = write("accuracies.csv", "model,accuracy\nA,\n")
    raises_input_error(name, "accuracies.csv, line 2, column 'accuracy': empty, expected a number")


def test_decimal_comma_gets_a_hint(in_tmp):
    name = write("accuracies.csv", "model;accuracy\nA;0.91\nB;0,88\n")
    raises_input_error(
        name,
        "accuracies.csv, line 3, column 'accuracy': '0,88' is not a number (use '.' as the decimal mark)",
    )


def test_one_column_table_never_splits_rows(in_tmp):
    name = write("accuracies.csv", "accuracy\n0,88\n")
    raises_input_error(
        name,
        "accuracies.csv, line 2, column 'accuracy': '0,88' is not a number (use '.' as the decimal mark)",
    )


@pytest.mark.parametrize("token", ["nan", "NaN", "inf", "-Infinity"])
def test_non_finite(in_tmp, token):
    name = write("accuracies.csv", f"model,accuracy\nA,0.5\nB,{token}\n")
    raises_input_error(name, f"accuracies.csv, line 3, column 'accuracy': {token!r} is not a finite number")


def test_non_finite_plain(in_tmp):
    name = write("accuracies.txt", "0.5\n\nnan\n")
    raises_input_error(name, "accuracies.txt, line 3: 'nan' is not a finite number")


def test_missing_column(in_tmp):
    name = write("accuracies.csv", "model,acc\nA,0.9\n")
    raises_input_error(
        name,
        "accuracies.csv, line 1: expected a number or a header with a column 'accuracy'; "
        "found 'model', 'acc' (read as comma-separated)",
    )


def test_plain_file_whose_first_line_is_not_a_number(in_tmp):
    name = write("accuracies.txt", "\n# header comment\nabc\n0.5\n")
    raises_input_error(
        name,
        "accuracies.txt, line 3: expected a number or a header with a column 'accuracy'; "
        "found 'abc' (read as one column)",
    )


def test_duplicate_column(in_tmp):
    name = write("accuracies.csv", "accuracy,accuracy\n0.5,0.6\n")
    raises_input_error(name, "accuracies.csv, line 1: the header names column 'accuracy' 2 times")


def test_row_with_wrong_field_count(in_tmp):
    name = write("accuracies.csv", "model,accuracy\nA,0.9\nResNet,50,0.8\n")
    raises_input_error(
        name,
        "accuracies.csv, line 3: 3 fields, but the header (line 1) has 2; "
        "quote fields that contain the delimiter",
    )


def test_undecodable_bytes(in_tmp):
    name = write("accuracies.txt", b"0.5\n0.6\n\xff\xfe0.7\n")
    raises_input_error(name, "accuracies.txt, line 3: not UTF-8 text (byte 0xff); save the file as UTF-8")


def test_undecodable_bytes_after_bom(in_tmp):
    name = write("accuracies.txt", b"\xef\xbb\xbf0.5\n\xe9\n")
    raises_input_error(name, "accuracies.txt, line 2: not UTF-8 text (byte 0xe9); save the file as UTF-8")


def test_input_error_is_a_value_error():
    assert issubclass(InputError, ValueError)


# ---------------------------------------------------------------------------------------------------------
# Atomic writes


def test_write_atomic_creates_and_replaces(tmp_path):
    target = tmp_path / "out.txt"
    write_atomic(target, "first\n")
    assert target.read_text(encoding="utf-8") == "first\n"
    write_atomic(str(target), b"second")
    assert target.read_bytes() == b"second"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_write_atomic_writes_utf8_without_newline_translation(tmp_path):
    target = tmp_path / "out.txt"
    write_atomic(target, "naïve\r\nline\n")
    assert target.read_bytes() == "naïve\r\nline\n".encode()


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_atomic_gives_ordinary_permissions(tmp_path):
    target = tmp_path / "out.txt"
    write_atomic(target, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_write_atomic_keeps_old_content_on_error(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(TypeError):
        write_atomic(target, 12345)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_write_atomic_into_missing_folder(tmp_path):
    target = tmp_path / "no" / "out.txt"
    with pytest.raises(InputError, match=r"folder '.*no' does not exist$"):
        write_atomic(target, "x")
    assert list(tmp_path.iterdir()) == []


def test_write_atomic_onto_a_folder(tmp_path):
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match=r"out: it is a folder$"):
        write_atomic(tmp_path / "out", "x")
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_atomic_path_renames_on_success(tmp_path):
    target = tmp_path / "figure.png"
    with atomic_path(target) as temporary:
        assert temporary.parent == tmp_path
        assert temporary.suffix == ".png"
        assert temporary.name.startswith(".")
        assert temporary.exists()
        assert not target.exists()
        temporary.write_bytes(b"png")
    assert target.read_bytes() == b"png"
    assert [p.name for p in tmp_path.iterdir()] == ["figure.png"]


def test_atomic_path_removes_temporary_on_exception(tmp_path):
    target = tmp_path / "figure.png"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError, match="writer failed"), atomic_path(target) as temporary:
        temporary.write_bytes(b"half")
        raise RuntimeError("writer failed")
    assert not temporary.exists()
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["figure.png"]


def test_atomic_path_when_writer_deleted_the_file(tmp_path):
    target = tmp_path / "figure.png"
    with pytest.raises(FileNotFoundError), atomic_path(target) as temporary:
        temporary.unlink()
    assert list(tmp_path.iterdir()) == []


def files_in(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("failing", range(4))
def test_write_together_writes_all_or_none(tmp_path, monkeypatch, failing):
    """A failure (or a stop) while any of the files is being written leaves every target as it was and no
    temporary file: the folder gets all of the files or none."""
    (tmp_path / "b.csv").write_text("kept\n", encoding="utf-8")
    before = files_in(tmp_path)
    files = {tmp_path / f"{name}.csv": f"{name}\n" for name in "abcd"}
    real = os.fsync
    calls = []

    def fsync(descriptor):
        calls.append(descriptor)
        if len(calls) == failing + 1:
            raise KeyboardInterrupt
        real(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        write_together(files)
    assert files_in(tmp_path) == before
    monkeypatch.setattr(os, "fsync", real)
    write_together(files)
    assert files_in(tmp_path) == {path.name: data.encode() for path, data in files.items()}


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_a_stop_while_the_files_are_renamed_comes_after_all_are(tmp_path, monkeypatch):
    import signal

    files = {tmp_path / f"{name}.csv": f"{name}\n" for name in "abc"}
    real = os.replace

    def replace(source, target):
        signal.raise_signal(signal.SIGINT)  # Ctrl-C as the first file is renamed
        monkeypatch.setattr(os, "replace", real)
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        write_together(files)
    assert files_in(tmp_path) == {path.name: data.encode() for path, data in files.items()}


@pytest.mark.parametrize("existing", ["rankings.csv", "sub/impact.png"])
def test_check_folder_refuses_an_existing_file_unless_forced(tmp_path, existing):
    names = ["rankings.csv", "sub/impact.png", "notes.txt"]
    (tmp_path / "sub").mkdir()
    (tmp_path / existing).write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match=f"--out: {re.escape(str(tmp_path / existing))} exists already;"):
        check_folder(tmp_path, names, option="--out")
    assert check_folder(tmp_path, names, force=True) == [tmp_path / name for name in names]
    assert check_folder(tmp_path, names, force={existing})[0] == tmp_path / names[0]
    other = next(name for name in names[:2] if name != existing)
    with pytest.raises(InputError, match="pass force=True"):
        check_folder(tmp_path, names, force={other})
    (tmp_path / "file").write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="it is a file, not a folder"):
        check_folder(tmp_path / "file", names)


SEED_REFUSED = "seed: expected a non-negative int or a numpy.random.Generator"


@pytest.mark.parametrize(
    "call",
    [
        lambda seed: sample_auc(0.8, test_size=100, positives=40, size=3, seed=seed),
        lambda seed: simulate_best_of(0.9, classifiers=3, test_size=50, simulations=10, seed=seed),
        lambda seed: probability_of_outperforming([0.9, 0.91, 0.92], [0.9, 0.9, 0.9], seed=seed),
        lambda seed: permutation_test([[1, 2, 3], [3, 2, 1], [2, 1, 3]], permutations=2, seed=seed, n_jobs=1),
    ],
    ids=["sample_auc", "simulate_best_of", "probability_of_outperforming", "permutation_test"],
)
@pytest.mark.parametrize("seed", [True, -1, 1.5, "7"])
def test_every_seed_argument_refuses_the_same_values_in_the_same_words(call, seed):
    """One check of a seed everywhere (``benchtrust._io.check_seed``): bools, negatives, floats, strings."""
    with pytest.raises(InputError, match=SEED_REFUSED):
        call(seed)


def test_check_seed_takes_none_an_int_or_a_generator():
    generator = np.random.default_rng(3)
    assert check_seed(generator) is generator
    assert check_seed(5).random() == np.random.default_rng(5).random()
    assert isinstance(check_seed(None), np.random.Generator)


#: What a result's to_dict holds: numbers (NaN and infinities too), text, booleans, None, lists, tuples and
#: dicts, whose keys JSON writes as text (numbers, booleans and None too).
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(
            st.text() | st.integers() | st.floats() | st.booleans() | st.none(), inner, max_size=5
        )
    ),
    max_leaves=40,
)


@given(JSON_VALUES)
def test_json_text_is_what_json_dumps_writes_with_an_indent(data):
    assert json_text(data) == json.dumps(data, indent=2)


def test_json_text_refuses_what_json_refuses():
    with pytest.raises(TypeError):
        json_text({"scores": [np.int64(1)]})
    with pytest.raises(TypeError):
        json_text({(1, 2): 3})
