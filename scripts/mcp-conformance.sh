#!/bin/sh
# Runs the official MCP conformance suite's server scenarios against
# `rienda mcp serve --http`, serving the tools of
# test/fixtures/mcp/conformance-tools (named as the suite expects).
# The suite's client cannot send a header, and the server wants its bearer
# token on every request: test/fixtures/mcp/token-proxy.mjs stands between
# them and adds it (the server runs as users run it, token required).
# The suite is installed from the npm registry into .conformance/ and run
# with the project's Bun (it needs a newer Node than 20). It reaches only
# 127.0.0.1. Prints the suite's summary; exits with the suite's status.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VERSION=0.1.16
SUITE="$ROOT/.conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"
BINARY=${RIENDA_BINARY:-$ROOT/dist/rienda}
if [ ! -f "$SUITE" ]; then
  npm install --prefix "$ROOT/.conformance" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$VERSION"
fi
WORK=$(mktemp -d)
mkdir -p "$WORK/.rienda"
cp -R "$ROOT/test/fixtures/mcp/conformance-tools" "$WORK/.rienda/tools"
HOME="$WORK" "$BINARY" mcp serve --http 127.0.0.1:0 -C "$WORK" 2>"$WORK/serve.log" &
SERVER=$!
PROXY=""
trap 'kill "$SERVER" $PROXY 2>/dev/null || true; rm -rf "$WORK"' EXIT
URL=""
for _ in $(seq 1 100); do
  URL=$(sed -n 's/.* at \(http:[^ ]*\)$/\1/p' "$WORK/serve.log")
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { cat "$WORK/serve.log" >&2; echo "rienda mcp serve did not start" >&2; exit 1; }
RIENDA_MCP_TOKEN=$(cat "$WORK/.rienda/mcp-token") "$ROOT/node_modules/.bin/bun" "$ROOT/test/fixtures/mcp/token-proxy.mjs" "$URL" >"$WORK/proxy.log" &
PROXY=$!
PROXIED=""
for _ in $(seq 1 100); do
  PROXIED=$(sed -n 's/^listening \(http:[^ ]*\)$/\1/p' "$WORK/proxy.log")
  [ -n "$PROXIED" ] && break
  sleep 0.1
done
[ -n "$PROXIED" ] || { echo "the token proxy did not start" >&2; exit 1; }
"$ROOT/node_modules/.bin/bun" "$SUITE" server --url "$PROXIED" --expected-failures "$ROOT/test/fixtures/mcp/conformance-expected-failures.yaml" "$@"
