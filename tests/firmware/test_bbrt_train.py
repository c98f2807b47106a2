"""Training steps on the no-heap C runtime (issue 14 part 1, firmware/include/bbrt_train.h, docs/bbrt.md).

The oracle is ONNX Runtime running the very ONNX training program the .bbrt one was lowered from
(bb_edge.training.Trainer): same digits batches, same batch order, same initial weights.
CI runs a few steps; BB_EDGE_LONG=1 runs a whole epoch on the posix build and more on QEMU.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pytest

from bb_edge.bbrt.errors import FitError
from bb_edge.bbrt.format import Op
from bb_edge.bbrt.train_host import TrainError, TrainHost, m3_elf, run_posix, run_qemu_m3
from bb_edge.bbrt.train_lower import check_training_fit, lower_training_step, training_footprint
from bb_edge.errors import UnsupportedOpError
from bb_edge.training import SoftmaxCrossEntropy, Trainer, build_training_step
from bb_edge.learn.data import SklearnSource
from bb_edge.training.models import mlp, small_cnn
from bb_edge.training.optim import SGD
from bb_edge.targets import load_target

LONG = os.environ.get("BB_EDGE_LONG") == "1"
BATCH = 8
TOL = 1e-4
MODELS = {"softmax": (64, 10), "mlp": (64, 32, 10)}


def program(name: str, momentum: float = 0.9):  # type: ignore[no-untyped-def]
    """The ONNX training step of one of the issue's models (index labels, SGD)."""
    return build_training_step(mlp(MODELS[name], seed=3), loss=SoftmaxCrossEntropy(labels="index"),
                               optimizer=SGD(lr=0.1, momentum=momentum))


def digits_batches(steps: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``steps`` batches of BATCH digits in a shuffled order (epochs repeat with a new order)."""
    x, y = SklearnSource("digits").arrays()
    rng = np.random.default_rng(seed)
    per_epoch = len(y) // BATCH
    order = np.concatenate([rng.permutation(len(y))[:per_epoch * BATCH] for _ in range(steps // per_epoch + 1)])
    idx = order[:steps * BATCH].reshape(steps, BATCH)
    return x[idx], y[idx]


def ort_reference(tp, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """Losses and final parameter vector of ORT running the ONNX training program on the same batches."""
    tr = Trainer(tp)
    losses = np.array([tr.step(xs[i], ys[i]) for i in range(len(ys))], np.float32)
    return losses, tr.vector()


@pytest.mark.parametrize("name", sorted(MODELS))
def test_posix_training_steps_equal_ort(name: str) -> None:
    """The posix harness (a real process, bbrt_train_step in a loop) ends where ORT ends."""
    steps = (1797 // BATCH) if LONG else 12
    tp = program(name)
    xs, ys = digits_batches(steps)
    ref_loss, ref = ort_reference(tp, xs, ys)
    L = lower_training_step(tp, BATCH)
    loss, params = run_posix(L, xs, ys, timeout=300)
    assert params.shape == ref.shape
    assert np.abs(params - ref).max() <= TOL
    # losses relative to their size: a misclassified sample's loss of ~2.4 carries ~2e-7 x 2.4 per rounding
    assert np.allclose(loss, ref_loss, rtol=TOL, atol=TOL)
    # training happened: the parameters moved and the loss fell (else equal-to-init would pass too)
    init = tp.layout.flatten(tp.initial_params)
    assert np.abs(params - init).max() > 100 * TOL
    assert loss[-4:].mean() < loss[:4].mean()


@pytest.mark.parametrize("name", ["softmax"] + (["mlp"] if LONG else []))
def test_qemu_cortex_m3_training_steps_equal_ort(name: str) -> None:
    """The same program on QEMU Cortex-M3 (soft float, the M3 harness ELF) ends where ORT ends."""
    steps = 40 if LONG else 6
    tp = program(name)
    xs, ys = digits_batches(steps, seed=1)
    ref_loss, ref = ort_reference(tp, xs, ys)
    L = lower_training_step(tp, BATCH)
    loss, params, ticks = run_qemu_m3(L, xs, ys, timeout=600)
    assert np.abs(params - ref).max() <= TOL
    assert np.allclose(loss, ref_loss, rtol=TOL, atol=TOL)
    assert len(ticks) == steps and min(ticks) > 0


def test_api_fedavg_round_and_refusals() -> None:
    """In-process API: set a global model and reset momentum (a FedAvg round), then bad input is refused
    before anything changes: labels out of range, a wrong batch size, a non-finite or short vector."""
    tp = program("mlp")
    L = lower_training_step(tp, BATCH)
    h = TrainHost(L)
    xs, ys = digits_batches(6, seed=2)
    # a "global model" different from the initial one, and momentum from earlier steps to be reset
    for i in range(2):
        h.step(xs[i], ys[i])
    rng = np.random.default_rng(5)
    glob = (tp.layout.flatten(tp.initial_params) + rng.normal(0, 0.05, tp.layout.size)).astype(np.float32)
    h.set_params(glob)
    h.reset_state()
    tr = Trainer(tp)
    tr.load_vector(glob)
    for i in range(2, 6):
        assert abs(h.step(xs[i], ys[i]) - tr.step(xs[i], ys[i])) <= TOL
    assert np.abs(h.params() - tr.vector()).max() <= TOL

    before = h.params()
    bad = ys[0].copy()
    bad[3] = 10
    with pytest.raises(TrainError, match="TRAIN_LABEL"):
        h.step(xs[0], bad)
    bad[3] = -1
    with pytest.raises(TrainError, match="TRAIN_LABEL"):
        h.step(xs[0], bad)
    with pytest.raises(TrainError, match="TRAIN_BATCH"):
        h.step(xs[0][:BATCH - 1], ys[0][:BATCH - 1])
    nan = before.copy()
    nan[7] = np.nan
    with pytest.raises(TrainError, match="TRAIN_VALUE"):
        h.set_params(nan)
    with pytest.raises(TrainError, match="TRAIN_SIZE"):
        h.set_params(before[:-1])
    assert np.array_equal(h.params(), before)
    # and the model still trains exactly like ORT from where it was
    assert abs(h.step(xs[0], ys[0]) - tr.step(xs[0], ys[0])) <= TOL
    assert np.abs(h.params() - tr.vector()).max() <= TOL


def test_loader_refuses_a_bad_manifest_and_a_small_arena() -> None:
    """The manifest is validated (a program with tensor 0 damaged is refused), and the arena the planner
    reports is exactly what the C loader needs (8 bytes less is refused)."""
    tp = program("softmax", momentum=0.0)
    L = lower_training_step(tp, BATCH)
    TrainHost(L)  # loads
    with pytest.raises(TrainError, match="ARENA_SMALL"):
        TrainHost(L, arena_size=L.arena_bytes - 8)
    man = L.program.tensors[0]
    assert man.data is not None
    man.data = man.data.copy()
    man.data[2] = len(L.program.tensors) + 5  # x out of range
    L.blob = L.program.to_bytes()
    with pytest.raises(TrainError, match="TRAIN_MANIFEST"):
        TrainHost(L)


def test_plain_sgd_and_arena_against_its_lower_bound() -> None:
    """SGD without momentum has no optimizer state and still equals ORT; every parameter is updated in
    place (no write-back COPY) and the arena is within 5% of the lower bound for both models."""
    for name in MODELS:
        for momentum in (0.0, 0.9):
            tp = program(name, momentum)
            L = lower_training_step(tp, BATCH)
            assert Op.COPY not in L.ops_used
            assert L.arena_bytes <= 1.05 * L.lower_bound
            bd = L.breakdown()
            assert bd["params"] == sum(4 * s.size for s in tp.params)
            assert bd["optimizer_state"] == (bd["params"] if momentum else 0)
    xs, ys = digits_batches(5, seed=4)
    tp = program("mlp", momentum=0.0)
    h = TrainHost(lower_training_step(tp, BATCH))
    _, ref = ort_reference(tp, xs, ys)
    for i in range(5):
        h.step(xs[i], ys[i])
    assert np.abs(h.params() - ref).max() <= TOL


def test_fit_check_reports_and_refuses_by_how_many_bytes() -> None:
    """The MLP step at batch 128 needs more than the 64 KiB of qemu-cortex-m3: FitError with the exact
    excess; batch 8 fits. The footprint row per target says the same."""
    m3 = load_target("qemu-cortex-m3")
    tp = program("mlp")
    big = lower_training_step(tp, 128)
    with pytest.raises(FitError) as ei:
        check_training_fit(big, "client", m3)
    assert ei.value.over == big.arena_bytes + int(m3.get("reserved_ram_bytes", 0)) - m3.ram_bytes > 0
    assert f"over by {ei.value.over} bytes" in str(ei.value)
    small = lower_training_step(tp, BATCH)
    check_training_fit(small, "client", m3)
    rows = {r["target"]: r for r in training_footprint(big, [m3, load_target("qemu-rv32")])}
    assert rows["qemu-cortex-m3"]["over"] == ei.value.over and not rows["qemu-cortex-m3"]["fits"]
    assert rows["qemu-rv32"]["fits"]


def test_op_without_a_training_kernel_is_refused_at_build_time() -> None:
    """A CNN's step has Conv (and its gradient): UnsupportedOpError naming it, before anything is built."""
    tp = build_training_step(small_cnn(), loss=SoftmaxCrossEntropy(labels="index"), optimizer=SGD(lr=0.1))
    with pytest.raises(UnsupportedOpError, match=r"Conv \("):
        lower_training_step(tp, BATCH)


def test_training_firmware_has_no_heap_symbols() -> None:
    """nm: the M3 training ELF (loader, checks, kernels, training step) references no allocator."""
    from tests.support.no_heap import HEAP_SYMBOLS, elf_symbols

    nm = "arm-none-eabi-nm"
    assert shutil.which(nm), f"{nm} missing: bash .ci/test.sh installs it"
    elf = m3_elf(lower_training_step(program("softmax"), BATCH).arena_bytes)
    names = elf_symbols(elf, nm)
    assert "bbrt_train_step" in names and "bbrt_k_gemm_f32" in names  # the step really is linked
    assert not names & HEAP_SYMBOLS, sorted(names & HEAP_SYMBOLS)
    out = subprocess.run([nm, "-u", str(elf)], capture_output=True, text=True, check=True).stdout
    assert not out.strip(), f"undefined symbols: {out}"


def test_inspect_reports_the_training_footprint_and_refuses_a_target_it_does_not_fit(
        tmp_path, capsys: pytest.CaptureFixture) -> None:  # type: ignore[no-untyped-def]
    """`bb-edge inspect MODEL.onnx --train-batch N`: the arena per bbrt target; with --train-target a step
    that does not fit is a one-line FitError (exit non-zero) giving the excess in bytes."""
    import onnx

    from bb_edge.cli import main as cli

    path = tmp_path / "mlp.onnx"
    onnx.save(mlp(MODELS["mlp"], seed=3), str(path))
    assert cli(["inspect", str(path), "--train-batch", str(BATCH), "--train-target", "qemu-cortex-m3"]) == 0
    out = capsys.readouterr().out
    small = lower_training_step(program("mlp"), BATCH)
    assert f"arena {small.arena_bytes} B" in out and "qemu-cortex-m3" in out
    assert cli(["inspect", str(path), "--train-batch", "128", "--train-target", "qemu-cortex-m3"]) != 0
    err = capsys.readouterr().err
    over = lower_training_step(program("mlp"), 128).arena_bytes - 65536
    assert "FitError" in err and f"over by {over} bytes" in err


def test_training_op_checks_refuse_bad_params_and_shapes() -> None:
    """The loader's per-op checks cover the training kernels: a bad GEMM transpose flag, an unknown
    binary kind, a reduction whose sizes do not multiply out and a GEMM whose output has the wrong shape
    are refused before anything runs."""
    import copy

    base = lower_training_step(program("mlp"), BATCH)

    def refused(mutate) -> str:  # type: ignore[no-untyped-def]
        L = copy.deepcopy(base)
        mutate(L.program)
        L.blob = L.program.to_bytes()
        with pytest.raises(TrainError) as ei:
            TrainHost(L)
        return str(ei.value)

    def first(prog, code: Op):  # type: ignore[no-untyped-def]
        return next(op for op in prog.ops if op.opcode == code)

    assert "PROG_PARAM" in refused(lambda p: first(p, Op.GEMM_F32).params.__setitem__(0, 2))
    assert "PROG_PARAM" in refused(lambda p: first(p, Op.BINARY_F32).params.__setitem__(0, 7))
    assert "PROG_SHAPE" in refused(lambda p: first(p, Op.REDUCE_F32).params.__setitem__(1, 3))
    # the first GEMM (x . W0^T -> z0 [8, 32]) pointed at the logits tensor [8, 10]
    assert "PROG_SHAPE" in refused(lambda p: first(p, Op.GEMM_F32).outputs.__setitem__(0, base.index["logits"]))
