# Everything a fresh clone needs is installed from here: Node and npm are the
# only prerequisites (Bun comes from the npm package `bun`, pinned).
BUN := node_modules/.bin/bun
SOURCES := $(shell find src -name '*.ts') package.json
# Worker entry files are extra entry points: the binary embeds them and
# `new URL("./x.ts", import.meta.url)` finds them at run time.
ENTRIES := src/main.ts $(wildcard src/runtime/*-worker.ts)
# --splitting: each lazily imported command (and what only it uses, node:
# built-ins included) is its own embedded chunk, loaded when that command
# runs; one bundle would load all of them on every start (measured: rienda
# --version 21 ms -> 14 ms).
BUILD_FLAGS := --compile --splitting --minify --bytecode --format=esm \
	--no-compile-autoload-dotenv --no-compile-autoload-bunfig \
	--compile-autoload-package-json

.PHONY: all install build test test-unit test-e2e test-deno typecheck bench demo clean

all: build

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

build: dist/rienda

dist/rienda: node_modules/.installed $(SOURCES) Makefile
	@mkdir -p dist
	$(BUN) build $(BUILD_FLAGS) $(ENTRIES) --outfile dist/rienda

# Unit and end-to-end tests in one run, e2e against the freshly built binary.
test: build
	RIENDA_BINARY=$(CURDIR)/dist/rienda $(BUN) test --timeout 60000

test-unit: install
	$(BUN) test --timeout 60000 --path-ignore-patterns='test/e2e/**'

test-e2e: build
	RIENDA_BINARY=$(CURDIR)/dist/rienda $(BUN) test --timeout 60000 test/e2e

# The core from source under Deno (installed from the npm registry into .deno/),
# against the same black-box e2e tests as the binary. Not part of `make test`.
DENO_VERSION := 2.9.6
DENO_E2E := test/e2e/run-basics.test.ts test/e2e/run-tools.test.ts test/e2e/hooks.test.ts \
	test/e2e/run-interrupt.test.ts test/e2e/tool-run.test.ts test/e2e/sessions-run.test.ts
test-deno: install
	@test -x .deno/node_modules/.bin/deno || npm install --prefix .deno --no-audit --no-fund --loglevel=error deno@$(DENO_VERSION)
	RIENDA_BINARY=$(CURDIR)/scripts/rienda-deno.sh $(BUN) test --timeout 60000 $(DENO_E2E)

typecheck: install
	node_modules/.bin/tsc -p .

bench: build
	$(BUN) bench/run.ts

demo: build
	scripts/demo.sh
	scripts/demo.sh skills

clean:
	rm -rf dist
