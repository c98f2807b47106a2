"""Per-node memory budgets from target profiles: what automatic placement may put on each node.

``bb-edge compile --nodes N --target [NODE=]TARGET`` places by each node's profile (docs/bbrt.md, "Split
across MCUs"). The compiler runs before any lowering, so it estimates; the numbers below were measured on
the bbrt Cortex-M4 builds of VWW int8's three nodes (``-Os``) and the build checks the real figures:

- flash: the node's program (``program.bbrt``: weights, int32 biases, per-channel requantization, op and
  tensor records) is estimated as the parameter bytes of its ops + :data:`PROGRAM_OVERHEAD` +
  :data:`OP_RECORD_ESTIMATE` per op (measured 1.6-5.8 KiB over the parameters; the estimate is 1-3 KiB
  above the real program), and must fit ``flash_bytes`` - runtime code (profile ``runtime_code_bytes``,
  else :data:`RUNTIME_CODE_BYTES` for ``mcu-bbrt``: measured 19.5-23.8 KiB) - ``reserved_flash_bytes``;
- RAM: the peak of the int8 tensors live at once (the arena) + the transmit buffer (the largest tensor the
  node sends, at least a control text) must fit ``ram_bytes`` - the runtime's own RAM (profile
  ``runtime_ram_bytes``, else :data:`RUNTIME_RAM_BYTES` for ``mcu-bbrt``: 4,600 B of node state and the
  receive frame, measured as bss minus arena minus transmit buffer, + the 4 KiB stack reserve) -
  ``reserved_ram_bytes``;
- patching: the node that takes the graph input of a model that starts with a Conv may have its first
  stages run in bands by the build
  (bb_edge/bbrt/patch.py), so its arena counts at :data:`PATCH_FACTOR` of the unpatched peak (VWW and
  ResNet-8 both patch to 0.8x their unpatched bound or below). The build patches only as far as it must
  and refuses (FitError) a node that does not fit even in bands.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import onnx

from bb_edge.compiler.cost import tensor_bytes
from bb_edge.compiler.load import tensor_types
from bb_edge.errors import FitError, PlacementError
from bb_edge.targets import TargetProfile, load_target, resolve_target

#: flash for the bbrt runtime's code when the profile states none (largest measured M4 node: 23,824 B)
RUNTIME_CODE_BYTES = 24 * 1024
#: RAM of the bbrt runtime beyond arena and transmit buffer: 4,600 B measured + the 4,096 B stack reserve
RUNTIME_RAM_BYTES = 4600 + 4096
#: the transmit buffer's floor (an MCU node's longest control text, bb_edge.bbrt.firmware.MCU_CONTROL_PAYLOAD)
TX_FLOOR = 256
#: program header and alignment, and bytes per op record and its tensors, over the parameters
PROGRAM_OVERHEAD = 1024
OP_RECORD_ESTIMATE = 64
#: the arena of a node whose first stages the build may run in bands, as a fraction of the unpatched one
PATCH_FACTOR = 0.8


class UnknownNodeError(PlacementError):
    """A ``--target NODE=T`` names a node the placement does not have."""


@dataclass(frozen=True)
class NodeBudget:
    """What one node may hold: ``flash`` bytes of program and ``ram`` bytes of arena + transmit buffer."""

    node: str
    target: str  # the profile's name
    spec: str  # the profile as given (name, family or path made absolute): the manifest's target
    flash: int  # 0 = no limit
    ram: int  # 0 = no limit
    code: int  # runtime code counted against flash
    runtime_ram: int  # runtime RAM counted against ram
    patchable: bool  # the build may patch this node's first stages (it takes the graph input)


def assign(names: Sequence[str], specs: Sequence[str]) -> dict[str, str]:
    """Node -> target spec from ``[NODE=]TARGET`` items (``bb-edge build --target``'s rule): ``NODE=T`` one
    node, a bare ``T`` every other node. UnknownNodeError for a node the placement does not have."""
    out: dict[str, str] = {}
    default: str | None = None
    for spec in specs:
        node, sep, target = spec.partition("=")
        if not sep:
            if default is not None:
                raise PlacementError(f"two default targets ({default}, {spec}); use NODE=TARGET to give nodes "
                                     f"different targets")
            default = spec
        elif node not in names:
            raise UnknownNodeError(f"--target {spec}: no node {node!r}; nodes: {', '.join(names)} "
                                   f"(name them with --names)")
        elif not target:
            raise PlacementError(f"--target {spec}: give NODE=TARGET (a profile name, family or .json file)")
        else:
            out[node] = target
    chosen = {n: out.get(n) or default for n in names}
    return {n: t for n, t in chosen.items() if t}


def budget(node: str, spec: str, patchable: bool) -> NodeBudget:
    """The budget of ``node`` on target ``spec``; FitError when the runtime alone does not fit the profile."""
    prof: TargetProfile = load_target(spec)
    chosen, _ = resolve_target(spec)
    kept = os.path.abspath(chosen) if (chosen.endswith(".json") or "/" in chosen) else chosen
    mcu = prof.builder == "mcu-bbrt"
    code = int(prof.get("runtime_code_bytes", RUNTIME_CODE_BYTES if mcu else 0))
    rt_ram = int(prof.get("runtime_ram_bytes", RUNTIME_RAM_BYTES if mcu else 0))
    fixed_flash = code + int(prof.get("reserved_flash_bytes", 0))
    fixed_ram = rt_ram + int(prof.get("reserved_ram_bytes", 0)) + (TX_FLOOR if mcu else 0)
    for resource, have, need in (("flash", prof.flash_bytes, fixed_flash + PROGRAM_OVERHEAD),
                                 ("ram", prof.ram_bytes, fixed_ram)):
        if have and need >= have:
            raise FitError(node, prof.name, resource, need, have,
                           what=f"target {prof.name!r} of node {node!r} cannot hold any program: the runtime "
                                f"alone needs {need} bytes of {resource} (estimate, docs/bbrt.md) and the "
                                f"profile has {have}",
                           advice="Give the node a target with more memory (`bb-edge targets` lists them)")
    return NodeBudget(node, prof.name, kept,
                      max(prof.flash_bytes - fixed_flash, 0) if prof.flash_bytes else 0,
                      max(prof.ram_bytes - rt_ram - int(prof.get("reserved_ram_bytes", 0)), 0)
                      if prof.ram_bytes else 0,
                      code, rt_ram, patchable)


class StageFit:
    """Each stage's flash and RAM estimates against its node's budget (bb_edge.compiler.budgets)."""

    def __init__(self, model: onnx.ModelProto, budgets: Sequence[NodeBudget | None], params: np.ndarray,
                 live: np.ndarray, cross: np.ndarray) -> None:
        self.model, self.budgets = model, list(budgets)
        self.cum_params = np.concatenate([[0.0], np.cumsum(params)])
        self.live, self.cross, self.L = live, cross, len(live)
        types = tensor_types(model)
        self.out_bytes = max([tensor_bytes(*types[o.name]) for o in model.graph.output if o.name in types] or [0])

    def parts(self, k: int, a: int, b: int, peak: float) -> tuple[int, int, int]:
        """(program estimate, arena estimate, transmit buffer) of ops a..b-1 on node k."""
        bud = self.budgets[k]
        flash = int(self.cum_params[b] - self.cum_params[a]) + PROGRAM_OVERHEAD + OP_RECORD_ESTIMATE * (b - a)
        arena = int(peak * (PATCH_FACTOR if bud is not None and bud.patchable else 1.0))
        tx = max(TX_FLOOR, int(self.cross[b - 1]) if b < self.L else self.out_bytes)
        return flash, arena, tx

    def over(self, k: int, a: int, b: int, peak: float, slack: int = 0) -> int:
        """1 if ops a..b-1 are over node k's budget and more ops stay over, -1 if over only by what they
        send (a later cut may send less), 0 if they fit (with ``slack`` more bytes of each)."""
        bud = self.budgets[k]
        if bud is None:
            return 0
        flash, arena, tx = self.parts(k, a, b, peak)
        if (bud.flash and flash > bud.flash + slack) or (bud.ram and arena > bud.ram + slack):
            return 1
        return -1 if bud.ram and arena + tx > bud.ram + slack else 0

    def estimate(self, k: int, a: int, b: int) -> dict[str, object]:
        """The manifest's record of node k's estimates (ops a..b-1) and budgets."""
        peak = float(self.live[a:b].max()) if b > a else 0.0
        flash, arena, tx = self.parts(k, a, b, peak)
        bud = self.budgets[k]
        rec: dict[str, object] = {"program_estimate": flash, "arena_estimate": arena, "tx_estimate": tx,
                                  "arena_unpatched": int(peak)}
        if bud is not None:
            rec.update(target=bud.target, flash_budget=bud.flash, ram_budget=bud.ram, runtime_code=bud.code,
                       runtime_ram=bud.runtime_ram, patch_assumed=bud.patchable and arena < peak)
        return rec

    def check(self, n: int, names: list[str], split: Callable[[int], list[int] | None]) -> None:
        """FitError unless some split fits every budget: by how many bytes the best is over.

        ``split(slack)``: the cut positions of any split into ``n`` stages that fits with ``slack`` more
        bytes of every budget (at any balance), or None.
        """
        L = self.L
        if split(0) is not None:
            return
        lo, hi = 0, int(self.cum_params[-1] + self.live.max()) + (1 << 20)
        if split(hi) is None:
            return  # no cut places at all: place_auto_report says so
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if split(mid) is not None else (mid, hi)
        cuts = split(hi) or []
        bounds = [0, *[c + 1 for c in cuts], L]
        worst: tuple[int, int, str, int, int] = (-1, 0, "", 0, 0)
        for k in range(n):
            bud = self.budgets[k]
            if bud is None:
                continue
            a, b = bounds[k], bounds[k + 1]
            flash, arena, tx = self.parts(k, a, b, float(self.live[a:b].max()))
            for res, need, have in (("flash", flash, bud.flash), ("ram", arena + tx, bud.ram)):
                if have and need - have > worst[0]:
                    worst = (need - have, k, res, need, have)
        _, k, res, need, have = worst
        bud = self.budgets[k]
        assert bud is not None
        what = "program (weights and records)" if res == "flash" else "arena + transmit buffer"
        raise FitError(
            names[k], bud.target, res, need, have,
            what=f"no split of {L} ops onto {n} node(s) fits their targets: the best still puts a {need}-byte "
                 f"{what} estimate on {names[k]!r}, whose target {bud.target!r} leaves {have} bytes of {res} "
                 f"for it",
            advice=f"Compile with more nodes (--nodes {n + 1}) or give bigger targets (docs/bbrt.md, "
                   f"\"Split across MCUs\")")
