#!/usr/bin/env python3
"""race-cost.py: what the race checks cost (issue 40): `ptxtutor emulate N --json` for lessons 1-11 at
their default size, with the checks on and off (PTXTUTOR_NO_RACE=1), the median of REPEATS runs each of
the emulation's own seconds (emu.seconds, wall) and of the process's CPU time (user + system: steadier on a
busy machine), as a Markdown table.
Usage: scripts/race-cost.py [BIN] [REPEATS]   (default ./ptxtutor 5)"""
import json, os, statistics, subprocess, sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "./ptxtutor"
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def once(lesson, off):
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    env.pop("PTXTUTOR_NO_RACE", None)
    if off:
        env["PTXTUTOR_NO_RACE"] = "1"
    p = subprocess.Popen([BIN, "emulate", str(lesson), "--json"], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    text = p.stdout.read()
    _, _, ru = os.wait4(p.pid, 0)
    p.returncode = 0
    d = json.loads(text)
    return d["emu"]["seconds"], ru.ru_utime + ru.ru_stime, d["M"], d["N"], d["K"]


print("| lesson | size | emulation off (s) | on (s) | on/off | CPU off (s) | on (s) | on/off |")
print("|---|---|---|---|---|---|---|---|")
worst = worst_cpu = 0.0
for lesson in range(1, 12):
    runs = {True: [], False: []}
    for _ in range(REPEATS):  # interleaved, so a busy moment hits both sides
        for off in (True, False):
            runs[off].append(once(lesson, off))
    e = {off: statistics.median(r[0] for r in runs[off]) for off in runs}
    w = {off: statistics.median(r[1] for r in runs[off]) for off in runs}
    m, n, k = runs[True][0][2:]
    ratio = e[False] / e[True] if e[True] > 0 else 1.0
    worst = max(worst, ratio)
    worst_cpu = max(worst_cpu, w[False] / w[True])
    print(f"| {lesson} | {m}x{n}x{k} | {e[True]:.3f} | {e[False]:.3f} | {ratio:.2f} | {w[True]:.3f} | {w[False]:.3f} | "
          f"{w[False] / w[True]:.2f} |")
print(f"\nworst ratio: emulation {worst:.2f}, CPU {worst_cpu:.2f}")
