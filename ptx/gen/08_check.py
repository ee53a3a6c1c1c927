#!/usr/bin/env python3
"""Checks ptx/08_mma.ptx (or a variant the generator writes) on the CPU, no GPU needed.

A small lockstep interpreter for the PTX subset the kernel uses: all 256 threads
of one block step together (every branch in the kernel is uniform), ldmatrix and
mma.sync follow the fragment tables of the PTX ISA (written from the ISA, not
from the generator), and a cp.async lands only when cp.async.wait_group retires
its group, so a missing wait reads stale data. It runs every block of a small
problem against a float64 reference and counts extra shared-memory wavefronts
of the ldmatrix row addresses (8 rows of 16 bytes each should hit 8 different
4-bank groups).

    python3 ptx/gen/08_check.py ptx/08_mma.ptx BM BN SMEM_BYTES M N K
    e.g.  python3 ptx/gen/08_check.py ptx/08_mma.ptx 128 256 98304 256 512 224

Needs numpy (Debian: python3-numpy). Exit status 0 when C matches."""
import re
import sys
import numpy as np

NT = 256


def parse(path):
    lines = []
    labels = {}
    for raw in open(path):
        s = raw.split("//")[0].strip()
        if not s:
            continue
        for part in [p.strip() for p in s.split(";") if p.strip()]:
            if re.match(r"^[A-Z_0-9]+:$", part):
                labels[part[:-1]] = len(lines)
            elif part.startswith(".") or part.startswith("{") or part.startswith("}") or \
                    part.startswith("\t.param") or part.startswith(".param"):
                continue
            else:
                lines.append(part)
    # keep only the body: from first instruction after '{'
    return lines, labels


class Emu:
    def __init__(self, ptx, M, N, K, BM, BN, smem_bytes, bx, by, A, B):
        self.ins, self.labels = parse(ptx)
        self.M, self.N, self.K = M, N, K
        self.bx, self.by = bx, by
        # global memory: separate arrays at distinct base addresses
        self.Abase, self.Bbase, self.Cbase = 1 << 32, 2 << 32, 3 << 32
        self.mem = {self.Abase: A.view(np.uint8).ravel().copy(),
                    self.Bbase: B.view(np.uint8).ravel().copy(),
                    self.Cbase: np.full(M * N, np.nan, np.float32).view(np.uint8).copy()}
        self.smem = np.zeros(smem_bytes, np.uint8)
        self.smem_base = 0x400  # nonzero, aligned
        self.r = {}
        self.groups = []
        self.pending = []
        self.bank_conflicts = 0
        self.ldm_count = 0

    def gref(self, addr):
        for base, arr in self.mem.items():
            if base <= addr < base + arr.size:
                return arr, addr - base
        raise RuntimeError(f"global address out of range: {addr:#x}")

    def val(self, tok, kind="i"):
        tok = tok.strip()
        if tok.startswith("%"):
            if tok == "%tid.x":
                return np.arange(NT, dtype=np.int64)
            if tok == "%ctaid.x":
                return np.full(NT, self.bx, np.int64)
            if tok == "%ctaid.y":
                return np.full(NT, self.by, np.int64)
            return self.r[tok]
        if tok == "smem":
            return np.full(NT, self.smem_base, np.int64)
        if tok.startswith("0f"):
            return np.full(NT, np.frombuffer(bytes.fromhex(tok[2:])[::-1], np.float32)[0], np.float32)
        return np.full(NT, int(tok, 0), np.int64)

    def addr(self, tok):
        m = re.match(r"\[\s*([%\w]+)\s*(?:\+\s*(\d+))?\s*\]", tok.strip())
        base, off = m.group(1), int(m.group(2) or 0)
        return base, off

    def set(self, d, v, mask=None, bits=None):
        if bits == 32 and v.dtype != np.float32:
            v = v & ((1 << bits) - 1)
        if mask is None or d not in self.r:
            if mask is not None:
                self.r[d] = np.where(mask, v, 0)
            else:
                self.r[d] = v.copy()
        else:
            self.r[d] = np.where(mask, v, self.r[d])

    def run(self):
        pc = 0
        steps = 0
        while pc < len(self.ins):
            s = self.ins[pc]
            pc += 1
            steps += 1
            mask = None
            m = re.match(r"^@(!?)(%\w+)\s+(.*)$", s)
            if m:
                p = self.r[m.group(2)].astype(bool)
                mask = ~p if m.group(1) else p
                s = m.group(3)
            op, _, rest = s.partition(" ")
            ops = [o.strip() for o in re.split(r",(?![^{]*})(?![^\[]*\])", rest)] if rest else []
            if op in ("bra", "bra.uni"):
                if mask is None or mask.all():
                    pc = self.labels[ops[0]]
                else:
                    assert not mask.any(), "divergent branch"
                continue
            if op == "ret":
                return steps
            if op == "mov.u32" or op == "mov.u64":
                self.set(ops[0], self.val(ops[1]), mask)
            elif op == "mov.f32":
                self.set(ops[0], self.val(ops[1]), mask)
            elif op in ("and.b32", "xor.b32", "shr.u32", "shl.b32", "add.u32", "sub.u32",
                        "add.u64", "shl.b64", "sub.u64"):
                a, b = self.val(ops[1]), self.val(ops[2])
                f = {"and": np.bitwise_and, "xor": np.bitwise_xor, "shr": np.right_shift,
                     "shl": np.left_shift, "add": np.add, "sub": np.subtract}[op.split(".")[0]]
                self.set(ops[0], f(a, b), mask, 32 if op.endswith("32") else 64)
            elif op == "mad.lo.u32":
                self.set(ops[0], self.val(ops[1]) * self.val(ops[2]) + self.val(ops[3]), mask, 32)
            elif op == "mul.wide.u32":
                self.set(ops[0], self.val(ops[1]) * self.val(ops[2]), mask, 64)
            elif op in ("cvt.u64.u32", "cvta.to.global.u64"):
                self.set(ops[0], self.val(ops[1]), mask)
            elif op.startswith("ld.param"):
                name = self.addr(ops[1])[0]
                v = {"A": self.Abase, "B": self.Bbase, "C": self.Cbase, "M": self.M, "N": self.N,
                     "K": self.K}[name]
                self.set(ops[0], np.full(NT, v, np.int64), mask)
            elif op.startswith("setp."):
                cmp = op.split(".")[1]
                a, b = self.val(ops[1]), self.val(ops[2])
                self.set(ops[0], {"lt": a < b, "eq": a == b, "ne": a != b, "ge": a >= b}[cmp], mask)
            elif op == "cp.async.cg.shared.global":
                sreg, soff = self.addr(ops[0])
                greg, goff = self.addr(ops[1])
                assert ops[2] == "16"
                sa = self.r[sreg] + soff
                ga = self.r[greg] + goff
                for t in range(NT):
                    if mask is not None and not mask[t]:
                        continue
                    self.pending.append((int(sa[t]), int(ga[t])))
            elif op == "cp.async.commit_group":
                self.groups.append(self.pending)
                self.pending = []
            elif op == "cp.async.wait_group":
                n = int(ops[0])
                while len(self.groups) > n:
                    for sa, ga in self.groups.pop(0):
                        arr, o = self.gref(ga)
                        assert ga % 16 == 0 and sa % 16 == 0
                        so = sa - self.smem_base
                        assert 0 <= so and so + 16 <= self.smem.size, f"smem oob {so}"
                        self.smem[so:so + 16] = arr[o:o + 16]
            elif op == "bar.sync":
                pass
            elif op.startswith("ldmatrix"):
                self.ldmatrix(op, ops)
            elif op.startswith("mma.sync"):
                self.mma(ops)
            elif op == "st.global.v2.f32":
                reg, off = self.addr(ops[0])
                vals = [v.strip() for v in ops[1].strip("{}").split(",")]
                a = self.r[reg] + off
                for t in range(NT):
                    arr, o = self.gref(int(a[t]))
                    assert o % 8 == 0
                    arr[o:o + 8] = np.array([self.r[vals[0]][t], self.r[vals[1]][t]], np.float32).view(np.uint8)
            else:
                raise RuntimeError("unknown op: " + s)
        return steps

    def ldmatrix(self, op, ops):
        trans = ".trans" in op
        dst = [d.strip() for d in ops[0].strip("{}").split(",")]
        reg, off = self.addr(ops[1])
        a = self.r[reg] + off - self.smem_base
        out = [np.zeros(NT, np.int64) for _ in dst]
        half = self.smem.view(np.uint16)
        for w in range(NT // 32):
            la = a[32 * w:32 * w + 32]
            # bank conflict count: 8 rows of 16 bytes per matrix, per phase
            for i in range(len(dst)):
                rows = la[8 * i:8 * i + 8]
                banks = set()
                for r in rows:
                    banks.add((int(r) // 16) % 8)
                self.bank_conflicts += 8 - len(banks)
                self.ldm_count += 1
                assert all(int(r) % 16 == 0 for r in rows)
                mat = np.stack([half[int(r) // 2:int(r) // 2 + 8] for r in rows])  # 8x8 u16
                if trans:
                    mat = mat.T
                for l in range(32):
                    lo = int(mat[l >> 2][2 * (l & 3)])
                    hi = int(mat[l >> 2][2 * (l & 3) + 1])
                    out[i][32 * w + l] = lo | (hi << 16)
        for d, v in zip(dst, out):
            self.r[d] = v

    def mma(self, ops):
        d = [x.strip() for x in ops[0].strip("{}").split(",")]
        a = [x.strip() for x in ops[1].strip("{}").split(",")]
        b = [x.strip() for x in ops[2].strip("{}").split(",")]
        c = [x.strip() for x in ops[3].strip("{}").split(",")]

        def h2(reg, t):
            v = int(self.r[reg][t]) & 0xffffffff
            return np.array([v & 0xffff, v >> 16], np.uint16).view(np.float16).astype(np.float64)

        res = [np.array(self.r[x], dtype=np.float32) if x in self.r else None for x in c]
        newd = [np.zeros(NT, np.float32) for _ in d]
        for w in range(NT // 32):
            Am = np.zeros((16, 16))
            Bm = np.zeros((16, 8))
            Cm = np.zeros((16, 8))
            for l in range(32):
                t = 32 * w + l
                g, q = l >> 2, l & 3
                # A: a_i, i = 0..7 in regs a[i//2], elements i&1
                for i in range(8):
                    row = g if (i < 2 or 4 <= i < 6) else g + 8
                    col = q * 2 + (i & 1) + (8 if i >= 4 else 0)
                    Am[row, col] = h2(a[i // 2], t)[i & 1]
                for i in range(4):
                    row = q * 2 + (i & 1) + (8 if i >= 2 else 0)
                    Bm[row, g] = h2(b[i // 2], t)[i & 1]
                for i in range(4):
                    row = g if i < 2 else g + 8
                    col = q * 2 + (i & 1)
                    Cm[row, col] = res[i][t]
            Dm = (Am @ Bm + Cm).astype(np.float32)
            for l in range(32):
                t = 32 * w + l
                g, q = l >> 2, l & 3
                for i in range(4):
                    row = g if i < 2 else g + 8
                    newd[i][t] = Dm[row, q * 2 + (i & 1)]
        for x, v in zip(d, newd):
            self.r[x] = v


def main():
    ptx, BM, BN, smem, M, N, K = sys.argv[1], *map(int, sys.argv[2:8])
    rng = np.random.default_rng(1)
    A = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    blocks = [(bx, by) for by in range(M // BM) for bx in range(N // BN)]
    C = None
    conf = 0
    for bx, by in blocks:
        e = Emu(ptx, M, N, K, BM, BN, smem, bx, by, A, B)
        e.run()
        C = e.mem[e.Cbase].view(np.float32).reshape(M, N) if C is None else C
        got = e.mem[e.Cbase].view(np.float32).reshape(M, N)
        C[by * BM:(by + 1) * BM, bx * BN:(bx + 1) * BN] = got[by * BM:(by + 1) * BM, bx * BN:(bx + 1) * BN]
        conf += e.bank_conflicts
        print(f"block ({bx},{by}): ldmatrix 8x8 loads {e.ldm_count}, extra bank wavefronts {e.bank_conflicts}")
    err = np.linalg.norm(C - ref) / np.linalg.norm(ref)
    nan = np.isnan(C).sum()
    print(f"rel err {err:.3e}, NaN {nan}, max abs {np.nanmax(np.abs(C - ref)):.3e}")
    if err > 1e-5 or nan:
        bad = np.argwhere(~(np.abs(C - ref) < 1e-3))
        print("first bad", bad[:10])
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
