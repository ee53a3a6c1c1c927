#!/bin/sh
# e2e_proc_lint: one child set-up in the program — no source but src/base/proc.c forks,
# reaps (waitpid, wait) or spawns (posix_spawn, system, popen) a child: the worker, the jobs,
# the tools and $EDITOR all start through base/proc (docs/ARCHITECTURE.md says so).
# Prints "ok NAME" / "not ok NAME".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
hits=$(cd "$ROOT" && grep -nE '(^|[^_a-z])(fork|vfork|waitpid|wait|posix_spawnp?|system|popen)[[:space:]]*\(' \
	$(sh scripts/sources.sh) src/*/*.h | grep -v '^src/base/proc\.c:' | grep -vE ':[0-9]+:[[:space:]]*(/?\*|//)')
if [ -z "$hits" ]; then
	echo "ok proc-one-child-setup"
else
	echo "not ok proc-one-child-setup"
	printf '%s\n' "$hits" | sed 's/^/    /'
fi
