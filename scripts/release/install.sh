#!/bin/sh
# Installs the agent: picks this machine's executable from the release folder this script sits in,
# or from a base URL (--from, or one built in at release time), checks it against the release's
# SHA256SUMS, stages it inside the prefix, checks the staged copy, and moves it into place as
# `agent`. An `agent` this script did not install is never replaced without --force: the sidecar
# file .agent.install-sha256 next to it records the SHA-256 of what it installed.
# POSIX sh; needs uname, sha256sum or shasum, cp, mv, mkdir, rm, chmod, and curl or wget for downloads.
#
#   sh install.sh [--prefix DIR] [--from https://host/path] [--force]
#   curl -fsSL https://host/path/install.sh | sh -s -- --from https://host/path
set -u

# Filled in by `npm run release -- --base-url https://…` for a piped install without --from.
BUILT_IN_FROM=""

prefix="${HOME:-}/.local/bin"
from=""
force=0
staging=""
newline='
'

die() {
  printf 'install.sh: %s\n' "$1" >&2
  exit 1
}

cleanup() {
  if [ -n "$staging" ]; then rm -rf "$staging"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

usage() {
  printf 'usage: install.sh [--prefix DIR] [--from BASE_URL] [--force]\n'
  printf '  --prefix DIR   where `agent` goes (default ~/.local/bin)\n'
  printf '  --from URL     download the release from URL (https://; plain http only on loopback)\n'
  printf '  --force        replace an `agent` this script did not install\n'
}

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --from) [ $# -ge 2 ] || die "--from needs a base URL"; from="$2"; shift 2 ;;
    --from=*) from="${1#--from=}"; shift ;;
    --force) force=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[ -n "$prefix" ] || die "no prefix: HOME is not set, pass --prefix DIR"

# The platform, named as the release names its files (agent-<os>-<arch>).
os_name=$(uname -s) || die "uname failed"
arch_name=$(uname -m) || die "uname failed"
case "$os_name" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) die "unsupported operating system: $os_name (releases exist for Linux and macOS)" ;;
esac
case "$arch_name" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "unsupported architecture: $arch_name (releases exist for x86_64 and arm64)" ;;
esac
# An x86_64 shell under Rosetta on an Apple silicon Mac: the arm64 build runs natively.
if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null)" = 1 ]; then arch=arm64; fi
name="agent-$os-$arch"

if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | { read -r sum _ && printf '%s' "$sum"; }; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | { read -r sum _ && printf '%s' "$sum"; }; }
else
  die "neither sha256sum nor shasum is installed: cannot verify the download"
fi

# Where the release is: --from, else the folder holding this script, else the built-in URL.
here=""
if [ -z "$from" ] && [ -f "$0" ]; then
  case "$0" in */*) here="${0%/*}" ;; *) here=. ;; esac
  here=$(CDPATH='' cd "$here" && pwd) || here=""
  [ -f "$here/SHA256SUMS" ] || here=""
fi
if [ -z "$from" ] && [ -z "$here" ]; then from="$BUILT_IN_FROM"; fi
if [ -n "$from" ]; then
  from="${from%/}"
  not_https="--from must be an https:// URL (plain http only on loopback): $from"
  case "$from" in
    https://?*) ;;
    http://*)
      # The whole authority must be a loopback host and an optional numeric port, so that
      # http://127.0.0.1:80@example.com (user info, then another host) is refused.
      rest="${from#http://}"
      authority="${rest%%/*}"
      case "$authority" in
        127.0.0.1 | localhost | \[::1\]) ;;
        127.0.0.1:?* | localhost:?* | \[::1\]:?*)
          case "${authority##*:}" in *[!0-9]*) die "$not_https" ;; esac
          ;;
        *) die "$not_https" ;;
      esac
      ;;
    *) die "$not_https" ;;
  esac
  if command -v curl >/dev/null 2>&1; then
    fetch() { curl -fsSL --proto '=https,http' --proto-redir '=https' -o "$2" "$1"; }
  elif command -v wget >/dev/null 2>&1; then
    fetch() { wget -q -O "$2" "$1"; }
  else
    die "neither curl nor wget is installed: cannot download from $from"
  fi
  # One line on failure: the URL, and the downloader's own first line of why.
  download() {
    if ! msg=$(fetch "$1" "$2" 2>&1); then
      msg="${msg%%"$newline"*}"
      die "download failed: $1${msg:+ ($msg)}"
    fi
  }
elif [ -z "$here" ]; then
  die "no release to install from: run install.sh from the release folder, or pass --from BASE_URL"
fi

# Everything is staged in a fresh folder inside the prefix, so the final mv is a rename on one
# file system, and whatever fails leaves only that folder behind, which the EXIT trap removes.
mkdir -p "$prefix" || die "cannot create $prefix"
[ ! -d "$prefix/agent" ] || die "$prefix/agent is a folder"
staging="$prefix/.agent-install.$$"
mkdir "$staging" || { staging=""; die "cannot create a staging folder in $prefix"; }

if [ -n "$from" ]; then
  download "$from/SHA256SUMS" "$staging/SHA256SUMS"
  download "$from/$name" "$staging/agent"
  origin="$from/$name"
else
  [ -f "$here/$name" ] || die "$name is not in $here (this release has no build for $os_name $arch_name)"
  cp "$here/SHA256SUMS" "$staging/SHA256SUMS" || die "cannot copy $here/SHA256SUMS"
  cp "$here/$name" "$staging/agent" || die "cannot copy $here/$name into $prefix"
  origin="$here/$name"
fi

expected=""
while read -r sum file; do
  if [ "$file" = "$name" ] || [ "$file" = "*$name" ]; then expected="$sum"; fi
done <"$staging/SHA256SUMS"
[ -n "$expected" ] || die "SHA256SUMS has no line for $name"
actual=$(sha256 "$staging/agent") || die "cannot hash $name"
[ "$actual" = "$expected" ] || die "checksum mismatch for $name from $origin: SHA256SUMS says $expected, the file is $actual"
chmod 755 "$staging/agent" || die "cannot make $name executable"

marker="$prefix/.agent.install-sha256"
if [ -e "$prefix/agent" ] && [ "$force" -ne 1 ]; then
  recorded=""
  if [ -f "$marker" ]; then read -r recorded _ <"$marker" || recorded=""; fi
  [ -n "$recorded" ] && [ "$(sha256 "$prefix/agent")" = "$recorded" ] ||
    die "$prefix/agent exists and was not installed by install.sh: pass --force to replace it"
fi
printf '%s\n' "$actual" >"$staging/marker" || die "cannot write in $prefix"
mv -f "$staging/agent" "$prefix/agent" || die "cannot move $name into place as $prefix/agent"
mv -f "$staging/marker" "$marker" || die "installed $prefix/agent but could not record it in $marker"

printf 'installed %s as %s/agent\n' "$name" "$prefix"
case ":${PATH:-}:" in
  *":$prefix:"*) printf '%s is on PATH: run `agent`\n' "$prefix" ;;
  *) printf '%s is not on PATH: add it (export PATH="%s:$PATH") or run %s/agent\n' "$prefix" "$prefix" "$prefix" ;;
esac
