"""benchtrust as released: the sdist and wheel of ``make dist``, installed where no source tree is in sight.

The wheel is built from this tree (``python -m build --no-isolation``, as ``make dist`` does), checked
with ``twine check --strict``, and installed without its dependencies into a fresh virtual environment
(by this environment's pip, ``pip --python``: its console script then starts the fresh interpreter),
which finds numpy and the rest in the test environment's site-packages (a ``.pth`` file appends them after
its own, so ``benchtrust`` itself can only come from the wheel; the test environment's editable install is
a ``.pth`` file there too, which Python does not read from a folder a ``.pth`` file added). Every command
runs in an empty folder: one of each subpackage, on the data the wheel bundles, and ``import benchtrust``.
"""

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    command = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return out


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory):
    """(python, benchtrust) of a fresh environment holding the wheel, and an empty folder to run in."""
    env = tmp_path_factory.mktemp("env")
    venv.create(env)  # no pip of its own: this environment's pip installs into it (--python)
    python = env / "bin" / "python"
    wheel = next(dist.glob("*.whl"))
    install = ["-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel]
    subprocess.run([sys.executable, *install], check=True)
    purelib = subprocess.check_output(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
    ).strip()
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python, env / "bin" / "benchtrust", tmp_path_factory.mktemp("elsewhere")


def run(installed, *arguments):
    """stdout of a command run in the empty folder, with nothing but PATH in its environment."""
    folder = installed[2]
    done = subprocess.run(
        arguments, cwd=folder, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_both_distributions_pass_twine_check(dist):
    files = sorted(str(path) for path in dist.iterdir())
    assert sorted(Path(name).suffix for name in files) == [".gz", ".whl"]
    subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files], check=True, capture_output=True
    )


def test_the_wheel_holds_the_data_the_templates_and_the_type_marker(dist):
    names = set(zipfile.ZipFile(next(dist.glob("*.whl"))).namelist())
    bundled = {
        f"benchtrust/data/{path.name}" for path in (ROOT / "src/benchtrust/data").iterdir() if path.is_file()
    }
    assert bundled <= names
    assert "benchtrust/py.typed" in names
    assert any(name.startswith("benchtrust/templates/") for name in names)
    assert not any(name.startswith(("tests/", "benchmarks/")) for name in names)


def test_the_package_comes_from_the_wheel_with_its_data(installed):
    python, _, _ = installed
    out = run(
        installed,
        str(python),
        "-c",
        "import benchtrust, benchtrust.sota as s; print(benchtrust.__file__);"
        "print(s.read_leaderboard(s.bundled_leaderboard('cassava'), direction='higher').teams)",
    )
    where, teams = out.split()
    assert Path(where).is_relative_to(python.parents[1]) and not Path(where).is_relative_to(ROOT)
    assert int(teams) > 3000


def test_one_command_of_each_subpackage_runs(installed):
    python, benchtrust, _ = installed
    assert benchtrust.read_text().splitlines()[0] == f"#!{python}"  # the fresh interpreter, not ours
    data = run(
        installed,
        str(python),
        "-c",
        "import benchtrust, pathlib; print(pathlib.Path(benchtrust.__file__).parent / 'data')",
    )
    data = Path(data.strip())
    best = json.loads(
        run(
            installed,
            str(benchtrust),
            "sota",
            "best-of",
            "--accuracy",
            "0.9",
            "--classifiers",
            "1000",
            "--test-size",
            "3000",
            "--json",
        )
    )
    assert round(best["expected_max"], 4) == 0.9173  # Table 1
    claim = ["--positives", "1000", "--negatives", "6000", "--score", "acc=0.6821", "--score", "npv=0.9401"]
    assert json.loads(run(installed, str(benchtrust), "consistency", "test-set", *claim, "--json"))[
        "consistent"
    ]
    columns = ["--method-col", "classifier", "--task-col", "dataset_index", "--run-col", "score_index"]
    scores = str(data / "uci_10x10cv_accuracies.csv")
    ranks = json.loads(
        run(
            installed,
            str(benchtrust),
            "compare",
            "rank",
            scores,
            "--direction",
            "higher",
            *columns,
            "--score-col",
            "accuracy_percent",
            "--json",
        )
    )
    assert ranks["tasks"] == 54
    unfolded = json.loads(
        run(installed, str(benchtrust), "multiverse", "unfold", str(data / "uci_ranks.csv"), "--json")
    )
    assert len(unfolded["row_points"]) == 54
