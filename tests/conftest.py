"""Hypothesis draws the same examples on every run (``derandomize``), so a test run, CI's included, is
reproducible: a failure that a random draw found once is pinned as an ``@example`` or a test of its own."""

from hypothesis import settings

settings.register_profile("reproducible", derandomize=True)
settings.load_profile("reproducible")
