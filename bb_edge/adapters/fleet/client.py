"""A client of a running fleet: send requests to nodes that are already up, under the client's own identity.

``bb-edge run --transport mqtt://...`` starts its own nodes and is the fleet's host (``_host``). A
:class:`Client` joins a fleet started elsewhere (``bb-edge node`` processes, bundles' ``run.sh``) as
client ``_client<k>`` (slot k = 1..255, :mod:`bb_edge.deployment.clients`): it sends graph inputs with its
own wire id, its request ids carry its slot, and the nodes send that request's graph outputs (and error
results) back to it alone, so the host and several clients share one fleet. ``bb-edge broker DIR``
provisions credentials and ACL entries for ``_client1`` .. ``_client4``.

Use from an application::

    from bb_edge.adapters.fleet.client import Client

    with Client("build/", "mqtt://broker:1883?creds=build/broker/credentials.json", client=1) as c:
        c.wait_for_nodes(timeout=30)
        out = c.request({"x": x}, timeout=30)          # submit + wait, with retries
        rid = c.submit({"x": x}); out = c.wait(rid)    # the same in two steps
        outs = c.run([{"x": a}, {"x": b}], window=4)   # many, at most ``window`` in flight
        async for out in c.stream(inputs_iterable):    # async iteration, outputs in order
            ...
        for out in c.results(inputs_iterable):         # the same, synchronous

A request whose outputs are late is retried (``retry`` on the control topic: every node resends what
it kept for it with the same sequence numbers, and the client resends its inputs), first after
``retry_after`` seconds, then at doubling intervals; after ``timeout`` seconds it fails with
:class:`RequestTimeout`, and a node's error result fails it with :class:`RequestFailedError`.
The state machine is the host's (:class:`bb_edge.engine.host_session.HostSession` with ``client=k``);
this module adds the transport, a lock and the clock.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.fleet.hostloop import HostEndpoint
from bb_edge.deployment.clients import DEFAULT_CLIENTS, client_name, slot_of_name
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.errors import BBError


class RequestTimeout(BBError):
    """A request's outputs did not all arrive within its timeout (after its retries)."""


class RequestFailedError(BBError):
    """A node reported the request failed (an error result: bad input, compute failure)."""


class Client:
    """A client endpoint of a running fleet (see the module docstring)."""

    def __init__(self, deployment: Deployment | str | Path, url: str, client: int | str = 1,
                 connect_timeout: float = 20.0) -> None:
        from bb_edge.adapters.transports.mqtt import MqttConfig, MqttError, MqttTransport

        self.dep = deployment if isinstance(deployment, Deployment) else load_deployment(deployment)
        self.slot = slot_of_name(client) if isinstance(client, str) else slot_of_name(str(client))
        self.name = client_name(self.slot)
        if not url.startswith(("mqtt://", "mqtts://")):
            raise BBError(f"a client reaches a running fleet over MQTT; {url!r} is not mqtt://HOST:PORT "
                          f"or mqtts://HOST:PORT")
        cfg = MqttConfig.from_url(url)
        if cfg.creds and cfg.username is None:
            try:
                cfg.for_node(self.name)
            except MqttError as exc:
                raise MqttError(f"{exc}; the broker files of `bb-edge broker` provision _client1.._client"
                                f"{DEFAULT_CLIENTS}: use --client 1..{DEFAULT_CLIENTS}, or add {self.name} to "
                                f"the broker's passwd, ACL and credentials file") from None
        self._transport = MqttTransport(cfg, self.dep.name, self.name, self.dep.ids())
        self.endpoint = HostEndpoint(self.dep, self._transport, client=self.slot)
        self._n = time.time_ns() // 1000  # ids above any an earlier run of this client used
        self.endpoint.open()
        try:
            self._transport.wait_connected(connect_timeout)
        except BaseException:
            self._transport.close(announce=False)
            raise

    # ------------------------------------------------------------------ API

    def wait_for_nodes(self, timeout: float = 30.0, nodes: list[str] | None = None) -> None:
        """Block until the deployment's nodes (or ``nodes``) are up; BBError naming the missing ones."""
        self.endpoint.wait_for_peers(nodes or self.dep.node_names, timeout)

    def submit(self, inputs: dict[str, np.ndarray], session: tuple[int, int] | None = None) -> int:
        """Send one request's graph inputs; its request id (for :meth:`wait`).

        ``session`` = ``(session id, step)`` sends it as that step of one of this client's sessions.
        """
        self._n += 1
        rid = self.endpoint.session.request_id(self._n)
        self.endpoint.submit(rid, inputs, session)
        return rid

    def close_session(self, session: int) -> None:
        """End one of this client's sessions at every stage."""
        self.endpoint.close_session(session)

    def wait(self, request_id: int, timeout: float = 60.0, retry_after: float = 5.0,
             max_retry_interval: float = 30.0, retries: int | None = None) -> dict[str, np.ndarray]:
        """The graph outputs of ``request_id``, retrying while they are late (at most ``retries`` times).

        :class:`RequestTimeout` after ``timeout`` s, :class:`RequestFailedError` on a node's error result.
        """
        ep = self.endpoint
        start = time.monotonic()
        deadline, interval, sent = start + timeout, retry_after, 0
        next_retry = start + retry_after
        with ep._cond:
            while not ep.session.done(request_id):
                if (why := ep.session.failure(request_id)) is not None:
                    ep.session.take(request_id)
                    raise RequestFailedError(why)
                now = time.monotonic()
                if now >= deadline:
                    missing = ep.session.missing(request_id)
                    ep.session.take(request_id)
                    raise RequestTimeout(f"request {request_id}: outputs {missing} did not arrive within "
                                         f"{timeout}s ({sent} retries); check the nodes are up (bb-edge status) "
                                         f"or raise --timeout")
                if now >= next_retry and (retries is None or sent < retries):
                    ep._cond.release()
                    try:
                        ep.retry([request_id])
                    finally:
                        ep._cond.acquire()
                    sent += 1
                    interval = min(interval * 2, max_retry_interval)
                    next_retry = now + interval
                    continue
                ep._cond.wait(max(0.0, min(deadline, next_retry) - now))
            out = ep.session.take(request_id)
        ep.finished([request_id])
        return out

    def request(self, inputs: dict[str, np.ndarray], timeout: float = 60.0, retry_after: float = 5.0,
                retries: int | None = None) -> dict[str, np.ndarray]:
        """Submit one request and wait for its outputs (see :meth:`wait`)."""
        return self.wait(self.submit(inputs), timeout, retry_after, retries=retries)

    def run(self, requests: list[dict[str, np.ndarray]], window: int = 4, timeout: float = 60.0,
            retry_after: float = 5.0) -> list[dict[str, np.ndarray]]:
        """Outputs of every request in order, at most ``window`` in flight (RunIncomplete if any is lost)."""
        self._n += len(requests) + 1
        return self.endpoint.run(requests, window=window, timeout=timeout, retry_after=retry_after,
                                 request_base=self.endpoint.session.request_id(self._n - len(requests)))

    def _in_order(self, inputs: Iterable[dict[str, np.ndarray]], window: int) -> Iterator[int]:
        """Request ids in input order, submitting ahead so that at most ``window`` are in flight."""
        pending: deque[int] = deque()
        it = iter(inputs)
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                try:
                    pending.append(self.submit(next(it)))
                except StopIteration:
                    exhausted = True
            if not pending:
                return
            yield pending.popleft()

    def results(self, inputs: Iterable[dict[str, np.ndarray]], window: int = 4, timeout: float = 60.0,
                retry_after: float = 5.0) -> Iterator[dict[str, np.ndarray]]:
        """Each request's outputs in input order as it completes, at most ``window`` requests in flight."""
        for rid in self._in_order(inputs, window):
            yield self.wait(rid, timeout, retry_after)

    async def stream(self, inputs: Iterable[dict[str, np.ndarray]], window: int = 4, timeout: float = 60.0,
                     retry_after: float = 5.0) -> AsyncIterator[dict[str, np.ndarray]]:
        """Async iteration: each request's outputs in input order, at most ``window`` requests in flight."""
        for rid in self._in_order(inputs, window):
            yield await asyncio.to_thread(self.wait, rid, timeout, retry_after)

    async def generate(self, prompt: list[int], max_tokens: int = 64, *, sampling: Any = None,
                       session: int | None = None, timeout: float = 120.0) -> AsyncIterator[int]:
        """Generate with a language-model deployment (``bb-edge compile model.gguf``): each token as it comes.

        ``prompt`` is token ids; ``sampling`` an :class:`~bb_edge.engine.generation.Sampling` (greedy by
        default). The session (a fresh id unless given) is this client's: other clients cannot touch it.
        """
        from bb_edge.adapters.fleet.generation import EndpointStepper, generate_many
        from bb_edge.engine.generation import Generation, Sampling

        llm = self.dep.extra.get("llm") or {}
        gen = Generation(list(prompt), max_tokens, int(llm.get("context", 2048)),
                         frozenset(int(x) for x in llm.get("eos", [])), sampling or Sampling())
        sid = session or (time.time_ns() & 0xFFFFFFFF) | 1
        tokens = generate_many(EndpointStepper(self.endpoint), {sid: gen}, timeout=timeout)
        while True:
            ev = await asyncio.to_thread(next, tokens, None)
            if ev is None:
                return
            yield ev.token

    def close(self, timeout: float = 10.0) -> int:
        """Flush and close the connection; envelopes left unconfirmed."""
        return self.endpoint.close(timeout)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
