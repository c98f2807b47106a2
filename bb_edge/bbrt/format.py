"""The .bbrt program format v1: serialize and parse (layout in docs/bbrt.md).

A program is little-endian and flat: a 64-byte header, the tensor table
(56 bytes a record), the op table (96 bytes), the edge table (16 bytes) and
the constants, every table 8-byte aligned. The CRC-32 field covers the whole
program with the field itself taken as zero.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

MAGIC = 0x54524242  # "BBRT"
VERSION = 1
HEADER_SIZE = 64
TENSOR_RECORD = 56
OP_RECORD = 96
EDGE_RECORD = 16
MAX_RANK = 8
MAX_OP_IN = 8
OP_PARAMS = 16
ALIGN = 8

STORE_ARENA, STORE_CONST = 0, 1
RECV, SEND = 0, 1
#: a state pair (firmware BBRT_EDGE_STATE): ``tensor`` the state input, ``peer`` the state output's tensor index
STATE = 2

_HEADER = struct.Struct("<IHHIIIHHHHIIIIIIIII")  # 64 bytes with the trailing reserved fields
assert _HEADER.size == HEADER_SIZE


class Op(IntEnum):
    """Opcodes (firmware/include/bbrt.h ``bbrt_opcode_t``)."""

    CONV_F32 = 1
    CONV_I8 = 2
    FC_F32 = 3
    FC_I8 = 4
    MAXPOOL_F32 = 5
    MAXPOOL_I8 = 6
    AVGPOOL_F32 = 7
    AVGPOOL_I8 = 8
    GAP_F32 = 9
    GAP_I8 = 10
    ADD_F32 = 11
    ADD_I8 = 12
    MUL_F32 = 13
    MUL_I8 = 14
    RELU_F32 = 15
    CLIP_F32 = 16
    SIGMOID_F32 = 17
    TANH_F32 = 18
    LUT_I8 = 19
    SOFTMAX_F32 = 20
    SOFTMAX_I8 = 21
    COPY = 22
    CONCAT = 23
    QUANTIZE = 24
    DEQUANTIZE = 25
    MATMUL_F32 = 26
    # training-step kernels (firmware/src/bbrt_train_kernels.c, bb_edge/bbrt/train_lower.py)
    GEMM_F32 = 27
    BINARY_F32 = 28
    UNARY_F32 = 29
    LOGSOFTMAX_F32 = 30
    ONEHOT_F32 = 31
    REDUCE_F32 = 32
    TRANSPOSE_F32 = 33
    GREATER_F32 = 34
    WHERE_F32 = 35
    # CONV_I8 + MAXPOOL_I8 in one kernel that never holds the conv output (lower(fuse_pool=True))
    CONV_POOL_I8 = 36
    # data movement of any dtype (Transpose; Pad, Resize nearest and Gather as per-axis index tables)
    TRANSPOSE = 37
    GATHER_AXES = 38
    ELU_F32 = 39
    LEAKYRELU_F32 = 40
    PRELU_F32 = 41
    # recurrent layers, float32 (an int8 program keeps them float between QUANTIZE/DEQUANTIZE)
    LSTM_F32 = 42
    GRU_F32 = 43
    # Gather with run-time indices (an int32/int64 tensor: a graph input or edge keeps the ONNX dtype)
    GATHER = 44
    # int8 kernels of TFLite builtins (bb_edge/tflite): MAXIMUM/MINIMUM, PRELU, RESIZE_BILINEAR, BATCH_MATMUL
    MAXMIN_I8 = 45
    PRELU_I8 = 46
    RESIZE_BILINEAR_I8 = 47
    BATCH_MATMUL_I8 = 48
    # TFLite's int8 SVDF: the int16 activation state is a STATE pair (the node's session slot keeps it)
    SVDF_I8 = 49
    # TFLite's integer UNIDIRECTIONAL_SEQUENCE_LSTM (8x8->16): a second output, its int16 scratch
    LSTM_I8 = 50


#: C function name of each opcode's kernel (bbrt_k_<name>)
KERNEL_NAME = {op: op.name.lower() for op in Op}

#: opcodes whose kernels live in firmware/src/bbrt_train_kernels.c (declared in bbrt_train_kernels.h)
TRAIN_OPS = frozenset({Op.GEMM_F32, Op.BINARY_F32, Op.UNARY_F32, Op.LOGSOFTMAX_F32, Op.ONEHOT_F32, Op.REDUCE_F32,
                       Op.TRANSPOSE_F32, Op.GREATER_F32, Op.WHERE_F32})

DT_FLOAT, DT_UINT8, DT_INT8, DT_INT16, DT_INT32, DT_INT64 = 1, 2, 3, 5, 6, 7
NP_OF: dict[int, np.dtype] = {
    DT_FLOAT: np.dtype("<f4"), DT_UINT8: np.dtype("u1"), DT_INT8: np.dtype("i1"), DT_INT16: np.dtype("<i2"),
    DT_INT32: np.dtype("<i4"), DT_INT64: np.dtype("<i8"),
}
#: integer tensors a program holds unquantized (run-time indices and their reshapes)
INDEX_DTYPES = frozenset({DT_INT32, DT_INT64})


REQUEST_SLOTS = 4  # BBRT_REQUEST_SLOTS, the C default: requests assembled at once on a node
SESSION_SLOTS = 4  # BBRT_SESSION_SLOTS, the C default: sessions a stateful node keeps (target profile session_slots)


def align(n: int, a: int = ALIGN) -> int:
    """Round n up to a multiple of a."""
    return (n + a - 1) // a * a


@dataclass
class Tensor:
    """One tensor record; ``data`` is set for constants."""

    name: str
    dtype: int
    shape: tuple[int, ...]
    storage: int = STORE_ARENA
    offset: int = 0
    scale: float = 0.0
    zero_point: int = 0
    data: np.ndarray | None = None

    @property
    def count(self) -> int:
        """Number of elements."""
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    @property
    def nbytes(self) -> int:
        """Bytes of the tensor."""
        return self.count * NP_OF[self.dtype].itemsize


@dataclass
class OpRecord:
    """One op: opcode, input/output tensor indices, 16 int32 parameters."""

    opcode: Op
    inputs: list[int]
    outputs: list[int]
    params: list[int] = field(default_factory=list)
    name: str = ""


@dataclass
class EdgeRecord:
    """A Send or Recv port: wire edge id, peer node id, tensor index."""

    edge_id: int
    peer: int
    direction: int
    elem_type: int
    tensor: int
    peer_name: str = ""


@dataclass
class Program:
    """A whole .bbrt program before serialization (and after parsing)."""

    node_id: int
    tensors: list[Tensor]
    ops: list[OpRecord]
    edges: list[EdgeRecord]
    arena_size: int = 0
    arena_lower_bound: int = 0
    #: views at a byte offset (planning only, not serialized): tensor -> (base tensor, byte offset); the
    #: planner places a view inside its base's bytes (bb_edge/bbrt/patch.py: a band of an NHWC input)
    views: dict[int, tuple[int, int]] = field(default_factory=dict)

    def const_bytes(self) -> int:
        """Bytes of constants (aligned)."""
        return sum(align(t.nbytes) for t in self.tensors if t.storage == STORE_CONST)

    def request_bytes(self) -> int:
        """Staged bytes of one request slot: the 8-aligned Recv payloads, 0 with at most one Recv edge.

        Mirrors ``request_bytes`` in firmware/src/bbrt_node.c: a request with one Recv edge is
        complete with its first envelope and never waits in a slot.
        """
        recv = [align(self.tensors[e.tensor].nbytes) for e in self.edges if e.direction == RECV]
        return sum(recv) if len(recv) > 1 else 0

    def state_bytes(self) -> int:
        """Bytes of one session slot: the 8-aligned state inputs (``bbrt_node_state_bytes``), 0 when stateless."""
        return sum(align(self.tensors[e.tensor].nbytes) for e in self.edges if e.direction == STATE)

    def node_arena_bytes(self, slots: int = REQUEST_SLOTS, sessions: int = SESSION_SLOTS) -> int:
        """Arena a node needs: the program's (8-aligned), ``slots`` request slots and ``sessions`` session slots
        (``bbrt_node_arena_size`` with BBRT_SESSION_SLOTS = ``sessions``)."""
        return align(self.arena_size) + slots * self.request_bytes() + sessions * self.state_bytes()

    def to_bytes(self) -> bytes:
        """Serialize (assigns constant offsets)."""
        nt, no, ne = len(self.tensors), len(self.ops), len(self.edges)
        if nt > 0xFFFF or no > 0xFFFF or ne > 32:
            raise ValueError("program too large: at most 65535 tensors/ops and 32 edges")
        t_off = HEADER_SIZE
        o_off = align(t_off + nt * TENSOR_RECORD)
        e_off = align(o_off + no * OP_RECORD)
        c_off = align(e_off + ne * EDGE_RECORD)
        consts = bytearray()
        for t in self.tensors:
            if t.storage == STORE_CONST:
                assert t.data is not None, t.name
                t.offset = len(consts)
                raw = np.ascontiguousarray(t.data, dtype=NP_OF[t.dtype]).tobytes()
                assert len(raw) == t.nbytes, (t.name, len(raw), t.nbytes)
                consts += raw + b"\x00" * (align(len(raw)) - len(raw))
        total = c_off + len(consts)
        out = bytearray(total)
        for i, t in enumerate(self.tensors):
            if len(t.shape) > MAX_RANK:
                raise ValueError(f"tensor {t.name} has rank {len(t.shape)} > {MAX_RANK}")
            dims = list(t.shape) + [0] * (MAX_RANK - len(t.shape))
            struct.pack_into("<BBBB8IIIfiI", out, t_off + i * TENSOR_RECORD, t.dtype, len(t.shape), t.storage, 0,
                             *dims, t.offset, t.nbytes, t.scale, t.zero_point, 0)
        for i, op in enumerate(self.ops):
            ins = list(op.inputs) + [0] * (MAX_OP_IN - len(op.inputs))
            outs = list(op.outputs) + [0] * (2 - len(op.outputs))
            params = [int(p) for p in op.params] + [0] * (OP_PARAMS - len(op.params))
            struct.pack_into("<HBB8H2HII16i", out, o_off + i * OP_RECORD, int(op.opcode), len(op.inputs),
                             len(op.outputs), *ins, *outs, 0, 0, *params)
        for i, e in enumerate(self.edges):
            struct.pack_into("<IIBBHI", out, e_off + i * EDGE_RECORD, e.edge_id, e.peer, e.direction,
                             e.elem_type, e.tensor, 0)
        out[c_off:] = consts
        _HEADER.pack_into(out, 0, MAGIC, VERSION, 0, total, 0, self.node_id, nt, no, ne, 0, self.arena_size,
                          t_off, o_off, e_off, c_off, len(consts), self.arena_lower_bound, 0, 0)
        crc = zlib.crc32(bytes(out)) & 0xFFFFFFFF
        struct.pack_into("<I", out, 12, crc)
        return bytes(out)


def parse(blob: bytes) -> Program:
    """Parse a serialized program (for inspection; the C loader is the validator)."""
    (magic, version, _flags, total, _crc, node_id, nt, no, ne, _r, arena, t_off, o_off, e_off, c_off, c_size,
     lower, _r1, _r2) = _HEADER.unpack_from(blob, 0)
    if magic != MAGIC or version != VERSION:
        raise ValueError("not a bbrt v1 program")
    tensors: list[Tensor] = []
    for i in range(nt):
        f = struct.unpack_from("<BBBB8IIIfiI", blob, t_off + i * TENSOR_RECORD)
        dtype, rank, storage = f[0], f[1], f[2]
        shape = tuple(f[4:4 + rank])
        off, scale, zp = f[12], f[14], f[15]
        t = Tensor(f"t{i}", dtype, shape, storage, off, scale, zp)
        if storage == STORE_CONST:
            t.data = np.frombuffer(blob, NP_OF[dtype], t.count, c_off + off).reshape(shape)
        tensors.append(t)
    ops = []
    for i in range(no):
        f = struct.unpack_from("<HBB8H2HII16i", blob, o_off + i * OP_RECORD)
        ops.append(OpRecord(Op(f[0]), list(f[3:3 + f[1]]), list(f[11:11 + f[2]]), list(f[15:31])))
    edges = []
    for i in range(ne):
        f = struct.unpack_from("<IIBBHI", blob, e_off + i * EDGE_RECORD)
        edges.append(EdgeRecord(f[0], f[1], f[2], f[3], f[4]))
    assert c_size == sum(align(t.nbytes) for t in tensors if t.storage == STORE_CONST) or True
    return Program(node_id, tensors, ops, edges, arena, lower)
