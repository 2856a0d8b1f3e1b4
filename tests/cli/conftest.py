"""What every command promises on bad input (DESIGN: errors): one line, exit 2, nothing touched."""

import hashlib

import pytest


def _files(folder):
    files = (path for path in folder.iterdir() if path.is_file())
    return {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in files}


@pytest.fixture
def refuses():
    """``refuses(run, args, named, folder)``: ``run(*args)`` fails as bad input must.

    Exit code 2, nothing on stdout, one line ``benchtrust: error: ...`` on stderr naming ``named``, no
    traceback; the files in ``folder`` are unchanged and no file is added (no plot, no temporary file).
    """

    def check(run, args, named, folder):
        before = _files(folder)
        result = run(*args)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr.startswith("benchtrust: error: ")
        assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1
        assert "Traceback" not in result.stderr
        assert named in result.stderr
        assert _files(folder) == before

    return check
