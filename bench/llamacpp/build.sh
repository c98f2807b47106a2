#!/usr/bin/env bash
# Builds llama.cpp (the tree vendored by the llama-cpp-python sdist) with its RPC backend, for the
# side-by-side baseline in bench/llm_baseline.py. Nothing fetched is committed: the sdist is downloaded by
# pip into the cache and built there. A finished build is reused (stamp file).
#
# Why these flags: GGML_NATIVE=OFF + AVX2 because a native build on this CPU (it advertises AMX) dies with an
# illegal instruction; GGML_RPC=ON for ggml-rpc-server. -j defaults to 2 (a 2-core machine shared with others).
set -euo pipefail
VERSION="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
CACHE="${BB_EDGE_LLAMACPP_DIR:-$HOME/.cache/bb-edge/llamacpp}"
JOBS="${JOBS:-2}"
BUILD="$CACHE/build-$VERSION"
STAMP="$BUILD/.bb-edge-built"
TARGETS=(ggml-rpc-server llama-bench llama-completion)
if [ -f "$STAMP" ]; then echo "$BUILD/bin"; exit 0; fi
mkdir -p "$CACHE"
sdist="$CACHE/llama_cpp_python-$VERSION.tar.gz"
if [ ! -f "$sdist" ]; then
  python -m pip download -q --no-binary :all: --no-deps "llama-cpp-python==$VERSION" -d "$CACHE" >&2
fi
src="$CACHE/llama_cpp_python-$VERSION"
[ -d "$src" ] || tar -xzf "$sdist" -C "$CACHE"
nice -n 15 cmake -S "$src/vendor/llama.cpp" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DGGML_RPC=ON -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_AVX=ON -DGGML_FMA=ON -DGGML_F16C=ON \
  -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF >&2
# target names moved between llama.cpp versions: build the ones this tree has
have="$(ninja -C "$BUILD" -t targets all 2>/dev/null | cut -d: -f1)"
want=()
for t in "${TARGETS[@]}" rpc-server; do
  if grep -qx "$t" <<<"$have"; then want+=("$t"); fi
done
nice -n 15 ninja -C "$BUILD" -j "$JOBS" "${want[@]}" >&2
touch "$STAMP"
echo "$BUILD/bin"
