"""Headless Chromium for the report's browser tests, installed from Debian's packages when missing."""

import os
import subprocess
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# The flags the issue asks for: no sandbox (we run as root), no GPU, nothing fetched or synced in the
# background, no first-run dialogs.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,2000",
]


def _apt_error(output):
    """The first line of apt's error (``E: ...``), else its last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("E:")]
    return (errors or lines or ["no output"])[0]


def _install_chromium():
    """Install ``chromium`` and ``chromium-driver`` with apt; the reason it failed, or None."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # Wait for the dpkg lock rather than fail when another session installs at the same time.
    apt = ["apt-get", "-o", "DPkg::Lock::Timeout=120"]
    commands = [
        [*apt, "update"],
        [*apt, "install", "-y", "--no-install-recommends", "chromium", "chromium-driver"],
    ]
    for command in commands:
        try:
            result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        except FileNotFoundError:
            return "apt-get not found"
        except subprocess.TimeoutExpired:
            return f"`{' '.join(command)}` took more than 600 s"
        if result.returncode != 0:
            return _apt_error(result.stderr + "\n" + result.stdout)
    return None


@pytest.fixture(scope="session")
def chromium():
    """``(chromium, chromedriver)`` paths; installs the Debian packages if missing, else skips."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        problem = _install_chromium()
        if problem is None and not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
            problem = f"apt succeeded but {CHROMIUM} or {CHROMEDRIVER} is missing"
        if problem is not None:
            pytest.skip(f"Chromium could not be installed: {problem}")
    return CHROMIUM, CHROMEDRIVER


@pytest.fixture
def browser(chromium, tmp_path):
    """A headless Chromium driven by Selenium, with a fresh profile and console logs; always quit."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra)")
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = chromium
    options = webdriver.ChromeOptions()
    options.binary_location = str(binary)
    for flag in [*FLAGS, f"--user-data-dir={tmp_path / 'chromium-profile'}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(driver_path)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
