#!/bin/sh
# e2e_gpu_suite: scripts/gpu-suite.sh fails when a GPU step fails. No GPU is needed: the script is pointed
# (GPU_SUITE_TESTS, GPU_SUITE_BIN) at planted fake test binaries and a fake ptxtutor that pass or fail on demand.
# Prints "ok NAME" / "not ok NAME".
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "not ok $1"; sed 's/^/    | /' "$WORK/out" | tail -n 20; fi; }

# A fake cmocka test binary: prints like one and exits with the given status.
fake_test() { # NAME STATUS
	printf '#!/bin/sh\necho "[ RUN      ] %s"\n' "$1" >"$WORK/$1"
	if [ "$2" -eq 0 ]; then
		printf 'echo "[       OK ] %s"\nexit 0\n' "$1" >>"$WORK/$1"
	else
		printf 'echo "[  FAILED  ] %s"\nexit %s\n' "$1" "$2" >>"$WORK/$1"
	fi
	chmod +x "$WORK/$1"
}
fake_test test_pass 0
fake_test test_fail 1
# A fake ptxtutor: records its subcommands, fails the one named in $WORK/fail_cmd.
cat >"$WORK/ptxtutor" <<FAKE
#!/bin/sh
echo "\$1" >>"$WORK/calls"
[ "\$1" = "\$(cat "$WORK/fail_cmd" 2>/dev/null)" ] && exit 1
exit 0
FAKE
chmod +x "$WORK/ptxtutor"

suite() { # TESTS FAIL_CMD: the suite's exit status
	echo "$2" >"$WORK/fail_cmd"
	rm -f "$WORK/calls"
	GPU_SUITE_TESTS="$1" GPU_SUITE_BIN="$WORK/ptxtutor" sh "$ROOT/scripts/gpu-suite.sh" 64 >"$WORK/out" 2>&1
	echo $?
}

rc=$(suite "$WORK/test_pass" none)
[ "$rc" = 0 ] && grep -q "OK \] test_pass" "$WORK/out" && [ "$(sort -u "$WORK/calls" | tr '\n' ' ')" = "bench check run " ]
check "gpu-suite: every step passing exits 0 and runs run, check and bench (exit $rc)" $?
rc=$(suite "$WORK/test_pass $WORK/test_fail" none)
[ "$rc" != 0 ] && grep -q "FAILED: $WORK/test_fail (exit 1)" "$WORK/out"
check "gpu-suite: a failing GPU unit test fails the suite (exit $rc)" $?
rc=$(suite "$WORK/test_pass $WORK/test_missing" none)
[ "$rc" != 0 ] && grep -q "test_missing is missing" "$WORK/out"
check "gpu-suite: a missing GPU test binary fails the suite (exit $rc)" $?
for cmd in run check bench; do
	rc=$(suite "$WORK/test_pass" $cmd)
	[ "$rc" != 0 ] && grep -q "gpu-suite: FAILED: " "$WORK/out"
	check "gpu-suite: a failing 'ptxtutor $cmd' fails the suite (exit $rc)" $?
done
