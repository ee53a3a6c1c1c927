"""The pieces of scripts/ncu_stalls_compare.py and ncu_lines.run_map that need no GPU, on hand-made data:
run by tests/e2e_ncu_stalls.sh; prints ok/not ok lines."""
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["PTXTUTOR_ROOT"], "scripts"))
import ncu_lines  # noqa: E402
import ncu_stalls_compare as c  # noqa: E402


def check(name, cond):
    print("%s ncu_stalls_%s" % ("ok" if cond else "not ok", name))


# A JIT cache entry: a header, the PTX text, then the cubin (an ELF whose program headers come after
# its section headers, as the driver writes them), then bytes that are not the cubin's.
elf = bytearray(b"\x7fELF" + bytes(60))
body = bytes(range(256)) * 3
shoff, shnum, shsize, phoff, phnum, phsize = 64 + len(body), 3, 64, 64 + len(body) + 192, 2, 56
struct.pack_into("<QQ", elf, 0x20, phoff, shoff)
struct.pack_into("<HHHH", elf, 0x36, phsize, phnum, shsize, shnum)
cubin = bytes(elf) + body + bytes(shnum * shsize + phnum * phsize)
with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "a", "b"))
    open(os.path.join(d, "index"), "wb").write(b"\x00" * 32)
    open(os.path.join(d, "a", "b", "entry"), "wb").write(b"hdr.version 8.0 ptx text" + cubin + b"trailing")
    check("cache_elf_cut_at_its_headers", ncu_lines.cubin_elf(d) == cubin)
with tempfile.TemporaryDirectory() as d:
    check("cache_without_elf", ncu_lines.cubin_elf(d) is None)

NVD = """//--------------------- .text.other              --------------------------
other:
	//## File "/x/k.ptx", line 7
        /*0000*/                   EXIT ;
//--------------------- .text.kern               --------------------------
kern:
	//## File "/x/k.ptx", line 40
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   FFMA R2, R3.reuse, R4, R2 ;
	//## File "/x/k.ptx", line 42
        /*0020*/              @!P0 BRA `(.L_x_0) ;
//--------------------- .nv.constant0.kern       --------------------------
        /*0000*/ 	.byte	0x00
"""
m = ncu_lines.nvdisasm_map(NVD, "kern")
check("nvdisasm_map_entry_and_lines", m == {0: (40, "LDC R1, c[0x0][0x28]"), 16: (40, "FFMA R2, R3.reuse, R4, R2"),
                                           32: (42, "@!P0 BRA `(.L_x_0)")})
check("nvdisasm_map_other_entry", ncu_lines.nvdisasm_map(NVD, "other") == {0: (7, "EXIT")})

# ncu's SASS view of the same three instructions: absolute addresses, no .reuse, a branch's address
CSV = '''"Kernel Name","kern",
"Address","Source","Instructions Executed","stall_long_sb","stall_wait","stall_selected",
"0x7f0000001000","      LDC R1, c[0x0][0x28]","10","0","1","1",
"0x7f0000001010","      FFMA R2, R3, R4, R2","20","30","2","1",
"0x7f0000001020","      @!P0  BRA 0x7f0000001000","20","0","5","1",
'''
lines, same, rows, executed = c.ncu_lines_sass(CSV, "kern", m)
check("sass_samples_to_lines", lines == {40: {"long_scoreboard": 30, "wait": 3, "selected": 2},
                                         42: {"long_scoreboard": 0, "wait": 5, "selected": 1}})
check("sass_alike_and_executed", (same, rows, executed) == (3, 3, 50))
other = {0: (40, "LDC R1, c[0x0][0x28]"), 16: (41, "IADD3 R2, R3, R4, RZ"), 32: (42, "EXIT")}
check("sass_other_code_told", c.ncu_lines_sass(CSV, "kern", other)[1] == 1)
check("alike_ldgsts_operands", ncu_lines.alike("LDGSTS.E.128 [R5+0x10], desc[UR4][R2.64]",
                                       "LDGSTS.E.128 desc[UR4][R2.64], [R5+0x10]"))
check("alike_not_other_registers", not ncu_lines.alike("FFMA R2, R3, R4, R2", "FFMA R2, R3, R5, R2"))

# --from twice: each target's lines from the first file that has lines, each figure from the first
with tempfile.TemporaryDirectory() as d:
    a, b = os.path.join(d, "a.tsv"), os.path.join(d, "b.tsv")
    open(a, "w").write("1\t4096\tcpi\t-\t10\nheldout:x\t4096\t5\twait\t3\nheldout:x\t4096\tcpi\t-\t7\n")
    open(b, "w").write("1\t4096\t9\tbarrier\t4\n1\t4096\tcpi\t-\t12\n1\t4096\tsass_inst\t-\t100\n")
    got = c.merged([a, b])
    check("from_merge", got[("1", "4096")] == {"lines": {9: {"barrier": 4}}, "cpi": 10, "sass_inst": 100} and
          got[("heldout:x", "4096")] == {"lines": {5: {"wait": 3}}, "cpi": 7})

model = {"lines": [{"issued": 300}, {"issued": 100}], "blocks_per_sm": 2, "warp_cycles_per_issue": 8.0}
check("cpi_per_sass", abs(c.cpi_per_sass(model, 1600, 8) - 8.0 * 1600 / 1600) < 1e-9 and
      abs(c.cpi_per_sass(model, 3200, 8) - 4.0) < 1e-9 and c.cpi_per_sass(model, None, 8) is None)
