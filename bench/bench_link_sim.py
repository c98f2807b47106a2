"""The link layer on a simulated noisy serial line: goodput and where the retransmissions go, free of load.

Two sans-IO :class:`~bb_edge.wire.link.Link` ends (the Python state machine, Serial defaults) exchange frames
over a simulated line: each direction carries ``rate`` bytes/s (a frame occupies the line for its COBS-framed
length), arrives ``delay`` seconds after its last byte, and is lost (the CRC drops it) with probability
``1 - (1 - p) ** framed_len`` for a byte error rate ``p``. Time is simulated, so the figures do not move with
the machine's load (bench_transport.py measures the real thing over ptys, where they do).

For every retransmission it says what had happened to the previous transmission of that frame: ``lost``
(the line dropped it: the resend was needed), ``refused`` (it arrived and the receiver refused it: a new
message's fragment not at ``cum + 1``, ``ORDER`` in docs/wire.md, or out of window) or ``in flight`` (it was
still on the line: the resend came too early).

    python bench/bench_link_sim.py [--envelopes N]
"""

from __future__ import annotations

import argparse
import heapq
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.wire import Envelope, encode  # noqa: E402
from bb_edge.wire import link as L  # noqa: E402
from bb_edge.wire.framing import frame_body  # noqa: E402
from bb_edge.wire.hello import CAP_ARQ, CAP_FRAG, HelloRecord  # noqa: E402


@dataclass
class SimResult:
    """One simulated transfer."""

    seconds: float
    goodput: float  # envelope bytes/s delivered
    useful: float  # envelope bytes / wire bytes (both directions)
    data_out: int
    frame_size: int
    resends: Counter[str] = field(default_factory=Counter)  # what happened to the previous transmission
    refused: Counter[str] = field(default_factory=Counter)  # receiver refusals by code


def _envelopes(size: int, n: int) -> list[bytes]:
    """``n`` encoded envelopes of exactly ``size`` bytes (as bench_transport.py makes them)."""
    payload = np.random.default_rng(0).integers(0, 256, size - 64, dtype=np.uint8)
    return [encode(Envelope.for_array(payload, sender=1, receiver=2, seq=i + 1, edge=1)) for i in range(n)]


class _Sender(L.Link):
    """A Link that reports, at each retransmission, the fate of the frame's previous transmission."""

    fate: dict[int, tuple[str, float]]  # lseq -> ("lost" | "sent", arrival time) of its latest transmission
    resends: Counter[str]
    peer_link: L.Link

    def _transmit(self, f: L._Out, now: float, retransmit: bool, fast: bool = False) -> None:
        if retransmit:
            state, arrival = self.fate.get(f.lseq, ("lost", 0.0))
            if state == "sent":
                r = self.peer_link
                held = f.lseq <= r.cum or (f.lseq - r.cum <= 32 and (r.mask >> (f.lseq - r.cum - 1)) & 1)
                state = "in flight" if arrival > now else ("ack lost" if held else "refused")
            self.resends[state] += 1
        super()._transmit(f, now, retransmit, fast)


def simulate(p: float, size: int, n: int, rate: float, delay: float = 0.0005, mtu: int = 0, fixed: bool = False,
             seed: int = 1, rto: float = 0.2, backoff: int = 4, limit: float = 600.0) -> SimResult:
    """Send ``n`` envelopes of ``size`` bytes from one end to the other; Serial's link defaults unless ``fixed``
    (frames of exactly ``mtu``: the adaptive size off)."""
    rng = random.Random(seed)

    def config() -> L.LinkConfig:
        return L.LinkConfig(rto_initial=rto, rto_min=min(rto, 0.02), rto_max=rto * 2 ** backoff,
                            max_retries=100_000, hb_interval=0.2, dead_after=10.0, mtu=mtu,
                            grow_after=0 if fixed else L.GROW_AFTER)

    def hello(i: int) -> HelloRecord:
        return HelloRecord(1, 1, CAP_ARQ | CAP_FRAG, 1, i + 1, 1 << 18, 32, f"n{i}")

    a = _Sender(hello(0), config())
    b = L.Link(hello(1), config())
    a.fate, a.resends, a.peer_link = {}, Counter(), b
    ends = (a, b)
    line_free = [0.0, 0.0]
    wire = [0, 0]
    queue: list[tuple[float, int, int, bytes]] = []  # arrival, order, destination, frame body
    order = 0
    delivered = 0
    refused: Counter[str] = Counter()

    def pump(i: int, now: float) -> None:
        nonlocal order, delivered
        for body in ends[i].take_frames():
            framed = len(frame_body(body)) + 1
            end = max(now, line_free[i]) + framed / rate
            line_free[i] = end
            wire[i] += framed
            ok = rng.random() < (1 - p) ** framed
            if i == 0 and len(body) > L.HEADER_SIZE and body[:2] == L.LINK_MAGIC and body[2] == L.T_DATA:
                a.fate[int.from_bytes(body[4:8], "little")] = ("sent" if ok else "lost", end + delay)
            if ok:
                order += 1
                heapq.heappush(queue, (end + delay, order, 1 - i, body))
        for ev in ends[i].take_events():
            if isinstance(ev, L.EnvelopeReceived):
                delivered += 1
            elif isinstance(ev, (L.FragmentRejected, L.BadLinkFrame)):
                refused[ev.code] += 1

    now = 0.0
    for i in (0, 1):
        ends[i].start(now)
        pump(i, now)
    for env in _envelopes(size, n):
        a.send(env, now)
    pump(0, now)
    while delivered < n and now < limit:
        deadlines = [d for d in (a.next_deadline(), b.next_deadline()) if d is not None]
        timer = min(deadlines) if deadlines else float("inf")
        if queue and queue[0][0] <= timer:
            now = queue[0][0]
            while queue and queue[0][0] <= now:  # everything that arrived by now, as one read
                _, _, dst, body = heapq.heappop(queue)
                ends[dst].receive(body, now)
        elif deadlines:
            now = timer
            for end in ends:
                end.poll(now)
        else:
            break
        pump(0, now)
        pump(1, now)
    return SimResult(now, delivered * size / max(now, 1e-9), delivered * size / max(sum(wire), 1),
                     a.counters.data_out, a.frame_size, a.resends, refused)


def _line(name: str, r: SimResult) -> str:
    total = sum(r.resends.values())
    causes = ", ".join(f"{k} {v}" for k, v in r.resends.most_common()) or "none"
    return (f"{name:34s} {r.goodput / 1e3:9.1f} kB/s  payload {r.useful:4.0%} of wire  frames {r.data_out:6d}  "
            f"resent {total:5d} ({causes}); refused {dict(r.refused) or 0}; size {r.frame_size}")


def main() -> None:
    """Print the noisy-line cases of bench_transport.py, simulated."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envelopes", type=int, default=60, help="16 KiB envelopes per 5e-4 run")
    args = ap.parse_args()
    print("5e-4 byte errors, 16 KiB envelopes, 1 MB/s line, 0.5 ms delay:")
    best = 0.0
    for fs in (128, 256, 512, 1024, 2048):
        r = simulate(5e-4, 16384, args.envelopes, 1e6, mtu=fs, fixed=True, limit=120.0)
        best = max(best, r.goodput)
        print(_line(f"  fixed {fs}-byte frames", r))
    r = simulate(5e-4, 16384, args.envelopes, 1e6)
    print(_line("  defaults (adaptive)", r))
    print(f"  defaults / best fixed size: {r.goodput / best:.2f}")
    print("~1% of 64 KiB frames corrupted (1.5e-7 byte errors), 100 MB/s line:")
    clean = simulate(0.0, 65536, 300, 100e6)
    r = simulate(0.01 / 65536, 65536, 300, 100e6)
    print(_line("  defaults", r))
    print(f"  goodput / the same clean line: {r.goodput / clean.goodput:.3f}")


if __name__ == "__main__":
    main()
