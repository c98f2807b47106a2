set(_CMAKE_TOOLCHAIN_PREFIX xtensa-esp32s2-elf-)
include($ENV{IDF_PATH}/tools/cmake/toolchain.cmake)
