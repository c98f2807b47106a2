"""Learning simulation past one machine: the clients' local training runs on a Ray cluster in batches.

``bb-edge run LEARN_DIR --virtual-nodes N --ray [ADDRESS|local]`` runs the
simulator of :mod:`adapters.learnsim` unchanged (every engine, handler, the
aggregation and the virtual clock stay in this driver process) with one
addition, :class:`RayClientCompute`: before each fleet step it looks at the
envelopes about to be delivered, and when a round's ``MODEL`` reaches the
clients it trains all of them on the cluster first, in batches of clients per
Ray task. The model goes into the object store once per round (``ray.put``),
the clients' data shards once per run; a task gets both by reference. The
results (sorted by client id) land in a :class:`TrainMemo` bound on every
client engine; the client's handler then runs as in-process and its
``local_train`` takes the memo's answer only when start vector, data,
settings and seeded generator all match (``bb_edge.strategies.base``).
A client with a codec (int8, top-k, DP noise...) also encodes its update
in the batch: the task gets the codec with its state, returns the encoded
bytes and the codec's new state, and the client's bound codec is an
:class:`EncodedMemoCodec` that hands those bytes to the handler (and takes
the new state) only when the update and the codec's state match what the
task started from. Anything the memos cannot answer (an attacker that
poisons its data, a failed batch) is trained or encoded in the driver
instead, so a Ray run gives the in-process run's model bytes and summary.

Failure handling (documented in docs/learning.md): a task whose worker or
node dies is re-run by Ray elsewhere (``max_retries``); a node that left the
cluster during a round is a :class:`RayNodeLost` event in the summary. A batch
that still fails, or a round whose batches do not finish within
``batch_timeout`` seconds (e.g. no node with a free CPU is left), is a
:class:`RayBatchFailed` event and its clients are trained in the driver:
never a hang, never a different model.

Why one file: the memos, the batch task and RayClientCompute form one mechanism: the driver runs a
batch on the cluster and the client handlers take its results only on an exact match. The
matching rules and the task's inputs must change together.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import socket
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, cast

import numpy as np

from bb_edge.engine import Engine
from bb_edge.engine.context import Context
from bb_edge.errors import BBError
from bb_edge.strategies.base import Msg, local_train, read_vector
from bb_edge.strategies.fedavg import DiLoCoWorker, FedAvgClient
from bb_edge.strategies.modules import StrategyModule
from bb_edge.wire.dtypes import UINT8
from bb_edge.wire.envelope import Envelope, decode

__all__ = ["RayClusterError", "RayNodeLost", "RayBatchFailed", "TrainMemo", "EncodedMemoCodec", "RayClientCompute",
           "connect", "run_learning_ray"]

# a batch job: (node id, round, seed, epochs, batch size, steps, optimizer state, codec with its state or None,
# start vector when it is not the batch's model)
Job = tuple[int, int, int, int, int, int, dict[str, np.ndarray] | None, Any, np.ndarray | None]
# a batch result: (node id, vector, optimizer state, loss, steps, encoded update or None, codec state after)
Row = tuple[int, np.ndarray, dict[str, np.ndarray], float, int, bytes | None, Any]

CONNECT_TIMEOUT = 5.0  # seconds to reach a cluster's GCS port before giving up


class RayClusterError(BBError):
    """The Ray cluster could not be used (unreachable address, Ray not installed)."""


@dataclass
class RayNodeLost:
    """A Ray node that was alive when the run started had left the cluster by the end of ``round``."""

    round: int
    node_id: str
    address: str
    type: str = "RayNodeLost"


@dataclass
class RayBatchFailed:
    """A batch of clients failed on the cluster after Ray's retries (or timed out); trained in the driver."""

    round: int
    clients: int
    error: str
    type: str = "RayBatchFailed"


# --------------------------------------------------------------------- memo


@dataclass
class _Entry:
    start: np.ndarray
    x: np.ndarray
    y: np.ndarray
    settings: tuple[int, int, int]
    rng_state: dict[str, Any]
    state: dict[str, np.ndarray] | None
    result: tuple[np.ndarray, dict[str, np.ndarray], float, int]


@dataclass
class TrainMemo:
    """Trainings already run elsewhere, by node id; bound as ``local_train_memo`` on the client engines."""

    entries: dict[int, _Entry] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0

    def put(self, node_id: int, entry: _Entry) -> None:
        """Record one client's training of the coming round."""
        self.entries[node_id] = entry

    def take(self, node_id: int, start: np.ndarray, x: np.ndarray, y: np.ndarray, *, epochs: int, batch_size: int,
             rng: np.random.Generator, steps: int, state: dict[str, np.ndarray] | None
             ) -> tuple[np.ndarray, dict[str, np.ndarray], float, int] | None:
        """The recorded result if every input of ``local_train`` matches; else ``None`` (train here)."""
        e = self.entries.pop(node_id, None)
        ok = (e is not None and x is e.x and y is e.y and e.settings == (epochs, batch_size, steps)
              and rng.bit_generator.state == e.rng_state and np.array_equal(start, e.start)
              and _same_state(state, e.state))
        if not ok or e is None:
            self.misses += 1
            return None
        self.hits += 1
        return e.result


def _same_state(a: Mapping[str, np.ndarray] | None, b: Mapping[str, np.ndarray] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return set(a) == set(b) and all(np.array_equal(a[k], b[k]) for k in a)


def _same_codec_state(a: tuple[dict[str, Any], dict[str, np.ndarray]],
                      b: tuple[dict[str, Any], dict[str, np.ndarray]]) -> bool:
    """Two ``Component.get_state()`` results are equal (scalars by ``==``, arrays by value)."""
    return a[0] == b[0] and _same_state(a[1], b[1])


@dataclass
class _Encoded:
    delta: np.ndarray
    before: tuple[dict[str, Any], dict[str, np.ndarray]]
    data: bytes
    after: tuple[dict[str, Any], dict[str, np.ndarray]]


class EncodedMemoCodec:
    """A client's codec, bound in its place on the client engine: encodings already run on Ray.

    :meth:`encode` returns the bytes a Ray task produced, and sets the wrapped codec to the state
    the task left it in, only if the vector and the codec's state are exactly those the task
    started from; otherwise the wrapped codec encodes here. Everything else (``decode``,
    ``applies_to_model``, ``type_id``...) is the wrapped codec's.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.entries: dict[int, _Encoded] = {}  # by node id (one codec per client engine: at most one)
        self.hits = 0
        self.misses = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)  # only for names this class does not define

    def put(self, entry: _Encoded) -> None:
        """Record the coming encoding of this client's update."""
        self.entries[0] = entry

    def encode(self, vec: np.ndarray) -> bytes:
        """The task's bytes (and codec state) if everything matches; else the wrapped codec's encoding."""
        e = self.entries.pop(0, None)
        v = np.asarray(vec)
        if (e is not None and v.dtype == e.delta.dtype and v.shape == e.delta.shape and np.array_equal(v, e.delta)
                and _same_codec_state(self.inner.get_state(), e.before)):
            self.inner.set_state(*e.after)
            self.hits += 1
            return e.data
        self.misses += 1
        out: bytes = self.inner.encode(vec)
        return out

    def decode(self, data: bytes) -> np.ndarray:
        """The wrapped codec's decoding (stateless)."""
        out: np.ndarray = self.inner.decode(data)
        return out


# ------------------------------------------------------------ worker side


class _WorkerCtx:
    """What ``local_train`` needs of a Context on a Ray worker: ``compute`` and no bindings."""

    def __init__(self, prepared: Mapping[str, Any]) -> None:
        self._prepared = prepared

    def binding(self, name: str) -> Any:
        """No components on a worker (so no memo either)."""
        raise KeyError(name)

    def compute(self, key: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run one prepared program."""
        out: dict[str, np.ndarray] = self._prepared[key].run(inputs)
        return out


_PREPARED: dict[str, Any] = {}  # per worker process: programs prepared once, by digest


def train_batch(programs: tuple[str, Any, dict[str, bytes]], data: Mapping[int, tuple[np.ndarray, np.ndarray]],
                model: np.ndarray, jobs: list[Job]) -> tuple[str, list[Row], float]:
    """Train (and encode) a batch: (this node's id, one :data:`Row` per job, CPU seconds the batch took).

    ``jobs`` rows are (node id, round, seed, epochs, batch size, steps, optimizer state, codec, own start
    vector or ``None`` for ``model``); the
    generator is the client handler's, ``default_rng([seed, node id, round])``. With a codec, the
    update ``trained - model`` is encoded as the handler would (a non-finite update is not: the
    handler sends it raw) and the row carries the bytes and the codec's state afterwards.
    """
    import onnx

    from bb_edge.backends.ort import OrtBackend

    cpu0 = time.process_time()  # this worker's CPU time for the batch: the cluster-side cost per client
    digest, program, models = programs
    if digest not in _PREPARED:
        # one ORT thread: a task holds one cluster CPU and the batches are the parallelism (ORT's default,
        # a thread per core in every worker, oversubscribes the node: 1.11 vs 0.90 ms per client here)
        be = OrtBackend(intra_op_threads=1)
        _PREPARED.clear()
        _PREPARED[digest] = {k: be.prepare(onnx.load_from_string(m), k) for k, m in models.items()}
    ctx = cast(Context, _WorkerCtx(_PREPARED[digest]))
    out: list[Row] = []
    for nid, rnd, seed, epochs, batch_size, steps, state, codec, own in jobs:
        x, y = data[nid]
        rng = np.random.default_rng([seed, nid, rnd])
        start = model if own is None else own
        vec, st, loss, n = local_train(ctx, "train", program, start, x, y, epochs=epochs, batch_size=batch_size,
                                       rng=rng, steps=steps, state=state)
        encoded: bytes | None = None
        after: Any = None
        if codec is not None:
            delta = vec - start  # FedAvgClient.on_envelope: trained - start, both float32
            if np.isfinite(delta).all():
                encoded = codec.encode(delta)
                after = codec.get_state()
        out.append((nid, vec, st, loss, n, encoded, after))
    node = ""
    try:
        import ray

        if ray.is_initialized():  # (get_runtime_context() would start a local Ray on a direct call)
            node = str(ray.get_runtime_context().get_node_id())
    except Exception:  # outside a Ray worker (a direct call): no node id
        node = ""
    return node, out, time.process_time() - cpu0


# ------------------------------------------------------------ driver side


def _check_reachable(address: str, timeout: float) -> None:
    """Refuse quickly (``RayClusterError``) when ``host:port`` accepts no TCP connection."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise RayClusterError(f"Ray address {address!r} is not HOST:PORT; give the head's GCS address "
                              "(ray start --head prints it) or 'local'")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise RayClusterError(f"cannot reach the Ray cluster at {address} ({exc.strerror or exc}); start one "
                              "with `ray start --head` or use --ray local") from None


def connect(address: str = "local", num_cpus: int | None = None) -> dict[str, Any]:
    """Connect this process to the Ray cluster at ``address`` (``local``: start one here); its size.

    Raises :class:`RayClusterError` within about ``CONNECT_TIMEOUT`` seconds when the
    address accepts no connection. Already connected (``ray.init`` was called): that cluster is
    used and ``"connected_here"`` is False (the caller then leaves the connection open).
    """
    try:
        import ray
    except ImportError:
        raise RayClusterError("Ray is not installed; pip install 'bb-edge[ray]'") from None
    import logging
    import os

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report leaves this machine unless asked
    here = not ray.is_initialized()
    if here:
        if address == "local":
            ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, logging_level=logging.ERROR,
                     log_to_driver=False)
        else:
            _check_reachable(address, CONNECT_TIMEOUT)
            try:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            except (ConnectionError, TimeoutError, RuntimeError) as exc:
                raise RayClusterError(f"cannot join the Ray cluster at {address}: {str(exc).splitlines()[0]}; "
                                      "check the address and that its Ray version is this one") from None
    return {**cluster_size(address), "connected_here": here}


def cluster_size(address: str = "") -> dict[str, Any]:
    """Alive nodes and CPUs of the connected cluster (recorded in ``--summary``)."""
    import ray

    alive = [n for n in ray.nodes() if n.get("Alive")]
    return {"address": address, "nodes": len(alive), "cpus": int(ray.cluster_resources().get("CPU", 0))}


class RayClientCompute:
    """The ``client_compute`` of :func:`adapters.learnsim.simulate`: batched client training on Ray.

    ``batch_size`` clients per task (0: about two tasks per cluster CPU per round);
    ``batch_timeout`` wall seconds for one round's batches before they are trained in the driver.
    """

    def __init__(self, batch_size: int = 0, batch_timeout: float = 600.0, max_retries: int = 3) -> None:
        self.batch_size = batch_size
        self.batch_timeout = batch_timeout
        self.max_retries = max_retries
        self.memo = TrainMemo()
        self.events: list[RayNodeLost | RayBatchFailed] = []
        self.clients_remote = 0
        self.tasks = 0
        self.rounds = 0
        self.last_round = 0
        self.seconds: list[float] = []  # wall seconds of each round's remote batches
        self.cpu_seconds: list[float] = []  # CPU seconds the round's batches took on the workers (summed)
        self.by_node: dict[str, int] = {}  # clients trained per Ray node id
        self.on_submit: Any = None  # test hook: called with the round number after its tasks are submitted
        self._clients: dict[str, tuple[int, FedAvgClient, np.ndarray, np.ndarray]] = {}
        self._codecs: dict[int, EncodedMemoCodec] = {}  # by node id: clients whose updates are encoded on Ray
        self._decoded: dict[bytes, np.ndarray | None] = {}  # a round's codec'd MODEL, decoded once
        self._data_ref: Any = None
        self._programs: tuple[str, Any, dict[str, bytes]] | None = None
        self._alive: dict[str, str] = {}
        self._remote: Any = None

    def attach(self, module: StrategyModule, engines: dict[str, Engine]) -> None:
        """Bind the memo on every client; put the eligible clients' data shards in the object store once."""
        import ray

        prog = module.setup.program
        models = {k: m.SerializeToString() for k, m in module.compute().items()}
        digest = hashlib.sha256(b"".join(models[k] for k in sorted(models))).hexdigest()
        self._programs = (digest, prog, models)
        data: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for name, eng in engines.items():
            handler = next((h for h in eng.protocols.values() if type(h) in _ELIGIBLE), None)
            if handler is None or "attack" in eng.bindings or "data" not in eng.bindings:
                continue  # attackers poison their data (and craft their update): the driver trains them
            eng.bind("local_train_memo", self.memo)
            if eng.bindings.get("codec") is not None:  # its encoding runs in the batch too, state and all
                wrapped = EncodedMemoCodec(eng.bindings["codec"])
                eng.bind("codec", wrapped)
                self._codecs[eng.node_id] = wrapped
            x, y = eng.bindings["data"].arrays()
            self._clients[name] = (eng.node_id, cast(FedAvgClient, handler), x, y)
            data[eng.node_id] = (x, y)
        self._data_ref = ray.put(data)
        # SPREAD: a round's batches go to every node, not first to the driver's (Ray's default packs locally)
        self._remote = ray.remote(train_batch).options(max_retries=self.max_retries, num_cpus=1,
                                                       scheduling_strategy="SPREAD")
        self._alive = _alive_nodes()

    def prefetch(self, fleet: Any) -> None:
        """Train on the cluster every eligible client whose round ``MODEL`` is due at this step."""
        jobs: list[Job] = []
        starts: dict[int, tuple[str, np.ndarray]] = {}
        for target, data in fleet.due_envelopes():
            info = self._clients.get(target)
            if info is None or target not in fleet.engines:
                continue
            nid, handler, _, _ = info
            env = data if isinstance(data, Envelope) else _decode(data)
            if env is None or env.edge != Msg.MODEL or env.protocol != handler.protocol_id or nid in starts:
                continue
            codec = self._codecs.get(nid)
            vec = self._read_model(env, codec)
            if vec is None or vec.size != handler.program.layout.size or not np.isfinite(vec).all():
                continue  # the handler drops it the same way
            start = vec.reshape(-1).astype(np.float32)
            state = handler.opt_state if handler.keep_optimizer_state else None
            starts[nid] = (target, start)
            jobs.append((nid, env.request_id, handler.seed, handler.epochs, handler.batch_size, handler.local_steps,
                         state, codec.inner if codec is not None else None, None))
        self._decoded.clear()
        if jobs:
            self._run_round(jobs, starts)

    def _read_model(self, env: Envelope, codec: EncodedMemoCodec | None) -> np.ndarray | None:
        """The MODEL's vector as the client's handler reads it (codec bytes decoded once per payload)."""
        if codec is None or env.dtype != UINT8:
            vec, _ = read_vector(env)
            return vec
        key = bytes(env.payload_bytes())
        if key not in self._decoded:
            self._decoded[key] = read_vector(env, codec.inner)[0]
        return self._decoded[key]

    def _run_round(self, jobs: list[Job], starts: dict[int, tuple[str, np.ndarray]]) -> None:
        import ray

        t0 = time.perf_counter()
        rnd = jobs[0][1]
        jobs.sort(key=lambda j: j[0])  # batches by client id, whatever order the envelopes came in
        # a round's clients start from the broadcast model: one object, put once. A client whose start
        # differs (a server codec with error feedback encodes the model once per client) carries its own
        model = starts[jobs[0][0]][1]
        jobs = [(*j[:8], None if np.array_equal(starts[j[0]][1], model) else starts[j[0]][1]) for j in jobs]
        cpus = max(int(ray.cluster_resources().get("CPU", 1)), 1)
        pending: dict[Any, list[Any]] = {}
        ref = ray.put(model)
        size = self.batch_size or max(1, math.ceil(len(jobs) / (2 * cpus)))
        for i in range(0, len(jobs), size):
            batch = jobs[i:i + size]
            pending[self._remote.remote(self._programs, self._data_ref, ref, batch)] = batch
        self.tasks += len(pending)
        if self.on_submit is not None:
            self.on_submit(rnd)
        results: list[Row] = []
        round_cpu = 0.0
        deadline = time.monotonic() + self.batch_timeout
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1, timeout=max(deadline - time.monotonic(), 0.0))
            if not done:  # out of time (no node left to run them?): the driver trains these clients
                self.events.append(RayBatchFailed(rnd, sum(len(pending[r]) for r in waiting),
                                                  f"not finished within {self.batch_timeout:g} s"))
                for r in waiting:
                    ray.cancel(r, force=True)
                break
            for r in done:
                try:
                    node, rows, cpu = ray.get(r)
                except Exception as exc:  # retries exhausted: these clients are trained in the driver
                    self.events.append(RayBatchFailed(rnd, len(pending[r]), type(exc).__name__))
                    continue
                self.by_node[node] = self.by_node.get(node, 0) + len(rows)
                round_cpu += cpu
                results.extend(rows)
        results.sort(key=lambda r: r[0])
        by_id = {j[0]: j for j in jobs}
        for nid, vec, st, loss, n, encoded, after in results:
            name, start = starts[nid]
            _, handler, x, y = self._clients[name]
            job = by_id[nid]
            rng_state = dict(np.random.default_rng([job[2], nid, job[1]]).bit_generator.state)
            trained = np.asarray(vec, dtype=np.float32)
            self.memo.put(nid, _Entry(start, x, y, (job[3], job[4], job[5]), rng_state, job[6],
                                      (trained, dict(st), float(loss), int(n))))
            codec = self._codecs.get(nid)
            if codec is not None and encoded is not None:
                # the state the task started from is the driver codec's now (job[7] is that object)
                meta, arrays = codec.inner.get_state()
                before = (dict(meta), {k: np.array(a) for k, a in arrays.items()})
                codec.put(_Encoded(trained - start, before, bytes(encoded), after))
        self.clients_remote += len(results)
        self.rounds += 1
        self.last_round = rnd
        self._check_nodes(rnd)
        self.seconds.append(time.perf_counter() - t0)
        self.cpu_seconds.append(round_cpu)

    def _check_nodes(self, rnd: int) -> None:
        """A :class:`RayNodeLost` event for every node alive at the last check and gone now."""
        alive = _alive_nodes()
        for nid_, addr in sorted(self._alive.items()):
            if nid_ not in alive:
                self.events.append(RayNodeLost(rnd, nid_, addr))
        self._alive = alive

    def close(self) -> None:
        """After the run: record a node lost during the last round but declared dead only since."""
        self._check_nodes(self.last_round)

    @property
    def codec_hits(self) -> int:
        """Client updates whose encoding came from the cluster."""
        return sum(c.hits for c in self._codecs.values())

    @property
    def codec_misses(self) -> int:
        """Client updates a codec encoded in the driver (no matching result from the cluster)."""
        return sum(c.misses for c in self._codecs.values())

    def status(self) -> str:
        """One line for the progress bar: clients trained on Ray, seconds per round."""
        per = self.seconds[-1] if self.seconds else 0.0
        return f"ray: {self.clients_remote} clients done, {per:.2f} s/round"

    def summary(self, cluster: Mapping[str, Any]) -> dict[str, Any]:
        """The ``ray`` entry of ``--summary``: cluster size, work done, events."""
        return {"ray": {**dict(cluster), "tasks": self.tasks, "clients_remote": self.clients_remote,
                        "clients_in_driver": self.memo.misses, "codec_remote": self.codec_hits,
                        "codec_in_driver": self.codec_misses, "remote_seconds_per_round":
                        sum(self.seconds) / max(len(self.seconds), 1), "task_cpu_seconds_per_round":
                        sum(self.cpu_seconds) / max(len(self.cpu_seconds), 1),
                        "events": [asdict(e) for e in self.events]}}


_ELIGIBLE = (FedAvgClient, DiLoCoWorker)  # exactly these handler types (not secure aggregation's subclass)


def _decode(data: bytes) -> Envelope | None:
    try:
        return decode(data)
    except BBError:
        return None


def _alive_nodes() -> dict[str, str]:
    import ray

    return {str(n["NodeID"]): str(n.get("NodeManagerAddress", "")) for n in ray.nodes() if n.get("Alive")}


def run_learning_ray(dep: Any, args: argparse.Namespace, console: Any) -> int:
    """``bb-edge run DIR --ray [ADDRESS|local]``: the simulator with client training on Ray; 0."""
    import ray

    from bb_edge.adapters.learn.simulator import report_run, simulate

    address = str(args.ray)
    cluster = connect(address)
    here = cluster.pop("connected_here")
    try:
        rc = RayClientCompute()
        res = simulate(dict(dep.extra["learning"]), dep.directory, rounds=getattr(args, "rounds", None),
                       clients=getattr(args, "virtual_nodes", None), seed=getattr(args, "seed", None),
                       churn=getattr(args, "churn", 0.0) or None, latency=getattr(args, "latency", 0.0) or 0.0,
                       bandwidth=getattr(args, "bandwidth", 0.0) or 0.0, progress=console.is_terminal,
                       client_compute=rc)
        rc.close()
        res.extra.update(rc.summary(cluster))  # the size the run started with; losses are events
    finally:
        if here:  # a connection this command opened; an embedding caller's stays open
            ray.shutdown()
    console.print(f"ray cluster {address}: {cluster['nodes']} node(s), {cluster['cpus']} CPU(s); "
                  f"{rc.clients_remote} client trainings on Ray in {rc.tasks} tasks, {rc.memo.misses} in the driver"
                  + (f"; events: {', '.join(e.type for e in rc.events)}" if rc.events else ""))
    return report_run(console, res, args, "virtual nodes", "KiB/node (sent + received, server excluded)")
