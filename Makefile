# Latchkey — the two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

SWIFT_FLAGS ?=
VENV := .venv

.PHONY: run test build release bootstrap bootstrap-test swift-test e2e bench clean

## make run: install what is missing, build release, start the server on the embedded default.
run: bootstrap release
	@scripts/run-hint.sh
	./.build/release/latchkey serve

## make test: install what is missing (including test tools), then run every test suite.
test: bootstrap-test swift-test e2e

bootstrap:
	@scripts/bootstrap.sh

bootstrap-test:
	@scripts/bootstrap.sh --test

build:
	swift build $(SWIFT_FLAGS)

release:
	swift build -c release $(SWIFT_FLAGS)

swift-test: $(VENV)/.installed
	swift build --build-tests -Xswiftc -warnings-as-errors
	LATCHKEY_TEST_PYTHON=$(abspath $(VENV))/bin/python scripts/with-postgres.sh scripts/with-redis.sh swift test --skip-build

e2e: release $(VENV)/.installed
	$(VENV)/bin/python -m pytest -q e2e

$(VENV)/.installed: e2e/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r e2e/requirements.txt
	touch $@

bench: release $(VENV)/.installed
	$(VENV)/bin/python bench/reset_timing.py
	$(VENV)/bin/python bench/token_endpoints.py
	$(VENV)/bin/python bench/compare.py

clean:
	rm -rf .build $(VENV)
