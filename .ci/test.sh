#!/usr/bin/env bash
# Install everything the tests need (system packages via apt when root), then run them.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  missing=()
  while read -r pkg; do
    pkg="${pkg%%#*}"; pkg="$(echo "$pkg" | xargs)"
    [ -z "$pkg" ] && continue
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done < .ci/apt-packages.txt
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing system packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

if [ -f .ci/pip-preinstall.sh ]; then bash .ci/pip-preinstall.sh; fi
python -m pip install -q --disable-pip-version-check -e ".[test]"
python -m pytest -q -p no:cacheprovider tests "$@"
