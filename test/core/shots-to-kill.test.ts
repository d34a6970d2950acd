/**
 * Shots to kill (FORMATS.md `shotsToKill`) against a dynamic programme written here from RULES.md
 * alone: the defender's state is (SH, bases left, HP of the current base), one Fire action is
 * enumerated die by die and hit by hit (no code of the simulator's exact kernel), and the mean
 * number of Fire actions comes from the absorbing chain's recursion E(s) = (1 + sum P(s, s') E(s')) /
 * (1 - P(s, s)), not from the cumulative distribution. Then a Monte Carlo check with the sampled
 * volley, the stops of FORMATS.md, and the places that show it (sim's JSON and text).
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { shotsToKill, SHOTS_TO_KILL_MAX_ACTIONS, simulate, renderReport } from '../../server/src/core/sim/index';
import { volleySetup } from '../../server/src/core/sim/volley';
import { sampleVolley } from '../../server/src/core/sim/volley-sample';
import { Dice, makeRng } from '../../server/src/core/sim/dice';
import type { UnitProfile, WeaponProfile } from '../../server/src/core/sim/types';
import type { WeaponType } from '../../server/src/core/rules/data';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO, type CliIO } from '../../server/src/cli/io';
import { formatPercent } from '../../server/src/core/rules/words';

function unit(p: Partial<UnitProfile> = {}): UnitProfile {
  return { name: 'U', class: 'Destroyer', bases: 1, baseMm: 60, bs: 5, hp: 10, combinedShields: false, weapons: [], ...p };
}
function gun(type: WeaponType, attacks = 1, damage = 1, range = 12): WeaponProfile {
  return { name: `${type} gun`, type, range, damage, attacks };
}

// ---- The independent programme (RULES.md "The reference model of one Fire action") ----

/** A d10 roll meeting target N+: 1-2 always fail, 10 always succeeds, N held at 3+. */
function pMeet(target: number): number {
  const t = Math.max(3, target);
  return t > 10 ? 0.1 : (11 - t) / 10;
}

type State = { sh: number; bases: number; cur: number };
const keyOf = (s: State) => `${s.sh}|${s.bases}|${s.cur}`;

/** Adds `p` to the outcome `x` of a distribution held as key -> [value, probability]. */
function put<T>(m: Map<string, [T, number]>, key: string, x: T, p: number): void {
  const had = m.get(key);
  if (had) had[1] += p;
  else m.set(key, [x, p]);
}

/** The distribution of the number of successes of `n` rolls, each succeeding with `p`, one roll at a time. */
function successes(n: number, p: number): number[] {
  let d = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array<number>(d.length + 1).fill(0);
    d.forEach((q, k) => {
      next[k]! += q * (1 - p);
      next[k + 1]! += q * p;
    });
    d = next;
  }
  return d;
}

/** One weapon system from one state: every outcome with its probability. */
function fireWeapon(att: UnitProfile, def: UnitProfile, w: WeaponProfile, s: State, cover: boolean): Map<string, [State, number]> {
  const out = new Map<string, [State, number]>();
  if (s.bases === 0) {
    put(out, keyOf(s), s, 1);
    return out;
  }
  const attacks = w.type === 'Blast' ? w.attacks * s.bases : w.attacks;
  const hitTarget = Math.max(3, att.bs + (cover ? 1 : 0));
  const pCrit = 0.1;
  const pNormal = hitTarget > 10 ? 0 : (10 - hitTarget) / 10; // hitTarget..9
  // Dice one by one: (crits, normal hits) -> probability.
  let rolled = new Map<string, [[number, number], number]>([['0|0', [[0, 0], 1]]]);
  for (let i = 0; i < attacks; i++) {
    const next = new Map<string, [[number, number], number]>();
    for (const [[c, n], p] of rolled.values()) {
      put(next, `${c + 1}|${n}`, [c + 1, n], p * pCrit);
      put(next, `${c}|${n + 1}`, [c, n + 1], p * pNormal);
      put(next, `${c}|${n}`, [c, n], p * (1 - pCrit - pNormal));
    }
    rolled = next;
  }
  for (const [[c, n0], pc] of rolled.values()) {
    const n = n0 + (w.type === 'Auto' ? c : 0);
    const dodge = def.dodge === undefined ? 0 : pMeet(def.dodge + (w.type === 'Energy' && c > 0 ? 1 : 0));
    successes(n, 1 - dodge).forEach((pl, landed) => {
      if (pl === 0) return;
      // Shields, Critical Hits first, one hit at a time.
      let sh = s.sh;
      let critsThrough = 0;
      let normalsThrough = 0;
      for (let i = 0; i < c; i++) {
        if (sh > 0) sh = Math.max(0, sh - (w.type === 'Ion' ? 3 : 1));
        else critsThrough++;
      }
      for (let i = 0; i < landed; i++) {
        if (sh > 0) sh = Math.max(0, sh - (w.type === 'Ion' ? 2 : 1));
        else normalsThrough++;
      }
      const piercing = w.type === 'Piercing';
      const unsavedCrit = def.armour === undefined ? 1 : 1 - pMeet(def.armour + (piercing ? 2 : 0));
      const unsavedNormal = def.armour === undefined ? 1 : 1 - pMeet(def.armour + (piercing ? 1 : 0));
      successes(critsThrough, unsavedCrit).forEach((pa, uc) => {
        successes(normalsThrough, unsavedNormal).forEach((pb, un) => {
          const p = pc * pl * pa * pb;
          if (p === 0) return;
          let { bases, cur } = s;
          let shLeft = sh;
          for (let h = 0; h < uc + un && bases > 0; h++) {
            cur -= w.damage;
            if (cur <= 0) {
              bases--;
              cur = bases > 0 ? def.hp : 0;
              if (def.combinedShields) shLeft = Math.min(shLeft, (def.sh ?? 0) * bases);
            }
          }
          const t = { sh: bases === 0 ? 0 : shLeft, bases, cur };
          put(out, keyOf(t), t, p);
        });
      });
    });
  }
  return out;
}

/** One Fire action: every weapon that reaches `range`, in card order. */
function fireAction(att: UnitProfile, def: UnitProfile, s: State, range: number | undefined, cover: boolean): Map<string, [State, number]> {
  let dist = new Map<string, [State, number]>([[keyOf(s), [s, 1]]]);
  for (const w of att.weapons) {
    if (range !== undefined && w.range < range) continue;
    const next = new Map<string, [State, number]>();
    for (const [x, p] of dist.values()) for (const [y, q] of fireWeapon(att, def, w, x, cover).values()) put(next, keyOf(y), y, p * q);
    dist = next;
  }
  return dist;
}

/** The mean number of Fire actions to destroy the defender from full strength (Infinity: never). */
function independentMean(att: UnitProfile, def: UnitProfile, range?: number, cover = false): number {
  const memo = new Map<string, number>();
  const mean = (s: State): number => {
    if (s.bases === 0) return 0;
    const k = keyOf(s);
    const have = memo.get(k);
    if (have !== undefined) return have;
    let stay = 0;
    let rest = 1;
    for (const [t, p] of fireAction(att, def, s, range, cover).values()) {
      if (keyOf(t) === k) stay += p;
      else rest += p * mean(t);
    }
    const m = stay >= 1 - 1e-15 ? Infinity : rest / (1 - stay);
    memo.set(k, m);
    return m;
  };
  return mean({ sh: (def.sh ?? 0) * (def.combinedShields ? def.bases : 1), bases: def.bases, cur: def.hp });
}

// ---- Cases ----

const destroyer = unit({ name: 'Lance', bs: 5, weapons: [gun('Energy', 3, 2, 18), gun('Ion', 4, 2, 9)] });
const cases: { name: string; att: UnitProfile; def: UnitProfile; range?: number; cover?: boolean }[] = [
  {
    name: 'Energy and Ion against a dodging, shielded, armoured frigate pair (Combined Shields)',
    att: destroyer,
    def: unit({ name: 'Maw', class: 'Frigate', bases: 2, baseMm: 50, bs: 6, dodge: 8, sh: 2, armour: 6, hp: 3, combinedShields: true }),
    range: 9,
  },
  {
    name: 'only the long gun at 12"',
    att: destroyer,
    def: unit({ name: 'Cruiser', class: 'Cruiser', bs: 5, dodge: 7, sh: 4, armour: 6, hp: 6, baseMm: 75 }),
    range: 12,
  },
  {
    name: 'Blast against four bases, in cover',
    att: unit({ bs: 4, weapons: [gun('Blast', 1, 1)] }),
    def: unit({ name: 'Wing', class: 'Escort', bases: 4, baseMm: 25, dodge: 6, hp: 1, sh: 1, combinedShields: true }),
    cover: true,
  },
  {
    name: 'Auto and Piercing against armour without shields or dodge',
    att: unit({ bs: 6, weapons: [gun('Auto', 4, 1), gun('Piercing', 2, 3)] }),
    def: unit({ name: 'Brick', class: 'Battleship', armour: 4, hp: 9, baseMm: 90 }),
  },
  {
    name: 'heavy shields, a damage that overkills each base',
    att: unit({ bs: 3, weapons: [gun('Energy', 2, 5), gun('Ion', 1, 1)] }),
    def: unit({ name: 'Pair', class: 'Frigate', bases: 2, baseMm: 50, dodge: 9, sh: 3, armour: 7, hp: 4, combinedShields: true }),
  },
];

describe('shots to kill', () => {
  for (const c of cases) {
    it(`its mean equals the independent programme within 1e-6: ${c.name}`, () => {
      const s = shotsToKill(c.att, c.def, { ...(c.range !== undefined ? { range: c.range } : {}), cover: c.cover ?? false });
      const expected = independentMean(c.att, c.def, c.range, c.cover ?? false);
      assert.ok(Number.isFinite(expected) && expected >= 1, `independent mean ${expected}`);
      assert.equal(s.converged, true);
      assert.ok(s.mean !== null && Math.abs(s.mean - expected) < 1e-6, `mean ${s.mean}, independent ${expected}`);
      // The cumulative distribution climbs to within 1e-9 of 1, never down.
      for (let i = 1; i < s.cdf.length; i++) assert.ok(s.cdf[i]! >= s.cdf[i - 1]! - 1e-15);
      assert.ok(1 - s.cdf[s.cdf.length - 1]! < 1e-9);
      assert.ok(s.p50 !== null && s.cdf[s.p50 - 1]! >= 0.5 && (s.p50 === 1 || s.cdf[s.p50 - 2]! < 0.5));
      assert.ok(s.p90 !== null && s.cdf[s.p90 - 1]! >= 0.9 && (s.p90 === 1 || s.cdf[s.p90 - 2]! < 0.9));
    });
  }

  it('agrees with Fire actions sampled one after another (Monte Carlo, 4 standard errors)', () => {
    const { att, def, range } = cases[0]!;
    const s = shotsToKill(att, def, { range });
    const v = volleySetup(att, def, { range });
    const dice = new Dice(makeRng(7));
    const trials = 20000;
    let sum = 0;
    let sum2 = 0;
    let withinMedian = 0;
    for (let t = 0; t < trials; t++) {
      const state = { sh: v.resolved.defenderShields, hull: v.resolved.defenderHull };
      let n = 0;
      while (state.hull > 0) {
        sampleVolley(v.ctx, state, dice);
        n++;
      }
      sum += n;
      sum2 += n * n;
      if (n <= s.p50!) withinMedian++;
    }
    const mean = sum / trials;
    const se = Math.sqrt((sum2 / trials - mean * mean) / trials);
    assert.ok(Math.abs(mean - s.mean!) < 4 * se, `sampled ${mean} ± ${se}, exact ${s.mean}`);
    const p = s.cdf[s.p50! - 1]!;
    assert.ok(Math.abs(withinMedian / trials - p) < 4 * Math.sqrt((p * (1 - p)) / trials));
  });

  it("its first entry is the volley's kill probability", () => {
    const { att, def, range } = cases[0]!;
    const r = simulate(att, def, { range, trials: 200 });
    assert.ok(r.shotsToKill);
    assert.ok(Math.abs(r.shotsToKill.cdf[0]! - r.volley.killProbability) < 1e-12);
  });

  it('leaves out Aim and Brace: the same distribution with or without them', () => {
    const { att, def, range } = cases[0]!;
    assert.deepEqual(shotsToKill(att, def, { range, aim: '0', brace: true }), shotsToKill(att, def, { range }));
  });

  it('says "never" with nulls when nothing reaches the defender', () => {
    const s = shotsToKill(destroyer, cases[0]!.def, { range: 24 });
    assert.deepEqual(s, { mean: null, p50: null, p90: null, cdf: [], converged: true });
    const text = renderReport(simulate(destroyer, cases[0]!.def, { range: 24, trials: 100 }));
    assert.match(text, /It can never be destroyed this way/);
  });

  it('stops at 1,000 Fire actions and says it did not converge', () => {
    const weak = unit({ bs: 10, weapons: [gun('Energy', 1, 1)] });
    const wall = unit({ name: 'Wall', sh: 20, armour: 3, hp: 20 });
    const s = shotsToKill(weak, wall);
    assert.equal(s.cdf.length, SHOTS_TO_KILL_MAX_ACTIONS);
    assert.equal(s.converged, false);
    assert.ok(s.mean !== null && s.mean > 0 && s.mean <= SHOTS_TO_KILL_MAX_ACTIONS);
    assert.match(s.note ?? '', /still not destroyed after 1000 Fire actions/);
  });

  it('sim prints rows "destroyed within N Fire actions" and carries shotsToKill beside volley in its JSON', async () => {
    const examples = path.join(__dirname, '..', '..', 'examples');
    const run = async (format: string) => {
      let out = '';
      const io: CliIO = { ...nodeIO(), stdout: (s: string) => void (out += s), stderr: () => {} };
      const args = [
        '--cards',
        examples,
        '--attacker',
        'Lumen Destroyer',
        '--defender',
        'Consumed Maw Frigate',
        '--range',
        '9',
        '--trials',
        '500',
        '--format',
        format,
      ];
      assert.equal(await runSim(args, io), 0);
      return out;
    };
    const json = JSON.parse(await run('json')) as Record<string, unknown>;
    const keys = Object.keys(json);
    assert.equal(keys.indexOf('shotsToKill'), keys.indexOf('volley') + 1);
    const s = json.shotsToKill as { mean: number; cdf: number[]; converged: boolean };
    assert.equal(s.converged, true);
    const text = await run('text');
    const row = /destroyed within 3 Fire actions\s+(\S+)/.exec(text);
    assert.ok(row, text);
    // One rounding rule for chances everywhere: the views' (formatPercent).
    assert.equal(row[1], formatPercent(s.cdf[2]!));
    assert.match(text, new RegExp(`Mean ${s.mean.toFixed(2)} Fire actions`));
  });
});
