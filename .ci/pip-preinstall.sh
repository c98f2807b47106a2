#!/usr/bin/env bash
# Runs before `pip install -e .[test]` (see .ci/test.sh).
#
# PyTorch must be the CPU build: with no torch installed, a plain `torch`
# requirement (executorch's extra pulls it in) resolves to PyPI's newest CUDA
# build and several GB of nvidia-* wheels. Pin the CPU wheel first; the
# bb-edge[executorch] extra then finds `torch==2.13.0` already satisfied.
# executorch 1.5.1 declares no torch requirement and works with torch 2.13.
# Idempotent: does nothing when the pinned version is already installed.
set -euo pipefail
TORCH_VERSION=2.13.0
have="$(python -c 'import importlib.metadata as m; print(m.version("torch"))' 2>/dev/null || true)"
case "$have" in
  "$TORCH_VERSION"|"$TORCH_VERSION+cpu") ;;
  *) echo "installing torch==$TORCH_VERSION (CPU)"
     python -m pip install -q --disable-pip-version-check "torch==$TORCH_VERSION" ;;
esac
