"""The duplicate filter: per sender, a bounded sliding window per recent boot epoch.

A node's envelope ``seq`` is ``(boot_epoch << 32) | n`` (docs/wire.md,
"Sequence numbers and boot epochs in envelopes"). For each sender the filter
keeps up to ``epochs`` windows, one per recent epoch; each holds the highest
``n`` accepted (``top``) and a bitmap of the ``window`` numbers below it.

- an epoch older than every kept one: ``stale_epoch``;
- ``n == top``, ``n`` below the window, or its bit set: ``duplicate``;
- anything else is ``fresh``.

A new epoch more than one above the newest *regular* window's epoch (a jump, e.g. a forged far-future
epoch) opens no regular window: it takes the sender's one *probation* window, replacing the epoch held
there. So however many distinct far-future epochs arrive, they hold one window, and the sender's real
epoch (regular, and never the smallest while it is the newest) keeps working. A HELLO for an epoch
(:meth:`SeqFilter.start_epoch`, the announced reboot) opens or promotes a regular window. The first
epoch a sender is seen with, and an epoch adjacent to (or below) its newest regular one, open regular
windows; past ``epochs`` windows the smallest epoch is forgotten.

:meth:`SeqFilter.check` never changes anything; only :meth:`SeqFilter.record`
does, and the engine calls it after the envelope passed every check and was
applied. A far-future ``seq`` therefore opens (at most) a window of its own
epoch and cannot silence the sender's real epoch.
"""

from __future__ import annotations

from typing import Any

FRESH, DUPLICATE, STALE_EPOCH = "fresh", "duplicate", "stale_epoch"
_N_MASK = 0xFFFFFFFF


def split_seq(seq: int) -> tuple[int, int]:
    """``(epoch, n)`` of a sequence number."""
    return seq >> 32, seq & _N_MASK


class _Window:
    """One epoch's window: ``top`` and the ``window`` numbers below it as a ring of bits.

    A bytearray ring (number k at bit k % (window + 1)) makes every update
    O(1) amortised however wide the window is; a Python int bitmap would be
    copied whole on every shift. The ring is allocated only up to the highest
    slot set so far (bits past its end read as clear): a sender that sent a
    few dozen envelopes costs a few bytes, not ``window / 8`` (8 KiB at the
    engine's default), so a server can keep one window per client of a
    100,000-client fleet.
    """

    __slots__ = ("top", "ring", "size", "probation")

    def __init__(self, window: int, top: int, probation: bool = False) -> None:
        self.size = window + 1  # top itself and the window below it
        self.ring = bytearray()
        self.top = top
        self.probation = probation  # opened by a jump: the sender's one window for unconfirmed epochs
        self._set(top)

    def _set(self, k: int) -> None:
        i = k % self.size
        b = i >> 3
        if b >= len(self.ring):  # grow to this slot's byte; never past (size + 7) // 8
            self.ring.extend(bytes(b + 1 - len(self.ring)))
        self.ring[b] |= 1 << (i & 7)

    def _clear(self, k: int) -> None:
        i = k % self.size
        if i >> 3 < len(self.ring):
            self.ring[i >> 3] &= ~(1 << (i & 7)) & 0xFF

    def _clear_run(self, k: int, count: int) -> None:
        """Clear the slots of the ``count`` (< size) consecutive numbers from ``k``: whole bytes at once.

        A sender whose seq jumps by hundreds between two envelopes to this node (a server that
        broadcast a model to 1,000 clients) cleared one bit per number, the simulator's top cost.
        """
        i = k % self.size
        held = len(self.ring) << 3  # slots past the allocated bytes are clear already
        while count:
            end = min(i + count, self.size)  # the run up to the ring's end; wraps to slot 0 after
            count -= end - i
            end = min(end, held)
            while i < end and i & 7:
                self.ring[i >> 3] &= ~(1 << (i & 7)) & 0xFF
                i += 1
            whole = end & ~7
            if i < whole:
                self.ring[i >> 3:whole >> 3] = bytes((whole - i) >> 3)
                i = whole
            while i < end:
                self.ring[i >> 3] &= ~(1 << (i & 7)) & 0xFF
                i += 1
            i = 0

    def has(self, k: int) -> bool:
        """Whether ``k`` (within the window) was recorded."""
        i = k % self.size
        return i >> 3 < len(self.ring) and bool(self.ring[i >> 3] >> (i & 7) & 1)

    def advance(self, n: int) -> None:
        """Move ``top`` up to ``n``: the slots of numbers that leave the window are cleared for reuse."""
        if n - self.top >= self.size:
            self.ring = bytearray()  # every slot leaves the window
        elif n == self.top + 1:
            pass  # the next number (the usual case): the one slot to clear is n's own, which _set sets below
        else:
            self._clear_run(self.top + 1, n - self.top)
        self.top = n
        self._set(n)

    def mask(self) -> int:
        """The window as the bitmap of docs/wire.md: bit i set = ``top - 1 - i`` recorded."""
        size, window = self.size, self.size - 1
        ring = int.from_bytes(self.ring, "little") & ((1 << size) - 1)
        r = (size - 1 - self.top % size) % size  # rotate so that top lands on bit `window`
        rotated = ((ring << r) | (ring >> (size - r))) & ((1 << size) - 1)
        low = rotated & ((1 << window) - 1)  # bit window-1-i = top-1-i
        return int(format(low, f"0{window}b")[::-1], 2) if window else 0

    @classmethod
    def from_mask(cls, window: int, top: int, mask: int, probation: bool = False) -> _Window:
        """Rebuild a window from :meth:`mask` output."""
        w = cls(window, top, probation)
        mask &= (1 << window) - 1
        while mask:
            i = (mask & -mask).bit_length() - 1
            w._set(top - 1 - i)
            mask &= mask - 1
        return w


class SeqFilter:
    """Sliding-window duplicate filter keyed by sender, then epoch (see the module docstring)."""

    def __init__(self, window: int = 1024, epochs: int = 4, max_senders: int = 4096) -> None:
        if window < 1 or epochs < 1 or max_senders < 1:
            raise ValueError("window, epochs and max_senders must be >= 1")
        self.window = window
        self.epochs = epochs
        self.max_senders = max_senders
        # sender -> {epoch: window}; dict order = least recently recorded sender first
        self._senders: dict[int, dict[int, _Window]] = {}

    def check(self, sender: int, seq: int) -> str:
        """``fresh``, ``duplicate`` or ``stale_epoch``; changes nothing."""
        wins = self._senders.get(sender)
        if not wins:
            return FRESH
        epoch, n = split_seq(seq)
        w = wins.get(epoch)
        if w is None:
            return STALE_EPOCH if epoch < min(wins) else FRESH
        if n > w.top:
            return FRESH
        if w.top - n > self.window or w.has(n):
            return DUPLICATE
        return FRESH

    def oldest_epoch(self, sender: int) -> int | None:
        """The oldest epoch kept for ``sender`` (None: nothing kept)."""
        wins = self._senders.get(sender)
        return min(wins) if wins else None

    def record(self, sender: int, seq: int) -> None:
        """Mark ``(sender, seq)`` seen; call only for an envelope that was checked fresh and applied."""
        epoch, n = split_seq(seq)
        wins = self._touch(sender)
        w = wins.get(epoch)
        if w is None:
            if wins and epoch < min(wins):
                return  # check() calls this stale; never let it displace a newer epoch
            self._open(wins, epoch, n)
        elif n > w.top:
            w.advance(n)
        elif w.top - n <= self.window:
            w._set(n)

    def start_epoch(self, sender: int, epoch: int) -> None:
        """Open an empty window for a newly announced epoch (a HELLO); evicts the oldest past ``epochs``."""
        wins = self._touch(sender)
        if epoch in wins:
            wins[epoch].probation = False  # announced: a regular window from now on
        else:
            wins[epoch] = _Window(self.window, 0)  # n counts from 1, so nothing is a duplicate yet
            self._trim(wins)

    def _open(self, wins: dict[int, _Window], epoch: int, n: int) -> None:
        """A window for a new epoch: regular if adjacent to (or below) the newest regular one, else probation."""
        regular = [e for e, x in wins.items() if not x.probation]
        jump = bool(regular) and epoch > max(regular) + 1
        if jump:
            for e in [e for e, x in wins.items() if x.probation]:
                del wins[e]  # one probation window per sender: far-future epochs displace each other
        wins[epoch] = _Window(self.window, n, jump)
        self._trim(wins)

    def _touch(self, sender: int) -> dict[int, _Window]:
        wins = self._senders.pop(sender, None)
        if wins is None:
            wins = {}
            while len(self._senders) >= self.max_senders:
                del self._senders[next(iter(self._senders))]
        self._senders[sender] = wins
        return wins

    def _trim(self, wins: dict[int, _Window]) -> None:
        while len(wins) > self.epochs:
            del wins[min(wins)]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready state (for engine snapshots)."""
        return {str(s): {str(e): [w.top, format(w.mask(), "x")] + ([1] if w.probation else [])
                         for e, w in wins.items()}
                for s, wins in self._senders.items()}

    def load_json(self, data: dict[str, Any]) -> None:
        """Load :meth:`to_json` output (senders in ``data`` replace any state kept for them)."""
        for s, wins in data.items():
            self._senders[int(s)] = {int(e): _Window.from_mask(self.window, int(v[0]), int(v[1], 16), len(v) > 2)
                                     for e, v in wins.items()}
