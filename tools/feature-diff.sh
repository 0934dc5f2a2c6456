#!/usr/bin/env bash
# The crates `cargo run` and `cargo test` both compile but with different features (each is
# compiled twice, with everything built on it). Run at the repository's root; no output means
# the two builds share every dependency (tests/shared_build.rs checks the same).
set -euo pipefail
feats() {
  cargo tree -e "$1" -f '{p}|{f}' --prefix none 2>/dev/null | grep '|' |
    sed 's/ (proc-macro)//; s/ (\*)//' | sort -u |
    awk -F'|' '{a[$1] = a[$1] ";" $2} END {for (k in a) print k "|" a[k]}' | sort -t'|' -k1,1
}
# A feature set of the run's that the tests' build lacks (the tests may add units of their own).
join -t'|' <(feats no-dev) <(feats normal,build,dev) |
  awk -F'|' '{n = split($2, run, ";"); m = split($3, test, ";"); delete have
    for (i = 2; i <= m; i++) have[test[i]] = 1
    for (i = 2; i <= n; i++) if (!(run[i] in have)) { print $1 ":  " $2 "  ->  " $3; break } }'
