"""Reference values for arbiter's Weng-Lin models (src/scoring/weng_lin.rs).

Made with python `openskill` 6.2.0 (pip install openskill==6.2.0), each model with its
defaults (mu 25, sigma 25/3, beta 25/6, kappa 1e-4, epsilon 0.1, window 4) except tau,
which each case gives (0 is passed as a tiny 1e-300: openskill reads a tau of 0 as "use the
default"). Players are teams of one, as arbiter rates them.
Run: python3 make_reference.py > reference.json
Each case: the model, tau, each player's (mu, sigma) before, their ranks (equal = a tie,
lower = better), and (mu, sigma) after as openskill computes them.
"""
import json
import random

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

MODELS = {
    "plackett_luce": PlackettLuce,
    "bradley_terry_full": BradleyTerryFull,
    "bradley_terry_part": BradleyTerryPart,
    "thurstone_mosteller_full": ThurstoneMostellerFull,
    "thurstone_mosteller_part": ThurstoneMostellerPart,
}

rng = random.Random(33)


def varied(n):
    return [[round(rng.uniform(10, 40), 3), round(rng.uniform(1, 8.3), 3)] for _ in range(n)]


def newcomers(n):
    return [[25.0, 25.0 / 3] for _ in range(n)]


TABLES = [
    ("2 newcomers", newcomers(2), [1, 2]),
    ("2 players, an upset", [[30.0, 2.0], [25.0, 25.0 / 3]], [2, 1]),
    ("2 players draw", [[30.0, 2.0], [20.0, 5.0]], [1, 1]),
    ("4 newcomers", newcomers(4), [1, 2, 3, 4]),
    ("8 players with a tie, out of order", varied(8), [3, 1, 2, 2, 8, 4, 6, 5]),
    ("12 players", varied(12), list(range(1, 13))),
]

cases = []
for model_name, model_class in MODELS.items():
    for tau in (0.0, 25.0 / 300):
        model = model_class(tau=tau if tau > 0 else 1e-300)
        for name, players, ranks in TABLES:
            teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
            after = model.rate(teams, ranks=ranks)
            cases.append(
                {
                    "name": name,
                    "model": model_name,
                    "tau": tau,
                    "players": players,
                    "ranks": ranks,
                    "after": [[t[0].mu, t[0].sigma] for t in after],
                }
            )

print(json.dumps({"source": "python openskill 6.2.0, default models but tau", "cases": cases}, indent=1))
