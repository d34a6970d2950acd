/**
 * The battle never depends on the order a fleet list is written in (BATTLE.md "The round"): a list
 * and the same list sorted differently are the same fleet, with the same digest and the same odds.
 * A side activates first a unit that can Fire, Board or Ram now, then the units that must move to
 * reach an enemy; within each group the most points first, ties by card name, then copy; and every
 * tie the policy breaks ends by card name, then copy.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { BattleRun } from '../../server/src/core/sim/battle';
import type { BattleHooks, BattleUnit, Fleet } from '../../server/src/core/sim/battle';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import { makeRng } from '../../server/src/core/sim/dice';
import type { UnitProfile, WeaponProfile } from '../../server/src/core/sim/types';
import { fleetForBattle } from '../../server/src/core/features/battle';
import { cardErrors, checkDocument } from '../../server/src/core/check';
import type { FleetDocument } from '../../server/src/core/model/types';
import { EXAMPLES, exampleCardsWorkspace } from '../exampleFleets';
import { propertySettings } from './property-settings';

const CLI = join(__dirname, '..', '..', 'bin', 'fabled-star.js');

function unit(p: Partial<UnitProfile> = {}): UnitProfile {
  return { name: 'U', class: 'Destroyer', bases: 1, baseMm: 60, bs: 5, hp: 10, combinedShields: false, weapons: [], move: [9, 6], ...p };
}
function gun(range: number, attacks = 1): WeaponProfile {
  return { name: `gun ${range}`, type: 'Energy', range, damage: 1, attacks };
}
function member(name: string, points: number, profile: UnitProfile, copy = 1, extra: Partial<BattleUnit> = {}): BattleUnit {
  return { name, copy, points, profile: { ...profile, name }, ...extra };
}
const fleet = (name: string, units: BattleUnit[]): Fleet => ({ name, faction: name, units });

function play(a: Fleet, b: Fleet, setup: { range?: number; rounds?: number; trials?: number; seed?: number }, hooks: BattleHooks = {}) {
  const r = new BattleRun([a, b], { depth: 48, rounds: 6, trials: 200, seed: 1, ...setup }, makeRng(setup.seed ?? 1), hooks);
  r.step();
  return r.outcome();
}

describe('battle order: which unit a side activates next (BATTLE.md)', () => {
  it('first those that can fire now, then those that must move; the most points first, then card name, then copy', () => {
    // At a fixed 12": every unit of A with a 12" gun can fire now; "Big" (the most points) has a
    // 6" gun and must move to reach anyone, so it goes last. The list is written in no useful order.
    const reach12 = unit({ weapons: [gun(12)] });
    const reach6 = unit({ weapons: [gun(6)] });
    const a = fleet('A', [
      member('Zeta', 100, reach12),
      member('Alpha', 50, reach12, 2),
      member('Big', 400, reach6),
      member('Alpha', 50, reach12, 1),
      member('Mid', 100, reach12),
    ]);
    // B: one unit that takes the fire and does nothing (no weapon, no CR, no Tonnage).
    const b = fleet('B', [member('Wall', 100, unit({ hp: 60, bases: 1 }))]);
    const names = [...a.units, ...b.units].map((u) => `${u.name}${u.name === 'Alpha' ? `#${u.copy}` : ''}`);
    const trace: string[] = [];
    play(a, b, { range: 12, rounds: 1, trials: 1 }, { onActivation: (u, v) => v.side[u] === 0 && trace.push(names[u]!) });
    assert.deepEqual(trace, ['Mid', 'Zeta', 'Alpha#1', 'Alpha#2', 'Big']);
  });

  it('before anyone is on the table, every unit must move: the most points first, then card name', () => {
    const armed = unit({ weapons: [gun(12)] });
    const a = fleet('A', [member('Small', 60, armed), member('Heavy', 300, armed), member('Also Small', 60, armed)]);
    const b = fleet('B', [member('Far', 100, unit({ move: [3] }))]);
    const names = [...a.units, ...b.units].map((u) => u.name);
    const trace: string[] = [];
    play(a, b, { rounds: 1, trials: 1 }, { onActivation: (u, v) => v.side[u] === 0 && trace.push(names[u]!) });
    assert.deepEqual(trace, ['Heavy', 'Also Small', 'Small']);
  });

  it('equal targets: the first by card name, then copy, whichever is listed first', () => {
    // A certain killer at 12" meets two (three) enemies alike in every figure: it fires at
    // "Alpha" before "Bravo", and at copy 1 before copy 2, in whatever order they are listed.
    const killer = unit({ bs: 3, weapons: [gun(12, 1000)] });
    const target = unit({ hp: 1 });
    for (const listed of [
      ['Bravo', 'Alpha'],
      ['Alpha', 'Bravo'],
    ]) {
      const b = fleet(
        'B',
        listed.map((n) => member(n, 100, target)),
      );
      const o = play(fleet('A', [member('Killer', 100, killer)]), b, { range: 12, rounds: 2, trials: 50 });
      const at = (n: string) => 1 + listed.indexOf(n);
      assert.equal(o.totals.alive[at('Alpha')]![0], 0, `${listed}: Alpha goes first`);
      assert.equal(o.totals.alive[at('Bravo')]![0], 50, `${listed}: Bravo survives round 1`);
    }
    const b = fleet('B', [member('Twin', 100, target, 2), member('Twin', 100, target, 1)]);
    const o = play(fleet('A', [member('Killer', 100, killer)]), b, { range: 12, rounds: 2, trials: 50 });
    assert.deepEqual([o.totals.alive[1]![0], o.totals.alive[2]![0]], [50, 0], 'copy 1 is fired at first, though listed second');
  });
});

/** The example fleets and their workspace of cards. */
const ws = exampleCardsWorkspace();
function battleFleet(text: string, name: string): Fleet {
  const doc = ws.set(`file:///order/${name}.fleet.yaml`, text) as FleetDocument;
  const b = fleetForBattle(doc, ws, checkDocument(doc, ws), cardErrors);
  if (!b.fleet) throw new Error(`${name}: ${b.errors.join('; ')}`);
  return b.fleet;
}
/** The battle's fleet of a list, or undefined when the list has errors (a generated one over its points). */
function maybeFleet(text: string, name: string): Fleet | undefined {
  const doc = ws.set(`file:///order/${name}.fleet.yaml`, text) as FleetDocument;
  return fleetForBattle(doc, ws, checkDocument(doc, ws), cardErrors).fleet;
}

/** A fleet list's text from its header and entries (each entry its lines, as the examples write them). */
interface Entry {
  unit: string;
  count?: number;
  embark?: string[];
}
function listText(name: string, faction: string, entries: readonly Entry[], points = 2000): string {
  const lines = [`name: ${name}`, `faction: ${faction}`, `points: ${points}`, 'units:'];
  for (const e of entries) {
    lines.push(`  - unit: ${e.unit}`);
    if (e.count !== undefined) lines.push(`    count: ${e.count}`);
    if (e.embark) lines.push(`    embark: [${e.embark.join(', ')}]`);
  }
  return lines.join('\n') + '\n';
}

/** The entries of an example fleet file (the same reading as the list's own: unit, count, embark). */
function exampleEntries(file: string): { name: string; faction: string; points: number; entries: Entry[] } {
  const doc = ws.set(`file:///order/read-${file}`, readFileSync(join(EXAMPLES, 'fleets', file), 'utf8')) as FleetDocument;
  return {
    name: doc.name.value ?? '',
    faction: doc.faction.value ?? '',
    points: doc.points.value ?? 2000,
    entries: (doc.units?.items ?? []).map((u) => ({
      unit: u.unit.value ?? '',
      ...(u.count.value !== undefined && u.count.value !== 1 ? { count: u.count.value } : {}),
      ...(u.embark?.items.length ? { embark: u.embark.items.map((x) => x.value ?? '') } : {}),
    })),
  };
}

const FILES = [
  'standard-1000.fleet.yaml',
  'standard-1000-myr-valari.fleet.yaml',
  'battle-2000.fleet.yaml',
  'battle-2000-consumed.fleet.yaml',
  'skirmish-500.fleet.yaml',
];

/** Entries a generated fleet is drawn from, per faction: plain cards, and carriers with and without what they carry. */
const POOL: Record<string, Entry[]> = {
  Consumed: [
    { unit: 'Reaver Destroyer' },
    { unit: 'Gnawing Cruiser' },
    { unit: 'Gnawing Cruiser', embark: ['Maw Fighter Swarm'] },
    { unit: 'Maw Escort Pack' },
    { unit: 'Consumed Maw Frigate' },
    { unit: 'Maw Fighter Swarm' },
    { unit: 'Hunger Battleship' },
  ],
  'Myr-Valari': [
    { unit: 'Lumen Destroyer' },
    { unit: 'Lumen Cruiser' },
    { unit: 'Lumen Cruiser', embark: ['Veilwing Fighter Wing'] },
    { unit: 'Shardlight Escort' },
    { unit: 'Prism Frigate Squadron' },
    { unit: 'Lumen Bomber Wing' },
    { unit: 'Dawnhold Carrier', embark: ['Lumen Bomber Wing', 'Veilwing Fighter Wing'] },
  ],
};

/** A permutation of 0..n-1 from fast-check. */
const permutation = (n: number) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n });

describe('battle order: the same fleet in any entry order gives the same figures', function () {
  this.timeout(600_000);

  it('the example fleets and generated fleets, each list shuffled (its entries and what they carry): identical results', () => {
    const opponents = { Consumed: exampleEntries('standard-1000.fleet.yaml'), 'Myr-Valari': exampleEntries('standard-1000-myr-valari.fleet.yaml') };
    const examples = FILES.map(exampleEntries);
    const generated = fc.constantFrom(...(Object.keys(POOL) as (keyof typeof POOL)[])).chain((faction) =>
      fc.array(fc.record({ k: fc.nat(POOL[faction]!.length - 1), count: fc.integer({ min: 1, max: 2 }) }), { minLength: 2, maxLength: 6 }).map((picks) => ({
        name: 'Generated',
        faction,
        points: 2000,
        entries: picks.map((p) => ({ ...POOL[faction]![p.k]!, ...(p.count > 1 ? { count: p.count } : {}) })),
      })),
    );
    const list = fc.oneof(fc.constantFrom(...examples), generated);
    let played = 0;
    fc.assert(
      fc.property(
        list.chain((l) =>
          fc.tuple(fc.constant(l), permutation(l.entries.length), fc.array(fc.nat(), { minLength: l.entries.length, maxLength: l.entries.length })),
        ),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        ([l, perm, spin], seed, fixed) => {
          // The same entries in another order, and what each carries rotated.
          const shuffled = perm.map((i, k) => {
            const e = l.entries[i]!;
            if (!e.embark || e.embark.length < 2) return e;
            const r = spin[k]! % e.embark.length;
            return { ...e, embark: [...e.embark.slice(r), ...e.embark.slice(0, r)] };
          });
          const opp = l.faction === 'Consumed' ? opponents['Myr-Valari'] : opponents.Consumed;
          const vs = battleFleet(listText(opp.name, opp.faction, opp.entries, opp.points), 'vs');
          const a = maybeFleet(listText(l.name, l.faction, l.entries, l.points), 'a');
          // A generated list over its points cannot fight: another one is drawn.
          fc.pre(a !== undefined);
          const b = battleFleet(listText(l.name, l.faction, shuffled, l.points), 'b');
          const options = { trials: 150, seed, ...(fixed ? { range: 12 } : {}) };
          const before = simulateBattle([a!, vs], options);
          const after = simulateBattle([b, vs], options);
          assert.deepEqual(after, before);
          // And as the opponent (side 2).
          const before2 = simulateBattle([vs, a!], options);
          const after2 = simulateBattle([vs, b], options);
          assert.deepEqual(after2, before2);
          played++;
        },
      ),
      propertySettings(12, 37),
    );
    assert.ok(played >= 12);
  });

  it('the engine alone: units given in any order (carriers and what they carry included) play the same battle, unit by unit', () => {
    const [a, b] = [exampleEntries('battle-2000.fleet.yaml'), exampleEntries('battle-2000-consumed.fleet.yaml')].map((l, i) =>
      battleFleet(listText(l.name, l.faction, l.entries, l.points), `engine-${i}`),
    );
    const permuted = (f: Fleet, perm: number[]): Fleet => {
      // perm[k]: the unit at place k; hosts renumbered to the new places.
      const place = new Map(perm.map((i, k) => [i, k]));
      return { ...f, units: perm.map((i) => ({ ...f.units[i]!, ...(f.units[i]!.host !== undefined ? { host: place.get(f.units[i]!.host!)! } : {}) })) };
    };
    /** Each unit's figures by its name and copy, and the sides' figures. */
    const figures = (fa: Fleet, fb: Fleet, seed: number) => {
      const o = play(fa, fb, { trials: 120, seed });
      const t = o.totals;
      const units = [...fa.units, ...fb.units].map((u, i) => [
        `${i < fa.units.length ? 0 : 1}:${u.name}#${u.copy}`,
        [...t.alive[i]!].join(','),
        t.tally.fired[i],
        t.tally.boarded[i],
        t.tally.aim[i],
        t.tally.shields[i],
        t.tally.brace[i],
      ]);
      units.sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1));
      return { units, annihilation: t.annihilation, victory: t.pointsVictory, draws: t.draws, points: t.pointsDestroyed, rounds: t.roundsSum };
    };
    fc.assert(
      fc.property(permutation(a!.units.length), permutation(b!.units.length), fc.integer({ min: 1, max: 1_000_000 }), (pa, pb, seed) => {
        assert.deepEqual(figures(permuted(a!, pa), permuted(b!, pb), seed), figures(a!, b!, seed));
      }),
      propertySettings(6, 41),
    );
  });

  it('`battle --format json`: the example fleet with its first unit moved last prints the same result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-order-'));
    try {
      const text = readFileSync(join(EXAMPLES, 'fleets', 'standard-1000.fleet.yaml'), 'utf8');
      // "- unit: Oblivion Maw" is the first entry: moved to the end of the list.
      const moved = text.replace('  - unit: Oblivion Maw\n', '') + '  - unit: Oblivion Maw\n';
      assert.notEqual(moved, text);
      writeFileSync(join(dir, 'moved.fleet.yaml'), moved);
      const run = (fleetFile: string) =>
        execFileSync(
          process.execPath,
          [
            CLI,
            'battle',
            '--format',
            'json',
            '--trials',
            '1000',
            '--threads',
            '1',
            '--cards',
            EXAMPLES,
            '--fleet',
            fleetFile,
            '--vs',
            join(EXAMPLES, 'fleets', 'standard-1000-myr-valari.fleet.yaml'),
          ],
          { encoding: 'utf8' },
        );
      assert.equal(run(join(dir, 'moved.fleet.yaml')), run(join(EXAMPLES, 'fleets', 'standard-1000.fleet.yaml')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
