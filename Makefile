# Everything a fresh clone needs is installed from here: Node and npm are the
# only prerequisites (Bun comes from the npm package `bun`, pinned).
BUN := node_modules/.bin/bun
SOURCES := $(shell find src -name '*.ts') src/models-dev/models-dev-snapshot.bin package.json
# The build flags, the entry points and what the binary records about its
# build live in scripts/release/ (shared by `make build` and `make release`).
BUILD_SCRIPTS := $(wildcard scripts/release/*.ts)

.PHONY: all install build release release-check lint format local-server test test-local test-unit test-e2e test-deno test-mcp-conformance typecheck bench demo clean models-dev-snapshot FORCE

all: build

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

build: dist/rienda

dist/rienda: node_modules/.installed $(SOURCES) $(BUILD_SCRIPTS) Makefile dist/build-info.json
	$(BUN) scripts/release/compile.ts --outfile dist/rienda

# The models.dev catalogue shipped in the binary (docs/providers.md, "The
# models.dev snapshot"): src/models-dev/snapshot.generated.ts is committed and
# `make build` uses it as it is; this remakes it from the npm package pinned in
# scripts/models-dev/source.json (needs the registry, about 80 MB downloaded).
# PIN=latest (or PIN=<version>) pins another version of the package first.
models-dev-snapshot: node_modules/.installed
	$(BUN) scripts/models-dev/make-snapshot.ts $(if $(PIN),--update $(PIN))

# The commit, its date and the Bun version, rewritten only when they change:
# a new commit rebuilds the binary (rienda version names it), nothing else does.
dist/build-info.json: FORCE | node_modules/.installed
	@$(BUN) scripts/release/build-info.ts --write $@

# Archives for every platform + SHA256SUMS in dist/release/ (docs/install.md).
# Not part of `make test`: test/release/ builds one target (linux-x64).
release: node_modules/.installed
	rm -rf dist/release
	$(BUN) scripts/release/main.ts --out dist/release

# Runs every archive's binary where this machine can: linux-x64 natively,
# linux-arm64 under qemu-user, the others checked for their executable format.
release-check: release
	@scripts/release/check-tools.sh
	RIENDA_RELEASE_DIR=$(CURDIR)/dist/release $(BUN) test --timeout 120000 test/release/all-targets.test.ts

# Unit, end-to-end and local-server tests in one run, e2e against the
# freshly built binary, test/local against a real llama.cpp server, after the
# linter and the type checker (bun runs TypeScript without checking its types,
# so without tsc here a type error would pass every test).
test: build local-server lint typecheck
	RIENDA_BINARY=$(CURDIR)/dist/rienda $(BUN) test --timeout 60000

# Biome (from npm, pinned) with its recommended rules, less those listed off
# in biome.json (docs/development.md, "Lint"), and its formatter (line width
# 120): a file it would format differently fails (`make format` rewrites them).
lint: install
	node_modules/.bin/biome check --error-on-warnings src test bench scripts

format: install
	node_modules/.bin/biome format --write src test bench scripts

test-unit: install
	$(BUN) test --timeout 60000 --path-ignore-patterns='test/e2e/**' --path-ignore-patterns='test/local/**'

# A real llama.cpp server for test/local (docs/development.md): Debian's
# llama-server unpacked into .local-model/ (nothing on the system changes).
local-server: .local-model/llama-server

.local-model/llama-server: scripts/local-model/setup-llama-server.sh
	scripts/local-model/setup-llama-server.sh .local-model >/dev/null

# Only the tests against the real server.
test-local: build local-server
	RIENDA_BINARY=$(CURDIR)/dist/rienda $(BUN) test --timeout 60000 test/local

test-e2e: build
	RIENDA_BINARY=$(CURDIR)/dist/rienda $(BUN) test --timeout 60000 test/e2e

# The core from source under Deno (installed from the npm registry into .deno/),
# against the same black-box e2e tests as the binary. Not part of `make test`.
DENO_VERSION := 2.9.6
DENO_E2E := test/e2e/run-basics.test.ts test/e2e/run-tools.test.ts test/e2e/hooks.test.ts \
	test/e2e/run-interrupt.test.ts test/e2e/tool-run.test.ts test/e2e/sessions-run.test.ts \
	test/e2e/mcp-client.test.ts test/e2e/mcp-serve.test.ts
test-deno: install
	@test -x .deno/node_modules/.bin/deno || npm install --prefix .deno --no-audit --no-fund --loglevel=error deno@$(DENO_VERSION)
	RIENDA_BINARY=$(CURDIR)/scripts/rienda-deno.sh $(BUN) test --timeout 60000 $(DENO_E2E)

# The official MCP conformance suite (server scenarios) against `rienda mcp
# serve --http` (installed from the npm registry into .conformance/). Not
# part of `make test`: Rienda serves tools only, so the resource, prompt,
# completion, sampling and non-text content scenarios fail by design
# (docs/mcp.md lists them).
test-mcp-conformance: build
	scripts/mcp-conformance.sh

# Strict TypeScript over src, test, bench and scripts (tsconfig.json).
typecheck: install
	node_modules/.bin/tsc -p .

bench: build
	$(BUN) bench/run.ts

demo: build
	scripts/demo.sh
	scripts/demo.sh skills
	scripts/demo.sh subagents

clean:
	rm -rf dist
