#!/bin/sh
# e2e_build: the Makefile keeps the install data path and the link flags whatever the command line says:
# a command-line CFLAGS= (as packagers and `make asan` pass) keeps -DPTXTUTOR_DATADIR, a new PREFIX rebuilds
# util.o with the new path, an unchanged one leaves it alone (`make -q`), and LDFLAGS reach the test links.
# Builds one object into a scratch BUILD directory. Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v make >/dev/null 2>&1 || ! command -v strings >/dev/null 2>&1; then
	echo "skip build: make or strings is missing"
	exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
# A make of its own, not a job of the make that runs the tests.
unset MAKEFLAGS MFLAGS MAKELEVEL
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; sed 's/^/    | /' "$WORK/out" | tail -n 20; fi; }
B="$WORK/build"
OBJ="$B/src/base/util.o"
mk() { make -C "$ROOT" --no-print-directory BUILD="$B" "$@" >"$WORK/out" 2>&1; }

mk CFLAGS=-O0 PREFIX=/x/y "$OBJ"
[ $? -eq 0 ] && strings "$OBJ" | grep -qx '/x/y/share/ptxtutor'
check "make CFLAGS=-O0 PREFIX=/x/y: util.o carries /x/y/share/ptxtutor" $?
mk -q CFLAGS=-O0 PREFIX=/x/y "$OBJ"
check "make -q with the same PREFIX: util.o is up to date" $?
mk -q CFLAGS=-O0 PREFIX=/x/z "$OBJ"
[ $? -ne 0 ]
check "make -q with another PREFIX: util.o is out of date" $?
mk CFLAGS=-O0 PREFIX=/x/z "$OBJ"
[ $? -eq 0 ] && strings "$OBJ" | grep -qx '/x/z/share/ptxtutor' && ! strings "$OBJ" | grep -q '/x/y/share'
check "make PREFIX=/x/z after /x/y: util.o is rebuilt with /x/z/share/ptxtutor" $?
mk CFLAGS=-O0 PREFIX=/x/y "$OBJ"
[ $? -eq 0 ] && strings "$OBJ" | grep -qx '/x/y/share/ptxtutor'
check "make PREFIX=/x/y again: util.o is rebuilt with /x/y/share/ptxtutor" $?
# make asan's own command line (CFLAGS and LDFLAGS replaced) keeps the path and passes LDFLAGS to every link.
mk -n -B CFLAGS=-O1 LDFLAGS=-Wl,--as-needed-marker PREFIX=/x/w BIN="$B/ptxtutor" \
	"$B/ptxtutor" "$B/tests/test_rng" "$B/fuzz/replay_fuzz_expr"
grep -q "PTXTUTOR_DATADIR=.*/x/w/share/ptxtutor.* -c -o $OBJ" "$WORK/out"
check "make -n CFLAGS=-O1: util.o is still compiled with -DPTXTUTOR_DATADIR" $?
for t in "$B/ptxtutor" "$B/tests/test_rng" "$B/fuzz/replay_fuzz_expr"; do
	grep -- "-o $t " "$WORK/out" | grep -q -- "-Wl,--as-needed-marker"
	check "make -n LDFLAGS=...: the link of $(basename "$t") passes LDFLAGS" $?
done
