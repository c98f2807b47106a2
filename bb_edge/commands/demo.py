"""`bb-edge demo`: train a digits classifier, split it over three nodes, show real predictions.

Everything runs in this process except the optional C runtime node:

1. load the 1797 handwritten 8x8 digits shipped inside the package (``bb_edge/_data/digits.npz``,
   the UCI set as scikit-learn distributes it; no scikit-learn needed) and hold out a quarter;
2. train an MLP 64-64-32-10 with the project's own training program (reverse-mode autodiff and SGD
   written as one ONNX graph, :mod:`bb_edge.training`) on ONNX Runtime;
3. compile the trained model into three node programs: ``sensor`` (first layer), ``gateway``
   (second layer), ``cloud`` (classifier head and softmax);
4. run every held-out digit through the float fleet and check it against one monolithic ONNX
   Runtime session (the split must be exact) and against the labels (accuracy);
5. when ``make`` and a C compiler are present, build ``sensor`` as an int8 ``.bbrt`` program on the
   host build of the no-heap C runtime (``bb-edge build --target sensor=host``), start it as a
   process and run the held-out set again through the mixed fleet (C runtime + two ORT engines).
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from rich.console import Console, Group
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from bb_edge.adapters.transports.inproc import InProcFleet, LinkModel
from bb_edge.commands._args import positive_int
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.errors import BBError
from bb_edge.learn.data import train_test_split
from bb_edge.resources import package_data
from bb_edge.training import SoftmaxCrossEntropy, Trainer, build_training_step, with_params
from bb_edge.training.models import mlp
from bb_edge.training.optim import SGD
from bb_edge.viz.partition import draw_partition, human_bytes

#: node names of the demo fleet, in pipeline order; SENSOR is the one the C runtime can take
NODES = ("sensor", "gateway", "cloud")
SENSOR = NODES[0]
INPUT, OUTPUT = "pixels", "probabilities"
#: the exactness bound between the float fleet and one ORT session (same kernels, same order)
EXACT = 1e-5


def load_digits() -> tuple[np.ndarray, np.ndarray]:
    """The 1797 digits shipped with the package: pixels scaled to [0, 1] (float32 [N, 64]), labels int64."""
    with np.load(package_data("_data") / "digits.npz", allow_pickle=False) as data:
        images, labels = data["images"], data["labels"]
    # pixel values are counts of set bits in 4x4 blocks (0..16); /16 keeps them in [0, 1] for every column
    return (images.reshape(len(images), 64).astype(np.float32) / 16.0), labels.astype(np.int64)


def train_classifier(x: np.ndarray, y: np.ndarray, epochs: int, seed: int,
                     progress: Progress | None = None) -> tuple[onnx.ModelProto, list[float]]:
    """Train MLP 64-64-32-10 with the autodiff training program on ORT; return the trained forward model.

    The returned model takes ``pixels`` [1, 64] and outputs ``probabilities`` [1, 10] (softmax of the
    trained logits), ready to be compiled into node programs.
    """
    forward = mlp([64, 64, 32, 10], seed=seed)
    trainer = Trainer(build_training_step(forward, None, SoftmaxCrossEntropy(), SGD(0.05, momentum=0.9)))
    rng = np.random.default_rng(seed)
    losses: list[float] = []
    task = progress.add_task("training (loss -)", total=epochs) if progress else None
    for ep in range(epochs):
        losses.append(trainer.epoch(x, y, batch_size=16, rng=rng))
        if progress is not None and task is not None:
            progress.update(task, advance=1, description=f"training (epoch {ep + 1}, loss {losses[-1]:.3f})")
    return _deployable(with_params(forward, trainer.params)), losses


def _deployable(model: onnx.ModelProto) -> onnx.ModelProto:
    """Rename the input to ``pixels`` and append a softmax named ``probabilities`` (what a user reads)."""
    g = model.graph
    old = g.input[0].name
    g.input[0].name = INPUT
    for node in g.node:
        node.input[:] = [INPUT if i == old else i for i in node.input]
    logits = g.output[0].name
    g.node.append(helper.make_node("Softmax", [logits], [OUTPUT], name="softmax", axis=-1))
    del g.output[:]
    g.output.append(helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, [1, 10]))
    g.name = "digits"
    onnx.checker.check_model(model)
    return model


def native_tools() -> str | None:
    """None when the host C runtime can be built here, else what is missing (for the printed note)."""
    missing = [t for t in ("make", "cc") if shutil.which(t) is None]
    return f"no {' or '.join(missing)} on PATH" if missing else None


def digit_art(image: np.ndarray) -> Text:
    """An 8x8 digit (values in [0, 1]) as 4 lines of half blocks: each character is two pixel rows."""
    on = np.asarray(image).reshape(8, 8) >= 0.35
    glyph = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    rows = ["".join(glyph[bool(on[r, c]), bool(on[r + 1, c])] for c in range(8)) for r in range(0, 8, 2)]
    return Text("\n".join(rows), style="bold")


@dataclass
class FleetRun:
    """Outputs of one pass over the held-out digits through a fleet."""

    probabilities: np.ndarray
    seconds: float
    bytes: int

    @property
    def predictions(self) -> np.ndarray:
        """Top-1 class per digit."""
        return np.argmax(self.probabilities, axis=1)


@dataclass
class DemoResult:
    """Figures of a demo run (returned by :func:`run_demo`, checked by the CLI and the tests)."""

    samples: int
    train_seconds: float
    accuracy_monolithic: float  # one ORT session over the whole held-out set
    accuracy_float_fleet: float
    max_abs_error: float
    native: bool
    native_note: str = ""
    accuracy_native_fleet: float | None = None
    native_agreement: float | None = None
    native_max_abs_error: float | None = None
    files: dict[str, str] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        """The accuracy of the fleet the demo ends with (mixed with the C runtime when it ran)."""
        return self.accuracy_native_fleet if self.accuracy_native_fleet is not None else self.accuracy_float_fleet

    @property
    def ok(self) -> bool:
        """The split is exact, the classifier is useful and the int8 sensor agrees with float.

        Usefulness is judged on the whole held-out set (one ORT session, >= 0.9), so a short
        ``--requests`` run is not failed by one unlucky digit; the int8 fleet must pick the float
        fleet's class for >= 90% of the digits it ran.
        """
        agrees = self.native_agreement is None or self.native_agreement >= 0.9
        return self.max_abs_error <= EXACT and self.accuracy_monolithic >= 0.9 and agrees

    def figures(self) -> dict[str, Any]:
        """Every figure as a plain dict."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__} | {"accuracy": self.accuracy}


def _run_fleet(fleet: InProcFleet, xs: np.ndarray, progress: Progress, label: str) -> FleetRun:
    """Run every digit through ``fleet`` (4 requests in flight), with a progress bar."""
    task = progress.add_task(label, total=len(xs))
    out: list[np.ndarray] = []
    for i in range(0, len(xs), 32):
        chunk = xs[i:i + 32]
        res = fleet.run([{INPUT: row[None, :]} for row in chunk], window=4)
        out += [np.asarray(r[OUTPUT], np.float32).reshape(10) for r in res]
        progress.update(task, advance=len(chunk))
    return FleetRun(np.stack(out), _elapsed(progress, task), int(sum(fleet.stats.bytes.values())))


def _elapsed(progress: Progress, task: TaskID) -> float:
    """Seconds the progress display has timed ``task`` (the command keeps no clock of its own)."""
    return float(next(t for t in progress.tasks if t.id == task).elapsed or 0.0)


def _progress(console: Console) -> Progress:
    """A fresh transient progress display (one per phase, so finished bars do not come back)."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


def _node_table(dep: Deployment, placement: dict[str, str]) -> Table:
    t = Table(title="2. compiled: who runs what")
    for col in ("node", "runs on", "ops", "params", "sends", "receives"):
        t.add_column(col)
    for n in dep.nodes:
        t.add_row(n.name, placement[n.name], str(n.ops), human_bytes(n.param_bytes),
                  ", ".join(f"{e.tensor} -> {e.dst}" for e in dep.edges if e.src == n.name) or OUTPUT,
                  ", ".join(f"{e.tensor} <- {e.src}" for e in dep.edges if e.dst == n.name) or INPUT)
    return t


def _predictions_table(x: np.ndarray, y: np.ndarray, float_run: FleetRun, native_run: FleetRun | None,
                       count: int = 6) -> Table:
    """``count`` held-out digits with label and predictions; the first misclassified one is included."""
    final = native_run or float_run
    wrong = [int(i) for i in np.nonzero(final.predictions != y)[0][:1]]  # one miss, shown not hidden
    right = [int(i) for i in np.nonzero(final.predictions == y)[0][:count - len(wrong)]]
    picks = sorted(wrong + right)
    t = Table(title="held-out digits through the fleet", show_lines=False)
    t.add_column("")
    for i in picks:
        t.add_column(f"#{i}", justify="center", no_wrap=True)
    t.add_row("", *[digit_art(x[i]) for i in picks])
    t.add_row("label", *[str(y[i]) for i in picks])

    def cell(run: FleetRun, i: int) -> str:
        p = int(run.predictions[i])
        colour = "green" if p == y[i] else "red"
        return f"[{colour}]{p}[/] {run.probabilities[i, p]:.2f}"

    t.add_row("float", *[cell(float_run, i) for i in picks])
    if native_run is not None:
        t.add_row("int8 C", *[cell(native_run, i) for i in picks])
    t.caption = ("prediction and confidence of the float fleet"
                 + (" and of the fleet with the int8 C-runtime sensor" if native_run is not None else ""))
    return t


def run_demo(out_dir: Path | None = None, *, requests: int | None = None, epochs: int = 12, seed: int = 0,
             native: bool = True, console: Console | None = None, _kept: bool = True) -> DemoResult:
    """Train, split, run and check; print as it goes and return the figures.

    ``out_dir`` is the compiled deployment (``deployment.json``, one program per node, ``partition.png``)
    and keeps next to it ``digits.onnx`` (the trained model), ``calib.npz`` (training samples for
    ``bb-edge build --calib``), ``inputs.npz``/``labels.npy`` (held-out digits for ``bb-edge run``) and,
    with the C runtime, ``dist/sensor`` (the sensor's host build).
    """
    from bb_edge.adapters.devices.serial_devices import HostDevice
    from bb_edge.bundle.build import build_all

    if out_dir is None:  # a scratch directory, removed on exit (also on Ctrl-C or an error)
        with tempfile.TemporaryDirectory(prefix="bb-edge-demo-") as scratch:
            return run_demo(Path(scratch), requests=requests, epochs=epochs, seed=seed, native=native,
                            console=console, _kept=False)
    console = console or Console()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    note = native_tools() if native else "--no-native given"
    console.print(Panel.fit(
        "bb-edge demo: train a digits classifier, split it over three nodes, check it.\n"
        "1. train an MLP on 8x8 handwritten digits with bb-edge's own ONNX training program (on ORT)\n"
        "2. compile the trained model into sensor -> gateway -> cloud node programs\n"
        "3. run the held-out digits through three sans-IO engines and compare with one ORT session\n"
        "4. " + ("rebuild the sensor as an int8 .bbrt program on the no-heap C runtime and run again"
                 if note is None else f"(the int8 C-runtime sensor is skipped: {note})"),
        title="bb-edge"))

    x, y = load_digits()
    xtr, ytr, xte, yte = train_test_split(x, y, 0.25, seed=seed)
    console.print(f"[bold]data[/] {len(x)} digits (8x8, UCI via scikit-learn, shipped in the package): "
                  f"{len(xtr)} to train on, {len(xte)} held out")
    with _progress(console) as progress:
        model, losses = train_classifier(xtr, ytr, epochs, seed, progress)
        train_s = _elapsed(progress, progress.tasks[0].id)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    reference = np.concatenate([session.run(None, {INPUT: row[None, :]})[0] for row in xte])
    acc_mono = float(np.mean(np.argmax(reference, axis=1) == yte))
    console.print(f"[bold]1. trained[/] {epochs} epochs in {train_s:.1f} s (loss {losses[0]:.3f} -> "
                  f"{losses[-1]:.3f}); one ORT session: held-out accuracy {acc_mono:.3f} ({len(xte)} digits)")
    if requests is not None:  # the fleets run the first `requests` held-out digits
        xte, yte, reference = xte[:requests], yte[:requests], reference[:requests]

    onnx.save(model, out / "digits.onnx")
    # keyed by the graph input's name, stacked [N, 1, 64]: what `--calib` and `--inputs` read
    np.savez(out / "calib.npz", pixels=xtr[:256].reshape(-1, 1, 64))
    np.savez(out / "inputs.npz", pixels=xte.reshape(-1, 1, 64))
    np.save(out / "labels.npy", yte)
    dep_dir = out
    dep, programs = compile_model(model, cuts=["h0", "h1"], node_names=list(NODES), name="digits", out_dir=dep_dir)
    placement = {n: "ORT (float32)" for n in NODES}
    if note is None:
        placement[SENSOR] = "C runtime, int8 (after step 4)"
    console.print(_node_table(dep, placement))
    png = draw_partition(dep, dep_dir / "partition.png")
    console.print(f"   programs and deployment.json in {dep_dir}; partition picture {png}")

    with _progress(console) as progress:
        fleet = InProcFleet(dep, programs, link=LinkModel(latency=0.002, jitter=0.001, seed=seed))
        float_run = _run_fleet(fleet, xte, progress, "3. float fleet")
    err = float(np.abs(float_run.probabilities - reference).max())
    acc_float = float(np.mean(float_run.predictions == yte))
    verdict = "[green]identical within 1e-5[/]" if err <= EXACT else "[red]MISMATCH[/]"
    console.print(f"[bold]3. ran[/] {len(xte)} digits through 3 engines in {float_run.seconds:.2f} s "
                  f"({human_bytes(float_run.bytes)} of envelopes on the links): max |fleet - one ORT session| = "
                  f"{err:.1e} ({verdict}); held-out accuracy {acc_float:.3f}")

    result = DemoResult(samples=len(xte), train_seconds=train_s, accuracy_monolithic=acc_mono,
                        accuracy_float_fleet=acc_float, max_abs_error=err, native=False,
                        files={"model": str(out / "digits.onnx"), "deployment": str(dep_dir),
                               "calib": str(out / "calib.npz"), "inputs": str(out / "inputs.npz")})
    native_run: FleetRun | None = None
    if note is None:
        dist = (out / "dist").resolve()
        try:
            with console.status("4. building the sensor for the host C runtime (int8, calibrated on training digits)"):
                # float32 edges: the mixed fleet stays the exact float split (docs/bbrt.md "Int8 edges")
                built = build_all(dep_dir.resolve(), [f"{SENSOR}=host"], dist, calib=(out / "calib.npz").resolve(),
                          options={"float_edges": True}, console=Console(quiet=True))
        except BBError as exc:
            note = f"the host build failed ({type(exc).__name__}: {exc})"
    if note is None:
        bundle = out / "dist" / SENSOR
        # the fleet runs the contracts the sensor was built with
        dep = load_deployment(built[0].deployment_dir or dep_dir)
        programs = {n.name: dep.program(n.name) for n in dep.nodes}
        device = HostDevice(bundle / "bbrt-host", bundle / "program.bbrt", dep.ids()[SENSOR]).start()
        try:
            with _progress(console) as progress:
                mixed = InProcFleet(dep, programs, external={SENSOR: device})
                native_run = _run_fleet(mixed, xte, progress, "4. fleet with the C-runtime sensor")
        finally:
            stats = device.stop()
        result.native = True
        result.accuracy_native_fleet = float(np.mean(native_run.predictions == yte))
        result.native_agreement = float(np.mean(native_run.predictions == float_run.predictions))
        result.native_max_abs_error = float(np.abs(native_run.probabilities - float_run.probabilities).max())
        result.files["sensor_bundle"] = str(bundle)
        size = (bundle / "program.bbrt").stat().st_size
        console.print(f"[bold]4. ran[/] the same digits with {SENSOR} as a {size}-byte int8 program on the C "
                      f"runtime ({bundle / 'bbrt-host'}): held-out accuracy {result.accuracy_native_fleet:.3f}, "
                      f"top-1 agreement with float {result.native_agreement:.1%}, max |int8 - float| "
                      f"{result.native_max_abs_error:.3f}")
        counters = dict(re.findall(r"(\w+)=(\d+)", stats))
        shown = [f"{k}={counters[k]}" for k in ("frames_ok", "inferences", "bad_frames", "run_errors", "evicted")
                 if k in counters]  # the process prints many more; these say whether it served cleanly
        console.print(f"   C runtime counters: {' '.join(shown) or stats.strip() or '-'}")
    else:
        result.native_note = note
        console.print(f"[yellow]note:[/] step 4 skipped, {note}; every node ran on ONNX Runtime "
                      "(install make and gcc for the int8 C-runtime sensor)")

    console.print(_predictions_table(xte, yte, float_run, native_run))
    summary = Group(
        Text.from_markup(f"held-out accuracy [bold]{result.accuracy:.3f}[/] over {len(xte)} digits "
                         f"({'sensor on the C runtime, int8' if result.native else 'all nodes float'}); "
                         f"split exact: {'yes' if err <= EXACT else 'NO'}"),
        Text(f"try: bb-edge run {dep_dir} --inputs {out / 'inputs.npz'} --outputs out.npz" if _kept else
             "the files were in a temporary directory, now removed; keep them with: bb-edge demo -o demo/"),
    )
    console.print(Panel.fit(summary, title="result", border_style="green" if result.ok else "red"))
    return result


# ---------------------------------------------------------------- the command


def _run(args: argparse.Namespace) -> int:
    if args.output:
        from bb_edge.paths import check_output_dir

        check_output_dir(args.output, "-o")  # a file there is a one-line error before the training
    result = run_demo(Path(args.output) if args.output else None, requests=args.requests, epochs=args.epochs,
                      seed=args.seed, native=not args.no_native)
    # non-zero when the split is not exact or the trained classifier is not useful (< 0.9 held out)
    return 0 if result.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser(
        "demo", help="train a digits classifier, split it over three nodes (one on the C runtime), check it",
        description="Train an MLP on the 8x8 digits shipped with bb-edge using bb-edge's own ONNX training "
                    "program, compile it into sensor -> gateway -> cloud, run the held-out digits through the "
                    "fleet, check the split against one ONNX Runtime session and print the accuracy. With make "
                    "and a C compiler the sensor also runs as an int8 .bbrt program on the host C runtime.")
    p.add_argument("-o", "--output", help="keep the trained model, calibration/input files, the compiled "
                                          "deployment and the sensor build here (default: a temp dir)")
    p.add_argument("--requests", type=positive_int, default=None,
                   help="held-out digits to run (default: all 450)")
    p.add_argument("--epochs", type=positive_int, default=12, help="training epochs (default 12)")
    p.add_argument("--seed", type=int, default=0, help="seed for the split, the weights and the batches")
    p.add_argument("--no-native", action="store_true",
                   help="keep every node on ONNX Runtime (skip the int8 C-runtime sensor)")
    p.set_defaults(func=_run)
