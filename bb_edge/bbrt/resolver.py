"""Generate the op resolver of a program: only the kernels it uses, and their shape checks, get linked.

The generated ``bbrt_resolver.c`` holds no C of its own: it lists the program's ops as an X-macro
(bb_edge/bbrt/cconfig.py) and includes firmware/src/bbrt_resolver_table.h, which builds the tables.
"""

from __future__ import annotations

from collections.abc import Iterable

from bb_edge.bbrt import cconfig
from bb_edge.bbrt.format import KERNEL_NAME, TRAIN_OPS, Op


def resolver_source(ops: Iterable[Op]) -> str:
    """C source of ``bbrt_op_kernels`` and ``bbrt_op_checks`` referencing exactly ``ops``' kernels and checks."""
    used = sorted(set(ops), key=int)
    return cconfig.config_header(
        "BBRT_RESOLVER_OPS_H", "the kernels this program uses and their checks (bb_edge/bbrt/resolver.py).",
        {"BBRT_RESOLVER_OPS": cconfig.XList([(op.name, KERNEL_NAME[op]) for op in used]),
         "BBRT_RESOLVER_COUNT": len(used), "BBRT_RESOLVER_TRAIN": int(any(op in TRAIN_OPS for op in used))},
        include="bbrt_resolver_table.h")
