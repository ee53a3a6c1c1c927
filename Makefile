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

# Quiet by default; `make V=1` shows every command.
ifeq ($(V),1)
Q :=
else
Q := @
endif

BUILD   ?= build
SRC     := $(sort $(wildcard src/*/*.c))
OBJ     := $(SRC:%.c=$(BUILD)/%.o)
LIBOBJ  := $(filter-out $(BUILD)/src/cli/main.o,$(OBJ))
TESTSRC := $(sort $(wildcard tests/test_*.c))
TESTBIN := $(TESTSRC:tests/%.c=$(BUILD)/tests/%)
BIN     ?= ptxtutor

.PHONY: all run test asan deps clean ptxas-check ptx gpu-bandwidth
all: $(BIN)

$(BIN): $(OBJ)
	@echo "  LD    $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CFLAGS) $(WARN) $(NCURSES_CFLAGS) -Isrc -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	@echo "  TEST  $<"
	$(Q)$(CC) $(CFLAGS) $(WARN) $(NCURSES_CFLAGS) -Isrc -Itests -o $@ $< $(LIBOBJ) $(CMOCKA_LIBS) $(LIBS)

-include $(OBJ:.o=.d)

# Installs what is missing (ncursesw headers, cmocka, tmux) with apt-get.
deps:
	$(Q)sh scripts/deps.sh

run: deps
	$(Q)$(MAKE) --no-print-directory all
	./$(BIN)

test: deps
	$(Q)$(MAKE) --no-print-directory all $(TESTBIN)
	$(Q)sh tests/run.sh $(BUILD) ./$(BIN)

# The same tests under AddressSanitizer and UBSan, in their own build tree.
asan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/ptxtutor \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" build-asan/ptxtutor \
		$(TESTBIN:$(BUILD)/%=build-asan/%)
	$(Q)ASAN_OPTIONS=detect_leaks=1 sh tests/run.sh build-asan build-asan/ptxtutor

# Every shipped PTX file must assemble as it is (needs ptxas; skipped without).
ptxas-check:
	$(Q)sh tests/ptxas_check.sh

# Rewrites the generated ptx/*.ptx from their generators (the list: ptx/gen/regen.sh; needs python3).
ptx:
	$(Q)sh ptx/gen/regen.sh ptx

# The bandwidth microbenchmark scripts/gpu-bandwidth.sh runs (needs nvcc; the binary needs only the driver).
NVCC ?= /usr/local/cuda/bin/nvcc
gpu-bandwidth: $(BUILD)/gpu-bandwidth
$(BUILD)/gpu-bandwidth: scripts/gpu-bandwidth.cu
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 -o $@ $<

clean:
	rm -rf build build-asan $(BIN)
