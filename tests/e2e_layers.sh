#!/bin/sh
# e2e_layers: the link-level layer check (tests/test_layers.c test_link_layers, nm over every object
# of scripts/sources.sh) catches each of the four breaks the code review of 2026-11-27 planted past
# the include test (its section 2.2): `#include <gpu/runner.h>` with a call in ui/app.c, a private
# prototype of runner_run and a call, `#  include "cli/cli.h"` with a call in course/lesson.c, and a
# file in a subfolder (src/ui/widgets/x.c) calling cli/ and gpu/. Each is planted in a scratch copy of
# src/ and of the build's objects, only the planted file compiled; the unplanted copy passes.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BUILD=${1:-build}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
TL="$BUILD/tests/test_layers"
case $TL in /*) ;; *) TL="$(pwd)/$TL" ;; esac
if [ ! -x "$TL" ] || [ ! -d "$BUILD/src" ]; then
	echo "skip layers_planted: no $TL or objects in $BUILD/src (make first)"
	exit 0
fi
if ! command -v nm >/dev/null 2>&1; then
	echo "skip layers_planted: no nm"
	exit 0
fi
CC=${CC:-cc}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# fresh: a scratch copy of the sources and the objects
fresh() {
	rm -rf "$WORK/t"
	mkdir -p "$WORK/t/build"
	cp -r "$ROOT/src" "$ROOT/scripts" "$WORK/t/"
	cp -r "$BUILD/src" "$WORK/t/build/"
}
# compile FILE: the planted file's object, as the Makefile would make it (src/X.c -> build/src/X.o)
compile() {
	mkdir -p "$WORK/t/build/$(dirname "$1")"
	(cd "$WORK/t" && $CC -std=gnu11 -Isrc -c -o "build/${1%.c}.o" "$1") 2>"$WORK/cc.err"
}
# check NAME WANT: test_layers on the scratch copy fails test_link_layers naming WANT
check() {
	PTXTUTOR_ROOT="$WORK/t" PTXTUTOR_BUILD="$WORK/t/build" "$TL" >"$WORK/out" 2>&1
	if grep -q '^\[  FAILED  \] test_link_layers' "$WORK/out" && grep -qF -- "$2" "$WORK/out"; then
		echo "ok layers_planted_$1: $2"
	else
		echo "not ok layers_planted_$1: want '$2'"
		grep -E 'link_layers|calls|object' "$WORK/out" | head -n 5 | sed 's/^/    | /'
		sed 's/^/    | cc: /' "$WORK/cc.err" | head -n 5
	fi
}

fresh
PTXTUTOR_ROOT="$WORK/t" PTXTUTOR_BUILD="$WORK/t/build" "$TL" >"$WORK/out" 2>&1
grep -q '^\[       OK \] test_link_layers' "$WORK/out" && echo "ok layers_unplanted_copy_passes" ||
	{ echo "not ok layers_unplanted_copy_passes"; grep -E 'calls|object' "$WORK/out" | head -n 5; }

# plant_app NAME DECLARATION: ui/app.c given the runner's declaration that way, and a call
plant_app() {
	fresh
	printf '%s\n%s\n%s\n' "$2" "void planted_break(const run_request *rq, run_result *res);" \
		"void planted_break(const run_request *rq, run_result *res) { runner_run(rq, res); }" >>"$WORK/t/src/ui/app.c"
	compile src/ui/app.c
	check "$1" "ui/app calls runner_run (gpu/runner)"
}
# 1. an include in angle brackets (compiles with -Isrc); 2. a private prototype instead of the header
plant_app angle_include "#include <gpu/runner.h>"
plant_app private_prototype "void runner_run(const run_request *rq, run_result *res);"

# 3. a space after '#', an include upwards from the course layer, and a call
fresh
cat >>"$WORK/t/src/course/lesson.c" <<'C'
#  include "cli/cli.h"
void planted_break(void);
void planted_break(void) { cli_error(0, "planted"); }
C
compile src/course/lesson.c
check spaced_include "course/lesson calls cli_error (cli/cli)"

# 4. a file in a subfolder: built (scripts/sources.sh lists it) and checked
fresh
mkdir -p "$WORK/t/src/ui/widgets"
cat >"$WORK/t/src/ui/widgets/x.c" <<'C'
#include "cli/cli.h"
#include "gpu/runner.h"
void widget(const run_request *rq, run_result *res);
void widget(const run_request *rq, run_result *res) { runner_run(rq, res); cli_error(0, "x"); }
C
check subfolder_unbuilt "src/ui/widgets/x.c has no object"
compile src/ui/widgets/x.c
check subfolder "ui/widgets/x calls runner_run (gpu/runner)"
