"""Element types on the wire: ONNX TensorProto codes <-> numpy dtypes."""

from __future__ import annotations

import numpy as np

#: wire dtype code -> numpy dtype (little-endian)
CODE_TO_NUMPY: dict[int, np.dtype] = {
    1: np.dtype("<f4"),
    2: np.dtype("u1"),
    3: np.dtype("i1"),
    4: np.dtype("<u2"),
    5: np.dtype("<i2"),
    6: np.dtype("<i4"),
    7: np.dtype("<i8"),
    9: np.dtype("?"),
    10: np.dtype("<f2"),
    11: np.dtype("<f8"),
    12: np.dtype("<u4"),
    13: np.dtype("<u8"),
}

NUMPY_TO_CODE: dict[np.dtype, int] = {v: k for k, v in CODE_TO_NUMPY.items()}

FLOAT, UINT8, INT8, INT64 = 1, 2, 3, 7


def code_of(dtype: np.dtype | type) -> int:
    """Return the wire dtype code of a numpy dtype; raise KeyError if it has none."""
    code = NUMPY_TO_CODE.get(dtype)  # type: ignore[arg-type]  # a little-endian dtype: every envelope
    if code is not None:
        return code
    dt = np.dtype(dtype).newbyteorder("<") if np.dtype(dtype).itemsize > 1 else np.dtype(dtype)
    return NUMPY_TO_CODE[dt]


def itemsize(code: int) -> int:
    """Bytes per element of a wire dtype code."""
    return CODE_TO_NUMPY[code].itemsize
