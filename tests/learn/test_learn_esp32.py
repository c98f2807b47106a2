"""ESP32 training clients: ``bb-edge build LEARN_DIR --target c1=esp32`` generates an ESP-IDF project whose app
runs the C FedAvg client (bbrt_learn.h "learn node") with its learning image in the ``bblearn`` data partition
and its boot epoch and round record in the ``bbstate`` NVS partition.

No Xtensa toolchain and no board here. What is exercised: the generated project built by ESP-IDF itself for its
linux target (third_party/esp-idf-v5.5.5: FreeRTOS POSIX port, emulated esp_partition, nvs_flash; the UART on a
pty is firmware/ports/esp-idf/linux/port_linux.c) and run with its flash as an image file: JOIN, a round's update
against ONNX Runtime on the same program, shard and batch order (within 1e-4), the record it keeps in ESP-IDF's
NVS (read back with ESP-IDF's nvs_tool), and a reboot that resumes a pending round from a record put in NVS by
esp-idf-nvs-partition-gen while the board was off. The partition table is checked against independent figures
(the record's size from the program's parameter count, the image's size, alignment, the chip's flash). NOT
exercised: the Xtensa compiler (sizes come from a Cortex-M3 proxy build), a flash chip's wear and timing, the UART
driver, FreeRTOS on the chip.
"""

from __future__ import annotations

import json
import re
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bb_edge.adapters.learn.mcu_fleet import device_for_bundle
from bb_edge.bbrt.errors import FitError
from bb_edge.bbrt.espidf import idf_path, nvs_image
from bb_edge.bbrt.flash import write_flash_image
from bb_edge.bundle.build import build_all
from bb_edge.bundle.learning.espidf import compile_definitions, learn_partition_table, nvs_bytes_for, parse_partitions
from bb_edge.targets import load_target
from bb_edge.training.models import mlp
from bb_edge.training.setup import write_learning_deployment
from tests.learn.test_learn_mcu import _model, _reference, _shard, _wait
from tests.support.learn_device import wait_learn

NODE = "c1"
LEARNING: dict[str, Any] = {
    "strategy": "fedavg", "clients": 2, "rounds": 3, "epochs": 2, "seed": 5, "round_timeout": 60.0,
    "data": {"source": "digits", "partition": {"type": "partition.iid"}},
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A softmax-regression digits deployment and its c1 bundle for esp32."""
    root = tmp_path_factory.mktemp("esp-learn")
    d = root / "dep"
    write_learning_deployment(d, LEARNING, model=mlp([64, 10], seed=5))
    build_all(d, [f"{NODE}=esp32"], root / "dist")
    return d, root / "dist" / NODE


def test_partition_table_and_sizes(built: tuple[Path, Path]) -> None:
    """The table holds the app, the image (64 KiB-aligned, mmap-able, at least learn.bin) and an NVS partition
    big enough for two copies of the record (32 + 4 x parameters bytes) plus NVS's spare page, all inside the
    chip's flash, none overlapping; main.c finds them under the names and subtype the table gives."""
    d, bundle = built
    module, _, _, _ = _shard(d, NODE)
    n = module.setup.program.layout.size
    p = bundle / "esp-idf"
    rows = {r[0]: r for r in parse_partitions((p / "partitions.csv").read_text())}
    assert set(rows) == {"nvs", "phy_init", "factory", "bblearn", "bbstate"}
    spans = sorted((r[3], r[3] + r[4]) for r in rows.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # no overlap
    assert spans[-1][1] <= load_target("esp32").flash_bytes
    _, kind, sub, off, size = rows["bblearn"]
    image = (bundle / "learn.bin").read_bytes()
    assert (kind, off % 0x10000, size % 0x10000) == ("data", 0, 0) and size >= len(image)
    assert (p / "learn.bin").read_bytes() == image
    assert rows["factory"][1:3] == ("app", "factory") and rows["factory"][3] == 0x10000
    _, kind, sub_st, _, st_size = rows["bbstate"]
    record = 32 + 4 * n
    assert (kind, sub_st) == ("data", "nvs") and st_size % 4096 == 0
    # two copies of the record in NVS's 4032-byte pages (+ a header entry per chunk), one spare page
    assert st_size >= 4096 * (2 * -(-(record + 64) // 4032) + 1)
    assert nvs_bytes_for(record) == st_size
    cfg = (p / "main" / "bbrt_learn_config.h").read_text()
    # the generated header names the partitions; main.c (firmware/ports/esp-idf/learn_main.c) finds them by these
    assert f"#define BBRT_LEARN_PARTITION_SUBTYPE {int(sub, 16)}u" in cfg and '"bbstate"' in cfg
    main_c = (p / "main" / "main.c").read_text()
    assert '"bblearn"' in main_c and "nvs_set_blob(store, \"round\"" in main_c
    assert "malloc" not in main_c
    sdk = (p / "sdkconfig.defaults").read_text()
    assert 'CONFIG_PARTITION_TABLE_CUSTOM_FILENAME="partitions.csv"' in sdk and 'CONFIG_IDF_TARGET="esp32"' in sdk
    # every source the component lists exists; every runtime source copied is listed
    cmake = (p / "main" / "CMakeLists.txt").read_text()
    listed = set(re.findall(r'"(bbrt/[\w.]+\.c)"', cmake))
    assert listed == {f"bbrt/{f.name}" for f in (p / "main" / "bbrt").glob("*.c")}
    defs = dict(d_.partition("=")[::2] for d_ in compile_definitions(p))
    assert int(defs["BBRT_MAX_PAYLOAD"].rstrip("u")) >= 4 * n and "BBRT_TRAIN" in defs
    figs = json.loads((bundle / "manifest.json").read_text())["figures"]
    assert figs["record_bytes"] == record and figs["param_count"] == n
    assert 0 < figs["static_ram_bytes"] < figs["ram_need"] <= load_target("esp32").ram_bytes
    # the static buffers hold the step arena and the work area at least
    buffers = int(defs["BBRT_ARENA_SIZE"].rstrip("u")) + int(defs["BBRT_LEARN_WORK"].rstrip("u"))
    assert figs["static_ram_bytes"] > buffers


def _nvs(image: Path, bundle: Path) -> dict[str, Any]:
    """{key: value} of namespace bblearn in the flash image's bbstate partition, parsed by ESP-IDF's own
    nvs_partition_tool (a blob is its chunks, in chunk order, as its written blob_index lists them)."""
    rows = {r[0]: r for r in parse_partitions((bundle / "esp-idf" / "partitions.csv").read_text())}
    _, _, _, off, size = rows["bbstate"]
    sys.path.insert(0, str(idf_path() / "components" / "nvs_flash" / "nvs_partition_tool"))
    try:
        import nvs_parser  # ESP-IDF's NVS reader, carried in third_party
    finally:
        sys.path.pop(0)
    part = nvs_parser.NVS_Partition("bbstate", bytearray(image.read_bytes()[off:off + size]))
    written = [e for p in part.pages for e in p.entries if e.state == "Written"]
    ns = {e.data["value"]: e.key for e in written if e.metadata["namespace"] == 0}
    mine = [e for e in written if ns.get(e.metadata["namespace"]) == "bblearn"]
    out: dict[str, Any] = {}
    for e in mine:
        kind = e.metadata["type"]
        if kind == "blob_index":
            first, count = e.data["chunk_start"], e.data["chunk_count"]
            chunks = sorted((c for c in mine if c.key == e.key and c.metadata["type"] == "blob_data"
                             and first <= c.metadata["chunk_index"] < first + count),
                            key=lambda c: c.metadata["chunk_index"])
            assert len(chunks) == count
            blob = b"".join(b"".join(bytes(x.raw) for x in c.children)[:c.data["size"]] for c in chunks)
            out[e.key] = blob[:e.data["size"]]
        elif kind not in ("blob_data", "string", "blob"):
            out[e.key] = e.data["value"]
    return out


def test_esp_app_trains_a_round_and_resumes_from_nvs(built: tuple[Path, Path], tmp_path: Path) -> None:
    """The app ESP-IDF built for linux, on a pty: JOIN with its shard size; round 1's update equals ORT within
    1e-4; ESP-IDF's NVS says round 1 answered with start + update (CRC-32 as zlib's); a record with round 2
    pending, put in NVS by esp-idf-nvs-partition-gen while the board is off, is trained again at boot (new epoch
    from NVS) and answered as ORT says."""
    d, bundle = built
    module, x, y, ids = _shard(d, NODE)
    nid = ids[NODE]
    n = module.setup.program.layout.size
    dev = device_for_bundle(bundle, tmp_path)
    image = tmp_path / f"{NODE}.flash"
    dev.start(timeout=30.0)  # type: ignore[attr-defined]
    try:
        join = wait_learn(dev, 1, 10)
        assert join and np.asarray(join[0].array()).tolist() == [len(x)]
        start = np.random.default_rng(1).normal(0, 0.1, n).astype(np.float32)
        dev.send(_model(start, nid, 0, 1, edge=6))
        _wait(dev, "ModelTaken round=0")
        dev.send(_model(start, nid, 1, 2))
        upd = wait_learn(dev, 3, 60)
        assert upd and upd[0].request_id == 1
        got = np.asarray(upd[0].array(), np.float32)
        ref = _reference(module, x, y, nid, 1, start)
        assert np.abs(ref).max() > 1e-3  # training moved the model
        np.testing.assert_allclose(got, ref, atol=1e-4, rtol=0)
        store = _nvs(image, bundle)
        rec = store["round"]
        magic, _v, node_id, count, answered, model_round, pending, crc = struct.unpack_from("<8I", rec)
        assert (magic, node_id, count, answered, model_round, pending) == (0x4E4C4242, nid, n, 1, 1, 0)
        assert crc == zlib.crc32(rec[:28] + rec[32:])
        np.testing.assert_allclose(np.frombuffer(rec[32:], "<f4"), start + got, atol=1e-6)
        epoch = int(store["epoch"])
        # power off; the round-2 model was taken (pending) before the cut: the record a save would leave,
        # written into the bbstate partition as an NVS image made by ESP-IDF's generator
        start2 = (start + got + 0.01).astype(np.float32)
        head = struct.pack("<7I", 0x4E4C4242, 1, nid, n, 1, 2, 2)
        body = start2.astype("<f4").tobytes()
        dev.kill()  # type: ignore[attr-defined]
        (tmp_path / "rec.bin").write_bytes(head + struct.pack("<I", zlib.crc32(head + body)) + body)
        (tmp_path / "state.csv").write_text("key,type,encoding,value\nbblearn,namespace,,\n"
                                            f"epoch,data,u32,{epoch}\nround,file,binary,{tmp_path / 'rec.bin'}\n")
        rows = {r[0]: r for r in parse_partitions((bundle / "esp-idf" / "partitions.csv").read_text())}
        nvs = nvs_image(tmp_path / "state.csv", tmp_path / "state.bin", rows["bbstate"][4])
        assert nvs is not None
        write_flash_image([(rows["bbstate"][3], nvs)], image, image.stat().st_size)
        dev.restart()  # type: ignore[attr-defined]  # waits for HELLO with a newer epoch
        assert int(_nvs(image, bundle)["epoch"]) == epoch + 1
        envs, texts = _wait(dev, "RoundResumed", 30.0)
        upd2 = wait_learn(dev, 3, 60, envs)
        assert upd2 and upd2[0].request_id == 2, texts
        np.testing.assert_allclose(np.asarray(upd2[0].array()), _reference(module, x, y, nid, 2, start2),
                                   atol=1e-4, rtol=0)
    finally:
        dev.stop()  # type: ignore[attr-defined]


def test_esp_build_refuses_what_does_not_fit() -> None:
    """A shard whose image and record outgrow the 4 MiB flash of an esp32 is a FitError naming flash."""
    prof = load_target("esp32")
    text, rows = learn_partition_table(prof, 100_000, 2632, NODE)
    assert rows[-1][3] + rows[-1][4] <= prof.flash_bytes and text.count("\n") == 6
    with pytest.raises(FitError, match="flash"):
        learn_partition_table(prof, prof.flash_bytes, 2632, NODE)
