"""The C link end (the pyapi harness) as a Python object, its event and error-code names, the shared link
vectors, and an echo program for a posix C node: the firmware link, streaming and client-reply tests use them."""

from __future__ import annotations

import ctypes
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from bb_edge.bbrt.native import load_host_library

LINK = Path(__file__).resolve().parents[1] / "vectors" / "link"
#: event names by the C harness's event codes
EVENTS = {1: "LinkUp", 2: "VersionMismatch", 3: "EpochRegressed", 4: "PeerRestarted", 5: "BadHello",
          6: "BadLinkFrame", 7: "AckUnknown", 8: "FragmentRejected", 9: "ReassemblyTimeout", 10: "GaveUp",
          11: "PeerDown", 12: "PeerUp", 13: "HeartbeatReceived", 14: "Duplicate", 15: "BareEnvelope"}
#: reason names of BadLinkFrame, FragmentRejected, BadHello and GaveUp events
LF_CODES = {1: "TRUNCATED", 2: "BAD_MAGIC", 3: "BAD_TYPE", 4: "TOO_LARGE", 5: "BAD_FIELD", 6: "BAD_LENGTH",
            7: "NO_SESSION", 8: "VERSION", 9: "OUT_OF_WINDOW"}
FRAG_CODES = {1: "OUT_OF_RANGE", 2: "LENGTH_MISMATCH", 3: "OVERLAP", 4: "BUDGET", 5: "BAD_FIELD", 6: "ORDER"}
HELLO_CODES = {1: "TRUNCATED", 2: "BAD_VERSION", 3: "BAD_FIELD", 4: "BAD_LENGTH"}
GAVE_UP = {1: "RETRIES", 2: "TOO_LARGE"}


def link_vectors() -> dict[str, Any]:
    """tests/vectors/link/link.json, the link vectors both ends replay."""
    if not (LINK / "link.json").exists():
        pytest.skip("tests/vectors/link/link.json not there yet")
    return json.loads((LINK / "link.json").read_text())


class CLink:
    """One C link end (the pyapi harness): frames out and typed events, like bb_edge.wire.link.Link."""

    def __init__(self, record: bytes, config: dict[str, float]) -> None:
        self.lib = lib = load_host_library()
        lib.bbrtpy_link_init.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]
        lib.bbrtpy_link_receive.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32]
        lib.bbrtpy_link_send.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32]
        for f in (lib.bbrtpy_link_start, lib.bbrtpy_link_poll):
            f.argtypes = [ctypes.c_uint32]
        lib.bbrtpy_link_out.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        lib.bbrtpy_link_out_len.restype = ctypes.c_long
        lib.bbrtpy_link_state.argtypes = [ctypes.c_void_p]
        ms = [round(config[k] * 1000) for k in ("rto_initial", "rto_min", "rto_max", "granularity")]
        ms += [int(config["max_retries"])]
        ms += [round(config[k] * 1000) for k in ("hb_interval", "dead_after", "reassembly_timeout")]
        ms += [int(config.get("grow_after", 8))]
        cfg = (ctypes.c_uint32 * 9)(*ms)
        self.out = ctypes.create_string_buffer(1 << 18)
        lib.bbrtpy_link_out(self.out, len(self.out))
        st = lib.bbrtpy_link_init(record, len(record), cfg, int(config["reassembly_budget"]))
        assert st == 0, f"the C link refused its local hello ({st})"

    def _take(self) -> tuple[list[str], list[dict[str, Any]]]:
        n = self.lib.bbrtpy_link_out_len()
        assert n >= 0, "harness output buffer overflowed"
        raw = self.out.raw[:n]
        self.lib.bbrtpy_link_out(self.out, len(self.out))
        frames: list[str] = []
        events: list[dict[str, Any]] = []
        i = 0
        bare = False
        while i < len(raw):
            kind, ln = raw[i], struct.unpack_from("<I", raw, i + 1)[0]
            data = raw[i + 5:i + 5 + ln]
            i += 5 + ln
            if kind == 1:
                frames.append(data.hex())
            elif kind == 2:
                events.append({"event": "EnvelopeReceived", "envelope_hex": data.hex(), "bare": bare})
                bare = False
            else:
                code, a, b = struct.unpack("<III", data)
                name = EVENTS[code]
                if name == "BareEnvelope":
                    bare = True
                    continue
                events.append(describe(name, a, b))
        return frames, events

    def step(self, op: str, t_ms: int, data: bytes = b"") -> tuple[list[str], list[dict[str, Any]]]:
        """One scripted step; frames out and events (C-only Duplicate events left out)."""
        if op == "start":
            self.lib.bbrtpy_link_start(t_ms)
        elif op == "receive":
            self.lib.bbrtpy_link_receive(data, len(data), t_ms)
        elif op == "send":
            self.lib.bbrtpy_link_send(data, len(data), t_ms)
        elif op == "poll":
            self.lib.bbrtpy_link_poll(t_ms)
        else:
            raise AssertionError(op)
        frames, events = self._take()
        return frames, [e for e in events if e["event"] != "Duplicate"]

    def state(self) -> list[int]:
        """[up, version, cum, mask, next_lseq, rto, srtt, unacked envelopes, peer epoch, rtt samples]."""
        out = (ctypes.c_uint32 * 10)()
        self.lib.bbrtpy_link_state(out)
        return list(out)

    def frame_size(self) -> int:
        """The DATA frame size the C end cuts new frames at now (docs/wire.md "Frame size")."""
        self.lib.bbrtpy_link_frame_size.restype = ctypes.c_uint32
        return int(self.lib.bbrtpy_link_frame_size())


def describe(name: str, a: int, b: int) -> dict[str, Any]:
    """A C event as the comparable part of link.py's event fields."""
    if name == "LinkUp":
        return {"event": name, "version": a, "boot_epoch": b}
    if name == "VersionMismatch":
        return {"event": name, "peer_min": a, "peer_max": b}
    if name == "PeerRestarted":
        return {"event": name, "old_epoch": a, "new_epoch": b}
    if name == "EpochRegressed":
        return {"event": name, "known": a, "got": b}
    if name == "BadHello":
        return {"event": name, "code": HELLO_CODES[a]}
    if name == "BadLinkFrame":
        return {"event": name, "code": LF_CODES[a]}
    if name == "AckUnknown":
        return {"event": name, "cum": a, "mask": b}
    if name == "FragmentRejected":
        return {"event": name, "msg_id": a, "code": FRAG_CODES[b]}
    if name == "ReassemblyTimeout":
        return {"event": name, "msg_id": a, "received": b}
    if name == "GaveUp":
        return {"event": name, "code": GAVE_UP[b]}
    if name == "HeartbeatReceived":
        return {"event": name, "records": a}
    return {"event": name}


def hello_record(fields: dict[str, Any]) -> bytes:
    """The HELLO record bytes for the vector's ``fields`` (the wire layout written independently)."""
    name = fields["name"].encode()
    return struct.pack("<BBHIIIHH32s", fields["min_version"], fields["max_version"], fields["caps"],
                       fields["boot_epoch"], fields["node_id"], fields["max_frame"], fields["window"], len(name),
                       bytes.fromhex(fields["program_hash_hex"])) + name


ECHO_N = 4096  # float32 elements: a 16 KiB payload each way


def echo_program(node_id: int, n: int = ECHO_N) -> bytes:
    """Relu on [1, n] float32: graph input edge 1 from the host, output edge 2 to the host."""
    from bb_edge.bbrt.format import RECV, SEND, STORE_ARENA, EdgeRecord, Op, OpRecord, Program, Tensor

    tensors = [Tensor("x", 1, (1, n), STORE_ARENA, 0), Tensor("y", 1, (1, n), STORE_ARENA, 4 * n)]
    edges = [EdgeRecord(1, 0, RECV, 1, 0), EdgeRecord(2, 0, SEND, 1, 1)]
    return Program(node_id, tensors, [OpRecord(Op.RELU_F32, [0], [1])], edges, arena_size=8 * n).to_bytes()


def c_stats(stderr: str) -> dict[str, int]:
    """The counters the posix node prints at exit (name=value)."""
    import re

    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", stderr)}
