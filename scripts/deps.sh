#!/bin/sh
# Installs the build and test dependencies that are missing, with apt-get (sudo when not root).
# Checks first, so a machine that has everything installs nothing.
set -e

missing=""
pkg-config --exists ncursesw 2>/dev/null || missing="$missing libncurses-dev"
pkg-config --exists cmocka 2>/dev/null || missing="$missing libcmocka-dev"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
# python3 runs the PTX generators (ptx/gen/) for `make ptx` and tests/ptx_generated.sh.
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
[ -n "$missing" ] || exit 0

echo "ptxtutor: installing missing packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "ptxtutor: need root or sudo to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing >/dev/null
