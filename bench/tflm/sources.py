"""Pinned TFLite Micro + CMSIS-NN sources for the MLPerf Tiny baseline, laid out as TFLM's make expects.

TFLM's Makefile downloads its third-party trees (flatbuffers, gemmlowp, ruy, CMSIS, CMSIS-NN, kissfft)
into ``tensorflow/lite/micro/tools/make/downloads/`` and skips a download whose directory exists. This
module fills that directory from local git repositories at the commits TFLM pins (the same commits and the
same flatbuffers patch its download scripts use), so the baseline builds with no network access.

Where the repositories come from: ``--sources DIR`` names a directory holding one git repository per
project, either as ``DIR/<owner>+<name>/repo`` (a mirror layout) or ``DIR/<name>`` (plain clones, e.g.
``git clone --bare``); nothing else is read. The prepared tree goes to
``~/.cache/bb-edge/tflm/<tflm commit>/`` and is reused.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

#: tflite-micro commit of the baseline (the figures in bench/bench_bbrt.py were recorded at this commit)
TFLM_COMMIT = "90b983c2b"


@dataclass(frozen=True)
class Pinned:
    """One third-party tree: its repository, the commit TFLM's download script pins, where it goes."""

    repo: str  # owner/name
    commit: str
    dest: str  # under tools/make/downloads/


#: the commits of tensorflow/lite/micro/tools/make/third_party_downloads.inc and ext_libs/*_download.sh
#: at TFLM_COMMIT
THIRD_PARTY = (
    Pinned("google/flatbuffers", "v25.9.23", "flatbuffers"),
    Pinned("google/gemmlowp", "719139ce755a0f31cbf1c37f7f98adcc7fc9f425", "gemmlowp"),
    Pinned("google/ruy", "d37128311b445e758136b8602d1bbd2a755e115d", "ruy"),
    Pinned("mborgerding/kissfft", "v130", "kissfft"),
    Pinned("ARM-software/CMSIS_6", "5782d6f8057906d360f4b95ec08a2354afe5c9b9", "cmsis"),
    Pinned("ARM-software/Cortex_DFP", "c2c70a97a20fb355815e2ead3d4a40e35a4a3cdf", "cmsis/Cortex_DFP"),
    Pinned("ARM-software/CMSIS-NN", "4ab83cc3cc98fb85ed6dafb55e8ca02f1628dcae", "cmsis_nn"),
)


class SourcesMissing(RuntimeError):
    """A pinned repository or commit is not in the sources directory."""


def _repo_dir(sources: Path, repo: str) -> Path:
    owner, name = repo.split("/")
    for cand in (sources / f"{owner}+{name}" / "repo", sources / name, sources / f"{name}.git"):
        if cand.is_dir():
            return cand
    raise SourcesMissing(f"{repo} is not under {sources} (looked for {owner}+{name}/repo and {name})")


def _archive(git_dir: Path, commit: str, dest: Path) -> None:
    """Extract ``commit`` of ``git_dir`` into ``dest`` (as the download scripts unzip an archive)."""
    proc = subprocess.run(["git", "-C", str(git_dir), "archive", "--format=tar", commit],
                          capture_output=True)
    if proc.returncode:
        raise SourcesMissing(f"{git_dir}: commit {commit} missing ({proc.stderr.decode().strip()})")
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        tar.extractall(dest, filter="data")


def commit_id(sources: Path) -> str:
    """The full tflite-micro commit the baseline builds."""
    out = subprocess.run(["git", "-C", str(_repo_dir(sources, "tensorflow/tflite-micro")), "rev-parse",
                          f"{TFLM_COMMIT}^{{commit}}"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def prepare(sources: Path, cache: Path | None = None) -> Path:
    """The tflite-micro tree with its downloads filled at the pinned commits (built once, then reused)."""
    cache = cache or Path.home() / ".cache" / "bb-edge" / "tflm"
    root = cache / commit_id(sources)
    if (root / ".complete").exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    _archive(_repo_dir(sources, "tensorflow/tflite-micro"), TFLM_COMMIT, root)
    downloads = root / "tensorflow/lite/micro/tools/make/downloads"
    for p in THIRD_PARTY:
        _archive(_repo_dir(sources, p.repo), p.commit, downloads / p.dest)
    fb = downloads / "flatbuffers"
    for f in [*fb.rglob("BUILD"), *fb.rglob("BUILD.bazel")]:  # as flatbuffers_download.sh does
        f.unlink()
    patch = root / "tensorflow/lite/micro/tools/make/flatbuffers.patch"
    subprocess.run(["patch", "-p1", "-s", "-i", str(patch)], cwd=fb, check=True)
    kiss = root / "third_party/kissfft/kissfft.patch"
    if kiss.exists():
        subprocess.run(["patch", "-p1", "-s", "-i", str(kiss)], cwd=downloads / "kissfft", check=True)
    # pigweed serves TFLM's unit tests only (no library source includes it); the make insists on the directory
    (downloads / "pigweed").mkdir(exist_ok=True)
    (root / ".complete").write_text("ok\n")
    return root
