#!/bin/sh
# e2e_termsafe: no byte a terminal acts on reaches it raw (issue 36, B1). ESC/CSI, OSC with BEL, C1 (as UTF-8 and
# raw), DEL and invalid UTF-8 from a PTX file, a lesson title, a tool's output or an option's value go through every
# command's error paths and quoting outputs; stdout and stderr must hold none of them raw (base/termsafe shows each
# as \xHH), and each case must show the hostile text escaped (so the path was taken). The program's own progress line
# on a terminal keeps its \r and ESC[K; an argument echoed back is shortened.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip termsafe: no binary at $BIN"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip termsafe: no python3 to read the bytes"
	exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
export CUDA_VISIBLE_DEVICES= # the same paths with or without a GPU
# A token (no blank, no ';': it stays one PTX word) and a line (for comments and titles).
TOK=$(printf 'x\033[1G\033[2K\033[1A\033[32mSOLVED\302\233\233\177\377\033[8m')
LINE=$(printf '\033]0;PWNED\007\033[2J\033[31mRED \302\233 \233 \177 \377 end')
MARK_TOK='x\x1b[1G\x1b[2K\x1b[1A\x1b[32mSOLVED\xc2\x9b\x9b\x7f\xff\x1b[8m'
MARK_LINE='\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED \xc2\x9b \x9b \x7f \xff end'

# Files that are valid UTF-8 with no C0 byte but \n and \t, no DEL and no C1; prints the first offence.
cat >"$WORK/clean.py" <<'EOF'
import sys
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        print('%s: invalid UTF-8 at byte %d: %r' % (path, e.start, data[max(0, e.start - 20):e.start + 4]))
        sys.exit(1)
    for i, c in enumerate(text):
        o = ord(c)
        if (o < 0x20 and c not in '\n\t') or o == 0x7f or 0x80 <= o <= 0x9f:
            print('%s: raw U+%04X at character %d: %r' % (path, o, i, text[max(0, i - 20):i + 4]))
            sys.exit(1)
EOF
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; [ -n "$3" ] && sed 's/^/    | /' "$3" | head -20; fi; }

# one NAME RC MARK COMMAND...: runs it (stdout and stderr apart, 60 s at most); its status must be RC, neither
# stream may hold a raw control byte, and MARK (the hostile text as \xHH) must appear in one of them.
one() {
	name=$1 want=$2 mark=$3
	shift 3
	timeout 60 "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	{
		echo "exit $rc (want $want)"
		python3 "$WORK/clean.py" "$WORK/out" "$WORK/err"
		ok=$?
		grep -qF -e "$mark" "$WORK/out" "$WORK/err" || { echo "no '$mark' in:"; ok=1; }
		echo "--- stdout"
		cat -v "$WORK/out" | head -8
		echo "--- stderr"
		cat -v "$WORK/err" | head -8
	} >"$WORK/why" 2>&1
	[ "$rc" = "$want" ] && [ "$ok" = 0 ]
	check "$name" $? "$WORK/why"
}

# ---- a PTX file's tokens in error messages ----
awk -v t="$TOK" '{ print } /^\{/ && !done { print "\t" t ";"; done = 1 }' \
	"$ROOT/ptx/puzzles/solutions/01-bounds.ptx" >"$WORK/puzzle.ptx"
one "puzzle --check: a bad token in the verdict" 1 "$MARK_TOK" "$BIN" puzzle 1 --check "$WORK/puzzle.ptx"

HEAD='.version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 P)\n{\n\t.reg .b32 %%r<4>;\n'
printf "$HEAD\t%s;\n\tret;\n}\n" "$TOK" >"$WORK/unsupported.ptx"
printf "$HEAD\tmov.u32 %%r1, %s;\n\tret;\n}\n" "$TOK" >"$WORK/syntax.ptx"
EMU="--entry k --grid 1 --block 32 --size 16 --args A"
one "emulate --ptx: an unsupported instruction" 2 "$MARK_TOK" "$BIN" emulate --ptx "$WORK/unsupported.ptx" $EMU
one "emulate --ptx: a syntax error" 2 "$MARK_TOK" "$BIN" emulate --ptx "$WORK/syntax.ptx" $EMU
one "emulate --ptx --json: the error" 2 'SOLVED' "$BIN" emulate --ptx "$WORK/unsupported.ptx" $EMU --json
one "run --ptx --emulate: an unsupported instruction" 2 "$MARK_TOK" "$BIN" run --ptx "$WORK/unsupported.ptx" $EMU --emulate

# ---- a PTX file's lines, quoted whole ----
awk -v l="$LINE" '/ld.param/ && !done { print $0 " // " l; done = 1; next } { print }' "$ROOT/ptx/01_naive.ptx" \
	>"$WORK/comment.ptx"
one "emulate --lines: a comment after an instruction" 0 "$MARK_LINE" "$BIN" emulate --ptx "$WORK/comment.ptx" \
	--grid 'ceil(N/32),ceil(M/32)' --block 32,32 --size 64 --lines

# ---- tools: their messages and their SASS ----
# Stand-ins that say hostile things: ptxas in its -v lines, nvdisasm in an instruction and in a kernel name.
mkdir -p "$WORK/fake"
cat >"$WORK/fake/ptxas" <<EOF
#!/bin/sh
[ "\$1" = "--version" ] && { printf 'release 9.9, V9.9\033]0;PWNED\007\n'; exit 0; }
while [ \$# -gt 0 ]; do [ "\$1" = "-o" ] && { : > "\$2"; shift; }; shift; done
printf 'ptxas info    : Compiling \033[2J\n'
cat "$ROOT/tests/data/sass/ptxas-v.txt"
EOF
cat >"$WORK/fake/nvdisasm" <<EOF
#!/bin/sh
[ "\$1" = "--version" ] && { echo "release 9.9, V9.9"; exit 0; }
sed 's|S2R R0, SR_TID.X|S2R R0, SR_TID.X$(printf '\033')[2J$(printf '\033')[31mRED$(printf '\302\233\233')|' \
	"$ROOT/tests/data/sass/naive.nvdisasm"
EOF
chmod +x "$WORK/fake/ptxas" "$WORK/fake/nvdisasm"
awk -v l="$LINE" 'NR == 45 { print $0 " // " l; next } { print }' "$ROOT/ptx/01_naive.ptx" >"$WORK/sass.ptx"
SASS="--entry sgemm_naive --ptxas --arch sm_90"
PTXTUTOR_CUDA_BIN="$WORK/fake" one "sass: hostile SASS text and PTX lines" 0 '\x1b[2J\x1b[31mRED\xc2\x9b\x9b' \
	"$BIN" sass --ptx "$WORK/sass.ptx" $SASS
grep -qF -e "$MARK_LINE" "$WORK/out"
check "sass: the PTX line's comment shown escaped" $? "$WORK/why"
PTXTUTOR_CUDA_BIN="$WORK/fake" one "sass --json: hostile SASS text" 0 '\u001b[2J' \
	"$BIN" sass --ptx "$WORK/sass.ptx" $SASS --json
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$WORK/out" >"$WORK/why" 2>&1
check "sass --json: still valid JSON" $? "$WORK/why"

# The real ptxas, where there is one, echoes a control byte of the file in its error.
ptxas=$(command -v ptxas || { [ -n "$CUDA_HOME" ] && command -v "$CUDA_HOME/bin/ptxas"; } || command -v /usr/local/cuda/bin/ptxas)
if [ -n "$ptxas" ]; then
	mkdir -p "$WORK/real"
	ln -s "$ptxas" "$WORK/real/ptxas"
	ln -s "$WORK/fake/nvdisasm" "$WORK/real/nvdisasm"
	printf "$HEAD\tx%s;\n\tret;\n}\n" "$(printf '\033[32mSOLVED\033]0\007')" >"$WORK/ascii.ptx"
	PTXTUTOR_CUDA_BIN="$WORK/real" one "sass --ptxas: ptxas's error quotes the file" 1 '\x1b' \
		"$BIN" sass --ptx "$WORK/ascii.ptx" --entry k --ptxas
else
	echo "skip sass --ptxas: no ptxas here"
fi

# ---- a hostile lesson root: its titles ----
mkdir -p "$WORK/root"
ln -s "$ROOT/ptx" "$WORK/root/ptx"
ln -s "$ROOT/assets" "$WORK/root/assets"
cp -r "$ROOT/lessons" "$WORK/root/lessons"
awk -v t="Naive$LINE" 'NR <= 3 && /^title:/ { print "title: " t; next } { print }' \
	"$ROOT/lessons/01-naive.md" >"$WORK/root/lessons/01-naive.md"
PTXTUTOR_ROOT="$WORK/root" one "list: a lesson title" 0 "Naive$MARK_LINE" "$BIN" list
PTXTUTOR_ROOT="$WORK/root" one "list --json: a lesson title" 0 '"Naive\u001b]0;PWNED\u0007\u001b[2J' "$BIN" list --json
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$WORK/out" >"$WORK/why" 2>&1
check "list --json: still valid JSON" $? "$WORK/why"
PTXTUTOR_ROOT="$WORK/root" one "show: a lesson title" 0 "Naive$MARK_LINE" "$BIN" show 1
# (--size 256: the title is the same at any size; the frame's estimate a tenth of 4096^3's)
PTXTUTOR_ROOT="$WORK/root" one "show --screen: a lesson title" 0 "PWNED" "$BIN" show 1 --screen --width 200 --size 256

# ---- option values echoed back ----
one "--entry NAME" 2 "$MARK_TOK" "$BIN" emulate --ptx "$ROOT/ptx/01_naive.ptx" --entry "$TOK" --grid 1 --block 32 --size 16
one "--set KEY=VALUE: the key" 2 "$MARK_TOK" "$BIN" show 3 --set "$TOK"
one "--set KEY=VALUE: the value" 2 "$MARK_TOK" "$BIN" emulate 3 --set "TILE=$TOK"
one "--gpu NAME" 2 "$MARK_TOK" "$BIN" show 3 --gpu "$TOK"
one "--size" 2 "$MARK_TOK" "$BIN" show 3 --size "$TOK"
one "--arch" 2 "$MARK_TOK" "$BIN" sass 5 --arch "$TOK"
one "an unknown option" 2 "$MARK_TOK" "$BIN" list "--$TOK"
one "a lesson name (show)" 2 "$MARK_TOK" "$BIN" show "$TOK"
one "a lesson name (emulate)" 2 "$MARK_TOK" "$BIN" emulate "$TOK"
one "a lesson name (the tutor)" 2 "$MARK_TOK" "$BIN" "$TOK"
one "a puzzle name" 2 "$MARK_TOK" "$BIN" puzzle "$TOK"
one "a tutor option (--theme)" 2 "$MARK_TOK" "$BIN" --theme "$TOK"
one "accuracy --formats" 2 "$MARK_TOK" "$BIN" accuracy --formats "$TOK"
one "a file name" 2 "$MARK_TOK" "$BIN" run --ptx "$WORK/$TOK.ptx" --grid 1 --block 32 --size 16

# ---- an argument echoed back is shortened: one line, the start and the end kept ----
long=$(python3 -c 'print("7" * 100000 + "x")')
"$BIN" show 3 --size "$long" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$WORK/err")" = 1 ] && [ "$(wc -c <"$WORK/err")" -lt 200 ] && grep -q '7…7*x' "$WORK/err"
check "a 100001-character --size is quoted in 60 characters (exit $rc)" $? "$WORK/err"

# ---- the program's own progress line on a terminal keeps \r and ESC[K ----
python3 - "$BIN" >"$WORK/why" 2>&1 <<'EOF'
import os, pty, sys
try:
    pid, fd = pty.fork()
except OSError as e:
    print(e)
    sys.exit(77)
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], 'emulate', '1', '--size', '64'])
out = b''
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
_, status = os.waitpid(pid, 0)
print(repr(out[-300:]))
sys.exit(0 if status == 0 and b'\r  emulating: block' in out and b'\x1b[K' in out else 1)
EOF
rc=$?
if [ $rc = 77 ]; then
	echo "skip emulate on a terminal: no pseudo-terminal here ($(cat "$WORK/why"))"
else
	check "emulate on a terminal: the progress line is drawn in place (CR, ESC[K)" $rc "$WORK/why"
fi
