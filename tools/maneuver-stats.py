#!/usr/bin/env python3
"""How the maneuvers of `default` (side a) and `classic` (side b) go in a mirror, from narrated
duels (`combat duel SHIP SHIP --tactic-a default --tactic-b classic --seed S --json`, S from FROM
to TO-1): maneuvers a turn, the share that fail their Piloting roll, the share of turns with
maneuvers whose last one failed (a move left short), overspeed rolls (R3) and the engine damage
they did, and where the destroyed ships broke.

Usage: tools/maneuver-stats.py BIN SHIP FROM TO
"""
import collections, json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor


def duel(bin, ship, seed):
    run = [bin, 'combat', 'duel', ship, ship, '--tactic-a', 'default', '--tactic-b', 'classic',
           '--seed', str(seed), '--json']
    return json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout)


def count(d, c):
    """Adds one duel's events to the counts `c` (side 0: default, side 1: classic)."""
    last = [None, None]  # per side: whether its last maneuver this turn succeeded

    def end_turn():
        for sd in (0, 1):
            if last[sd] is not None:
                c[f'moved_turns{sd}'] += 1
                c[f'ended_on_failure{sd}'] += last[sd] is False

    for e in d['events']:
        k, sd = e['event'], e.get('side')
        if k == 'turn':
            end_turn()
            last = [None, None]
            c['turns'] += 1
        elif k == 'maneuver':
            c[f'attempts{sd}'] += 1
            c[f'failed{sd}'] += not e['done']
            last[sd] = e['done']
        elif k == 'overspeed':
            c[f'overspeed{sd}'] += 1
            if e.get('engine_damage') is not None:
                c[f'os_fail{sd}'] += 1
                c[f'os_dmg{sd}'] += e['engine_damage']
        elif k == 'destroyed':
            c[f"destroyed_{'default' if sd == 0 else 'classic'}_{e['location']}"] += 1
    end_turn()
    c['battles'] += 1
    if d['outcome'] in ('destroyed', 'captured'):
        c['won_default' if d['side'] == 'b' else 'won_classic'] += 1


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    bin, ship, lo, hi = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    c = collections.Counter()
    with ThreadPoolExecutor(2) as ex:
        for d in ex.map(lambda s: duel(bin, ship, s), range(lo, hi)):
            count(d, c)
    t = c['turns']
    print(f"{ship}: {c['battles']} duels, {t} turns, default won {c['won_default']}, "
          f"classic won {c['won_classic']}")
    for sd, name in ((0, 'default'), (1, 'classic')):
        print(f"  {name}: maneuvers {c[f'attempts{sd}'] / t:.2f}/turn, failed "
              f"{100 * c[f'failed{sd}'] / max(1, c[f'attempts{sd}']):.1f}%, turns whose last "
              f"maneuver failed {100 * c[f'ended_on_failure{sd}'] / max(1, c[f'moved_turns{sd}']):.1f}% "
              f"of turns with maneuvers; overspeed rolls {c[f'overspeed{sd}'] / t * 100:.1f}/100 "
              f"turns, failed {c[f'os_fail{sd}']}, engine damage {c[f'os_dmg{sd}']}")
    print('  destroyed by location:', {k: v for k, v in c.items() if k.startswith('destroyed_')})


if __name__ == '__main__':
    main()
