#!/bin/sh
# Runs `rienda run` once for each input line of this shard: lines whose
# number (from 0) modulo SHARDS is SHARD_INDEX. Made for a Kubernetes
# Indexed Job (deploy/kubernetes/indexed-job.yaml), where SHARD_INDEX is
# JOB_COMPLETION_INDEX and SHARDS the Job's completions; any runner that
# starts N copies works the same.
#
#   sh shard.sh --inputs FILE --out DIR [--index N] [--shards N] -- RUN-ARGS...
#
# Every {} in RUN-ARGS is replaced by the input line. Each input's artifacts
# go to DIR/<line number>/ (run-agent.sh). The exit status is 0 when every
# run of the shard succeeded, else the status of the first one that did not.
set -u

me=shard.sh
inputs=
out=
index=${SHARD_INDEX:-${JOB_COMPLETION_INDEX:-0}}
shards=${SHARDS:-1}

usage() {
  echo "usage: sh $me --inputs FILE --out DIR [--index N] [--shards N] -- RUN-ARGS..." >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
    --inputs) [ $# -ge 2 ] || usage; inputs=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --index) [ $# -ge 2 ] || usage; index=$2; shift 2 ;;
    --shards) [ $# -ge 2 ] || usage; shards=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$inputs" ] && [ -n "$out" ] || usage
case $index$shards in *[!0-9]*) echo "$me: --index and --shards must be whole numbers" >&2; exit 2 ;; esac
[ "$shards" -ge 1 ] && [ "$index" -lt "$shards" ] || { echo "$me: --index must be below --shards ($index of $shards)" >&2; exit 2; }
[ -r "$inputs" ] || { echo "$me: cannot read $inputs" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)

# The run's arguments, quoted for eval: restored as the template for every input.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
template=
for arg in "$@"; do template="$template $(quote "$arg")"; done

# $1 with every {} replaced by $2.
substitute() {
  rest=$1
  result=
  while :; do
    case $rest in
      *"{}"*) result=$result${rest%%"{}"*}$2; rest=${rest#*"{}"} ;;
      *) result=$result$rest; break ;;
    esac
  done
  printf '%s' "$result"
}

first=0
n=0
while IFS= read -r line || [ -n "$line" ]; do
  if [ $((n % shards)) -eq "$index" ] && [ -n "$line" ]; then
    eval "set -- $template"
    count=$#
    while [ "$count" -gt 0 ]; do
      arg=$(substitute "$1" "$line")
      shift
      set -- "$@" "$arg"
      count=$((count - 1))
    done
    sh "$here/run-agent.sh" --out "$out/$n" -- "$@" </dev/null
    status=$?
    [ "$status" -eq 0 ] || [ "$first" -ne 0 ] || first=$status
    echo "$me: input $n ($line): exit $status" >&2
  fi
  n=$((n + 1))
done < "$inputs"
exit "$first"
