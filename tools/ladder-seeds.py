#!/usr/bin/env python3
"""The mirror ladder (`combat ladder`) over several seeds, summed up per ship: the mean and the
lowest share of decided battles won by `default` against `classic`, with the ship on side a and
on side b, and how many seed-sides fall below a bar.

Usage: tools/ladder-seeds.py BIN [-n BATTLES] [--seeds 1-12] [--bar 60] [--out DIR]
(--out keeps each seed's ladder, and reads it back instead of rerunning when it is complete).
"""
import argparse, collections, os, re, subprocess, sys

ROW = re.compile(r'^(.{22})\s+default\s+classic\s+([\d.]+)%\s+([\d.]+)%')


def seeds(text):
    lo, _, hi = text.partition('-')
    return range(int(lo), int(hi or lo) + 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('bin')
    p.add_argument('-n', default='10000')
    p.add_argument('--seeds', default='1-12', type=seeds)
    p.add_argument('--bar', default=60.0, type=float)
    p.add_argument('--out')
    a = p.parse_args()
    shares = collections.defaultdict(list)
    for s in a.seeds:
        path = a.out and os.path.join(a.out, f'ladder-{s}.txt')
        if path and os.path.exists(path) and 'ratings' in open(path).read():
            text = open(path).read()
        else:
            run = [a.bin, 'combat', 'ladder', '-n', a.n, '--seed', str(s)]
            text = subprocess.run(run, capture_output=True, text=True, check=True).stdout
            if path:
                os.makedirs(a.out, exist_ok=True)
                open(path, 'w').write(text)
        for line in text.splitlines():
            m = ROW.match(line)
            if m:
                shares[m.group(1).strip()].append((float(m.group(2)), float(m.group(3))))
    print(f'share of decided battles won by default, {a.n} battles a seed, seeds '
          f'{a.seeds.start}-{a.seeds.stop - 1}: mean as a / as b, lowest, seed-sides below {a.bar:g}%')
    for ship, v in shares.items():
        sa, sb = [x for x, _ in v], [y for _, y in v]
        below = sum(x < a.bar for x in sa + sb)
        print(f'{ship:24s} {sum(sa)/len(sa):5.1f} / {sum(sb)/len(sb):5.1f}%   lowest '
              f'{min(sa):5.1f} / {min(sb):5.1f}%   below: {below} of {2 * len(v)}')
    missing = [s for s in shares if len(shares[s]) != len(a.seeds)]
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
