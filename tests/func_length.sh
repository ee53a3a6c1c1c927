#!/bin/sh
# func_length: no function in src/**/*.c is longer than 150 lines, but for
# the exceptions listed below (none today), and an exception no longer needed
# (its function now at most 150 lines) fails too. A function's length is its lines
# from the signature's first to the closing brace, both counted (the review
# of 2026-11-24 measured run_warp at 384 so).
# Prints "ok NAME" / "not ok NAME" lines for tests/run.sh.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MAX=150
# file:function, space-separated, each with its reason in a comment here.
# (emu_exec.c's exec_op was one until the interpreter's split by instruction
# family brought its dispatch under the limit.)
EXEMPT=""

# Prints "FILE:LINE NAME LENGTH" for every function definition: a line at
# column 0 that names it (an identifier, then "("; no ";", no "="), its
# parameters possibly continued on indented lines, a "{" alone at column 0
# (or at the end of the signature), and the body up to the next "}" at
# column 0 (the project's style: tabs, K&R braces for functions).
scan() {
	awk '
	function fname(s) {
		sub(/\(.*/, "", s)
		sub(/[ \t]+$/, "", s)
		n = split(s, w, /[^A-Za-z0-9_]+/)
		return w[n]
	}
	FNR == 1 { head = ""; inbody = 0 }
	inbody && /^}/ {
		print FILENAME ":" start " " name " " (FNR - start + 1)
		inbody = 0; head = ""
		next
	}
	inbody { next }
	/^[A-Za-z_][A-Za-z0-9_ \t*,]*\(/ && !/;[ \t]*$/ && !/=/ {
		head = $0; hline = FNR
		if (/\)[ \t]*\{[ \t]*$/) { inbody = 1; start = hline; name = fname(head) }
		next
	}
	/^\{[ \t]*$/ && head != "" { inbody = 1; start = hline; name = fname(head); next }
	/^[^ \t]/ { head = "" }
	' "$@"
}

# check_exempt SCAN FILE:FUNCTION...: a "not ok" line for each exception
# that names no function of SCAN, or one no longer over the limit.
check_exempt() {
	all=$1
	shift
	for e in "$@"; do
		len=$(awk -v f="${e%%:*}" -v n="${e#*:}" '{ split($1, w, ":") } w[1] == f && $2 == n { print $3; exit }' "$all")
		if [ -z "$len" ]; then
			echo "not ok function length: the exception $e names no function (renamed? update tests/func_length.sh)"
		elif [ "$len" -le "$MAX" ]; then
			echo "not ok function length: the exception $e is no longer needed ($len lines): remove it from tests/func_length.sh"
		fi
	done
}

# The scanner must see what it is there to catch: a planted function one line
# over the limit, one at it, and one with its signature over two lines.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	printf 'static int planted_long(int a,\n\t\tint b)\n{\n'
	i=0; while [ $i -lt $((MAX - 4)) ]; do printf '\ta += b;\n'; i=$((i + 1)); done
	printf '\treturn a;\n}\n\nint planted_ok(void)\n{\n'
	i=0; while [ $i -lt $((MAX - 3)) ]; do printf '\t;\n'; i=$((i + 1)); done
	printf '}\n'
} >"$tmp/planted.c"
got=$(scan "$tmp/planted.c" | awk '{print $2 " " $3}' | tr '\n' ' ')
if [ "$got" = "planted_long $((MAX + 1)) planted_ok $MAX " ]; then
	echo "ok function length: the scanner measures planted functions of $((MAX + 1)) and $MAX lines"
else
	echo "not ok function length: the scanner measured the planted functions as '$got'"
fi
# An exception for a function at the limit is one too many; one over it is needed.
scan "$tmp/planted.c" >"$tmp/planted.scan"
got=$(check_exempt "$tmp/planted.scan" "$tmp/planted.c:planted_long" "$tmp/planted.c:planted_ok")
if [ "$got" = "not ok function length: the exception $tmp/planted.c:planted_ok is no longer needed ($MAX lines): remove it from tests/func_length.sh" ]; then
	echo "ok function length: an exception no longer needed is caught"
else
	echo "not ok function length: the exceptions of the planted functions gave '$got'"
fi

cd "$ROOT" || exit 1
scan $(find src -name '*.c' | sort) >"$tmp/all"
if [ "$(wc -l <"$tmp/all")" -lt 100 ]; then
	echo "not ok function length: found only $(wc -l <"$tmp/all") functions in src/ (is the scanner broken?)"
fi
check_exempt "$tmp/all" $EXEMPT
over=0
while read -r where name len; do
	[ "$len" -gt "$MAX" ] || continue
	case " $EXEMPT " in
	*" ${where%%:*}:$name "*)
		echo "ok function length: $where $name is $len lines, an exception (tests/func_length.sh says why)"
		continue ;;
	esac
	echo "not ok function length: $where $name is $len lines (at most $MAX)"
	over=$((over + 1))
done <"$tmp/all"
[ $over -eq 0 ] && echo "ok function length: every function in src/ is at most $MAX lines ($(wc -l <"$tmp/all") functions)"
exit 0
