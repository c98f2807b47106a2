#!/usr/bin/env bash
# Regenerate third_party/esp-idf-v5.5.5: the subset of ESP-IDF that a linux-target build of a bb-edge ESP-IDF
# project needs (docs/targets.md "ESP32 on ESP-IDF's linux target").
#
#   third_party/regen-esp-idf.sh GIT_DIR     # GIT_DIR: a clone (bare or not) of espressif/esp-idf with tag v5.5.5
#
# What it keeps: the top-level CMakeLists.txt, Kconfig, sdkconfig.rename and LICENSE (Apache-2.0);
# tools/cmake and tools/kconfig_new (the build system); the components below, whole, with their own license
# files, except chip-specific directories (esp32*, xtensa, riscv), tests and docs. No submodule is needed.
# Needs on the build machine: cmake >= 3.16, ninja, a host gcc, libbsd-dev, and the esp-idf-kconfig package.
set -euo pipefail
TAG=v5.5.5
COMPONENTS="bootloader_support esp_common esp_driver_uart esp_hw_support esp_partition esp_ringbuf esp_rom esp_system
esptool_py freertos hal heap linux log nvs_flash partition_table soc spi_flash"
git_dir=${1:?usage: $0 ESP_IDF_GIT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/esp-idf-$TAG"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
paths="CMakeLists.txt Kconfig LICENSE sdkconfig.rename tools/cmake tools/kconfig_new"
for c in $COMPONENTS; do paths="$paths components/$c"; done
# a private index: the clone's own index and work tree are left alone
mkdir -p "$tmp/t"
# shellcheck disable=SC2086
GIT_INDEX_FILE="$tmp/index" git --git-dir="$(git -C "$git_dir" rev-parse --absolute-git-dir)" --work-tree="$tmp/t" \
    checkout "$TAG" -- $paths
commit=$(git -C "$git_dir" rev-parse "$TAG^{commit}")
cd "$tmp/t/components"
find . -depth -type d \( -name 'esp32*' -o -name 'esp8684' -o -name xtensa -o -name riscv -o -name 'test*' -o -name testdata \
    -o -name test_apps -o -name host_test -o -name docs -o -name doc -o -name 'sbom*' \) -prune -exec rm -rf {} +
cd "$tmp/t"
cat > VENDORED.md <<MD
# ESP-IDF $TAG, linux-target subset

Commit $commit of espressif/esp-idf (tag $TAG), cut by third_party/regen-esp-idf.sh: the build system
(tools/cmake, tools/kconfig_new), the top-level CMakeLists.txt/Kconfig/sdkconfig.rename/LICENSE and the
components $(echo $COMPONENTS | tr '\n' ' ')without their chip-specific directories (esp32*, xtensa, riscv),
tests and docs. It builds ESP-IDF apps for IDF_TARGET=linux only. ESP-IDF is Apache-2.0 (LICENSE); components
that carry another license keep their own file (FreeRTOS-Kernel: MIT, components/freertos/*/LICENSE.md).
Do not edit files here: change the script and run it again.
MD
rm -rf "$out"
mkdir -p "$out"
cp -a . "$out/"
du -sh "$out"
