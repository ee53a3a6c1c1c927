#!/usr/bin/env python3
"""gpu-regbanks.py: what an FFMA costs the register file on sm_90, measured and modelled.

PTX has no say in which registers ptxas picks, so this measures the SASS level directly: a
kernel with 256 independent FFMAs in a loop is assembled once by ptxas, then copies of its cubin
get other registers and reuse flags written into those FFMAs (the sm_90 encoding: opcode 0x223
in bits 0-11, Rd 16-23, Ra 24-31, Rb 32-39, Rc 64-71, stall count 105-108, reuse flags 122-125 for
a, b, c: the fields nvdisasm prints, as tests/e2e_regbanks.sh checks against the nvdisasm
listing assets/sass/07.sass). Each copy runs on one SM through the Driver API, and %clock64
gives cycles per FFMA for one warp and for three warps per scheduler. A SASS listing's FFMA
stream can be replayed the same way (its registers mapped onto the kernel's, keeping each
register's number mod 4).

    python3 scripts/gpu-regbanks.py [LISTING[:N] ...]        on the GPU machine (ptxas, a GPU)
    python3 scripts/gpu-regbanks.py --rows DRIVER DATE [...] the same, as measured-data rows
    python3 scripts/gpu-regbanks.py --model LISTING[:N] ...  no GPU: the fitted model's figure

A listing's first N FFMAs (all without :N; N = the main loop's, to leave an epilogue out) are
replayed 256 at a time and the cycles averaged over them.

The model, fitted to the patterns below (docs/benchmarks.md, "Register banks"): registers sit
in two banks by the parity of their number, each bank reads one register a cycle, the operand
reuse cache keeps one value per operand slot and bank (set by .reuse, dropped when that slot
reads its bank without the flag), and the reads of an instruction may start while the three
before it are still waiting. Every pattern's measured figure is within 0.03 of the model's.
"""
import ctypes
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

NACC, NSRC, NFMA = 64, 64, 256
ITERS = 2000


def bench_ptx():
    """64 accumulators, 64 per-thread sources (not uniform, so ptxas keeps them in vector registers)."""
    o = [".version 8.0", ".target sm_90", ".address_size 64",
         ".visible .entry fb(.param .u64 out, .param .u32 iters, .param .f32 x)", "{",
         f"\t.reg .f32 a<{NSRC}>, c<{NACC}>, ft;", "\t.reg .u32 i, n, tid;",
         "\t.reg .u64 t0, t1, p, off;", "\t.reg .pred q;",
         "\tld.param.f32 a0, [x];", "\tld.param.u32 n, [iters];", "\tld.param.u64 p, [out];",
         "\tmov.u32 tid, %tid.x;", "\tcvt.rn.f32.u32 ft, tid;", "\tadd.f32 a0, a0, ft;"]
    o += [f"\tadd.f32 a{k}, a{k-1}, 0f3F800000;" for k in range(1, NSRC)]
    o += [f"\tmul.f32 c{j}, a{j}, 0f3F000000;" for j in range(NACC)]
    o += ["\tmov.u32 i, 0;", "\tbar.sync 0;", "\tmov.u64 t0, %clock64;", "LOOP:"]
    o += [f"\tfma.rn.f32 c{j}, a{(j + 16*r) % NSRC}, a{(j*7 + r + 3) % NSRC}, c{j};"
          for r in range(NFMA // NACC) for j in range(NACC)]
    o += ["\tadd.u32 i, i, 1;", "\tsetp.lt.u32 q, i, n;", "\t@q bra LOOP;", "\tmov.u64 t1, %clock64;"]
    o += [f"\tadd.f32 c0, c0, c{j};" for j in range(1, NACC)] + [f"\tadd.f32 c0, c0, a{j};" for j in range(NSRC)]
    o += ["\tsub.u64 t1, t1, t0;", "\tmul.wide.u32 off, tid, 16;", "\tadd.u64 p, p, off;",
          "\tst.global.u64 [p], t1;", "\tst.global.f32 [p+8], c0;", "\tret;", "}"]
    return "\n".join(o) + "\n"


def text_section(cubin, name=".text.fb"):
    """(offset, size) of an ELF section of a cubin, .text.fb unless named."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3a)
    sh = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names = sh[shstrndx][4]
    for s in sh:
        end = cubin.index(b"\0", names + s[0])
        if cubin[names + s[0]:end] == name.encode():
            return s[4], s[5]
    sys.exit(f"gpu-regbanks: no {name} in the cubin")


def ffma_fields(lo, hi):
    return lo & 0xfff, (lo >> 16) & 0xff, (lo >> 24) & 0xff, (lo >> 32) & 0xff, hi & 0xff, (hi >> 58) & 0xf


class Kernel:
    def __init__(self, cubin):
        self.cubin = cubin
        base, size = text_section(cubin)
        self.slots = []
        for off in range(base, base + size, 16):
            lo, hi = struct.unpack_from("<QQ", cubin, off)
            f = ffma_fields(lo, hi)
            if f[0] == 0x223:
                self.slots.append((off, f))
        assert len(self.slots) == NFMA, f"expected {NFMA} FFMAs, found {len(self.slots)}"
        self.acc = sorted({f[1] for _, f in self.slots})
        self.src = sorted({f[2] for _, f in self.slots} | {f[3] for _, f in self.slots})
        assert not set(self.acc) & set(self.src)

    def patched(self, seq):
        """seq: (ra, rb, rc, reuse[, rd]) per FFMA, repeated to fill the loop."""
        b = bytearray(self.cubin)
        for k, (off, _) in enumerate(self.slots):
            e = seq[k % len(seq)]
            ra, rb, rc, reuse = e[:4]
            rd = e[4] if len(e) > 4 else rc
            lo, hi = struct.unpack_from("<QQ", b, off)
            lo = lo & ~((0xff << 16) | (0xff << 24) | (0xff << 32)) | (rd << 16) | (ra << 24) | (rb << 32)
            hi = hi & ~(0xff | (0xf << 58) | (0xf << 41)) | rc | (reuse << 58) | (1 << 41)
            struct.pack_into("<QQ", b, off, lo, hi)
        return bytes(b)


# Patterns: (name, what it shows, [(a, b, c parity, reuse flags)...]); a and b name source
# registers by parity and index (e0 = the first even one), c is the accumulator's parity and
# cycles through the accumulators of that parity. Flags: 1 = a, 2 = b.
PATTERNS = [
    ("three_one_bank", "a, b, c all even, none from the reuse cache", [("e0", "e1", 0, 0)]),
    ("three_two_banks", "a, b even, c odd", [("e0", "e1", 1, 0)]),
    ("a_cached_bc_same", "a from the reuse cache, b and c both even", [("e0", "e1", 0, 1)]),
    ("a_cached_bc_diff", "a from the reuse cache, b even, c odd", [("e0", "e1", 1, 1)]),
    ("a_cached_bc_same_alt", "a cached; b, c even in one FFMA, both odd in the next", [("e0", "e1", 0, 1), ("e0", "o1", 1, 1)]),
    ("a_cached_b_even_c_alt", "a cached; the same even b uncached, c even then odd", [("e0", "e1", 0, 1), ("e0", "e1", 1, 1)]),
    ("b_cache_two_banks", "a cached; b alternates between an even and an odd register, both flagged; c even", [("e0", "e1", 0, 3), ("e0", "o1", 0, 3)]),
    ("b_cache_one_bank", "the same with two even b registers", [("e0", "e1", 0, 3), ("e0", "e2", 0, 3)]),
]


def pattern_seq(kern, spec):
    """A pattern's FFMAs on kern's registers (kern.src: sources, kern.acc: accumulators)."""
    E = [r for r in kern.src if r % 2 == 0]
    O = [r for r in kern.src if r % 2 == 1]
    accs = {p: [r for r in kern.acc if r % 2 == p] for p in (0, 1)}
    seq, nxt = [], {0: 0, 1: 0}
    for k in range(NFMA):
        a, b, cp, ru = spec[k % len(spec)]
        reg = lambda s: (E if s[0] == "e" else O)[int(s[1:])]
        seq.append((reg(a), reg(b), accs[cp][nxt[cp] % len(accs[cp])], ru))
        nxt[cp] += 1
    return seq


FFMA_RE = re.compile(r"FFMA R(\d+), R(\d+)(\.reuse)?, R(\d+)(\.reuse)?, R(\d+)(\.reuse)? ;")


def listing(path):
    """The FFMAs (register form) of an nvdisasm/cuobjdump listing: (d, a, b, c, reuse flags)."""
    out = []
    for line in open(path):
        m = FFMA_RE.search(line)
        if m:
            g = m.groups()
            out.append((int(g[0]), int(g[1]), int(g[3]), int(g[5]), (g[2] is not None) | (g[4] is not None) << 1 | (g[6] is not None) << 2))
    return out


def listing_arg(arg):
    """PATH or PATH:N -> (path, the first N FFMAs of it)."""
    path, _, n = arg.rpartition(":") if re.search(r":\d+$", arg) else (arg, "", "")
    st = listing(path)
    return path, st[:int(n)] if n else st


def replay_seq(kern, stream):
    """Maps a stream's registers onto the kernel's, keeping each number mod 4 (mod 2 when a class runs out)."""
    srcmap, used, accmap, nacc = {}, set(), {}, {c: 0 for c in range(4)}
    def s(r):
        if r not in srcmap:
            for c in (r % 4, (r + 2) % 4):
                free = [x for x in kern.src if x % 4 == c and x not in used]
                if free:
                    srcmap[r] = free[0]
                    used.add(free[0])
                    break
            else:
                sys.exit("gpu-regbanks: the stream reads more registers than the kernel has")
        return srcmap[r]
    def c(r):
        if r not in accmap:
            pool = [x for x in kern.acc if x % 4 == r % 4]
            accmap[r] = pool[nacc[r % 4] % len(pool)]
            nacc[r % 4] += 1
        return accmap[r]
    return [(s(a), s(b), c(cc), ru, c(d)) for d, a, b, cc, ru in stream[:NFMA]]


def windows(stream):
    """A stream cut into the loop's NFMA-long pieces, as it is replayed (the whole of a shorter one)."""
    return [stream[i:i + NFMA] for i in range(0, len(stream) - NFMA + 1, NFMA)] or [stream]


def model_mean(stream):
    """The model's cycles per FFMA, averaged over the pieces a replay times."""
    pieces = windows(stream)
    return sum(model(p) for p in pieces) / len(pieces)


def model(stream, lookahead=3):
    """Cycles per FFMA of a stream [(a, b, c, reuse)...] under the fitted model."""
    cache, free, issue = {}, [0, 0], []
    for i, (a, b, c, ru) in enumerate(stream):
        start = issue[i - lookahead] + 1 if i >= lookahead else 0
        done = start
        for slot, r in enumerate((a, b, c)):
            key = (slot, r % 2)
            if cache.get(key) != r:
                t = max(free[r % 2], start)
                free[r % 2] = t + 1
                done = max(done, t + 1)
            if ru >> slot & 1:
                cache[key] = r
            else:
                cache.pop(key, None)
        issue.append(max(issue[-1] + 1 if issue else 0, done))
    return (issue[-1] + 1) / len(stream)


class Gpu:
    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.ck(self.cu.cuInit(0), "cuInit")
        dev, ctx = ctypes.c_int(), ctypes.c_void_p()
        self.ck(self.cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.ck(self.cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        self.ck(self.cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        self.out = ctypes.c_uint64()
        self.ck(self.cu.cuMemAlloc_v2(ctypes.byref(self.out), 1024 * 16), "cuMemAlloc")

    @staticmethod
    def ck(r, what):
        if r:
            sys.exit(f"gpu-regbanks: {what} failed (CUresult {r})")

    def cycles_per_ffma(self, cubin, threads):
        """One block of `threads` on one SM; the slowest warp's cycles over its FFMAs, best of 3."""
        mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
        self.ck(self.cu.cuModuleLoadData(ctypes.byref(mod), cubin), "cuModuleLoadData")
        self.ck(self.cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"fb"), "cuModuleGetFunction")
        a0, a1, a2 = ctypes.c_uint64(self.out.value), ctypes.c_uint32(ITERS), ctypes.c_float(1.0)
        args = (ctypes.c_void_p * 3)(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in (a0, a1, a2)])
        best = None
        for _ in range(3):
            self.ck(self.cu.cuLaunchKernel(fn, 1, 1, 1, threads, 1, 1, 0, None, args, None), "cuLaunchKernel")
            self.ck(self.cu.cuCtxSynchronize(), "cuCtxSynchronize")
            buf = (ctypes.c_uint64 * (threads * 2))()
            self.ck(self.cu.cuMemcpyDtoH_v2(buf, self.out, threads * 16), "cuMemcpyDtoH")
            slowest = max(buf[2 * 32 * w] for w in range(threads // 32))
            best = slowest if best is None else min(best, slowest)
        self.cu.cuModuleUnload(mod)
        return best / (ITERS * NFMA * max(1, threads // 128))


def build_kernel():
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    work = tempfile.mkdtemp()
    try:
        open(os.path.join(work, "fb.ptx"), "w").write(bench_ptx())
        subprocess.run([ptxas, "-arch=sm_90", "-o", os.path.join(work, "fb.cubin"), os.path.join(work, "fb.ptx")], check=True)
        return Kernel(open(os.path.join(work, "fb.cubin"), "rb").read())
    finally:
        shutil.rmtree(work)


def main(argv):
    if argv[:1] == ["--model"]:
        for arg in argv[1:]:
            path, st = listing_arg(arg)
            st = [(a, b, c, ru) for _, a, b, c, ru in st]
            print(f"{path}: {len(st)} FFMAs, {model_mean(st):.3f} cycles per FFMA (model)")
        return
    rows = argv[:1] == ["--rows"]
    driver, date, paths = (argv[1], argv[2], argv[3:]) if rows else ("", "", argv)
    kern, gpu = build_kernel(), Gpu()
    results = []  # (name, what, [sequences of NFMA FFMAs]): the cycles are averaged over the sequences
    for name, what, spec in PATTERNS:
        results.append((name, what, [pattern_seq(kern, spec)]))
    for arg in paths:
        path, st = listing_arg(arg)
        name = "stream_" + re.sub(r"\W", "_", os.path.basename(path).rsplit(".", 1)[0])
        seqs = [replay_seq(kern, piece) for piece in windows(st)]
        results.append((name, f"the first {len(seqs) * NFMA} FFMAs of {path}, {NFMA} at a time", seqs))
    gpu_name = ctypes.create_string_buffer(100)
    gpu.cu.cuDeviceGetName(gpu_name, 100, 0)
    table = []
    mean = lambda xs: sum(xs) / len(xs)
    for name, what, seqs in results:
        one = mean([gpu.cycles_per_ffma(kern.patched(q), 32) for q in seqs])
        three = mean([gpu.cycles_per_ffma(kern.patched(q), 384) for q in seqs])
        table.append((name, what, one, three, mean([model([e[:4] for e in q]) for q in seqs])))
    if rows:
        for name, what, one, three, _ in table:
            print("\t".join([gpu_name.value.decode(), driver, date,
                             f"python3 scripts/gpu-regbanks.py: {what}, 3 warps a scheduler", "7", "0",
                             f"regbank_{name}", f"{three:.2f}", "cycles"]))
        return
    print(f"{'pattern':24} {'1 warp':>7} {'3 warps':>8} {'model':>6}  (cycles per FFMA, {gpu_name.value.decode()})")
    for name, what, one, three, m in table:
        print(f"{name:24} {one:7.3f} {three:8.3f} {m:6.3f}  {what}")


if __name__ == "__main__":
    main(sys.argv[1:])
