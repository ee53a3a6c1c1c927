#!/usr/bin/env python3
"""A stand-in for ncu, for tests/e2e_ncu_lines.sh: checks that scripts/ncu_lines.py profiles the
way the GPU machine needs (SourceCounters, the lesson's entry only, its first launch, `run
--lineinfo`) and answers the source page in the `--print-source cuda,sass` CSV shape, with the
counts the emulator gives for the same lesson and size (so a right join finds them equal).

Profile: `fake_ncu.py ... -k regex:^ENTRY$ -c 1 -f -o STEM BIN run N --lineinfo --size S` writes
STEM.ncu-rep (the command). Import: `fake_ncu.py -i REP --page source --csv --print-source V`
prints the page for V = cuda,sass; other views print nothing and fail, as an ncu without them
would. FAKE_NCU_OFF=LINE adds 5% to that line's sectors or wavefronts; FAKE_NCU_NO_IMPORT=1
refuses --import-source, as an older ncu would.
"""
import json
import os
import subprocess
import sys


def fail(msg):
    print("==ERROR== fake ncu: %s" % msg, file=sys.stderr)
    sys.exit(3)


def profile(argv):
    if os.environ.get("FAKE_NCU_NO_IMPORT") and "--import-source" in argv:
        fail("unrecognised option '--import-source'")
    need = [("--section", "SourceCounters"), ("-c", "1")]
    for opt, val in need:
        if opt not in argv or argv[argv.index(opt) + 1] != val:
            fail("expected %s %s in %s" % (opt, val, argv))
    k = argv[argv.index("-k") + 1] if "-k" in argv else ""
    if not k.startswith("regex:^") or not k.endswith("$"):
        fail("expected -k regex:^ENTRY$, got %r" % k)
    stem = argv[argv.index("-o") + 1]
    target = argv[argv.index("-o") + 2:]
    if len(target) < 3 or target[1] != "run" or "--lineinfo" not in target:
        fail("expected BIN run N --lineinfo ..., got %s" % target)
    with open(stem + ".ncu-rep", "w") as f:
        json.dump({"entry": k[len("regex:^"):-1], "target": target}, f)
    print("==PROF== Connected to process 1 (%s)" % target[0])
    print("==PROF== Report: %s.ncu-rep" % stem)


def page(rep, view):
    if view != "cuda,sass":
        fail("no %s view in this fake" % view)
    r = json.load(open(rep))
    t = r["target"]
    size = t[t.index("--size") + 1]
    out = subprocess.run([t[0], "emulate", t[2], "--size", size, "--lines", "--json"], stdout=subprocess.PIPE,
                         text=True).stdout
    emu = json.loads(out)
    if emu["entry"] != r["entry"]:
        fail("profiled %s, the lesson's entry is %s" % (r["entry"], emu["entry"]))
    off = int(os.environ.get("FAKE_NCU_OFF", "0"))
    print('"File Path","%s"' % emu["ptx"])
    print('"Function Name","%s"' % r["entry"])
    print('"Line No","Source","Address","Source","Instructions Executed","L2 Theoretical Sectors Global",'
          '"L1 Wavefronts Shared","L1 Wavefronts Shared Ideal","L1 Wavefronts Shared Excessive",'
          '"L1 Tag Requests Global"')
    addr = 0x7F0000000000
    for l in emu["per_line"]["lines"]:
        if not l["line"]:
            continue
        sec, wf, cf = l["sectors"], l["wavefronts"], l["bank_conflicts"]
        if l["line"] == off:
            sec, wf = sec * 1.05, wf * 1.05
        op = ("LDG.E" if l["global_requests"] else "LDS") if (l["global_requests"] or l["shared_requests"]) else "IMAD"
        vals = '"%d","%d","%d","%d","%d","%d"' % (l["instructions"], sec, wf, wf - cf, cf, l["global_requests"])
        print('"%d","ptx line %d","-","",%s' % (l["line"], l["line"], vals))
        print('"","","0x%x","%s R2, [R4]",%s' % (addr, op, vals))
        # one more SASS instruction on the line, not a memory access
        print('"","","0x%x","IADD3 R4, R4, 0x4, RZ","%d","0","0","0","0","0"' % (addr + 16, l["instructions"]))
        addr += 32


def main():
    argv = sys.argv[1:]
    if "-i" in argv:
        if "--print-source" not in argv or "--csv" not in argv or argv[argv.index("--page") + 1] != "source":
            fail("expected --page source --csv --print-source V")
        page(argv[argv.index("-i") + 1], argv[argv.index("--print-source") + 1])
    elif "-o" in argv:
        profile(argv)
    else:
        fail("neither a profile (-o) nor an import (-i): %s" % argv)


if __name__ == "__main__":
    main()
