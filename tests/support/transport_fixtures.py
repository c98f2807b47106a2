"""Fixtures for the transport tests: a compiled 3-way squeezenet, reference outputs, real brokers.

Test modules load them with ``pytest_plugins = ["tests.support.transport_fixtures"]``;
there is deliberately no conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.ops.broker import Broker, BrokerFiles, write_broker_files
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model
from bb_edge.deployment.arrays import load_requests
from bb_edge.deployment.manifest import Deployment, load_deployment
from tests.support.models import light

N_REQUESTS = 3


@pytest.fixture(scope="session")
def squeeze_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """light_squeezenet compiled for 3 nodes."""
    out = tmp_path_factory.mktemp("squeeze3")
    compile_model(str(light("squeezenet")), nodes=3, out_dir=out)
    return out


@pytest.fixture(scope="session")
def squeeze_dep(squeeze_dir: Path) -> Deployment:
    """The deployment of :func:`squeeze_dir`."""
    return load_deployment(squeeze_dir)


@pytest.fixture(scope="session")
def squeeze_requests(squeeze_dep: Deployment) -> list[dict[str, np.ndarray]]:
    """Seeded random requests."""
    return load_requests(squeeze_dep, None, count=N_REQUESTS, seed=7)


@pytest.fixture(scope="session")
def squeeze_reference(squeeze_dep: Deployment,
                      squeeze_requests: list[dict[str, np.ndarray]]) -> list[dict[str, np.ndarray]]:
    """Outputs of the in-process fleet (the reference every transport must match exactly)."""
    return InProcFleet(squeeze_dep).run(squeeze_requests)


@pytest.fixture
def broker_files(tmp_path: Path, squeeze_dep: Deployment) -> BrokerFiles:
    """Generated mosquitto config + passwords + ACL for the deployment, on a free loopback port."""
    return write_broker_files(tmp_path / "broker", squeeze_dep)


@pytest.fixture
def broker(broker_files: BrokerFiles) -> Iterator[Broker]:
    """A running Mosquitto on :func:`broker_files`, stopped by pid afterwards."""
    b = Broker(broker_files).start()
    try:
        yield b
    finally:
        b.stop()
