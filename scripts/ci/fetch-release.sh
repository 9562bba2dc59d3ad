#!/bin/sh
# Downloads a rienda release archive and its SHA256SUMS, then installs it with
# scripts/install.sh, which checks the checksum before writing anything.
# Used by the GitHub composite action (.github/actions/rienda) and by any CI
# that installs rienda from a release; docs/ci.md.
#
#   sh fetch-release.sh --version 0.1.0 [--base-url URL] [--target NAME] [--prefix DIR]
#
#   --base-url  where the release's files are (default: the GitHub release of
#               that version, https://github.com/rienda/rienda/releases/download/v<version>)
#   --target    the archive's platform (default: this machine's, as install.sh detects it)
#   --prefix    install PREFIX/bin/rienda (default: ~/.local)
#
# Exit status 0 when installed; 1 when a download, the checksum or the install failed; 2 on usage errors.
set -eu

me=fetch-release.sh
version=
base=
target=
prefix=

usage() {
  echo "usage: sh $me --version VERSION [--base-url URL] [--target NAME] [--prefix DIR]" >&2
  exit 2
}
fail() {
  echo "$me: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
    --version) [ $# -ge 2 ] || usage; version=$2; shift 2 ;;
    --base-url) [ $# -ge 2 ] || usage; base=$2; shift 2 ;;
    --target) [ $# -ge 2 ] || usage; target=$2; shift 2 ;;
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    *) usage ;;
  esac
done
[ -n "$version" ] || usage
version=${version#v}
[ -n "$base" ] || base="https://github.com/rienda/rienda/releases/download/v$version"
base=${base%/}

here=$(cd "$(dirname "$0")" && pwd)
installer="$here/../install.sh"
[ -f "$installer" ] || fail "install.sh is not beside this script's folder ($installer)"

download() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl --fail --silent --show-error --location --retry 3 --output "$2" "$1" || fail "could not download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget --quiet --tries=3 --output-document="$2" "$1" || fail "could not download $1"
  else
    fail "neither curl nor wget is installed"
  fi
}

dir=$(mktemp -d "${TMPDIR:-/tmp}/rienda-release.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
download "$base/SHA256SUMS" "$dir/SHA256SUMS"
if [ -z "$target" ]; then
  # install.sh picks this machine's archive from a directory: fetch the one SHA256SUMS names for it.
  case $(uname -s)-$(uname -m) in
    Linux-x86_64) target=linux-x64; grep -q avx2 /proc/cpuinfo 2>/dev/null || target=linux-x64-baseline ;;
    Linux-aarch64 | Linux-arm64) target=linux-arm64 ;;
    Darwin-x86_64) target=darwin-x64 ;;
    Darwin-arm64) target=darwin-arm64 ;;
    *) fail "no release for $(uname -sm): build from source (docs/development.md)" ;;
  esac
fi
name=$(awk -v t="$target" '{ n = $2; sub(/^\*/, "", n) } n ~ ("^rienda-[^/]*-" t "\\.(tar\\.gz|zip)$") { print n; exit }' "$dir/SHA256SUMS")
[ -n "$name" ] || fail "SHA256SUMS at $base lists no archive for $target"
download "$base/$name" "$dir/$name"
set -- --target "$target"
[ -z "$prefix" ] || set -- "$@" --prefix "$prefix"
sh "$installer" "$@" "$dir"
