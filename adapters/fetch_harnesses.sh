#!/usr/bin/env bash
# Fetches the course harnesses the adapters play in (adapters/README.md): public
# repositories, cloned (shallow) into DIR, one folder each, outside the sources. A harness
# already there is kept. Exit status 1 when one could not be fetched (the others are
# still fetched); tests/adapters.rs then counts a skip (a failure with
# JIANG_REQUIRE_HARNESSES=1).
#
#   adapters/fetch_harnesses.sh DIR
set -uo pipefail
dir="${1:?usage: adapters/fetch_harnesses.sh DIR}"
mkdir -p "$dir"
status=0
for repo in LUNAA77/Alpha_Chess awpbash/CS3243 HongjianYu/baroque-chess drtnf/threeChess zoetian/CO456; do
  into="$dir/${repo#*/}"
  [ -d "$into/.git" ] && continue
  if ! git clone --quiet --depth 1 "https://github.com/$repo" "$into"; then
    rm -rf "$into"
    echo "fetch_harnesses: could not fetch https://github.com/$repo" >&2
    status=1
  fi
done
exit $status
