"""The engine's acceptance rules for a MicroPython node (bb_edge/engine/dedup.py, docs/wire.md).

- Duplicate filter: per sender, a bounded sliding window per recent boot epoch (``seq = epoch << 32 | n``).
  :meth:`SeqFilter.check` changes nothing; :meth:`SeqFilter.record` is called only for an envelope that passed
  every check and was applied, so a far-future ``seq`` or a refused envelope cannot poison the window.
- Edge authorisation (:func:`authorised`): only an edge's declared producer may send on it; graph inputs
  (producer id 0) come from the host or from the client (``_client<k>``) whose slot is the request id's
  top byte, and their outputs go back to that owner (:func:`reply_to`).

The window of ``window`` numbers below the highest accepted one is a ring bitmap in a bytearray, so its
size is fixed when the epoch is first seen and no big int grows with it.
"""

FRESH = "fresh"
DUPLICATE = "duplicate"
STALE_EPOCH = "stale_epoch"
HOST_ID = 0


CLIENT_ID_BASE = 0xFFFF0000  # client slot k (1..255) is "_client<k>", wire id CLIENT_ID_BASE + k
MAX_CLIENTS = 255


def client_slot(wire_id):
    """The client slot (1..255) of a wire id, 0 when it is not a client's (bb_edge/deployment/clients.py)."""
    slot = wire_id - CLIENT_ID_BASE
    return slot if 1 <= slot <= MAX_CLIENTS else 0


def reply_to(request_id):
    """The wire id graph outputs and error results of ``request_id`` go to: its owner (top byte; 0: the host)."""
    slot = (request_id >> 56) & 0xFF
    return CLIENT_ID_BASE + slot if slot else HOST_ID


def authorised(edge_peer, sender, request_id=0):
    """True if ``sender`` may send on a Recv edge whose declared producer is ``edge_peer``; a graph input
    (``edge_peer`` 0) comes from the host or from the client that owns ``request_id``."""
    if edge_peer == HOST_ID and sender != HOST_ID:
        slot = client_slot(sender)
        return slot != 0 and slot == (request_id >> 56) & 0xFF
    return sender == edge_peer


class _Win:
    """One epoch's window: the highest ``n`` accepted and a ring bitmap of the ``window`` numbers below it."""

    def __init__(self, epoch, top, window, probation=False):
        self.epoch = epoch
        self.top = top
        self.probation = probation  # opened by an epoch jump: the sender's one such window (docs/wire.md)
        self.bits = bytearray((window + 1 + 7) // 8)

    def get(self, n, size):
        i = n % size
        return self.bits[i >> 3] >> (i & 7) & 1

    def put(self, n, size, v):
        i = n % size
        if v:
            self.bits[i >> 3] |= 1 << (i & 7)
        else:
            self.bits[i >> 3] &= ~(1 << (i & 7)) & 0xFF


class SeqFilter:
    """Sliding-window duplicate filter keyed by sender, then epoch; the rules of bb_edge/engine/dedup.py."""

    def __init__(self, window=1024, epochs=4, max_senders=64):
        if window < 1 or epochs < 1 or max_senders < 1:
            raise ValueError("window, epochs and max_senders must be >= 1")
        self.window = window
        self.epochs = epochs
        self.max_senders = max_senders
        self.senders = {}  # sender -> list of _Win
        self.order = []  # senders, least recently recorded first

    def check(self, sender, seq):
        """``fresh``, ``duplicate`` or ``stale_epoch``; changes nothing."""
        wins = self.senders.get(sender)
        if not wins:
            return FRESH
        epoch = seq >> 32
        n = seq & 0xFFFFFFFF
        w = None
        lo = wins[0].epoch
        for x in wins:
            if x.epoch == epoch:
                w = x
            if x.epoch < lo:
                lo = x.epoch
        if w is None:
            return STALE_EPOCH if epoch < lo else FRESH
        top = w.top
        if n > top:
            return FRESH
        if n == top or top - n > self.window or w.get(n, self.window + 1):
            return DUPLICATE
        return FRESH

    def record(self, sender, seq):
        """Mark ``(sender, seq)`` seen; only for an envelope that was checked fresh and applied."""
        epoch = seq >> 32
        n = seq & 0xFFFFFFFF
        wins = self._touch(sender)
        size = self.window + 1
        for w in wins:
            if w.epoch == epoch:
                top = w.top
                if n > top:
                    if n - top >= size:
                        for i in range(len(w.bits)):
                            w.bits[i] = 0
                    else:
                        for m in range(top + 1, n):  # numbers skipped over are not seen yet
                            w.put(m, size, 0)
                    w.put(n, size, 1)
                    w.top = n
                elif top - n <= self.window:
                    w.put(n, size, 1)
                return
        if wins and epoch < min(x.epoch for x in wins):
            return  # check() calls this stale; it never displaces a newer epoch
        regular = [x.epoch for x in wins if not x.probation]
        jump = bool(regular) and epoch > max(regular) + 1
        if jump:  # far-future epochs share one probation window: they cannot fill the others
            for i in range(len(wins) - 1, -1, -1):
                if wins[i].probation:
                    wins.pop(i)
        w = _Win(epoch, n, self.window, jump)
        w.put(n, size, 1)
        wins.append(w)
        self._trim(wins)

    def start_epoch(self, sender, epoch):
        """Open an empty window for a newly announced epoch (a HELLO); evicts the oldest past ``epochs``."""
        wins = self._touch(sender)
        for w in wins:
            if w.epoch == epoch:
                w.probation = False  # announced by a HELLO: a regular window from now on
                return
        w = _Win(epoch, 0, self.window)
        w.put(0, self.window + 1, 1)  # as the engine's mask: the old top (0) counts as seen once passed
        wins.append(w)
        self._trim(wins)

    def _touch(self, sender):
        wins = self.senders.get(sender)
        if wins is None:
            while len(self.order) >= self.max_senders:
                del self.senders[self.order.pop(0)]
            wins = []
            self.senders[sender] = wins
        else:
            self.order.remove(sender)
        self.order.append(sender)
        return wins

    def _trim(self, wins):
        while len(wins) > self.epochs:
            lo = 0
            for i in range(1, len(wins)):
                if wins[i].epoch < wins[lo].epoch:
                    lo = i
            wins.pop(lo)
