#!/bin/sh
# Step 2 of the action: writes config.yaml, runs the agent, records the status
# for the last step, and always succeeds itself so that the artifact is uploaded.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$HOME/.rienda" "$RIENDA_OUT"
( umask 077; printf '%s\n' "$RIENDA_CONFIG_TEXT" > "$HOME/.rienda/config.yaml" )
PATH="$HOME/.local/bin:$PATH"
# The arguments are one shell-quoted line, as written in the workflow.
eval "set -- $RIENDA_ARGS"
# A runner's stdin is no data for the agent: every stdin but a terminal would be read (docs/pipelines.md).
sh "$here/../../../scripts/ci/run-agent.sh" --out "$RIENDA_OUT" -- "$@" </dev/null
status=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "status=$status" >> "$GITHUB_OUTPUT"
  echo "answer-file=$RIENDA_OUT/answer.txt" >> "$GITHUB_OUTPUT"
fi
exit 0
