/**
 * The simulator benchmark: the exact Fire action of a four-weapon Dreadnought against a Frigate
 * squadron and against a Battleship, a 20,000-trial 6-round engagement between two Capital Ships,
 * sampled volleys per second, and the sampled fallback on an absurd card. The profiles are the
 * example cards (examples/), written out here so that the benchmark does not depend on the parser.
 */
import { simulateEngagement } from '../server/src/core/sim/engagement';
import { exactVolleyResult, sampledVolleyResult, simulateVolley } from '../server/src/core/sim/volley';
import type { UnitProfile } from '../server/src/core/sim/types';
import { median, type Row } from './util';

const eternalLantern: UnitProfile = {
  name: 'Eternal Lantern',
  class: 'Dreadnought',
  bases: 1,
  baseMm: 120,
  bs: 4,
  dodge: 10,
  sh: 20,
  armour: 3,
  hp: 16,
  ld: { target: 4, dice: 5 },
  combinedShields: false,
  weapons: [
    { name: 'Lantern Spear', type: 'Energy', range: 30, damage: 4, attacks: 3 },
    { name: 'Choir Ion Lattice', type: 'Ion', range: 21, damage: 2, attacks: 4 },
    { name: 'Sunfall Battery', type: 'Blast', range: 15, damage: 2, attacks: 2 },
    { name: 'Vigil Flak', type: 'Auto', range: 9, damage: 1, attacks: 6 },
  ],
};
const mawFrigate: UnitProfile = {
  name: 'Consumed Maw Frigate',
  class: 'Frigate',
  bases: 2,
  baseMm: 50,
  bs: 6,
  dodge: 8,
  sh: 3,
  armour: 6,
  hp: 3,
  ld: { target: 7, dice: 2 },
  combinedShields: true,
  weapons: [{ name: 'Maw Cannon', type: 'Piercing', range: 12, damage: 2, attacks: 3 }],
};
const hungerBattleship: UnitProfile = {
  name: 'Hunger Battleship',
  class: 'Battleship',
  bases: 1,
  baseMm: 90,
  bs: 5,
  dodge: 10,
  sh: 10,
  armour: 5,
  hp: 11,
  ld: { target: 5, dice: 4 },
  combinedShields: false,
  weapons: [
    { name: 'Devourer Lance', type: 'Piercing', range: 21, damage: 3, attacks: 3 },
    { name: 'Hollow Ion Maw', type: 'Ion', range: 12, damage: 1, attacks: 4 },
    { name: 'Bone Auto Battery', type: 'Auto', range: 9, damage: 1, attacks: 4 },
  ],
};
const radiantCourt: UnitProfile = {
  name: 'Radiant Court',
  class: 'Capital Ship',
  bases: 1,
  baseMm: 100,
  bs: 4,
  dodge: 9,
  sh: 12,
  armour: 4,
  hp: 12,
  ld: { target: 4, dice: 5 },
  combinedShields: false,
  weapons: [
    { name: 'Radiant Lance Battery', type: 'Energy', range: 30, damage: 3, attacks: 3 },
    { name: 'Prismatic Ion Battery', type: 'Ion', range: 18, damage: 1, attacks: 5 },
    { name: 'Starlight Auto Battery', type: 'Auto', range: 9, damage: 1, attacks: 4 },
  ],
};
const hollowThrone: UnitProfile = {
  name: 'Hollow Throne',
  class: 'Capital Ship',
  bases: 1,
  baseMm: 100,
  bs: 5,
  dodge: 10,
  sh: 12,
  armour: 4,
  hp: 13,
  ld: { target: 4, dice: 4 },
  combinedShields: false,
  weapons: [
    { name: 'Oblivion Lance', type: 'Piercing', range: 24, damage: 3, attacks: 3 },
    { name: 'Null Ion Battery', type: 'Ion', range: 15, damage: 1, attacks: 5 },
    { name: 'Feeding Auto Battery', type: 'Auto', range: 9, damage: 1, attacks: 5 },
  ],
};

/**
 * Median wall time of `runs` calls, and the median CPU time of this process over each call (the
 * machines are shared: when others load them, wall time grows while CPU time stays put).
 */
function time<T>(runs: number, fn: () => T): { ms: number; cpu: number; last: T } {
  const times: number[] = [];
  const cpu: number[] = [];
  let last!: T;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(times), cpu: median(cpu), last };
}

const cpuNote = (t: { cpu: number }) => `cpu ${t.cpu >= 10 ? t.cpu.toFixed(0) : t.cpu.toFixed(2)} ms`;

export async function benchSim(): Promise<Row[]> {
  const rows: Row[] = [];
  // Warm the JIT on the paths measured below, so medians measure steady-state code.
  for (let i = 0; i < 30; i++) exactVolleyResult(eternalLantern, mawFrigate, {});
  simulateEngagement(radiantCourt, hollowThrone, { trials: 2000 }, undefined, { exact: false });

  for (const def of [mawFrigate, hungerBattleship]) {
    const t = time(201, () => exactVolleyResult(eternalLantern, def, { range: 9 }));
    rows.push({
      name: `exact volley: 4-weapon Dreadnought (${eternalLantern.name}) vs ${def.name}, all weapons in range`,
      medianMs: t.ms,
      goal: '< 2 ms',
      note: `E[hull] ${t.last!.expectedHullDamage.toFixed(3)}, kill ${(100 * t.last!.killProbability).toFixed(2)}%`,
    });
  }

  const eng = time(7, () => simulateEngagement(radiantCourt, hollowThrone, { trials: 20000, rounds: 6, seed: 1 }, undefined, { exact: false }));
  rows.push({
    name: `engagement: 20,000 trials x 6 rounds, ${radiantCourt.name} vs ${hollowThrone.name} (sampled)`,
    medianMs: eng.ms,
    goal: '< 300 ms',
    note: `${cpuNote(eng)}; attacker ${(100 * eng.last.attackerWins).toFixed(1)}%, defender ${(100 * eng.last.defenderWins).toFixed(1)}%`,
  });
  const full = time(3, () => simulateEngagement(radiantCourt, hollowThrone, { trials: 20000, rounds: 6, seed: 1 }));
  rows.push({
    name: `engagement: the same, plus the exact Markov chain over both units' states`,
    medianMs: full.ms,
    goal: 'none (extra)',
    note: `${cpuNote(full)}; ${full.last.exact ? `exact attacker ${(100 * full.last.exact.attackerWins).toFixed(2)}%` : 'exact chain did not fit'}`,
  });

  const trials = 20000;
  for (const [label, literal] of [
    ['die by die', undefined],
    ['binomial draws', 0],
  ] as const) {
    const s = time(5, () => sampledVolleyResult(eternalLantern, mawFrigate, { range: 9, trials, seed: 1 }, literal));
    rows.push({
      name: `sampled volleys (${label}): ${trials} Dreadnought volleys at the Frigate squadron`,
      medianMs: s.ms,
      goal: 'report',
      note: `${Math.round((trials / s.ms) * 1000).toLocaleString('en-US')} volleys/s; ${cpuNote(s)}`,
    });
  }

  const absurd: UnitProfile = { ...eternalLantern, weapons: eternalLantern.weapons.map((w) => ({ ...w, attacks: 99_999_999 })) };
  const big = time(3, () => simulateVolley(absurd, { ...hungerBattleship, hp: 1_000_000_000 }, { trials: 20000 }));
  rows.push({
    name: 'absurd card (99,999,999 attacks per weapon vs 10^9 HP): sampled fallback',
    medianMs: big.ms,
    goal: '< ~1000 ms',
    note: `${cpuNote(big)}; ${big.last.method}, ${big.last.trials} trials`,
  });
  return rows;
}
