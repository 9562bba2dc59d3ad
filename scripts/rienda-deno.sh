#!/bin/sh
# Runs Rienda from source under Deno, for checking that the core stays
# Deno-compatible: `make test-deno` points the e2e tests at this script.
# DENO names the deno executable (default: the one `make test-deno` installs).
root=$(cd "$(dirname "$0")/.." && pwd)
exec "${DENO:-$root/.deno/node_modules/.bin/deno}" run -A --quiet "$root/src/main.ts" "$@"
