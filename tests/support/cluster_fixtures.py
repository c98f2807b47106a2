"""The module-scoped 3-member RabbitMQ cluster (issue 35), as a pytest plugin: ``pytest_plugins =
["tests.support.transport_fixtures", "tests.support.cluster_fixtures"]`` (it builds on ``squeeze_dep``).
Helpers for the tests that use it are in tests/support/cluster.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bb_edge.adapters.ops.rabbit import RabbitCluster, write_cluster_files
from bb_edge.deployment.manifest import Deployment


@pytest.fixture(scope="module")
def cluster(squeeze_dep: Deployment, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RabbitCluster]:
    """Three members on loopback ports, own data dirs and node names, stopped by pid afterwards."""
    files = write_cluster_files(tmp_path_factory.mktemp("cluster"), squeeze_dep, members=3)
    c = RabbitCluster(files).start()
    try:
        yield c
    finally:
        c.stop()
