#!/usr/bin/env python3
"""Write a large rating history as CSV to stdout, for measuring `arbiter rate` at scale.

    python3 benches/make_history.py GAMES [PLAYERS] [SEED] [PER_PERIOD] > big.csv

Tables of four players drawn from PLAYERS (default 2000), finishing in a random order; one
period per PER_PERIOD games (default 1000; 0: no period column). The same arguments always
give the same file (a seeded generator), so a figure measured on it can be rerun.
"""
import random
import sys


def main():
    games = int(sys.argv[1])
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    per_period = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    rng = random.Random(seed)
    names = [f"P{i:05}" for i in range(players)]
    out = sys.stdout
    out.write("period,game,player,place\n" if per_period else "game,player,place\n")
    chunk = []
    for g in range(games):
        table = rng.sample(names, 4)
        lead = f"{g // per_period + 1}," if per_period else ""
        for place, p in enumerate(table, 1):
            chunk.append(f"{lead}g{g},{p},{place}\n")
        if len(chunk) > 40000:
            out.write("".join(chunk))
            chunk.clear()
    out.write("".join(chunk))


if __name__ == "__main__":
    main()
