set(_CMAKE_TOOLCHAIN_PREFIX riscv32-esp-elf-)
include($ENV{IDF_PATH}/tools/cmake/toolchain.cmake)
