"""Per-stage stamps of one hop, inside every process of a split fleet (bench/llm_hop_trace.py loads it).

Installed through a ``sitecustomize`` that bench/llm_hop_trace.py puts on the node processes' PYTHONPATH when
``BB_HOP_TRACE=DIR`` is set: it wraps paho's socket send/recv and select, ``publish``, the MQTT transport's
``on_message``, the engine's ``poll`` and the host's stepper, and records ``time.monotonic_ns()`` (one clock
for every process on Linux: CLOCK_MONOTONIC) with the envelope's request id, so the stages of one token can be
lined up across processes. Only for measuring: nothing in bb_edge imports it.
"""

from __future__ import annotations

import atexit
import os
import struct
import sys
import threading
import time
from typing import Any

_REQ = struct.Struct("<Q")  # request_id at byte 24 of an envelope header (bb_edge/wire/envelope.py _HEADER)
_recs: list[tuple[Any, ...]] = []
_tl = threading.local()
_now = time.monotonic_ns


def _rid(payload: bytes | bytearray | memoryview, off: int = 0) -> int:
    try:
        return int(_REQ.unpack_from(payload, off + 24)[0]) if payload[off:off + 2] == b"\xbb\xe1" else -1
    except struct.error:
        return -1


def _publish_info(buf: bytes | bytearray | memoryview) -> tuple[str, int, int] | None:
    """(topic, request id, payload length) of an MQTT PUBLISH packet at the start of ``buf``."""
    if not buf or buf[0] & 0xF0 != 0x30:
        return None
    qos = (buf[0] >> 1) & 3
    i, mult, rem = 1, 1, 0
    while True:
        b = buf[i]
        rem += (b & 0x7F) * mult
        mult *= 128
        i += 1
        if not b & 0x80:
            break
    tlen = (buf[i] << 8) | buf[i + 1]
    topic = bytes(buf[i + 2:i + 2 + tlen]).decode(errors="replace")
    off = i + 2 + tlen + (2 if qos else 0)
    return topic, _rid(buf, off), rem - (off - i)


def _dump() -> None:
    out = os.environ.get("BB_HOP_TRACE")
    if not out:
        return
    name = "host"
    if "--node" in sys.argv:
        name = sys.argv[sys.argv.index("--node") + 1]
    with open(os.path.join(out, f"{name}-{os.getpid()}.tsv"), "w") as fh:
        for r in list(_recs):
            fh.write("\t".join(str(x) for x in r) + "\n")


def install() -> None:
    """Wrap the functions named in the module docstring (once per process)."""
    import select as _select

    import paho.mqtt.client as pc

    from bb_edge.adapters.transports import mqtt as bbmqtt
    from bb_edge.engine.engine import Engine

    orig_send = pc.Client._sock_send
    orig_recv = pc.Client._sock_recv
    orig_publish = pc.Client.publish
    orig_on_message = bbmqtt.MqttTransport._on_message
    orig_poll = Engine.poll

    def _sock_send(self: Any, buf: Any) -> int:
        t0 = _now()
        n = orig_send(self, buf)
        t1 = _now()
        info = _publish_info(buf)
        if info is not None:
            _recs.append(("send", t0, t1, info[0], info[1], n))
        else:
            _recs.append(("sendctl", t0, t1, buf[0] >> 4, "", n))
        return n

    def _sock_recv(self: Any, bufsize: int) -> bytes:
        data = orig_recv(self, bufsize)
        if bufsize == 1 and self._in_packet["command"] == 0:
            _tl.cmd = _now()  # the first byte of a packet was read
        return data

    class _Sel:
        """``select`` for paho: the time each select returned (the network thread woke up)."""

        def __getattr__(self, name: str) -> Any:
            return getattr(_select, name)

        @staticmethod
        def select(r: Any, w: Any, x: Any, timeout: Any = None) -> Any:
            res = _select.select(r, w, x, timeout)
            _tl.wake = _now()
            _tl.wake_w = bool(res[1])
            return res

    def publish(self: Any, topic: str, payload: Any = None, *a: Any, **kw: Any) -> Any:
        t = _now()
        if isinstance(payload, bytes | bytearray | memoryview):
            _recs.append(("pub", t, 0, topic, _rid(payload), len(payload)))
        return orig_publish(self, topic, payload, *a, **kw)

    def _on_message(self: Any, client: Any, userdata: Any, msg: Any) -> None:
        t = _now()
        rid = _rid(msg.payload)
        orig_on_message(self, client, userdata, msg)
        _recs.append(("msg", t, _now(), msg.topic, rid, len(msg.payload), getattr(_tl, "wake", 0),
                      getattr(_tl, "cmd", 0)))

    def poll(self: Any, now: float) -> Any:
        t, c = _now(), time.thread_time_ns()
        out = orig_poll(self, now)
        _recs.append(("poll", t, _now(), "", len(out), time.thread_time_ns() - c))
        return out

    from bb_edge.backends import ort as bbort

    orig_run = bbort.OrtSegment.run

    def ort_run(self: Any, inputs: Any) -> Any:
        t, c = _now(), time.thread_time_ns()
        out = orig_run(self, inputs)
        _recs.append(("ort", t, _now(), "", time.thread_time_ns() - c, 0))
        return out

    pc.Client._sock_send = _sock_send  # type: ignore[method-assign]
    pc.Client._sock_recv = _sock_recv  # type: ignore[method-assign]
    pc.Client.publish = publish  # type: ignore[method-assign]
    pc.select = _Sel()  # type: ignore[attr-defined]
    bbmqtt.MqttTransport._on_message = _on_message  # type: ignore[method-assign]
    Engine.poll = poll  # type: ignore[method-assign]
    bbort.OrtSegment.run = ort_run  # type: ignore[method-assign]

    from bb_edge.adapters.fleet import generation

    orig_submit = generation.EndpointStepper.submit
    orig_wait = generation.EndpointStepper.wait

    def submit(self: Any, inputs: Any, session: int, step: int) -> int:
        t = _now()
        rid = orig_submit(self, inputs, session, step)
        _recs.append(("submit", t, _now(), "", rid, 0))
        return rid

    def wait(self: Any, handle: int, timeout: float) -> Any:
        t = _now()
        out = orig_wait(self, handle, timeout)
        _recs.append(("waited", t, _now(), "", handle, 0))
        return out

    orig_take = getattr(generation.EndpointStepper, "take", None)
    if orig_take is not None:  # chained steps (the host's next step on its network thread) take, not wait

        def take(self: Any, handle: int) -> Any:
            t = _now()
            out = orig_take(self, handle)
            _recs.append(("waited", t, _now(), "", handle, 0))
            return out

        generation.EndpointStepper.take = take  # type: ignore[attr-defined]
    generation.EndpointStepper.submit = submit  # type: ignore[method-assign]
    generation.EndpointStepper.wait = wait  # type: ignore[method-assign]
    atexit.register(_dump)
