"""Reference values for arbiter's TrueSkill factor graph (src/scoring/trueskill.rs).

Made with python `trueskill` 0.4.5 (pip install trueskill mpmath), its exact mpmath
backend, default environment (mu 25, sigma 25/3, beta 25/6, tau 25/300, draw 10%).
Run: python3 make_reference.py > reference.json
Each case: the teams in rank order as given (ranks: equal = a draw), each player
(mu, sigma) before, and (mu, sigma) after as python computes them.
"""
import json
import random

import trueskill

env = trueskill.TrueSkill(backend="mpmath")


def case(name, teams, ranks):
    groups = [[env.create_rating(mu, sigma) for mu, sigma in team] for team in teams]
    after = env.rate(groups, ranks=ranks)
    return {
        "name": name,
        "teams": teams,
        "ranks": ranks,
        "after": [[[float(r.mu), float(r.sigma)] for r in team] for team in after],
    }


def newcomers(n):
    return [[[25.0, 25.0 / 3]] for _ in range(n)]


rng = random.Random(33)


def varied(n):
    return [[[round(rng.uniform(10, 40), 3), round(rng.uniform(1, 8.3), 3)]] for _ in range(n)]


cases = []
cases.append(case("2 newcomers", newcomers(2), [0, 1]))
cases.append(case("2 players, an upset", [[[30.0, 2.0]], [[25.0, 25.0 / 3]]], [1, 0]))
cases.append(case("2 players draw", [[[30.0, 2.0]], [[20.0, 5.0]]], [0, 0]))
cases.append(case("8 players with a tie", varied(8), [0, 1, 2, 2, 3, 4, 5, 6]))
cases.append(case("8 newcomers", newcomers(8), list(range(8))))
cases.append(case("111 newcomers", newcomers(111), list(range(111))))
cases.append(case("111 players", varied(111), list(range(111))))
ranks = []
for i in range(256):
    ranks.append(i - 1 if i % 17 == 5 else i)  # every 17th player ties the one above
cases.append(case("256 players with ties", varied(256), ranks))
cases.append(case("256 newcomers", newcomers(256), list(range(256))))
cases.append(case("teams 2 v 2 v 2", [[[25, 8.333], [28, 3]], [[20, 6], [22, 4]], [[30, 1.5], [18, 7]]], [1, 0, 2]))
cases.append(case("teams 1 v 3", [[[35, 3]], [[25, 8.333], [25, 8.333], [25, 8.333]]], [0, 1]))
print(json.dumps({"source": "python trueskill 0.4.5, backend mpmath, default environment", "cases": cases}, indent=1))
