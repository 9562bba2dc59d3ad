#!/bin/sh
# One `rienda run` for CI: the --json event log and the session file are
# kept in an artifacts folder, and the script exits with rienda's own status
# (0 done, 1 failed, 3 a limit, 4 the schema, 130 interrupted: docs/cli.md).
#
#   sh run-agent.sh --out DIR [--rienda PATH] -- RUN-ARGS...
#
# RUN-ARGS are rienda run's (-a/--agent-file, -p, -f, --max-turns, ...);
# --json is added. DIR receives events.jsonl, answer.txt (the last answer's
# text, where jq is installed), session.jsonl (when a session was written) and status (the exit
# status as a number). docs/ci.md.
set -u

me=run-agent.sh
out=
rienda=${RIENDA:-rienda}

usage() {
  echo "usage: sh $me --out DIR [--rienda PATH] -- RUN-ARGS..." >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --rienda) [ $# -ge 2 ] || usage; rienda=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$out" ] || usage
mkdir -p "$out" || exit 1

"$rienda" run --json "$@" > "$out/events.jsonl"
status=$?
echo "$status" > "$out/status"

# run_start is the first line; its sessionId is null when the run was refused before it started.
id=$(sed -n '1s/.*"sessionId":"\([^"]*\)".*/\1/p' "$out/events.jsonl")
if [ -n "$id" ]; then
  session=$(find "${HOME}/.rienda/sessions" -name "$id.jsonl" 2>/dev/null | head -n 1)
  [ -z "$session" ] || cp "$session" "$out/session.jsonl"
fi
# The text of the run's last answer (a subagent's events carry "parent"), where jq is installed.
if command -v jq >/dev/null 2>&1; then
  jq -rs '[.[] | select(.type == "message_end" and .parent == null)] | last | .text // ""' "$out/events.jsonl" > "$out/answer.txt" 2>/dev/null || rm -f "$out/answer.txt"
fi
exit "$status"
