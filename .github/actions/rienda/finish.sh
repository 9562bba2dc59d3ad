#!/bin/sh
# Step 4 of the action: the job fails as rienda did (docs/cli.md "Exit status").
set -u
status=${RIENDA_STATUS:-1}
case $status in
  0) exit 0 ;;
  3) echo "::error::rienda: a limit ended the run (exit 3): see run_end in events.jsonl" ;;
  4) echo "::error::rienda: the answer did not match its schema (exit 4)" ;;
  *) echo "::error::rienda run failed (exit $status): see events.jsonl in the artifact" ;;
esac
exit "$status"
