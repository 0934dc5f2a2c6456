#!/usr/bin/env python3
# How the maneuvers of `default` (side a) and `classic` (side b) go in a mirror, from narrated
# duels (`combat duel SHIP SHIP --tactic-a default --tactic-b classic --seed S --json`, S from
# FROM to TO-1): maneuvers a turn, the share that fail their Piloting roll, the share of turns
# with maneuvers whose last one failed (a move left short), overspeed rolls (R3) and the engine
# damage they did, and where the destroyed ships broke.
# Usage: tools/maneuver-stats.py BIN SHIP FROM TO
import json,sys,subprocess,collections
from concurrent.futures import ThreadPoolExecutor
B,ship,a,b=sys.argv[1],sys.argv[2],int(sys.argv[3]),int(sys.argv[4])
def run(s):
    return json.loads(subprocess.run([B,'combat','duel',ship,ship,'--tactic-a','default','--tactic-b','classic','--seed',str(s),'--json'],capture_output=True,text=True).stdout)
c=collections.Counter()
with ThreadPoolExecutor(2) as ex:
    for d in ex.map(run, range(a,b)):
        last=[None,None]; turns=0
        def close():
            for sd in (0,1):
                if last[sd] is not None:
                    c[f'moved_turns{sd}']+=1
                    if last[sd] is False: c[f'ended_on_failure{sd}']+=1
        for e in d['events']:
            k=e['event']; sd=e.get('side')
            if k=='turn':
                close(); last=[None,None]; c['turns']+=1
            elif k=='maneuver':
                c[f'attempts{sd}']+=1; c[f'failed{sd}']+= not e['done']; last[sd]=e['done']
            elif k=='overspeed':
                c[f'overspeed{sd}']+=1
                if e.get('engine_damage'): c[f'os_fail{sd}']+=1; c[f'os_dmg{sd}']+=e['engine_damage']
            elif k=='destroyed':
                who='default' if sd==0 else 'classic'
                c[f'destroyed_{who}_{e["location"]}']+=1
        close()
        c['battles']+=1
        if d['outcome'] in ('destroyed','captured'): c['won_default' if d['side']=='b' else 'won_classic']+=1
t=c['turns']
print(f"{ship}: {c['battles']} duels, {t} turns, default won {c['won_default']}, classic won {c['won_classic']}")
for sd,name in ((0,'default'),(1,'classic')):
    print(f"  {name}: maneuvers {c[f'attempts{sd}']/t:.2f}/turn, failed {100*c[f'failed{sd}']/max(1,c[f'attempts{sd}']):.1f}%, "
          f"turns whose last maneuver failed {100*c[f'ended_on_failure{sd}']/max(1,c[f'moved_turns{sd}']):.1f}% of turns with maneuvers; "
          f"overspeed rolls {c[f'overspeed{sd}']/t*100:.1f}/100 turns, failed {c[f'os_fail{sd}']}, engine damage {c[f'os_dmg{sd}']}")
print('  destroyed by location:', {k:v for k,v in c.items() if k.startswith('destroyed_')})
