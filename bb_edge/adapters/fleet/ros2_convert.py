"""Frames to tensors and back for the ROS 2 node (bb_edge.adapters.fleet.ros2_node): pure numpy, no ROS.

``sensor_msgs/Image`` (rgb8, bgr8, mono8, 32FC1, 32FC3) becomes the model input's layout (NCHW, NHWC or
HWC) and dtype: 8-bit pixels into a float32 input are ``pixel * scale + offset`` in the model's channel
order (a bgr8 frame is swapped into it); float pixels are taken as sent; a uint8 input takes 8-bit pixels
as sent. ``Float32MultiArray`` / ``UInt8MultiArray`` carry raw float32 / uint8 tensors. A frame that
does not fit raises :class:`FrameRejected` with a reason (encoding, channels, size, dtype, truncated).
``sensor_msgs/PointCloud2`` fills a point-set input (``[1, N, 3]`` / ``[N, 3]``) from its x, y, z fields
(FLOAT32 or FLOAT64, any point_step, other fields skipped); the cloud must have exactly N points.
Outputs go out as one-channel images (rows = leading dims) when their dtype has an encoding.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bb_edge.bundle.builders.ros2 import MSG_F32, MSG_IMAGE, MSG_POINTS, MSG_U8
from bb_edge.errors import BBError

# sensor_msgs/Image encodings a model input takes: numpy dtype of a pixel value, channels
ENCODINGS: dict[str, tuple[np.dtype[Any], int]] = {
    "rgb8": (np.dtype(np.uint8), 3), "bgr8": (np.dtype(np.uint8), 3), "mono8": (np.dtype(np.uint8), 1),
    "32FC1": (np.dtype(np.float32), 1), "32FC3": (np.dtype(np.float32), 3),
}
# output tensors published as sensor_msgs/Image: dtype -> encoding (one channel, rows = leading dims)
OUTPUT_ENCODINGS = {"float32": "32FC1", "uint8": "mono8", "int8": "8SC1", "int16": "16SC1",
                    "uint16": "16UC1", "int32": "32SC1", "float64": "64FC1"}



class FrameRejected(BBError):
    """A frame does not fit the model's input; ``reason`` is one of encoding, channels, size, dtype, truncated."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def image_dims(shape: list[int], layout: str) -> tuple[int, int, int]:
    """(height, width, channels) of an image contract."""
    if layout == "NCHW":
        return shape[2], shape[3], shape[1]
    if layout == "NHWC":
        return shape[1], shape[2], shape[3]
    return shape[0], shape[1], shape[2]


@dataclass
class Port:
    """One graph input or output the node owns, mapped to a ROS topic (from the bundle's ports.json)."""

    name: str
    dtype: str
    shape: list[int]
    topic: str
    msg: str
    layout: str | None = None
    scale: float = 1.0 / 255.0  # 8-bit pixels into a float model: value = pixel * scale + offset
    offset: float = 0.0
    channel_order: str = "rgb"  # the model's channel order; bgr8 frames are swapped into it
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Port:
        """A port from its ports.json entry."""
        return cls(name=d["name"], dtype=d["dtype"], shape=[int(x) for x in d["shape"]], topic=d["topic"],
                   msg=d["msg"], layout=d.get("layout"))

    @property
    def conversion(self) -> str:
        """The conversion a frame goes through, in words (shown as a read-only parameter)."""
        if self.msg == MSG_IMAGE and self.layout is not None:
            h, w, c = image_dims(self.shape, self.layout)
            encs = "rgb8|bgr8" if c == 3 else "mono8"
            floats = "32FC3" if c == 3 else "32FC1"
            if self.dtype == "float32":
                return (f"{encs} {h}x{w} -> {self.channel_order.upper()} {self.layout} float32 = "
                        f"pixel*scale+offset; {floats} {h}x{w} -> {self.layout} values as sent")
            return f"{encs} {h}x{w} -> {self.channel_order.upper()} {self.layout} {self.dtype} pixels as sent"
        if self.msg in (MSG_F32, MSG_U8):
            return f"{self.msg} of {int(np.prod([max(d, 1) for d in self.shape]))} values -> {self.shape} {self.dtype}"
        return f"{self.dtype}{self.shape} -> {self.msg}"


def image_to_tensor(port: Port, encoding: str, height: int, width: int, step: int, is_bigendian: int,
                    data: Any) -> np.ndarray:
    """The model input for one ``sensor_msgs/Image`` (fields given separately), or :class:`FrameRejected`."""
    if port.layout is None:
        raise FrameRejected("encoding", f"input {port.name} {port.shape} is not an image")
    h, w, c = image_dims(port.shape, port.layout)
    if encoding not in ENCODINGS:
        raise FrameRejected("encoding", f"encoding {encoding!r} is not one of {sorted(ENCODINGS)}")
    pix, chans = ENCODINGS[encoding]
    if chans != c:
        raise FrameRejected("channels", f"{encoding} has {chans} channel(s), input {port.name} takes {c}")
    if (height, width) != (h, w):
        raise FrameRejected("size", f"frame {height}x{width}, input {port.name} takes {h}x{w}")
    if port.dtype == "uint8" and pix != np.uint8:
        raise FrameRejected("dtype", f"{encoding} is float, input {port.name} takes uint8")
    if port.dtype not in ("uint8", "float32"):
        raise FrameRejected("dtype", f"input {port.name} is {port.dtype}; images map to uint8 or float32 inputs")
    row = width * chans * pix.itemsize
    raw = np.frombuffer(data, dtype=np.uint8)
    if step < row or raw.size < step * height:
        raise FrameRejected("truncated", f"{raw.size} bytes with step {step} for {height}x{width} {encoding}")
    rows = raw[: step * height].reshape(height, step)[:, :row]
    hwc = np.ascontiguousarray(rows).view(pix.newbyteorder(">" if is_bigendian else "<"))
    hwc = hwc.reshape(height, width, chans)
    if chans == 3 and ((encoding == "bgr8") != (port.channel_order == "bgr")) and encoding != "32FC3":
        hwc = hwc[:, :, ::-1]
    if port.dtype == "float32":
        val = hwc.astype(np.float32)
        if pix == np.uint8:
            val = val * np.float32(port.scale) + np.float32(port.offset)
    else:
        val = hwc
    if port.layout == "NCHW":
        val = val.transpose(2, 0, 1)[None]
    elif port.layout == "NHWC":
        val = val[None]
    return np.ascontiguousarray(val, dtype=port.dtype)


def array_to_tensor(port: Port, msg: str, sizes: list[int], data: Any) -> np.ndarray:
    """The model input for one ``Float32MultiArray`` / ``UInt8MultiArray``, or :class:`FrameRejected`."""
    want = {"float32": MSG_F32, "uint8": MSG_U8}.get(port.dtype)
    if msg != want:
        raise FrameRejected("dtype", f"{msg} does not carry input {port.name} ({port.dtype}); send {want}")
    arr = np.frombuffer(data, dtype=port.dtype) if isinstance(data, (bytes, bytearray, memoryview)) \
        else np.asarray(data, dtype=port.dtype)
    shape = [d if d > 0 else 1 for d in port.shape]
    if arr.size != int(np.prod(shape)):
        raise FrameRejected("size", f"{arr.size} values, input {port.name} takes {shape}")
    if sizes and int(np.prod(sizes)) != arr.size:
        raise FrameRejected("size", f"layout dims {sizes} do not hold {arr.size} values")
    return arr.reshape(shape).copy()


def tensor_to_image(arr: np.ndarray) -> tuple[str, int, int, int, bytes] | None:
    """(encoding, height, width, step, data) publishing ``arr`` as a one-channel image, or ``None``."""
    enc = OUTPUT_ENCODINGS.get(str(arr.dtype))
    if enc is None:
        return None
    width = int(arr.shape[-1]) if arr.ndim else 1
    height = int(arr.size // max(width, 1))
    data = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()
    return enc, height, width, width * arr.dtype.itemsize, data


def layout_dims(shape: tuple[int, ...]) -> list[tuple[str, int, int]]:
    """std_msgs MultiArrayLayout dims (label, size, stride) of a row-major array."""
    dims, stride = [], int(np.prod(shape)) if shape else 1
    for i, n in enumerate(shape):
        dims.append((f"d{i}", int(n), stride))
        stride //= max(int(n), 1)
    return dims


POINTFIELD_DTYPES = {7: "f4", 8: "f8"}  # sensor_msgs/PointField FLOAT32, FLOAT64


def points_to_tensor(port: Port, fields: list[tuple[str, int, int, int]], point_step: int, count: int,
                     is_bigendian: int, data: Any) -> np.ndarray:
    """The model input for one ``sensor_msgs/PointCloud2`` (fields as (name, offset, datatype, count)),
    or :class:`FrameRejected`."""
    if port.msg != MSG_POINTS:
        raise FrameRejected("dtype", f"input {port.name} {port.shape} does not take points")
    n = port.shape[1] if len(port.shape) == 3 else port.shape[0]
    if count != n:
        raise FrameRejected("size", f"{count} points, input {port.name} takes {n}")
    byfield = {f[0]: f for f in fields}
    missing = [k for k in "xyz" if k not in byfield]
    if missing:
        raise FrameRejected("encoding", f"the cloud has no field {', '.join(missing)} (fields: {sorted(byfield)})")
    raw = np.frombuffer(data, dtype=np.uint8)
    if point_step <= 0 or raw.size < point_step * count:
        raise FrameRejected("truncated", f"{raw.size} bytes for {count} points of {point_step} bytes")
    order = ">" if is_bigendian else "<"
    cols = []
    for k in "xyz":
        _, offset, datatype, _ = byfield[k]
        code = POINTFIELD_DTYPES.get(int(datatype))
        if code is None or offset + int(code[1]) > point_step:
            raise FrameRejected("dtype", f"field {k} has datatype {datatype} at offset {offset}; x, y, z must be "
                                "FLOAT32 or FLOAT64 inside point_step")
        rec = raw[: point_step * count].reshape(count, point_step)[:, offset: offset + int(code[1])]
        cols.append(np.ascontiguousarray(rec).view(order + code).reshape(count))
    return np.stack(cols, axis=1).astype(np.float32).reshape([d if d > 0 else 1 for d in port.shape])
