# attic's front door. Each target installs what is missing, configures, builds and runs.
#   make shakespeare     train the laptop GPT recipe on Shakespeare, then sample from it
#   make test            Release build in build/, every test
#   make test-sanitize   the library, the CLI and the tests (not the tutorials' examples and
#                        exercises) built by clang with AddressSanitizer + UBSan in build-asan/;
#                        CPU only (ASan and the CUDA runtime do not mix)
#   make test-clang      the Release build with clang in build-clang/, every test; CPU only
#   make test-portable   the portable build (ATTIC_NATIVE=OFF) in build-portable/, every test,
#                        its CPU kernels at each level this CPU has and under qemu-x86_64
# Every build target takes CATCH2_PREFIX=DIR (a Catch2 v2 or v3 of your own) and WERROR=ON
# (warnings as errors: the default under CI=true).
#   make test-arm        an aarch64 cross build in build-arm/ (cmake/aarch64-linux-gnu.cmake),
#                        its tests run under qemu-aarch64; ARM_SKIP leaves out the tests it
#                        matches (a ctest -E regex; empty: none)
#   make debug           -O0 -g build with assertions in build-debug/ (for gdb)
#   make compare-attention  the laptop GPT with softmax, linear_elu and linear_exp attention,
#                        trained in turn, in one table and one picture (attic compare)
#   make compare-elita   the ELiTA write-up's experiment: a GPT against the ELiTA LM at
#                        sequence 256 (about 4 minutes on 2 cores)
#   make compare-linformer  the laptop GPT with softmax, Linformer prefix and Linformer leaky
#                        attention (the leak of the compressed causal mask, seen in val loss)
#   make compare-reflex  the reflex fork's experiments: classic, reflex and route attention on
#                        digit multiplication (scored, with the entropy and the routers drawn),
#                        on Shakespeare, and at 18 layers (about 10 minutes each on 2 cores)
#   make book-figures    run again the experiments whose pictures and tables chapters 17 and
#                        19-22 show, and put them in, stamped (ONLY=REGEX: some of them)
#   make exercise N=02  build the book's exercise 02 (exercises/02_*/) as you left it, and check it;
#                        WITH=solution checks its solution instead
#   make bench-peer      attic against PyTorch 2 on this CPU: the laptop step (1 and 2 threads, with
#                        memory), the width / context sweep (table + SVG in build/bench-peer/), the
#                        GPU-size step, route, ELiTA, Linformer, sampling, the GEMMs, the whole
#                        recipe, and the laptop step built for AVX2 laptops (~35 min)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# CATCH2_PREFIX=DIR: build the tests against the Catch2 (v2 or v3) installed under DIR
# instead of the system's, e.g. `make test CATCH2_PREFIX=$$HOME/catch2-v3`.
CATCH2_PREFIX ?=
# Warnings are errors in CI (CI=true, as CI runners set it), never in a user's build.
WERROR ?= $(if $(filter true 1,$(CI)),ON,OFF)
ATTIC_FLAGS = -DATTIC_WERROR=$(WERROR) -DCATCH2_PREFIX=$(if $(CATCH2_PREFIX),$(abspath $(CATCH2_PREFIX)))
DEPS = CATCH2_PREFIX='$(CATCH2_PREFIX)' scripts/install-deps.sh

.PHONY: deps configure build example exercise book-figures shakespeare compare-attention compare-elita compare-linformer compare-reflex test test-sanitize test-portable test-clang test-arm debug bench-peer clean

deps:
	@$(DEPS)

configure: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=Release $(ATTIC_FLAGS) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build build -j$(JOBS)

# The laptop recipe (config/shakespeare_char_cpu.cfg): 2000 iterations, then three samples.
shakespeare: configure
	@cmake --build build -j$(JOBS) --target attic_cli
	./build/attic train config/shakespeare_char_cpu.cfg
	./build/attic sample --out_dir=out-shakespeare-char-cpu --num_samples=3 --max_new_tokens=300

# config/compare_attention.cfg: three runs of 2000 iterations into out-compare-attention/.
compare-attention: configure
	@cmake --build build -j$(JOBS) --target attic_cli
	./build/attic compare config/compare_attention.cfg

# config/compare_elita.cfg: two runs of 1500 iterations into out-compare-elita/.
compare-elita: configure
	@cmake --build build -j$(JOBS) --target attic_cli
	./build/attic compare config/compare_elita.cfg

# config/compare_linformer.cfg: three runs of 2000 iterations into out-compare-linformer/.
compare-linformer: configure
	@cmake --build build -j$(JOBS) --target attic_cli
	./build/attic compare config/compare_linformer.cfg

# config/compare_reflex_mul.cfg, compare_reflex.cfg, compare_reflex_deep.cfg: three runs of
# 2000 iterations each; then the multiplication models' entropy and route's routers.
compare-reflex: configure
	@cmake --build build -j$(JOBS) --target attic_cli
	./build/attic compare config/compare_reflex_mul.cfg
	./build/attic analyze entropy --out_dir=out-compare-reflex-mul/classic \
		--out_dir=out-compare-reflex-mul/reflex --out_dir=out-compare-reflex-mul/route
	./build/attic analyze entropy --centered --out_dir=out-compare-reflex-mul/classic \
		--out_dir=out-compare-reflex-mul/reflex --out_dir=out-compare-reflex-mul/route
	./build/attic analyze routers --out_dir=out-compare-reflex-mul/route
	./build/attic compare config/compare_reflex.cfg
	./build/attic compare config/compare_reflex_deep.cfg

# make book-figures: every experiment whose picture or table the book shows (the figure
# blocks of tutorials/*.md), run again, and its outputs put into the chapters, stamped with
# the commit and the CPU (scripts/book_figures.sh; hours on 2 cores: ONLY=REGEX picks blocks,
# NO_RUN=1 redraws from runs already done).
book-figures: configure
	@cmake --build build -j$(JOBS) --target attic_cli
	scripts/book_figures.sh $(if $(ONLY),--only='$(ONLY)') $(if $(NO_RUN),--no-run)

# One exercise of the book: your files in exercises/NN_*/ with its check (warnings, no -Werror).
# make example N=04_jacobian: build one of the book's examples (tutorials/examples/N.cpp, or a
# CUDA build's N.cu) and run it in a scratch folder, as ctest does; it prints what its chapter
# shows, and any picture it draws lands in build/tutorials/example_N.here/.
example: configure
	@test -n "$(N)" || { echo "usage: make example N=NN_name (one of: $$(ls tutorials/examples | sed -n 's/\.cpp$$//p' | tr '\n' ' '))"; exit 2; }
	@cmake --build build -j$(JOBS) --target example_$(N)
	@mkdir -p build/tutorials/example_$(N).here && cd build/tutorials/example_$(N).here && ../example_$(N)

# make exercise N=03 WITH=solution: the same check on the exercise's solution/ instead.
exercise: configure
	@test -n "$(N)" || { echo "usage: make exercise N=NN [WITH=solution] (NN one of: $$(ls -d exercises/[0-9][0-9]_* | sed 's|exercises/||' | cut -c1-2 | tr '\n' ' '))"; exit 2; }
	@test -z "$(WITH)" -o "$(WITH)" = solution || { echo "make exercise: WITH must be solution or empty, got '$(WITH)'"; exit 2; }
	@cmake --build build -j$(JOBS) --target exercise_$(N)$(if $(WITH),_$(WITH))
	./build/exercises/exercise_$(N)$(if $(WITH),_$(WITH))

test: build
	cd build && ctest --output-on-failure -j$(JOBS)

# clang, so that one build also checks that attic compiles with clang. The tutorials' examples
# and the exercises call the same library code that the tests do; `make test` runs them.
# It is a portable build (ATTIC_NATIVE=OFF): on x86-64 its CPU kernels are there at three
# levels (tensor/cpu/cpu_isa.h), and the kernels' and ops' tests run at each level this CPU has.
test-sanitize:
	@$(DEPS) clang libclang-rt-dev
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
		-DATTIC_SANITIZE=ON -DATTIC_TUTORIALS=OFF -DATTIC_CUDA=OFF -DATTIC_NATIVE=OFF $(ATTIC_FLAGS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-asan -j$(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j$(JOBS)

# The portable build (ATTIC_NATIVE=OFF: what a distribution's package or a downloaded binary
# is) in build-portable/, every test: on x86-64 the CPU kernels at three levels, chosen at run
# time, their tests at each level this CPU has, and under qemu as CPUs without AVX-512 and
# without AVX.
test-portable:
	@$(DEPS) qemu-user
	@cmake -S . -B build-portable -DCMAKE_BUILD_TYPE=Release -DATTIC_NATIVE=OFF -DATTIC_CUDA=OFF \
		$(ATTIC_FLAGS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-portable -j$(JOBS)
	cd build-portable && ctest --output-on-failure -j$(JOBS)

# Learners' laptops build with clang as often as with GCC (macOS has only clang).
# CLANGXX=clang++-16 builds with another clang than the default one.
CLANGXX ?= clang++
test-clang:
	@$(DEPS) clang
	@cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(CLANGXX) \
		-DATTIC_CUDA=OFF $(ATTIC_FLAGS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-clang -j$(JOBS)
	cd build-clang && ctest --output-on-failure -j$(JOBS)

# ARM laptops and boards (Apple Silicon, Raspberry Pi, Graviton): the NEON code paths, built
# by the cross compiler and run by qemu. Under qemu most tests take 1-5x their native time,
# but the few that train or benchmark for long take 20-100x (minutes each). ARM_SKIP leaves
# those out: the linformer benchmark's two tests (about 8 minutes together), bench train's
# JSON line (75 s), and the tutorials 10_mlp_lm and 10_gpt_pieces (over 3 and 10 minutes),
# none of which runs code that the rest leave untested:
#   make test-arm ARM_SKIP='test_linformer_bench_cli|bench train prints|tutorial: 10_mlp_lm|tutorial: 10_gpt_pieces'
# takes about 17 minutes on 2 cores (its build 10, its tests 7); with all tests, about 25.
ARM_SKIP ?=
test-arm:
	@$(DEPS) g++-aarch64-linux-gnu qemu-user
	@cmake -S . -B build-arm -DCMAKE_BUILD_TYPE=Release -DATTIC_CUDA=OFF \
		-DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake $(ATTIC_FLAGS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-arm -j$(JOBS)
	cd build-arm && ctest --output-on-failure -j$(JOBS) $(if $(ARM_SKIP),-E '$(ARM_SKIP)')

# -O0 -g, assert() and libstdc++'s checks on: the build to step through in gdb. Every
# binary carries attic's gdb pretty-printers; debug/gdb/attic-gdb lets gdb load them.
debug: deps
	@cmake -S . -B build-debug -DCMAKE_BUILD_TYPE=Debug $(ATTIC_FLAGS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-debug -j$(JOBS)

# The peer, PyTorch 2 from PyPI (MKL, oneDNN), is installed into build/peer-venv for this
# comparison only (scripts/install-peer.sh); the system Python is never touched.
bench-peer: configure
	@cmake --build build -j$(JOBS) --target attic_cli
	@scripts/install-peer.sh >/dev/null
	bench/peer/compare.sh

clean:
	rm -rf build build-asan build-debug build-clang build-arm
