#!/usr/bin/env python3
"""The plain-Python loop `benches/rate.rs` is compared with: multiplayer Elo (K 32, scale 400,
initial 1000) with rating periods over the same history file, parsing included.

    RATE_BENCH_KEEP=/tmp/rb cargo bench -p arbiter-benches --bench rate     # writes /tmp/rb/rate_100k.{csv,yaml}
    python3 benches/rate_python.py /tmp/rb/rate_100k.csv
    python3 benches/rate_python.py /tmp/rb/rate_100k.yaml   # needs PyYAML (uses its C loader)
"""
import csv, sys, time

K, SCALE, INITIAL = 32.0, 400.0, 1000.0

def games_from_csv(path):
    games, current, key = [], None, None
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["game"] != key:
                key = row["game"]
                current = (row["period"], [])
                games.append(current)
            current[1].append((row["player"], float(row["place"])))
    return [(period, [p for p, _ in sorted(rows, key=lambda r: r[1])]) for period, rows in games]

def games_from_yaml(path):
    import yaml
    with open(path) as f:
        doc = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return [(g.get("period"), g["order"]) for g in doc["games"]]

def rate(games):
    ratings, pending, current = {}, [], object()
    def apply():
        for name, change in pending:
            ratings[name] += change
        pending.clear()
    for period, order in games:
        if period != current:
            apply()
            current = period
        n = len(order)
        pairs = n * (n - 1) / 2
        rs = [ratings.setdefault(p, INITIAL) for p in order]
        for a, name in enumerate(order):
            e = sum(1.0 / (1.0 + 10 ** ((rs[b] - rs[a]) / SCALE)) for b in range(n) if b != a)
            s = (n - (a + 1)) / pairs
            pending.append((name, K * (n - 1) * (s - e / pairs)))
        if period is None:
            apply()
    apply()
    return ratings

def main(path):
    start = time.perf_counter()
    games = games_from_yaml(path) if path.endswith((".yaml", ".yml")) else games_from_csv(path)
    ratings = rate(games)
    took = time.perf_counter() - start
    best = max(ratings.items(), key=lambda kv: kv[1])
    print(f"{len(games)} games, {len(ratings)} players, best {best[0]} {best[1]:.3f}: {took:.3f} s")

if __name__ == "__main__":
    main(sys.argv[1])
