# The build system assumes that toolchain-${IDF_TARGET}.cmake file
# is present. It is not necessary for the host build, so we keep
# this file as a placeholder.
