#!/usr/bin/env bash
# CPU and wall time of the README's two commands (its lines 4 and 5, run as written) on a fresh
# clone of COMMIT: no target folder, the registry as it is. Outputs and times go to OUTDIR.
# Usage: tools/first-build-cost.sh COMMIT OUTDIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 COMMIT OUTDIR" >&2; exit 1; }
commit=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
dir=$(mktemp -d)/arbiter
git clone -q "$repo" "$dir" && cd "$dir" && git checkout -q "$commit" || exit 1
first=$(sed -n 4p README.md)
second=$(sed -n 5p README.md)
printf 'first: %s\nsecond: %s\n' "$first" "$second" > "$out/commands"
/usr/bin/time -f "%e wall %U user %S sys" -o "$out/first.time" sh -c "$first" > "$out/first.out" 2> "$out/first.err"
/usr/bin/time -f "%e wall %U user %S sys" -o "$out/second.time" sh -c "$second" > "$out/second.out" 2> "$out/second.err"
echo "clone: $dir"
echo "first:  $(cat "$out/first.time")"
echo "second: $(cat "$out/second.time")"
