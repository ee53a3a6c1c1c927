# ptxtutor: build, run and test. `make run` builds and starts the tutor; `make test` runs every test.
# No CUDA toolkit is needed: the driver and cuBLAS are loaded at run time.

CC      ?= cc
PKG     ?= pkg-config
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror -std=gnu11
NCURSES_CFLAGS := $(shell $(PKG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   := $(shell $(PKG) --libs ncursesw 2>/dev/null || echo -lncursesw)
CMOCKA_LIBS    := $(shell $(PKG) --libs cmocka 2>/dev/null || echo -lcmocka)
LIBS    := $(NCURSES_LIBS) -ldl -lm -lpthread
# The build under `make run`, `make test` and `make asan` uses every core (their recipes call make again).
NPROC   := $(shell nproc 2>/dev/null || echo 2)

# Quiet by default; `make V=1` shows every command.
ifeq ($(V),1)
Q :=
else
Q := @
endif

BUILD   ?= build
# Every .c under src/, any depth: the list tests/test_layers.c checks at link level too.
SRC     := $(shell sh scripts/sources.sh)
OBJ     := $(SRC:%.c=$(BUILD)/%.o)
LIBOBJ  := $(filter-out $(BUILD)/src/cli/main.o,$(OBJ))
TESTSRC := $(sort $(wildcard tests/test_*.c))
TESTBIN := $(TESTSRC:tests/%.c=$(BUILD)/tests/%)
BIN     ?= ptxtutor

# Where `make install` puts things: PREFIX/bin, PREFIX/share/ptxtutor (the
# lessons, PTX and assets), PREFIX/share/man/man1; DESTDIR stages it.
PREFIX  ?= /usr/local
DESTDIR ?=
DATADIR := $(PREFIX)/share/ptxtutor

# The fuzz harnesses (tests/fuzz/fuzz_*.c): libFuzzer builds for `make fuzz`
# (clang), replay builds over the checked-in corpora for `make test` (any CC).
FUZZSRC   := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZNAMES := $(FUZZSRC:tests/fuzz/%.c=%)
REPLAYBIN := $(FUZZNAMES:%=$(BUILD)/fuzz/replay_%)
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= -1
# 0: a new random seed each run; CI passes a fixed one so its smoke round is repeatable.
FUZZ_SEED    ?= 0
FUZZ_BUILD   := build-fuzz
FUZZ_FLAGS   := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_OBJ     := $(LIBOBJ:$(BUILD)/%=$(FUZZ_BUILD)/%)

.PHONY: all run test asan deps clean ptxas-check ptx gpu-bandwidth gpu-l1-stride gpu-ceilings gpu-latency gpu-queues gpu-wgmma-stalls gpu-wmma-layout gpu-lg-depth gpu-warp-drift gpu-l1-ways gpu-sector-repeat gpu-fma-pipe gpu-mio gpu-power gpu-cublas-timing gpu-lt-algos gpu-fp8-accum install uninstall fuzz fuzz-build
all: $(BIN)

$(BIN): $(OBJ)
	@echo "  LD    $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CPPFLAGS) $(DATADIR_DEF) $(CFLAGS) $(WARN) $(NCURSES_CFLAGS) -Isrc -MMD -MP -c -o $@ $<

# The install data path the binary falls back to (src/base/util.c util_root), in
# its own variable so that a command-line CFLAGS= (packagers, `make asan`) keeps it.
# util.o depends on a stamp named after DATADIR: a new PREFIX makes a new stamp
# (the old ones go), so util.o is rebuilt, and an unchanged one keeps `make -q` quiet.
DATADIR_STAMP := $(BUILD)/datadir-$(firstword $(shell printf '%s' '$(DATADIR)' | cksum))
$(BUILD)/src/base/util.o: DATADIR_DEF = -DPTXTUTOR_DATADIR='"$(DATADIR)"'
$(BUILD)/src/base/util.o: $(DATADIR_STAMP)
$(DATADIR_STAMP):
	@mkdir -p $(dir $@)
	$(Q)rm -f $(BUILD)/datadir-*
	$(Q)printf '%s\n' '$(DATADIR)' >$@

$(BUILD)/fuzz/replay_%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(LIBOBJ)
	@mkdir -p $(dir $@)
	@echo "  FUZZ  $< (replay)"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(NCURSES_CFLAGS) -Isrc -Itests/fuzz $(LDFLAGS) -o $@ $< tests/fuzz/replay.c $(LIBOBJ) $(LIBS)

$(BUILD)/tests/%: tests/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	@echo "  TEST  $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(NCURSES_CFLAGS) -Isrc -Itests $(LDFLAGS) -o $@ $< $(LIBOBJ) $(CMOCKA_LIBS) $(LIBS)


-include $(OBJ:.o=.d)

# Installs what is missing (ncursesw headers, cmocka, tmux) with apt-get.
deps:
	$(Q)sh scripts/deps.sh

run: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	./$(BIN)

test: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all $(TESTBIN) $(REPLAYBIN)
	$(Q)TESTBIN='$(TESTBIN)' sh tests/run.sh $(BUILD) ./$(BIN)

# The same tests under AddressSanitizer and UBSan, in their own build tree.
asan: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) BUILD=build-asan BIN=build-asan/ptxtutor \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" build-asan/ptxtutor \
		$(TESTBIN:$(BUILD)/%=build-asan/%) $(REPLAYBIN:$(BUILD)/%=build-asan/%)
	$(Q)ASAN_OPTIONS=detect_leaks=1 TESTBIN='$(TESTBIN:$(BUILD)/%=build-asan/%)' sh tests/run.sh build-asan build-asan/ptxtutor

# Every shipped PTX file must assemble as it is (needs ptxas; skipped without).
ptxas-check:
	$(Q)sh tests/ptxas_check.sh

# Rewrites the generated ptx/*.ptx from their generators (the list: ptx/gen/regen.sh; needs python3).
ptx:
	$(Q)sh ptx/gen/regen.sh ptx

# The bandwidth microbenchmark scripts/gpu-bandwidth.sh runs (needs nvcc; the binary needs only the driver).
NVCC ?= /usr/local/cuda/bin/nvcc
gpu-bandwidth: $(BUILD)/gpu-bandwidth
$(BUILD)/gpu-bandwidth: scripts/gpu-bandwidth.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 -o $@ $<

# The sustained pipe rates scripts/gpu-ceilings.sh measures for the time estimate (needs nvcc;
# sm_90a for its wgmma test).
gpu-ceilings: $(BUILD)/gpu-ceilings
$(BUILD)/gpu-ceilings: scripts/gpu-ceilings.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_90a,code=sm_90a -o $@ $<

# The latencies (dependent chains, pointer chases) the stall model reads (latency_* rows; needs nvcc).
gpu-latency: $(BUILD)/gpu-latency
$(BUILD)/gpu-latency: scripts/gpu-latency.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_90a,code=sm_90a -o $@ $<

# The LG and MIO queue depths the stall model guesses (LG_QUEUE, MIO_QUEUE; needs nvcc).
gpu-queues: $(BUILD)/gpu-queues
$(BUILD)/gpu-queues: scripts/gpu-queues.cu scripts/gpu_check.h scripts/gpu_wgmma.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_90a,code=sm_90a -o $@ $<

# What ncu calls a warp's wait at an HGMMA, one or two warps a sub-partition (run under ncu; needs nvcc).
gpu-wgmma-stalls: $(BUILD)/gpu-wgmma-stalls
$(BUILD)/gpu-wgmma-stalls: scripts/gpu-wgmma-stalls.cu scripts/gpu_check.h scripts/gpu_wgmma.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -o $@ $<

# Measurement programs built alike (needs nvcc; docs/benchmarks.md has what each measured):
#   gpu-mio          what the SM's MIO takes a cycle of shuffles and shared loads, and whether global loads share it
#   gpu-wmma-layout  where the GPU puts each element of a WMMA fragment (tests/wmma-layout-sm90.tsv)
#   gpu-lg-depth     how many global loads an SM holds before LG throttle, L1 hits or misses (under ncu:
#                    scripts/gpu-lg-depth.sh; the model beside it: scripts/lg-depth-model.py)
#   gpu-warp-drift   how far apart the warps of a warp_dot block run (issue 41's L1)
#   gpu-l1-ways      how many lines the L1 keeps at a stride (its capacity and ways)
#   gpu-sector-repeat  what a warp's loads of one sector, or of one line's sectors, cost while its fill is on the way
#   gpu-fma-pipe     what the FMA pipe takes a cycle of FFMA, IMAD, IMAD.WIDE and HFMA2, alone and in pairs
GPU_PLAIN := gpu-mio gpu-wmma-layout gpu-lg-depth gpu-warp-drift gpu-l1-ways gpu-sector-repeat gpu-fma-pipe
$(GPU_PLAIN): %: $(BUILD)/%
$(GPU_PLAIN:%=$(BUILD)/%): $(BUILD)/%: scripts/%.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o $@ $<

# The power and SM clock of each kind of work (power_* rows, the estimate's clock model; needs nvcc;
# NVML is loaded at run time).
gpu-power: $(BUILD)/gpu-power
$(BUILD)/gpu-power: scripts/gpu-power.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o $@ $< -ldl

# How cuBLAS's time for one GEMM varies with how it is timed (docs/benchmarks.md; needs nvcc and cuBLAS).
gpu-cublas-timing: $(BUILD)/gpu-cublas-timing
$(BUILD)/gpu-cublas-timing: scripts/gpu-cublas-timing.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_90,code=sm_90 -o $@ $< -lcublas

# cuBLASLt's own kernels for lesson 8's GEMM, each configuration named and timed (issue 27's peer;
# needs nvcc, cuBLASLt and CUPTI, which come with the toolkit).
CUPTI_LIB ?= /usr/local/cuda/targets/x86_64-linux/lib
gpu-lt-algos: $(BUILD)/gpu-lt-algos
$(BUILD)/gpu-lt-algos: scripts/gpu-lt-algos.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_90,code=sm_90 -o $@ $< -lcublasLt -lcuda -L$(CUPTI_LIB) -lcupti

# Lesson 11's FP8 kernel with and without promotion beside cuBLASLt's default and FAST_ACCUM:
# speed and accumulation error (scripts/gpu-fp8-accum.sh; needs nvcc and cuBLASLt).
gpu-fp8-accum: $(BUILD)/gpu-fp8-accum
$(BUILD)/gpu-fp8-accum: scripts/gpu-fp8-accum.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_90,code=sm_90 -o $@ $< -lcublasLt -lcuda

# The L1 wavefront probe scripts/gpu-l1.sh runs under Nsight Compute (needs nvcc).
gpu-l1-stride: $(BUILD)/gpu-l1-stride
$(BUILD)/gpu-l1-stride: scripts/gpu-l1-stride.cu scripts/gpu_check.h
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_90,code=sm_90 -o $@ $<

# libFuzzer over every harness, FUZZ_SECONDS each (FUZZERS=... picks some),
# from the checked-in seeds plus a work corpus in build-fuzz/; a crash is kept
# as build-fuzz/crash-* (minimise it into tests/fuzz/corpus/NAME/ once fixed).
# FUZZ_RUNS=N with FUZZ_SECONDS=0 runs exactly N inputs from FUZZ_SEED: the
# same inputs on every machine, however fast, which is what CI wants.
FUZZERS ?= $(FUZZNAMES)
fuzz-build: $(FUZZERS:%=$(FUZZ_BUILD)/%)

fuzz: fuzz-build
	$(Q)for f in $(FUZZERS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$f; \
		echo "  FUZZ  $$f: $(FUZZ_SECONDS) s (0: no limit), $(FUZZ_RUNS) runs (-1: no limit), seed $(FUZZ_SEED) (log: $(FUZZ_BUILD)/$$f.log)"; \
		PTXTUTOR_ROOT=$(CURDIR) $(FUZZ_BUILD)/$$f -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -seed=$(FUZZ_SEED) -max_len=8192 -timeout=10 \
			-rss_limit_mb=4096 -dict=tests/fuzz/ptx.dict -artifact_prefix=$(FUZZ_BUILD)/ -print_final_stats=1 \
			$(FUZZ_BUILD)/corpus/$$f tests/fuzz/corpus/$$f >$(FUZZ_BUILD)/$$f.log 2>&1; rc=$$?; \
		grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)|^stat::number_of_executed_units|SUMMARY' $(FUZZ_BUILD)/$$f.log | tail -n 2; \
		[ $$rc = 0 ] || { echo "  $$f: a finding (exit $$rc), see $(FUZZ_BUILD)/$$f.log"; exit 1; }; \
	done

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $< (fuzz)"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(WARN) $(NCURSES_CFLAGS) -Isrc -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	@echo "  LD    $@"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(WARN) $(NCURSES_CFLAGS) -Isrc -Itests/fuzz -o $@ $< $(FUZZ_OBJ) $(LIBS)

-include $(FUZZ_OBJ:.o=.d)
.SECONDARY: $(FUZZ_OBJ)

# Installs the tutor: the binary, its data (lessons, PTX, assets: what
# util_root looks for in PREFIX/share/ptxtutor) and the man page.
install: all
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR) $(DESTDIR)$(PREFIX)/share/man/man1
	$(Q)install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ptxtutor
	$(Q)for d in lessons ptx assets; do \
		find $$d -type d -exec install -d $(DESTDIR)$(DATADIR)/{} \; && \
		find $$d -type f -exec install -m 644 {} $(DESTDIR)$(DATADIR)/{} \; || exit 1; \
	done
	$(Q)install -m 644 docs/ptxtutor.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptxtutor.1
	@echo "  INSTALL $(DESTDIR)$(PREFIX)"

uninstall:
	rm -rf $(DESTDIR)$(DATADIR)
	rm -f $(DESTDIR)$(PREFIX)/bin/ptxtutor $(DESTDIR)$(PREFIX)/share/man/man1/ptxtutor.1

clean:
	rm -rf build build-asan $(FUZZ_BUILD) $(BIN)
