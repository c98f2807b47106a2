"""The duplicate filter: per sender, a bounded sliding window per recent boot epoch.

A node's envelope ``seq`` is ``(boot_epoch << 32) | n`` (docs/wire.md,
"Sequence numbers and boot epochs in envelopes"). For each sender the filter
keeps up to ``epochs`` windows, one per recent epoch; each holds the highest
``n`` accepted (``top``) and a bitmap of the ``window`` numbers below it.

- an epoch older than every kept one: ``stale_epoch``;
- ``n == top``, ``n`` below the window, or its bit set: ``duplicate``;
- anything else is ``fresh``.

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


class SeqFilter:
    """Sliding-window duplicate filter keyed by sender, then epoch (see the module docstring)."""

    def __init__(self, window: int = 1024, epochs: int = 4, max_senders: int = 4096) -> None:
        if window < 1 or epochs < 1 or max_senders < 1:
            raise ValueError("window, epochs and max_senders must be >= 1")
        self.window = window
        self.epochs = epochs
        self.max_senders = max_senders
        # sender -> {epoch: [top, mask]}; dict order = least recently recorded sender first
        self._senders: dict[int, dict[int, list[int]]] = {}

    def check(self, sender: int, seq: int) -> str:
        """``fresh``, ``duplicate`` or ``stale_epoch``; changes nothing."""
        wins = self._senders.get(sender)
        if not wins:
            return FRESH
        epoch, n = split_seq(seq)
        w = wins.get(epoch)
        if w is None:
            return STALE_EPOCH if epoch < min(wins) else FRESH
        top, mask = w
        if n > top:
            return FRESH
        if n == top or top - n > self.window or mask >> (top - n - 1) & 1:
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
            wins[epoch] = [n, 0]
            self._trim(wins)
            return
        top, mask = w
        if n > top:
            shift = n - top
            # the old top becomes bit shift-1; bits pushed past the window are forgotten
            mask = ((mask << shift) | (1 << (shift - 1))) if shift <= self.window else 0
            w[0], w[1] = n, mask & ((1 << self.window) - 1)
        elif n < top and top - n <= self.window:
            w[1] = mask | (1 << (top - n - 1))

    def start_epoch(self, sender: int, epoch: int) -> None:
        """Open an empty window for a newly announced epoch (a HELLO); evicts the oldest past ``epochs``."""
        wins = self._touch(sender)
        if epoch not in wins:
            wins[epoch] = [0, 0]  # n counts from 1, so nothing is a duplicate yet
            self._trim(wins)

    def _touch(self, sender: int) -> dict[int, list[int]]:
        wins = self._senders.pop(sender, None)
        if wins is None:
            wins = {}
            while len(self._senders) >= self.max_senders:
                del self._senders[next(iter(self._senders))]
        self._senders[sender] = wins
        return wins

    def _trim(self, wins: dict[int, list[int]]) -> None:
        while len(wins) > self.epochs:
            del wins[min(wins)]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready state (for engine snapshots)."""
        return {str(s): {str(e): [t, format(m, "x")] for e, (t, m) in wins.items()}
                for s, wins in self._senders.items()}

    def load_json(self, data: dict[str, Any]) -> None:
        """Replace the state with :meth:`to_json` output."""
        self._senders = {int(s): {int(e): [int(t), int(m, 16)] for e, (t, m) in wins.items()}
                         for s, wins in data.items()}
