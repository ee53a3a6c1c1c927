#!/bin/sh
# func_length: no function in src/**/*.c is longer than 150 lines, the
# interpreter's dispatch excepted (below). A function's length is its lines
# from the signature's first to the closing brace, both counted (the review
# of 2026-11-24 measured run_warp at 384 so).
# Prints "ok NAME" / "not ok NAME" lines for tests/run.sh.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MAX=150
# file:function, one a line, each with its reason. An interpreter's dispatch
# is a switch with a case (one to three lines) per opcode, as Lua's
# luaV_execute is: it grows with the instruction set, not with its logic.
EXEMPT="src/emu/emu_exec.c:exec_op"

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

cd "$ROOT" || exit 1
scan $(find src -name '*.c' | sort) >"$tmp/all"
if [ "$(wc -l <"$tmp/all")" -lt 100 ]; then
	echo "not ok function length: found only $(wc -l <"$tmp/all") functions in src/ (is the scanner broken?)"
fi
for e in $EXEMPT; do
	if ! grep -q "^${e%%:*}:[0-9]* ${e#*:} " "$tmp/all"; then
		echo "not ok function length: the exception $e names no function (renamed? update tests/func_length.sh)"
	fi
done
over=0
while read -r where name len; do
	[ "$len" -gt "$MAX" ] || continue
	case " $EXEMPT " in
	*" ${where%%:*}:$name "*)
		echo "ok function length: $where $name is $len lines, allowed (the interpreter's dispatch)"
		continue ;;
	esac
	echo "not ok function length: $where $name is $len lines (at most $MAX)"
	over=$((over + 1))
done <"$tmp/all"
[ $over -eq 0 ] && echo "ok function length: every function in src/ is at most $MAX lines ($(wc -l <"$tmp/all") functions)"
exit 0
