#!/usr/bin/env python3
"""Football.TXT (openfootball) season files -> arbiter's CSV history.

    python3 convert.py source/*.txt > premier-league-2004-2014.csv

Each match becomes one game of two rows, `date,game,player,score`: the two clubs with
their goals (equal goals are a draw, a tie for every rating system). Games are sorted by
date (stable: a day's matches keep the file's order), as `rate` refuses a date earlier
than the row above it. Kick-off times, half-time scores and matchday headings are dropped;
home advantage is not modelled by arbiter, so who was at home is not kept either.
"""
import re
import sys
from collections import Counter

MONTHS = {m: i + 1 for i, m in enumerate(
    "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}
# `# Date       Sat Aug 15 2009 - Sun May 9 2010 (267d)`: the season's two years.
SEASON = re.compile(r"^#\s*Date\s+\w{3} \w{3} \d{1,2} (\d{4}) - \w{3} \w{3} \d{1,2} (\d{4})")
DAY = re.compile(r"^\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\w{3}) (\d{1,2})\s*$")
# `  15:00  Aston Villa   0-2 (0-1)  Wigan Athletic`; the time and half-time are optional.
MATCH = re.compile(
    r"^\s*(?:\d{1,2}[:.]\d{2}\s+)?(\S.*?)\s+(\d+)-(\d+)(?:\s+\(\d+-\d+\))?\s+(\S.*?)\s*$")


def matches(path):
    years = None
    date = None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if m := SEASON.match(line):
            years = (int(m[1]), int(m[2]))
            continue
        if not line.strip() or line.lstrip().startswith(("#", "=", "▪")):
            continue
        if m := DAY.match(line):
            month = MONTHS[m[1]]
            if years is None:
                sys.exit(f"{path}:{number}: a date before the `# Date` line")
            year = years[0] if month >= 7 else years[1]
            date = f"{year:04}-{month:02}-{int(m[2]):02}"
            continue
        if m := MATCH.match(line):
            if date is None:
                sys.exit(f"{path}:{number}: a match before any date")
            yield date, m[1], int(m[2]), m[4], int(m[3])
            continue
        sys.exit(f"{path}:{number}: not a date or a match: {line.rstrip()}")


def checked(path):
    """A season's matches, after the checks a slip in copying would fail: a double
    round robin of 20 clubs (380 matches, each club 38, each home-away pair once)."""
    games = list(matches(path))
    clubs = Counter(club for g in games for club in (g[1], g[3]))
    pairs = Counter((g[1], g[3]) for g in games)
    if len(games) != 380 or len(clubs) != 20 or set(clubs.values()) != {38} or max(pairs.values()) != 1:
        sys.exit(f"{path}: not a double round robin of 20 clubs: {len(games)} matches, {dict(clubs)}")
    return games


def main(paths):
    games = [g for p in paths for g in checked(p)]
    games.sort(key=lambda g: g[0])  # stable
    out = ["date,game,player,score"]
    for n, (date, home, home_goals, away, away_goals) in enumerate(games, 1):
        out.append(f"{date},{n},{home},{home_goals}")
        out.append(f"{date},{n},{away},{away_goals}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
