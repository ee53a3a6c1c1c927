#!/bin/sh
# e2e_archdoc: docs/ARCHITECTURE.md's "One place per idea" table stays true to the code where a grep
# can tell: every function-like name it quotes (`launch_target`, `exec_kill_after`) is defined or
# declared in src/, every file it names (`run/launch.c`, `scripts/sources.sh`) exists, and the
# backend and lesson recipes name files that exist. Prints "ok NAME" / "not ok NAME".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DOC="$ROOT/docs/ARCHITECTURE.md"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# the table: from its heading to the next heading
awk '/^## One place per idea/ { on = 1; next } /^## / { on = 0 } on' "$DOC" >"$WORK/table"
awk '/^## Adding a backend row/ { on = 1; next } /^## Modules/ { on = 0 } on' "$DOC" >"$WORK/recipes"
[ "$(grep -c '^|' "$WORK/table")" -gt 40 ] && echo "ok archdoc_table_read" || echo "not ok archdoc_table_read"
# `names`: lower-case identifiers with an underscore (functions, tables); upper-case ones (macros) too
grep -o '`[A-Za-z_][A-Za-z0-9_]*`' "$WORK/table" | tr -d '`' | grep '_' | sort -u >"$WORK/names"
missing=
while read -r n; do
	grep -rqw -- "$n" "$ROOT/src" || missing="$missing $n"
done <"$WORK/names"
[ -z "$missing" ] && echo "ok archdoc_names_exist ($(wc -l <"$WORK/names") names)" ||
	echo "not ok archdoc_names_exist: not in src/:$missing"
# files: `dir/name.c` (under src/ unless it names a top folder)
grep -o '`[a-z_/.0-9-]*[a-z0-9]\.\(c\|h\|sh\|tsv\|py\)`' "$WORK/table" "$WORK/recipes" | cut -d: -f2 | tr -d '`' |
	sort -u >"$WORK/files"
missing=
while read -r f; do
	# a path from the root, src/ or tests/; a bare file name in one of src/'s folders
	[ -e "$ROOT/$f" ] || [ -e "$ROOT/src/$f" ] || [ -e "$ROOT/tests/$f" ] ||
		ls "$ROOT"/src/*/"$f" >/dev/null 2>&1 || missing="$missing $f"
done <"$WORK/files"
[ -z "$missing" ] && echo "ok archdoc_files_exist ($(wc -l <"$WORK/files") files)" ||
	echo "not ok archdoc_files_exist:$missing"
