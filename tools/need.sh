# Sourced by tools/dist.sh and tests/windows/ci.sh: makes sure a tool is on the machine,
# installing it where that is possible (rustup for Rust targets; apt-get, as root or with
# sudo, for Debian packages), and otherwise stops with one line naming what is missing
# and how to get it.
#
#   source tools/need.sh
#   need_rust_target x86_64-pc-windows-gnu
#   need_command x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64   # command, Debian package
#   need_locale zh_CN.UTF-8                                     # a glibc locale

# need_missing WHAT HOW: the one line, then exit.
need_missing() {
  echo "missing: $1 ($2)" >&2
  exit 1
}

# need_apt PACKAGE...: installs Debian packages, or says what to install.
need_apt() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=sudo
    else
      need_missing "the Debian package(s) $*" "install them as root: apt-get install $*"
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    need_missing "$*" "no apt-get on this machine: install the equivalent of the Debian package(s) $*"
  fi
  echo "installing $* with apt-get" >&2
  if ! { $sudo apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@" >/dev/null; }; then
    need_missing "$*" "apt-get install $* failed"
  fi
}

# need_command COMMAND PACKAGE: COMMAND on the PATH, from the Debian PACKAGE if absent.
need_command() {
  command -v "$1" >/dev/null 2>&1 && return 0
  need_apt "$2"
  command -v "$1" >/dev/null 2>&1 || need_missing "$1" "the package $2 did not install it"
}

# need_rust_target TRIPLE: the standard library for TRIPLE, added with rustup.
need_rust_target() {
  command -v rustc >/dev/null 2>&1 || need_missing "rustc" "install a Rust toolchain: https://rustup.rs"
  local sysroot
  sysroot="$(rustc --print sysroot)"
  [ -d "$sysroot/lib/rustlib/$1/lib" ] && return 0
  command -v rustup >/dev/null 2>&1 || need_missing "the Rust target $1" "rustc has no standard library for it and there is no rustup to add one"
  echo "adding the Rust target $1 with rustup" >&2
  rustup target add "$1" >&2 || need_missing "the Rust target $1" "rustup target add $1 failed"
}

# need_locale NAME: the glibc locale NAME (e.g. zh_CN.UTF-8), generated if absent.
need_locale() {
  local want
  want="$(echo "$1" | tr 'A-Z' 'a-z' | sed 's/utf-8/utf8/')"
  locale -a 2>/dev/null | tr 'A-Z' 'a-z' | grep -qx "$want" && return 0
  command -v locale-gen >/dev/null 2>&1 || need_apt locales
  if [ "$(id -u)" != 0 ]; then
    need_missing "the locale $1" "as root: echo '$1 ${1#*.}' >> /etc/locale.gen && locale-gen"
  fi
  grep -qx "$1 ${1#*.}" /etc/locale.gen 2>/dev/null || echo "$1 ${1#*.}" >>/etc/locale.gen
  locale-gen >/dev/null 2>&1 || need_missing "the locale $1" "locale-gen failed"
  locale -a 2>/dev/null | tr 'A-Z' 'a-z' | grep -qx "$want" || need_missing "the locale $1" "locale-gen did not make it"
}
