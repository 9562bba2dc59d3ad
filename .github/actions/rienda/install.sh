#!/bin/sh
# Step 1 of the action: rienda into ~/.local/bin, checked against SHA256SUMS.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
set -- --version "$RIENDA_VERSION" --prefix "$HOME/.local"
[ -z "${RIENDA_RELEASE_URL:-}" ] || set -- "$@" --base-url "$RIENDA_RELEASE_URL"
sh "$here/../../../scripts/ci/fetch-release.sh" "$@"
# Later steps find it on PATH.
[ -z "${GITHUB_PATH:-}" ] || echo "$HOME/.local/bin" >> "$GITHUB_PATH"
