#!/bin/sh
# make demo: Rienda's whole job, offline. Installs examples/ into a
# throwaway HOME, copies examples/workspace into a throwaway workspace, and
# runs the example agent with `rienda run`. The model's side comes from
# examples/replay/demo.yaml (protocol: replay), so no network and no API key
# are needed. The output shows the tool calls, the hooks at work and the
# answer. Exits with the status of the run.
#
#   scripts/demo.sh                  uses dist/rienda (make build)
#   RIENDA_BINARY=/path/rienda scripts/demo.sh
#   DEMO_KEEP=1 scripts/demo.sh      keeps the throwaway HOME and workspace
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
binary=${RIENDA_BINARY:-$root/dist/rienda}
examples=$root/examples
if [ ! -x "$binary" ]; then
  echo "demo: $binary is missing: run make build first" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rienda-demo.XXXXXX")
if [ "${DEMO_KEEP:-}" = 1 ]; then
  trap 'echo "demo: kept $tmp" >&2' EXIT
else
  trap 'rm -rf "$tmp"' EXIT
fi
home=$tmp/home
rienda=$home/.rienda
workspace=$tmp/workspace

# ~/.rienda as a user would have it after copying the examples in.
mkdir -p "$rienda" "$workspace"
chmod 700 "$rienda"
cp -R "$examples/agents" "$examples/tools" "$examples/hooks" "$examples/replay" "$rienda/"
# The script path made absolute (single-quoted YAML, quotes doubled), so the
# config keeps working wherever it is copied.
awk -v script="$rienda/replay/demo.yaml" '
  BEGIN { gsub(/'"'"'/, "'"''"'", script) }
  /^    script:/ { print "    script: '"'"'" script "'"'"'"; next }
  { print }
' "$examples/config.yaml" >"$rienda/config.yaml"
chmod 600 "$rienda/config.yaml"

# The project the agent looks after, plus a build cache for it to clear.
cp -R "$examples/workspace/." "$workspace/"
mkdir -p "$workspace/.cache"
echo "stale build output" >"$workspace/.cache/build.log"

prompt="Check the release notes: how long are they, which version do they describe, and clear the build cache."
cat <<INTRO
Rienda demo (offline: the model's answers come from examples/replay/demo.yaml)
  agent     examples/agents/demo.md (tools: word-count, json-field, shell, publish, release-tag; hooks: date, guard, redact)
  workspace $(ls "$workspace" | tr '\n' ' ')+ .cache/
stderr shows the tool calls, hook notices and failures; stdout shows the answer.

\$ rienda run -a demo -p "$prompt"
INTRO

# stdin is not a terminal, so the guard's question is answered by the absence
# of -y: no. RIENDA_CONFIG from the caller's environment must not leak in.
set +e
(
  unset RIENDA_CONFIG
  cd "$workspace" && HOME="$home" "$binary" run -a demo -p "$prompt" </dev/null
)
status=$?
set -e

echo
if [ "$status" = 0 ] && [ -d "$workspace/.cache" ]; then
  echo "demo: .cache is still in the workspace (the guard hook stopped rm -rf)"
fi
echo "demo: rienda run exited with status $status"
exit "$status"
