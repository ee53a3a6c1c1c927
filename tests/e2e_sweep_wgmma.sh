#!/bin/sh
# e2e_sweep_wgmma: the rows of scripts/sweep-43.tsv (the lead's GPU sweep, issue 43) that lesson 9's
# or 10's generator makes (ptx/gen/09_wgmma.py, 10_cluster.py) compute C: each row's kernel is
# generated, assembles for sm_90a (where ptxas is found), and its RUN flags verify on the CPU
# emulator with no race reported, at two sizes its header's "Requires M % X == 0, N % Y == 0"
# allows: 256^3 (M and N raised to X and Y) on the row's grid, and one tile more each way, K 192
# (384x512x192 for the 128x256 tile), on two blocks instead of a persistent grid, so that each
# block loops over several tiles. Each row's --smem is the shared memory its kernel's header asks
# for; rows with lesson 9's f32 TMA epilogue (tmap:C:32:...) must also stage C with no shared-memory
# bank conflict. GPUs are hidden. `make test` checks one row for each path through the generators
# (SOME below: every option and epilogue, the rows timed as candidates); SWEEP_ALL=1 checks them all.
# Prints "ok NAME" / "not ok NAME" / "skip NAME: why".
BIN=${PTXTUTOR_BIN:-./ptxtutor}
ROOT=${PTXTUTOR_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -x "$BIN" ]; then
	echo "skip sweep wgmma: no binary at $BIN"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip sweep wgmma: no python3"
	exit 0
fi
export CUDA_VISIBLE_DEVICES=
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 - "$ROOT" "$BIN" "$WORK" "$PTXAS" <<'PY'
import os, re, shlex, subprocess, sys
root, binary, work, ptxas = sys.argv[1:5]
SOME = {"l9_tma_s3_b4", "l9_c2_tma_b2", "l9_256x128_tma_b2", "l9_c2n_256x128_tma_b2", "l9_pp_tma_s5_b4",
        "l9_c2_pp_tma_s6_b2", "l10_f16", "l10_s4_b2", "l10_pp_s6_b2", "l10_256x128_n_s4_b2", "l10_sk"}
everything = os.environ.get("SWEEP_ALL") == "1"
rows = []
for line in open(os.path.join(root, "scripts/sweep-43.tsv")):
    f = line.rstrip("\n").split("\t")
    if line.startswith("#") or len(f) != 4:
        continue
    gen = shlex.split(f[2]) if f[2] != "-" else []
    if gen and gen[0] in ("09_wgmma.py", "10_cluster.py") and (everything or f[0] in SOME):
        rows.append((f[0], gen, shlex.split(f[3])))
if not rows:
    print("not ok sweep wgmma: no rows of 09_wgmma.py or 10_cluster.py in scripts/sweep-43.tsv")
for name, gen, run in rows:
    ptx = os.path.join(work, name + ".ptx")
    with open(ptx, "w") as out:
        p = subprocess.run([sys.executable, os.path.join(root, "ptx/gen", gen[0])] + gen[1:], stdout=out,
                           stderr=subprocess.PIPE, text=True, cwd=root)
    if p.returncode:
        print(f"not ok sweep row {name}: ptx/gen/{' '.join(gen)} failed")
        print("    | " + p.stderr.strip())
        continue
    if ptxas:
        p = subprocess.run([ptxas, "-arch=sm_90a", ptx, "-o", os.devnull], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        print(f"{'ok' if p.returncode == 0 else 'not ok'} sweep row {name}: ptxas -arch=sm_90a assembles it")
        if p.returncode:
            print("\n".join("    | " + x for x in p.stdout.splitlines()[:8]))
    text = open(ptx).read()
    says = re.search(r": (\d+) bytes\.$", text, re.M)  # the header's dynamic shared memory
    expr = run[run.index("--smem") + 1] if "--smem" in run else ""
    given = eval(expr, {"__builtins__": {}}) if re.fullmatch(r"[0-9+*() ]+", expr) else None
    ok = says is not None and given == int(says.group(1))
    print(f"{'ok' if ok else 'not ok'} sweep row {name}: --smem {expr} is the {says.group(1) if says else '?'} bytes"
          " its header asks for")
    need = re.search(r"Requires M % (\d+) == 0, N % (\d+) == 0", text)
    if not need:
        print(f"not ok sweep row {name}: no 'Requires M % X == 0, N % Y == 0' in the kernel's header")
        continue
    x, y = int(need.group(1)), int(need.group(2))
    m, n = max(256, x), max(256, y)
    sizes = [(f"{m},{n},256", None), (f"{m + x},{n + y},192", "2")]  # the second: more tiles each way, and
    # two blocks (one cluster) for the persistent grid: each block loops over tiles
    if "--streamk" in gen and gen[gen.index("--streamk") + 1] == "1":
        # stream-K: 3 clusters, 7 cluster tiles of 5 k-tiles: 3 whole, then 4 shared out by k-tiles (whole
        # ones, and tiles whose first and last k-tiles two clusters run); then 5 tiles, all shared out
        sizes += [("1792,256,320", "6"), ("1280,256,320", "6")]
    for size, blocks in sizes:
        argv = run if blocks is None else [(blocks if a == "persistent" else a) for a in run]
        p = subprocess.run([binary, "run", "--ptx", ptx] + argv + ["--size", size, "--emulate"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = p.stdout.splitlines()
        good = p.returncode == 0 and lines and lines[0].endswith(": VERIFIED") and " 0 races;" in p.stdout
        grid = "" if argv is run else f" --grid {blocks}"
        print(f"{'ok' if good else 'not ok'} sweep row {name} --emulate --size {size}{grid}: verified, no race"
              f" (exit {p.returncode})")
        if not good:
            print("\n".join("    | " + x for x in lines[:12]))
        if good and any(x.startswith("tmap:C:32:") for x in " ".join(run).split()):
            # lesson 9's f32 TMA epilogue: its staging stores are its only shared stores
            st = re.search(r"^  shared stores .*, (\d+) bank conflicts$", p.stdout, re.M)
            ok = st is not None and st.group(1) == "0"
            print(f"{'ok' if ok else 'not ok'} sweep row {name} --size {size}: the f32 staging stores have no bank conflict"
                  + ("" if ok else f" ({st.group(0).strip() if st else 'no shared stores line'})"))
PY
