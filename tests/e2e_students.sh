#!/bin/sh
# e2e_students: the students' corpus (issue 39; tests/students/corpus.tsv, README there): every
# kernel of tests/students/*/ as nvcc wrote it, through `ptxtutor run --emulate --json`, two at a
# time, each with its expected outcome: verified, wrong values, a race, a fault or an assert, the
# CUDA file and line its message names (and that line's text found beside the PTX), and the lines it
# printed (tests/students/corpus.py does the checking). Then --estimate of an int8 kernel gives a time
# (its s8 type is no reason to refuse), and scripts/gpu-students.sh's table and exit status are
# checked against a planted GPU.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DIR="$ROOT/tests/students"
if [ ! -x "$BIN" ]; then
	echo "skip students: no binary at $BIN"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip students: no python3 to read the JSON reports"
	exit 0
fi
python3 "$DIR/corpus.py" emulate "$BIN"
rc=$?
[ $rc -le 1 ] || echo "not ok students: corpus.py exited $rc"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
if "$BIN" emulate --ptx "$DIR/numeric/dp4a_gemm.sm_80.ptx" --grid 'ceil(N/16),ceil(M/16)' --block 16,16 \
	--args 'M N K A B C' --dtype s8 --size 1024 --estimate >"$out" 2>&1 &&
	head -1 "$out" | grep -q '^dp4a_gemm at .*: estimate [0-9.]* ms'; then
	echo "ok students_estimate_s8"
else
	echo "not ok students_estimate_s8: $(head -2 "$out" | tr '\n' ' ')"
fi

# scripts/gpu-students.sh against a planted GPU: a fake ptxtutor answers `run --json` by the PTX's
# name, as a GPU would; the table says which rows agree and the script exits 1 for the two that
# does not (swapped_index verified); off_by_one's read past B, with no memcheck to catch it, gives
# wrong values: past one buffer lies the next, which agrees, and the note says why.
fake=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$fake"' EXIT
cat >"$fake/ptxtutor" <<'FAKE'
#!/bin/sh
prev=
for a; do [ "$prev" = --ptx ] && ptx=$a; prev=$a; done
ok='"status": "ok", "verified": true, "message": ""'
case $(basename "$ptx") in
pmpp_tiled.* | pmpp_nosync.* | swapped_index.*) echo "{$ok, \"printf\": {\"lines\": [], \"dropped\": 0}}" ;;
off_by_one.*) echo '{"status": "wrong result", "verified": false, "message": "wrong values", "printf": {"lines": [], "dropped": 0}}'; exit 1 ;;
check_k.*)
	echo "check_k.cu:10: void gemm_check_k(const float *, const float *, float *, int, int, int): block: [0,0,0], thread: [0,0,0] Assertion \`K % 16 == 0\` failed." >&2
	echo '{"status": "kernel fault", "verified": null, "message": "launch: device-side assert triggered", "printf": {"lines": ["block (0,0): K = 30, K % 16 = 14"], "dropped": 0}}'
	exit 2 ;;
esac
FAKE
chmod +x "$fake/ptxtutor"
PATH="$fake:/usr/bin:/bin" GPU_STUDENTS_BIN="$fake/ptxtutor" sh "$ROOT/scripts/gpu-students.sh" \
	pmpp_tiled pmpp_nosync swapped_index off_by_one check_k_30 >"$out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^pmpp_tiled  *verified  *verified  *yes' "$out" &&
	grep -q '^pmpp_nosync  *race pmpp_nosync.cu:18  *verified  *yes  *the GPU gives verified' "$out" &&
	grep -q '^swapped_index  *wrong  *verified  *NO' "$out" && grep -q '^off_by_one  *fault off_by_one.cu:10  *wrong  *yes  *the GPU read the next buffer' "$out" &&
	grep -q '^check_k_30  *assert "K % 16 == 0" check_k.cu:10  *assert  *yes' "$out" &&
	tail -n 1 "$out" | grep -q '^gpu-students: 4 of 5 agree, 1 disagree$'; then
	echo "ok students_gpu_table: gpu-students.sh's table and exit status against a planted GPU"
else
	echo "not ok students_gpu_table (exit $rc)"; cat "$out"
fi
