#!/bin/sh
# What `make release-check` needs beyond Node and npm, installed with apt
# when missing (best effort; a check whose tool is still missing is skipped
# and says so): file, unzip, and qemu-user with the arm64 C library to run
# the linux-arm64 executable on an x86-64 machine.
missing=""
command -v file >/dev/null 2>&1 || missing="$missing file"
command -v unzip >/dev/null 2>&1 || missing="$missing unzip"
if [ "$(uname -m)" != aarch64 ]; then
  command -v qemu-aarch64-static >/dev/null 2>&1 || command -v qemu-aarch64 >/dev/null 2>&1 || missing="$missing qemu-user-static"
  [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || missing="$missing libc6-arm64-cross"
fi
[ -n "$missing" ] || exit 0
command -v apt-get >/dev/null 2>&1 || { echo "release-check: install$missing to check every archive" >&2; exit 0; }
as_root=""
[ "$(id -u)" -eq 0 ] || as_root="sudo"
echo "release-check: installing$missing" >&2
{ $as_root apt-get install -y -qq $missing || { $as_root apt-get update -qq && $as_root apt-get install -y -qq $missing; }; } >/dev/null 2>&1 \
  || echo "release-check: could not install$missing; those checks are skipped" >&2
exit 0
