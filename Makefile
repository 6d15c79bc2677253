# Latchkey — the two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

SWIFT_FLAGS ?=
VENV := .venv

.PHONY: run test build release dist bootstrap bootstrap-test swift-test apple-check e2e fuzz fuzz-brief bench instructions function-order clean

## make run: install what is missing, build release, start the server on the embedded default.
run: bootstrap release
	@scripts/run-hint.sh
	./.build/release/latchkey serve

## make test: install what is missing (including test tools), then run every test suite.
test: bootstrap-test swift-test apple-check e2e fuzz-brief

## make apple-check: type-check the Apple-only Swift (SDK adapters, the sample app) against the
## stand-ins in Tests/AppleStandIns, as iOS and as macOS (scripts/check-apple-sources.sh).
apple-check:
	scripts/check-apple-sources.sh

bootstrap:
	@scripts/bootstrap.sh

bootstrap-test:
	@scripts/bootstrap.sh --test

build:
	swift build $(SWIFT_FLAGS)

## make release: the server as `make run`, `make bench` and the end-to-end tests run it, with the
## Swift runtime and Foundation linked in: the same binary `make dist` packs (the flags and why:
## scripts/build-release.sh).
release:
	scripts/build-release.sh $(SWIFT_FLAGS)

## make dist: the binary with the Swift runtime linked in, stripped, its debug information beside
## it (latchkey.debug, found through its .gnu_debuglink), the systemd unit and the list of Debian
## runtime packages, as dist/latchkey-VERSION-linux-ARCH.tar.gz (install: docs/deploy.md).
dist: bootstrap
	scripts/dist.sh

## make swift-test: build with warnings as errors, then run the Swift tests beside a throwaway
## PostgreSQL and Redis; FILTER=… runs only the tests `swift test --filter` matches (a test
## target, a suite or a test: FILTER=LatchkeyStorageTests, FILTER=StoreContractTests).
swift-test: $(VENV)/.installed
	swift build --build-tests -Xswiftc -warnings-as-errors
	LATCHKEY_TEST_PYTHON=$(abspath $(VENV))/bin/python scripts/with-postgres.sh scripts/with-redis.sh \
		swift test --skip-build $(if $(FILTER),--filter '$(FILTER)')

## make e2e: the end-to-end tests against the release binary; E2E=… runs only the files or
## pytest node ids given (E2E=e2e/test_login.py, E2E=e2e/test_login.py::test_name).
E2E ?= e2e
e2e: release dist $(VENV)/.installed
	LATCHKEY_REQUIRE_CLUSTER=1 scripts/with-postgres.sh scripts/with-redis.sh $(VENV)/bin/python -m pytest -q $(E2E)

$(VENV)/.installed: e2e/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r e2e/requirements.txt
	touch $@

## make fuzz: build the libFuzzer targets (Fuzz/Targets) and run each for FUZZ_SECONDS (60);
## FUZZ=… runs only the targets named (FUZZ=FuzzJSONBody). Prints the executions reached; a
## crash or broken property fails it, its input kept in .build/fuzz/crashes/<target>/
## (docs/fuzzing.md). make fuzz-brief: every target for FUZZ_BRIEF_SECONDS (8) with a fixed
## seed, as make test does, so that a brief run is repeatable.
FUZZ_SECONDS ?= 60
FUZZ_BRIEF_SECONDS ?= 8
fuzz: bootstrap
	scripts/fuzz.sh --seconds $(FUZZ_SECONDS) $(FUZZ)

fuzz-brief: bootstrap
	scripts/fuzz.sh --seconds $(FUZZ_BRIEF_SECONDS) --seed 1

## make bench: install wrk (bench/setup.sh), build release, run every benchmark (bench/run.py)
## and print the Markdown tables; BENCH_ARGS="--seconds 5 --only routes" and the like change it.
bench: bootstrap release
	@bench/setup.sh
	python3 bench/run.py $(BENCH_ARGS)

## make instructions: the instructions per request of the routes make bench measures, counted
## by callgrind (bench/instructions.py); INSTRUCTIONS_ARGS="--routes validate --requests 300".
instructions: bootstrap release
	@bench/setup.sh valgrind
	python3 bench/instructions.py $(INSTRUCTIONS_ARGS)

## make function-order: rewrite bench/latchkey.order, the functions the release link lays out
## first (bench/function_order.py runs the server under valgrind), then relink with it.
function-order: bootstrap release
	@bench/setup.sh valgrind
	python3 bench/function_order.py
	rm -f .build/release/latchkey
	scripts/build-release.sh $(SWIFT_FLAGS)

clean:
	rm -rf .build $(VENV)
