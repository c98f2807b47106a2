"""Session rules for the whole suite: under CI (``CI`` set) a skipped test fails the run.

The test extra installs everything the tests import and .ci/test.sh installs the system packages, so a
skip in CI means a missing install step, not an optional feature: it must not pass quietly.
"""

from __future__ import annotations

import os

import pytest


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Turn a green CI run with skips into a failure that names them."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if os.environ.get("CI") and skipped and exitstatus == 0:
        reporter.write_line(f"CI: {len(skipped)} test(s) skipped; a skip in CI is a missing install step",
                            red=True)
        session.exitstatus = 1
