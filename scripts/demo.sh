#!/bin/sh
# make demo: Rienda's whole job, offline. Installs examples/ into a
# throwaway HOME, copies examples/workspace into a throwaway workspace, and
# runs an example agent with `rienda run`. The model's side comes from
# examples/replay/*.yaml (protocol: replay), so no network and no API key
# are needed. The output shows the tool calls, the hooks at work and the
# answer. Exits with the status of the run.
#
#   scripts/demo.sh                  the demo agent: tools and hooks (uses dist/rienda, make build)
#   scripts/demo.sh skills           the writer agent: an Agent Skill loaded on demand
#   scripts/demo.sh subagents        the lead agent delegating a review to the reviewer agent
#   RIENDA_BINARY=/path/rienda scripts/demo.sh
#   RIENDA_EXAMPLES=/path/examples   another examples/ (an unpacked release archive's)
#   DEMO_KEEP=1 scripts/demo.sh      keeps the throwaway HOME and workspace
set -eu

example=${1:-demo}
case $example in
  demo | skills | subagents) ;;
  *)
    echo "demo: unknown example \"$example\" (examples: demo, skills, subagents)" >&2
    exit 1
    ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
binary=${RIENDA_BINARY:-$root/dist/rienda}
examples=${RIENDA_EXAMPLES:-$root/examples}
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
cp -R "$examples/agents" "$examples/tools" "$examples/hooks" "$examples/replay" "$examples/skills" "$rienda/"
# The script paths made absolute (single-quoted YAML, quotes doubled), so the
# config keeps working wherever it is copied.
awk -v dir="$rienda/" '
  BEGIN { gsub(/'"'"'/, "'"''"'", dir) }
  /^    script:/ { print "    script: '"'"'" dir $2 "'"'"'"; next }
  { print }
' "$examples/config.yaml" >"$rienda/config.yaml"
chmod 600 "$rienda/config.yaml"

# The project the agent looks after, plus a build cache for it to clear.
cp -R "$examples/workspace/." "$workspace/"
mkdir -p "$workspace/.cache"
echo "stale build output" >"$workspace/.cache/build.log"

if [ "$example" = subagents ]; then
  agent=lead
  prompt="Get the release notes reviewed before we tag 2.4.1."
  cat <<INTRO
Rienda subagents example (offline: the models' answers come from examples/replay/lead.yaml and reviewer.yaml)
  agent     examples/agents/lead.md (agents: reviewer), which delegates to
            examples/agents/reviewer.md (its own model; tools: json-field, word-count)
stderr shows the lead's tool calls, the reviewer's indented under its call; stdout shows the lead's answer.

\$ rienda run -a lead -p "$prompt"
INTRO
elif [ "$example" = skills ]; then
  agent=writer
  prompt="Write the release notes of this version."
  cat <<INTRO
Rienda skills example (offline: the model's answers come from examples/replay/writer.yaml)
  agent     examples/agents/writer.md (tools: json-field; skills: release-notes)
  skill     examples/skills/release-notes (SKILL.md + references/style.md, loaded only when the model asks)
stderr shows the skill tool calls; stdout shows the answer.

\$ rienda run -a writer -p "$prompt"
INTRO
else
  agent=demo
  prompt="Check the release notes: how long are they, which version do they describe, and clear the build cache."
  cat <<INTRO
Rienda demo (offline: the model's answers come from examples/replay/demo.yaml)
  agent     examples/agents/demo.md (tools: word-count, json-field, shell, publish, release-tag; hooks: date, guard, redact)
  workspace $(ls "$workspace" | tr '\n' ' ')+ .cache/
stderr shows the tool calls, hook notices and failures; stdout shows the answer.

\$ rienda run -a demo -p "$prompt"
INTRO
fi

# stdin is not a terminal, so the guard's question is answered by the absence
# of -y: no. RIENDA_CONFIG from the caller's environment must not leak in.
set +e
(
  unset RIENDA_CONFIG
  cd "$workspace" && HOME="$home" "$binary" run -a "$agent" -p "$prompt" </dev/null
)
status=$?
set -e

echo
if [ "$example" = demo ] && [ "$status" = 0 ] && [ -d "$workspace/.cache" ]; then
  echo "demo: .cache is still in the workspace (the guard hook stopped rm -rf)"
fi
echo "demo: rienda run exited with status $status"
exit "$status"
