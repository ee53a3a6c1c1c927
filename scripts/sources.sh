#!/bin/sh
# sources.sh: the C sources of the program, every .c under src/ at any depth, one a line, sorted —
# the one list the Makefile builds (SRC) and tests/test_layers.c checks at link level, so a file in a
# subfolder is built and checked, never silently left out. Usage: sh scripts/sources.sh [ROOT]
cd "${1:-.}" && find src -name '*.c' -type f | LC_ALL=C sort
