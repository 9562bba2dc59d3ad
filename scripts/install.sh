#!/bin/sh
# Installs rienda from a release archive, with no network: the archive is
# checked against its SHA-256 before anything is written.
#
#   sh install.sh rienda-0.1.0-linux-x64.tar.gz      an archive (SHA256SUMS beside it)
#   sh install.sh /media/usb/rienda                  a directory with archives + SHA256SUMS:
#                                                    takes the one for this machine
#   options:
#     --prefix DIR    install DIR/bin/rienda (default: ~/.local, so ~/.local/bin/rienda)
#     --sha256 HEX    the archive's expected checksum, instead of SHA256SUMS
#     --target NAME   pick this platform's archive from a directory (linux-x64,
#                     linux-x64-baseline, linux-arm64, darwin-x64, darwin-arm64, windows-x64)
#
# Exit status 0 when installed, 1 when refused or failed (nothing written), 2 on usage errors.
# Reference: docs/install.md.
set -eu

me=install.sh
prefix=
expected=
target=
source=

fail() {
  echo "$me: $*" >&2
  exit 1
}

usage() {
  echo "usage: sh $me [--prefix DIR] [--sha256 HEX] [--target NAME] ARCHIVE|DIRECTORY" >&2
  echo "  ARCHIVE    rienda-<version>-<os>-<arch>.tar.gz (or .zip), with SHA256SUMS in its directory" >&2
  echo "  DIRECTORY  holds the archives and SHA256SUMS; the one for this machine is installed" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --sha256) [ $# -ge 2 ] || usage; expected=$2; shift 2 ;;
    --sha256=*) expected=${1#--sha256=}; shift ;;
    --target) [ $# -ge 2 ] || usage; target=$2; shift 2 ;;
    --target=*) target=${1#--target=}; shift ;;
    -h | --help) usage ;;
    -*) echo "$me: unknown option $1" >&2; usage ;;
    *) [ -z "$source" ] || usage; source=$1; shift ;;
  esac
done
[ -n "$source" ] || usage
[ -n "$prefix" ] || {
  [ -n "${HOME:-}" ] || fail "HOME is not set: say where to install with --prefix DIR"
  prefix=$HOME/.local
}

# The platform name of this machine, as in the archive names.
detect_target() {
  case $(uname -s) in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) os=windows ;;
    *) fail "no release for $(uname -s): build from source (docs/development.md)" ;;
  esac
  case $(uname -m) in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no release for $(uname -m) processors: build from source (docs/development.md)" ;;
  esac
  # An x64 Mac running this shell under Rosetta is an arm64 Mac.
  if [ "$os-$arch" = darwin-x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  # The default x64 build needs AVX2; older CPUs take the baseline build.
  if [ "$os-$arch" = linux-x64 ] && [ -r /proc/cpuinfo ] && ! grep -q avx2 /proc/cpuinfo; then
    echo "linux-x64-baseline"
    return
  fi
  echo "$os-$arch"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
  else
    fail "no sha256sum, shasum or openssl here to check the archive with; refusing to install unchecked"
  fi
}

# The checksum SHA256SUMS ($1) gives for file name $2 (sha256sum's format), or nothing.
listed_sum() {
  awk -v name="$2" '$2 == name || $2 == "*" name { print $1; exit }' "$1"
}

lower() {
  printf '%s' "$1" | tr 'ABCDEF' 'abcdef'
}

if [ -d "$source" ]; then
  dir=$source
  sums=$dir/SHA256SUMS
  [ -f "$sums" ] || fail "no SHA256SUMS in $dir: copy it along with the archives (it is how they are checked)"
  [ -n "$target" ] || target=$(detect_target)
  # The archives SHA256SUMS lists for this platform.
  names=$(awk -v t="$target" '{ n = $2; sub(/^\*/, "", n) } n ~ ("^rienda-[^/]*-" t "\\.(tar\\.gz|zip)$") { print n }' "$sums")
  count=$(printf '%s' "$names" | grep -c . || true)
  [ "$count" -ge 1 ] || fail "SHA256SUMS in $dir lists no archive for $target (rienda-<version>-$target.tar.gz)"
  [ "$count" -eq 1 ] || fail "SHA256SUMS in $dir lists several archives for $target: $(echo $names); name the one to install"
  archive=$dir/$names
  [ -f "$archive" ] || fail "$archive is listed in SHA256SUMS but missing from $dir"
else
  [ -f "$source" ] || fail "$source: no such archive or directory"
  archive=$source
fi

dir=$(dirname "$archive")
name=$(basename "$archive")
case $name in
  rienda-*.tar.gz) top=${name%.tar.gz}; exe=rienda ;;
  rienda-*.zip) top=${name%.zip}; exe=rienda.exe ;;
  *) fail "$name is not a rienda release archive (rienda-<version>-<os>-<arch>.tar.gz or .zip)" ;;
esac

# Checked before anything is written.
if [ -z "$expected" ]; then
  [ -f "$dir/SHA256SUMS" ] || fail "nothing to check $name against: put SHA256SUMS next to it, or pass --sha256 HEX (from the release page)"
  expected=$(listed_sum "$dir/SHA256SUMS" "$name")
  [ -n "$expected" ] || fail "$dir/SHA256SUMS does not list $name; refusing to install an archive it does not vouch for"
fi
actual=$(sha256_of "$archive")
if [ "$(lower "$actual")" != "$(lower "$expected")" ]; then
  echo "$me: checksum mismatch for $archive" >&2
  echo "  expected $expected" >&2
  echo "  actual   $actual" >&2
  echo "$me: refusing to install: the archive is damaged or not the one published; copy it again (nothing was written)" >&2
  exit 1
fi
echo "checked  $name (sha256 $actual)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rienda-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
case $name in
  *.tar.gz) gzip -dc "$archive" | (cd "$tmp" && tar -xf - "$top/$exe") || fail "could not unpack $top/$exe from $name" ;;
  *.zip)
    command -v unzip >/dev/null 2>&1 || fail "unzip is needed to unpack $name"
    unzip -q "$archive" "$top/$exe" -d "$tmp" || fail "could not unpack $top/$exe from $name"
    ;;
esac
binary=$tmp/$top/$exe
[ -f "$binary" ] || fail "$name holds no $top/$exe"

# The right archive for this machine runs; another platform's does not.
version=$("$binary" --version 2>/dev/null) || fail "the rienda in $name does not run on this machine ($(uname -sm)): take the archive for $(detect_target) (docs/install.md)"

bindir=$prefix/bin
mkdir -p "$bindir" || fail "cannot create $bindir"
# Copy beside the old one, then rename over it: a rienda that is running
# keeps its file, and an interrupted install leaves the old one in place.
staged=$bindir/.$exe.install.$$
cp "$binary" "$staged" || { rm -f "$staged"; fail "cannot write to $bindir"; }
chmod 755 "$staged"
mv -f "$staged" "$bindir/$exe" || { rm -f "$staged"; fail "cannot replace $bindir/$exe"; }
echo "installed rienda $version to $bindir/$exe"

case ":${PATH:-}:" in
  *":$bindir:"*) ;;
  *) echo "note: $bindir is not on your PATH; add it, e.g. in ~/.profile: export PATH=\"$bindir:\$PATH\"" ;;
esac
