"""A big Swiss field for measuring `swiss pair` by hand: N players, ROUNDS rounds played with
seeded random results, each round paired by the arbiter binary given. Writes tN_rK.trf for
every round. benches/data/swiss-1000-before-round9.trf is t1000_r8.trf from
`python3 benches/swiss_field.py target/release/arbiter 1000 8`.
"""
import json, random, subprocess, sys, time
A = sys.argv[1]
N = int(sys.argv[2]); ROUNDS_PLAYED = int(sys.argv[3]); TOTAL = 9
random.seed(7)
players = {i: [] for i in range(1, N + 1)}   # list of (opp, colour, result)
rating = {i: 2400 - i for i in range(1, N + 1)}
def trf():
    lines = ["012 test", "XXR %d" % TOTAL, "XXC white1"]
    for i in range(1, N + 1):
        pts = sum({"1": 1, "=": .5, "0": 0, "U": 1}[r] for _, _, r in players[i])
        name = f"P{i}"
        base = f"001 {i:4d}      {name:<33}{rating[i]:4d}"
        base = base.ljust(80) + f"{pts:4.1f}" + " " * 7
        cells = "".join((f"{o:4d} {c} {r}" if o else f"0000 - {r}") + "  " for o, c, r in players[i])
        lines.append((base + cells).rstrip())
    return "\n".join(lines) + "\n"
for k in range(ROUNDS_PLAYED):
    open("cur.trf", "w").write(trf())
    open("t%d_r%d.trf" % (N, k), "w").write(trf())
    t = time.time()
    out = subprocess.run([A, "swiss", "pair", "cur.trf", "--json"], capture_output=True, text=True)
    print("round", k + 1, "paired in %.2f s" % (time.time() - t), file=sys.stderr)
    doc = json.loads(out.stdout)
    for p in doc["pairs"]:
        w, b = p["white"], p["black"]
        r = random.choice(["1", "0", "="])
        players[w].append((b, "w", r)); players[b].append((w, "b", {"1": "0", "0": "1", "=": "="}[r]))
    if doc["bye"]:
        players[doc["bye"]].append((0, "-", "U"))
open("t%d_r%d.trf" % (N, ROUNDS_PLAYED), "w").write(trf())
