/**
 * Results for the view tests: most written by hand in the exact shape of SimulationResult (the
 * type checker holds them to it), one computed by the real simulator from two example cards. The figures are chosen so that every formatting edge shows up
 * (a probability below 0.01%, one exactly 0, sampled results with standard errors); the view's
 * job is to show whatever it is given, so these are inputs, not claims about the rules.
 */
import { simulate } from '../../server/src/core/sim';
import type { EngagementOptions, Point, SimulationResult, UnitProfile } from '../../server/src/core/sim/types';

/** A distribution whose probabilities sum to 1, from unnormalised weights. */
function dist(weights: readonly number[], start = 0): Point[] {
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w, i) => ({ value: start + i, p: w / total }));
}

export function destroyerVsFrigates(): SimulationResult {
  const hullDamage = [
    { value: 0, p: 0.3104 },
    { value: 1, p: 0.0 },
    { value: 2, p: 0.2481 },
    { value: 3, p: 0.0 },
    { value: 4, p: 0.2103 },
    { value: 5, p: 0.0 },
    { value: 6, p: 0.16 },
    { value: 7, p: 0.0 },
    { value: 8, p: 0.0712 },
  ];
  return {
    attacker: 'Lumen Destroyer',
    defender: 'Maw Frigate Pack',
    options: { range: 12 },
    volley: {
      method: 'exact',
      expectedShieldsRemoved: 1.84,
      expectedHullDamage: 2.3128,
      expectedBasesDestroyed: 0.4417,
      killProbability: 0.0712,
      hullDamage,
      shieldsRemoved: dist([5, 20, 35, 30, 10]),
      basesDestroyed: dist([62, 30.9, 7.1]),
      weapons: [
        {
          name: 'Lumen Lance',
          type: 'Energy',
          inRange: true,
          attacks: 3,
          aimed: false,
          expectedHits: 1.62,
          expectedCrits: 0.3,
          expectedShieldsRemoved: 1.2,
          expectedHullDamage: 1.71,
        },
        {
          name: 'Pulse Laser',
          type: 'Ion',
          inRange: false,
          attacks: 4,
          aimed: false,
          expectedHits: 0,
          expectedCrits: 0,
          expectedShieldsRemoved: 0,
          expectedHullDamage: 0,
        },
        {
          name: 'Point Defence',
          type: 'Auto',
          inRange: true,
          attacks: 2,
          aimed: false,
          expectedHits: 0.9,
          expectedCrits: 0.2,
          expectedShieldsRemoved: 0.64,
          expectedHullDamage: 0.6028,
        },
      ],
    },
    engagement: {
      method: 'sampled',
      rounds: 6,
      trials: 20000,
      seed: 1,
      range: 12,
      attackerWins: 0.4105,
      defenderWins: 0.3712,
      neither: 0.2183,
      standardError: { attackerWins: 0.00348, defenderWins: 0.00342, neither: 0.00292 },
      meanRounds: 4.26,
      survival: [
        { round: 1, attacker: 0.97, defender: 0.93 },
        { round: 2, attacker: 0.9, defender: 0.82 },
        { round: 3, attacker: 0.8, defender: 0.71 },
        { round: 4, attacker: 0.71, defender: 0.65 },
        { round: 5, attacker: 0.66, defender: 0.61 },
        { round: 6, attacker: 0.6288, defender: 0.5895 },
      ],
      policy:
        'Each activation fires, then spends its second Action Point on Shields Back Online when shields are below half, else Aim with the weapon of highest expected damage.',
    },
    assumptions: [
      'Both units start at full strength at 12" with no terrain between them.',
      'Every in-range weapon system fires at the defender, in card order.',
      'Initiative is rolled each round with Leadership; ties go to the lower target number.',
    ],
  };
}

/** Unit, weapon and assumption text that would run code if it were ever treated as HTML. */
export const HOSTILE_NAMES = {
  attacker: '<img src=x onerror="window.__pwned=1;alert(1)">',
  defender: '</script><script>window.__pwned=2;alert(2)</script>',
  weapon: '<b onmouseover=alert(3)>"Lance"</b> & \'Co\'',
  assumption: '<iframe src="javascript:alert(4)"></iframe>',
  policy: '<svg onload=alert(5)>',
};

export function hostileResult(): SimulationResult {
  const r = destroyerVsFrigates();
  r.attacker = HOSTILE_NAMES.attacker;
  r.defender = HOSTILE_NAMES.defender;
  r.volley.weapons[0]!.name = HOSTILE_NAMES.weapon;
  r.assumptions = [HOSTILE_NAMES.assumption];
  r.engagement.policy = HOSTILE_NAMES.policy;
  return r;
}

/** A sampled volley (the engine's fallback for huge profiles) with a near-certain kill. */
export function sampledVolley(): SimulationResult {
  const r = destroyerVsFrigates();
  r.attacker = 'Radiant Court';
  r.defender = 'Veilwing Fighter Wing';
  r.volley = {
    ...r.volley,
    method: 'sampled',
    trials: 50000,
    seed: 9,
    killProbability: 0.99996,
    expectedHullDamage: 3.9991,
    expectedShieldsRemoved: 0,
    expectedBasesDestroyed: 3.9991,
    hullDamage: [
      { value: 3, p: 0.00004 },
      { value: 4, p: 0.99996 },
    ],
    standardError: { expectedHullDamage: 0.0004, killProbability: 0.00003, expectedShieldsRemoved: 0 },
    note: 'Sampled: the exact distribution would be too large for this many attacks.',
  };
  r.engagement = { ...r.engagement, attackerWins: 1, defenderWins: 0, neither: 0, standardError: { attackerWins: 0, defenderWins: 0, neither: 0 } };
  return r;
}

/** A defender with hundreds of HP: the chart groups the values into bins. */
export function hugeDefender(): SimulationResult {
  const r = destroyerVsFrigates();
  r.defender = 'Absurd Dreadnought';
  const weights = Array.from({ length: 500 }, (_, i) => Math.exp(-((i - 120) ** 2) / 800));
  r.volley.hullDamage = dist(weights);
  r.volley.killProbability = 0;
  return r;
}

/** Two cards of the examples as the engine sees them, for results computed by the real simulator. */
export const LUMEN_DESTROYER: UnitProfile = {
  name: 'Lumen Destroyer',
  class: 'Destroyer',
  bases: 1,
  baseMm: 60,
  bs: 5,
  dodge: 7,
  sh: 4,
  armour: 6,
  hp: 5,
  ld: { target: 6, dice: 3 },
  combinedShields: false,
  weapons: [
    { name: 'Lumen Lance', type: 'Energy', range: 18, damage: 2, attacks: 3 },
    { name: 'Pulse Laser', type: 'Ion', range: 9, damage: 2, attacks: 4 },
  ],
};

export const CONSUMED_MAW_FRIGATE: UnitProfile = {
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
  weapons: [
    { name: 'Maw Ripper', type: 'Piercing', range: 9, damage: 2, attacks: 3 },
    { name: 'Spine Volley', type: 'Auto', range: 12, damage: 1, attacks: 3 },
  ],
};

/** The simulator's own answer for the two example cards at 12", fewer trials to stay quick. */
export function simulated(options: EngagementOptions = { range: 12, trials: 4000, seed: 3 }): SimulationResult {
  return simulate(LUMEN_DESTROYER, CONSUMED_MAW_FRIGATE, options);
}
