"""Over-the-air update of a MicroPython node, in the MicroPython VM: staging cost as a ratio to receiving the
same bytes.

    python bench/bench_ota_micropython.py [--size KIB] [--chunk BYTES] [--repeat N]

A node-1 program y = x + c whose constant makes it about --size KiB (default 256) is offered to the .mpy
build of bbnode (firmware/micropython/bbnode/ota.py, memory slots) in the MicroPython WebAssembly VM, as
the Python deployer sends it (OFFER, DATA chunks of --chunk bytes, HMAC-SHA-256). Timed in the VM with
``time.ticks_us`` (whole milliseconds in this VM: the short steps run 20 times): from the first DATA
to READY (envelope decode, slot write, streamed SHA-256, HMAC over the signed message, the program
loader and the contract check), and COMMIT to SWITCHED (install, the health run -- one inference --,
HELLO), next to one inference of the new program. The baseline, in the same VM and run: decoding the
same envelopes and copying their payloads into a bytearray (what any receiver of the bytes does). Also
printed: SHA-256 of the image, one HMAC and the loader alone. The WebAssembly VM is a JIT-compiled
interpreter on this CPU; an ESP32 runs MicroPython roughly 20-50x slower, and its hashlib is C
(mbedTLS) as here. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import struct
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.engine import ota  # noqa: E402
from bb_edge.mpy.cross import compile_file, runtime_dir  # noqa: E402
from bb_edge.wire import envelope as wire  # noqa: E402
from tests.micropython.test_ota_micropython import KEY, NODE, NODE_ID, VM_MODULES, add_program  # noqa: E402
from tests.support.mpy_vm import ensure_vm, run_vm  # noqa: E402

VM_SCRIPT = """
import hashlib, time
from bbnode import envelope as E, ota
from bbnode.executor import Program
from bbnode.node import Node
raw = open('msgs.bin', 'rb').read()
msgs = []
i = 0
while i < len(raw):
    n = int.from_bytes(raw[i:i + 4], 'little')
    msgs.append(raw[i + 4:i + 4 + n])
    i += 4 + n
old = open('old.bbrt', 'rb').read()
new = open('new.bbrt', 'rb').read()
key = open('key.bin', 'rb').read()
res = {'stage': [], 'switch': [], 'copy': [], 'sha': [], 'hmac': [], 'load': [], 'run': []}
for rep in range(REPEAT):
    out = []
    node = Node(Program(old), send=out.append, name=NAME, max_payload=MAXP)
    node.ota = ota.OtaNode(NAME, key, ota.MemorySlots(len(new)), ota.NodeLoader(node), max_program=len(new))
    node.handle(msgs[0])
    t0 = time.ticks_us()
    for m in msgs[1:-1]:
        node.handle(m)
    t1 = time.ticks_us()
    node.handle(msgs[-1])
    t2 = time.ticks_us()
    assert len(out) == 3, len(out)  # READY, SWITCHED, HELLO
    res['stage'].append(time.ticks_diff(t1, t0))
    res['switch'].append(time.ticks_diff(t2, t1))
    buf = bytearray(len(new))
    t0 = time.ticks_us()
    for k in range(K):  # K times each: the VM's clock ticks in whole milliseconds
        off = 0
        for m in msgs[1:-1]:
            p = E.decode(m, MAXP).payload
            n = len(p) - 8
            buf[off:off + n] = p[8:]
            off += n
    res['copy'].append(time.ticks_diff(time.ticks_us(), t0) / K)
    t0 = time.ticks_us()
    for k in range(K):
        hashlib.sha256(new).digest()
    res['sha'].append(time.ticks_diff(time.ticks_us(), t0) / K)
    msg = ota.signed_message(NAME, 3, len(new), hashlib.sha256(new).digest())
    t0 = time.ticks_us()
    for k in range(K):
        ota.hmac_sha256(key, msg)
    res['hmac'].append(time.ticks_diff(time.ticks_us(), t0) / K)
    t0 = time.ticks_us()
    P = Program(new)
    res['load'].append(time.ticks_diff(time.ticks_us(), t0))
    t0 = time.ticks_us()
    P.run()
    res['run'].append(time.ticks_diff(time.ticks_us(), t0))
import json
print('RESULT ' + json.dumps(res))
"""


def _env(edge: int, payload: bytes, seq: int) -> bytes:
    env = wire.Envelope.for_bytes(payload, sender=0, receiver=NODE_ID, seq=seq, kind=wire.KIND_CONTROL,
                                  protocol=ota.PROTO_OTA, edge=edge)
    return wire.encode(env, max_payload=max(len(payload), 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=256, help="program size in KiB (default 256)")
    ap.add_argument("--chunk", type=int, default=4088, help="DATA bytes per envelope (default 4088: 4 KiB payload)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n = max(4, args.size * 1024 // 4)
    old, new = add_program([1.0] * n, n), add_program([2.0] * n, n)
    upd = ota.NodeUpdate(NODE, new, ota.TARGET_MPY, ota.hmac_signer(KEY), ota.SIG_HMAC_SHA256, args.chunk)
    seq = [0]

    def next_seq() -> int:
        seq[0] += 1
        return seq[0]

    d = ota.OtaDeployer({NODE: NODE_ID, "_host": 0}, [upd], next_seq, 1)
    msgs = [o.data for o in d.start(0.0)] + [_env(ota.COMMIT, struct.pack("<I", 1), next_seq())]
    maxp = max(len(wire.decode(m, max_payload=len(m)).payload_bytes()) for m in msgs) + 64
    with tempfile.TemporaryDirectory() as td:
        work = Path(td)
        lib = work / "lib"
        for mod in VM_MODULES:
            compile_file(runtime_dir() / "bbnode" / f"{mod}.py", lib / "bbnode" / f"{mod}.mpy", "", f"bbnode/{mod}.py")
        data = work / "data"
        data.mkdir()
        (data / "msgs.bin").write_bytes(b"".join(len(m).to_bytes(4, "little") + m for m in msgs))
        (data / "old.bbrt").write_bytes(old)
        (data / "new.bbrt").write_bytes(new)
        (data / "key.bin").write_bytes(KEY)
        script = VM_SCRIPT.replace("REPEAT", str(args.repeat)).replace("NAME", repr(NODE))
        script = script.replace("MAXP", str(maxp)).replace("range(K)", "range(20)").replace("/ K", "/ 20")
        out = run_vm(ensure_vm(), lib, data, script, timeout=1200)
    res = json.loads(next(x for x in out.splitlines() if x.startswith("RESULT "))[7:])
    ms = {k: statistics.median(v) / 1000 for k, v in res.items()}
    print(f"program {len(new)} B in {len(msgs) - 2} DATA envelopes of {args.chunk} B (MicroPython VM, median of "
          f"{args.repeat})")
    print(f"  stage to READY     {ms['stage']:9.1f} ms   (decode + slot + SHA-256 + HMAC + loader + contract)")
    print(f"  receive baseline   {ms['copy']:9.1f} ms   (decode + copy the same envelopes)")
    print(f"  ratio              {ms['stage'] / ms['copy']:9.2f}")
    print(f"  of which: SHA-256 {ms['sha']:.1f} ms, HMAC {ms['hmac']:.2f} ms, loader {ms['load']:.1f} ms")
    print(f"  COMMIT to SWITCHED {ms['switch']:9.1f} ms   (install, health run, HELLO); one inference "
          f"{ms['run']:.1f} ms")


if __name__ == "__main__":
    main()
