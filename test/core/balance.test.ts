/**
 * The points estimate (BATTLE.md "The points estimate"):
 * - its volleys are the simulator's exact figures;
 * - the reference field (bundled examples, or the workspace's standard-cost cards) and its
 *   leave-one-out error, printed here and quoted in the README;
 * - monotonicity (fast-check): a better BS, D, AC, SH, HP, CR, attacks, damage or range never lowers the
 *   estimate and a worse one never raises it, against the bundled field and inside a workspace field;
 * - cards far too cheap and far too dear are flagged; odd cards get a reason, never an exception;
 * - the bundled example cards are the fallback field.
 */
import { pointsEstimateMarkdown } from '../../server/src/core/features/pointsEstimate';
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { CLASSES, CLASS_NAMES, POINTS_ESTIMATE, RANGE_BANDS, WEAPON_TYPES } from '../../server/src/core/rules/data';
import type { UnitClass } from '../../server/src/core/rules/data';
import { parseDocument } from '../../server/src/core/model/parse';
import type { UnitCard, UnitDocument } from '../../server/src/core/model/types';
import { Workspace } from '../../server/src/core/workspace';
import { exactVolleyResult } from '../../server/src/core/sim/volley';
import { sanitizeProfile, profileFromCard } from '../../server/src/core/sim/profile';
import {
  bundledCards,
  clearEstimateMemo,
  computeShare,
  estimateCard,
  fieldFor,
  workspaceField,
  estimateInWorkspace,
  newEstimates,
} from '../../server/src/core/balance/index';
import type { CardLike, PointsEstimate, ReferenceField } from '../../server/src/core/balance/index';
import { fitMatrix, looSpreadPct } from '../../server/src/core/balance/fit';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

/** A card as the tools read it, from a plain description. */
interface Spec {
  class: UnitClass;
  points: number;
  bs: number;
  d?: number;
  sh?: number;
  ac?: number;
  hp: number;
  /** CR as target/dice (7+/2 when not given). */
  cr?: { target: number; dice: number };
  weapons: { type: string; range: number; damage: number; attacks: number }[];
}

const target = (n: number | undefined) => (n === undefined ? '-' : `${n}+`);

function cardText(s: Spec, name = 'Lab Card', faction = 'Lab'): string {
  const stats = `6/6 ${s.bs}+ ${target(s.d)} ${s.sh ?? '-'} ${target(s.ac)} ${s.hp} 6/3 ${s.cr ? `${s.cr.target}/${s.cr.dice}` : '7/2'} 3`;
  const weapons = s.weapons.map((w, i) => `      - Gun ${i + 1} — ${w.type}, ${w.range}", ${w.damage}, ${w.attacks}`);
  return [
    `faction: ${faction}`,
    'units:',
    `  - name: ${name}`,
    `    class: ${s.class}`,
    `    points: ${s.points}`,
    `    stats: "${stats}"`,
    '    weapons:',
    ...weapons,
    '',
  ].join('\n');
}

function cardOf(s: Spec, name = 'Lab Card', faction = 'Lab'): UnitCard {
  const doc = parseDocument(`file:///lab/${encodeURIComponent(name)}.unit.yaml`, cardText(s, name, faction)) as UnitDocument;
  return doc.units[0]!;
}

const bundledField = () => fieldFor([], estimates);

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The first model's leave-one-out estimates of the field's cards: k x sqrt(F x H), k fitted to printed points without the card. */
function fitMatrixLoo(field: ReferenceField): number[] {
  const m = field.members.map((a) => field.members.map((d) => computeShare(a.profile, d.profile).sequential));
  return fitMatrix(field.members, m).loo.map((r) => r.predicted!);
}

function estimate(s: Spec, field = bundledField()): PointsEstimate {
  return estimateCard(cardOf(s), 'Lab', field);
}

const weaponArb = fc.record({
  type: fc.constantFrom(...WEAPON_TYPES),
  range: fc.constantFrom(...RANGE_BANDS.filter((r) => r <= 24)),
  damage: fc.integer({ min: 1, max: 5 }),
  attacks: fc.integer({ min: 1, max: 6 }),
});

const specArb: fc.Arbitrary<Spec> = fc.constantFrom(...CLASS_NAMES).chain((cls) =>
  fc.record({
    class: fc.constant(cls),
    points: fc.integer({ min: 40, max: 600 }),
    bs: fc.integer({ min: 3, max: 10 }),
    d: fc.option(fc.integer({ min: 3, max: 10 }), { nil: undefined }),
    sh: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
    ac: fc.option(fc.integer({ min: 3, max: 10 }), { nil: undefined }),
    hp: fc.integer({ min: 1, max: 12 }),
    cr: fc.option(fc.record({ target: fc.integer({ min: 3, max: 8 }), dice: fc.integer({ min: 1, max: 10 }) }), { nil: undefined }),
    weapons: fc.array(weaponArb, { minLength: 1, maxLength: CLASSES[cls].weapons }),
  }),
);

/** One stat made better (by the rules: target numbers lower, counts higher, "-" the worst). */
type Edit = { stat: string; better: (s: Spec) => Spec | undefined };
const lower = (n: number | undefined) => (n === undefined ? 10 : n > 3 ? n - 1 : undefined);
const weaponEdit = (i: number, f: (w: Spec['weapons'][number]) => Spec['weapons'][number] | undefined) => (s: Spec) => {
  const w = s.weapons[i % s.weapons.length]!;
  const nw = f(w);
  if (!nw) return undefined;
  return { ...s, weapons: s.weapons.map((x, j) => (j === i % s.weapons.length ? nw : x)) };
};
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.constant<Edit>({ stat: 'BS', better: (s) => (s.bs > 3 ? { ...s, bs: s.bs - 1 } : undefined) }),
  fc.constant<Edit>({ stat: 'D', better: (s) => (lower(s.d) === undefined ? undefined : { ...s, d: lower(s.d) }) }),
  fc.constant<Edit>({ stat: 'AC', better: (s) => (lower(s.ac) === undefined ? undefined : { ...s, ac: lower(s.ac) }) }),
  fc.integer({ min: 1, max: 4 }).map<Edit>((n) => ({ stat: 'SH', better: (s) => ({ ...s, sh: (s.sh ?? 0) + n }) })),
  fc.integer({ min: 1, max: 4 }).map<Edit>((n) => ({ stat: 'HP', better: (s) => ({ ...s, hp: s.hp + n }) })),
  // CR (boarding): a lower target or more dice (a card keeps having CR: taking it away is no "better" or "worse").
  fc.constant<Edit>({
    stat: 'CR target',
    better: (s) => ((s.cr?.target ?? 7) > 3 ? { ...s, cr: { target: (s.cr?.target ?? 7) - 1, dice: s.cr?.dice ?? 2 } } : undefined),
  }),
  fc.integer({ min: 1, max: 3 }).map<Edit>((n) => ({
    stat: 'CR dice',
    better: (s) => ((s.cr?.dice ?? 2) + n <= 10 ? { ...s, cr: { target: s.cr?.target ?? 7, dice: (s.cr?.dice ?? 2) + n } } : undefined),
  })),
  fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 3 })).map<Edit>(([i, n]) => ({
    stat: 'attacks',
    better: weaponEdit(i, (w) => ({ ...w, attacks: w.attacks + n })),
  })),
  fc.nat(3).map<Edit>((i) => ({ stat: 'damage', better: weaponEdit(i, (w) => (w.damage < 5 ? { ...w, damage: w.damage + 1 } : undefined)) })),
  fc.nat(3).map<Edit>((i) => ({ stat: 'range', better: weaponEdit(i, (w) => (w.range < 30 ? { ...w, range: w.range + 3 } : undefined)) })),
);

const EPS = 1e-9;

describe('points estimate', () => {
  before(() => clearEstimateMemo(estimates));

  it('falls back on the example cards that ship in the bundle (server/src/core/examples)', () => {
    const cards = bundledCards();
    assert.equal(cards.length, 20);
    assert.deepEqual([...new Set(cards.map((c) => c.faction))].sort(), ['Consumed', 'Myr-Valari']);
    assert.ok(
      cards.every((c) => CLASSES[c.card.class.value!].points === c.card.points.value),
      'each at its class\u2019s standard points',
    );
  });

  it("its volleys are the simulator's exact figures", () => {
    const profiles = bundledCards().map((c) => sanitizeProfile(profileFromCard(c.card).profile!));
    for (const a of profiles)
      for (const d of profiles) {
        const s = computeShare(a, d);
        const total = d.hp * d.bases;
        const full = exactVolleyResult(a, d, {})!;
        assert.ok(s.exact);
        assert.ok(Math.abs(s.share - full.expectedHullDamage / total) < 1e-9, `${a.name} -> ${d.name}`);
        if (!d.sh) {
          assert.ok(Math.abs(s.sequential - s.share) < 1e-12);
          continue;
        }
        const sh0 = d.combinedShields ? d.sh * d.bases : d.sh;
        const down = exactVolleyResult(a, d, { defenderShields: 0 })!;
        const actions = sh0 / full.expectedShieldsRemoved + total / down.expectedHullDamage;
        assert.ok(Math.abs(s.sequential - Math.min(1, 1 / actions)) < 1e-9, `${a.name} -> ${d.name} sequential`);
      }
  });

  it('fits the bundled field to its battle prices and prints its leave-one-out error', () => {
    const field = bundledField();
    assert.equal(field.source, 'examples');
    assert.equal(field.members.length, 20);
    assert.equal(field.fitted, 20);
    assert.ok(field.k > 0);
    assert.equal(field.battle?.fittedTo, 'battle prices');
    const oneVolley = looSpreadPct(field.members, 'one-volley', false);
    // The first model (k x sqrt(F x H) fitted to printed points), each card left out, against the battle prices.
    const first = fitMatrixLoo(field);
    const firstVsBattle = Math.sqrt(mean(field.loo.map((r, i) => Math.log(r.price! / first[i]!) ** 2)));
    const rows = field.loo.map(
      (r, i) =>
        `    ${r.class.padEnd(13)} ${r.name.padEnd(24)} ${String(r.points).padStart(4)}  ${r.price!.toFixed(0).padStart(5)}  ${r.predicted!.toFixed(0).padStart(4)}  ${r.errorPct!.toFixed(0).padStart(4)}%  ${first[i]!.toFixed(0).padStart(5)}`,
    );
    console.log(
      [
        `    Reference field: ${field.description}`,
        `    Leave-one-out error against battle prices: ${field.spreadPct.toFixed(1)}% (the first model, k x sqrt(F x H) fitted to printed points: ${((Math.exp(firstVsBattle) - 1) * 100).toFixed(1)}%; one volley at full shields against printed points: ${oneVolley.toFixed(1)}%)`,
        '    class         card                     points  battle  LOO estimate  error  first',
        ...rows,
      ].join('\n'),
    );
    assert.equal(field.loo.length, 20);
    // The spread is what the rows say it is: the root mean square of their log errors against the battle prices.
    const rms = Math.sqrt(field.loo.reduce((t, r) => t + Math.log(r.price! / r.predicted!) ** 2, 0) / field.loo.length);
    assert.ok(Math.abs(rms - field.spreadLog) < 1e-12);
    assert.ok(field.spreadPct < 20, `spread ${field.spreadPct}`);
    assert.ok(field.spreadLog < firstVsBattle, 'the battle model predicts battle prices better than the first model');
  });

  it('a field card is estimated by its measured battle price; its leave-one-out row without it', () => {
    const field = bundledField();
    for (const [i, c] of bundledCards().entries()) {
      const e = estimateCard(c.card, c.faction, field);
      assert.ok(e.inField && e.measured, `${i} ${e.name}`);
      const row = field.loo.find((r) => r.name === e.name)!;
      // On the field's yardstick: its battle price times the field's fair scale.
      assert.ok(Math.abs(e.estimate! - row.price! * field.battle!.fair) < 1e-9, `${i} ${e.name}`);
      assert.notEqual(row.predicted, row.price);
    }
    // A copy that differs in a figure the battle reads (here: a weapon's range) is not the card that was priced.
    const changed = parseDocument(
      'file:///x/copy.unit.yaml',
      'faction: Myr-Valari\nunits:\n  - name: Lumen Destroyer\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - Lumen Lance — Energy, 24", 2, 3\n      - Pulse Laser — Ion, 9", 2, 4\n',
    ) as UnitDocument;
    const e = estimateCard(changed.units[0]!, 'Myr-Valari', field);
    assert.ok(!e.measured, 'a changed card is predicted, not given the old measurement');
  });

  it('uses the workspace when it has ten standard-cost cards, the bundled examples otherwise', () => {
    const ws = new Workspace();
    const specs: Spec[] = CLASS_NAMES.map((cls, i) => ({
      class: cls,
      points: CLASSES[cls].points,
      bs: 4 + (i % 3),
      d: 7,
      sh: i * 2,
      ac: 6,
      hp: 2 + i,
      weapons: [{ type: 'Energy', range: 6, damage: 1 + (i % 3), attacks: 2 + i }],
    }));
    specs.slice(0, 9).forEach((s, i) => ws.set(`file:///w/${i}.unit.yaml`, cardText(s, `W ${i}`, 'W')));
    assert.equal(workspaceField(ws).source, 'examples');
    ws.set('file:///w/9.unit.yaml', cardText(specs[9]!, 'W 9', 'W'));
    const field = workspaceField(ws);
    assert.equal(field.source, 'workspace');
    assert.equal(field.members.length, 10);
    assert.match(field.description, /^10 cards at their class's standard points from this workspace$/);
    assert.equal(workspaceField(ws), field, 'kept while the workspace is unchanged');
    const card = (ws.get('file:///w/3.unit.yaml') as UnitDocument).units[0]!;
    assert.ok(estimateInWorkspace(card, 'W', ws).inField);
    // The hover says which cards it is costed against where a designer reads it, not only under Advanced.
    ws.set('file:///w/new.unit.yaml', cardText({ ...specs[3]!, points: 2 * specs[3]!.points }, 'New Card', 'W'));
    const hover = pointsEstimateMarkdown((ws.get('file:///w/new.unit.yaml') as UnitDocument).units[0]!, ws);
    const [main] = hover.split('Advanced:');
    assert.match(main!, /“Fair” is measured against 10 cards at their class's standard points from this workspace, on average: /);
    // Said once: one sentence says what "fair" is measured against.
    assert.equal(hover.match(/“Fair” is measured against/g)?.length, 1);
  });

  it('caps a large field with an even pick across classes', () => {
    const cards: CardLike[] = [];
    for (let i = 0; i < 120; i++) {
      const cls = CLASS_NAMES[i % CLASS_NAMES.length]!;
      const spec: Spec = {
        class: cls,
        points: CLASSES[cls].points,
        bs: 5,
        hp: 3 + (i % 7),
        sh: i % 5,
        weapons: [{ type: 'Auto', range: 6, damage: 1, attacks: 2 + (i % 4) }],
      };
      cards.push({ card: cardOf(spec, `Big ${i}`, 'Big'), faction: 'Big' });
    }
    const field = fieldFor(cards, estimates);
    assert.equal(field.members.length, POINTS_ESTIMATE.maxField);
    assert.equal(field.available, 120);
    for (const cls of CLASS_NAMES) assert.equal(field.members.filter((m) => m.class === cls).length, POINTS_ESTIMATE.maxField / CLASS_NAMES.length);
    assert.match(field.description, /40 of the 120 cards/);
  });

  it('recomputes only the volleys an edit touches', () => {
    const field = bundledField();
    const spec: Spec = { class: 'Cruiser', points: 200, bs: 5, d: 8, sh: 6, ac: 5, hp: 7, weapons: [{ type: 'Energy', range: 18, damage: 2, attacks: 4 }] };
    estimate(spec, field);
    let before = estimates.volleys.stats.computed;
    // The field's volleys at the card: each member with the weapons that reach it on the approach (nested by
    // reach: at most one per distinct reach of the member), at least each member's whole Fire action.
    estimate({ ...spec, hp: 9 }, field);
    const atCard = estimates.volleys.stats.computed - before;
    const reaches = field.members.reduce((t, m) => t + new Set(m.profile.weapons.map((w) => w.range)).size, 0);
    assert.ok(atCard >= field.members.length && atCard <= reaches, `${atCard} of ${field.members.length}..${reaches}`);
    before = estimates.volleys.stats.computed;
    estimate({ ...spec, points: 250 }, field);
    assert.equal(estimates.volleys.stats.computed, before, 'points do not enter a volley');
    estimate({ ...spec, weapons: [{ ...spec.weapons[0]!, attacks: 5 }] }, field);
    assert.equal(estimates.volleys.stats.computed, before + field.members.length, 'a weapon edit recomputes the card firing at the field only');
    estimate({ ...spec, weapons: [{ ...spec.weapons[0]!, attacks: 5 }], hp: 8 }, field);
    assert.equal(estimates.volleys.stats.computed, before + field.members.length + atCard, 'an HP edit recomputes the field firing at the card only');
  });

  describe('monotonicity', () => {
    const check = (field: () => ReferenceField, inField: boolean) =>
      fc.assert(
        fc.property(specArb, editArb, (spec0, edit) => {
          const spec = inField ? { ...spec0, points: CLASSES[spec0.class].points } : spec0;
          const better = edit.better(spec);
          if (!better) return;
          const f = field();
          const a = estimate(spec, f);
          const b = estimate(better, f);
          if (a.estimate === undefined || b.estimate === undefined) {
            // A better card can only gain an estimate (e.g. its first damage through), never lose one.
            assert.ok(!(a.estimate !== undefined && b.estimate === undefined), `${edit.stat}: better lost its estimate: ${b.reason}`);
            return;
          }
          // Each pair is both cases: \`better\` is a better \`spec\`, and \`spec\` a worse \`better\`.
          assert.ok(b.estimate >= a.estimate - EPS * a.estimate, `better ${edit.stat} lowered ${a.estimate} to ${b.estimate}: ${JSON.stringify(spec)}`);
          assert.ok(b.firepower! >= a.firepower! - EPS && b.durability! >= a.durability! - EPS * a.durability!, `${edit.stat}: F or H fell`);
        }),
        { numRuns: 150, seed: 13 },
      );

    it('a better stat never lowers the estimate, a worse one never raises it (bundled field)', () => check(bundledField, false));

    it('the same when the card itself costs its standard points (bundled field)', () => check(bundledField, true));

    it('the same inside a workspace field whose cards are edited copies of each other', () =>
      fc.assert(
        fc.property(specArb, editArb, (spec0, edit) => {
          const spec = { ...spec0, points: CLASSES[spec0.class].points };
          const better = edit.better(spec);
          if (!better) return;
          // A workspace of the bundled cards plus the card and its edited copy, all at standard points.
          const base: CardLike[] = [...bundledCards()];
          const orig = cardOf(spec, 'Original');
          const edited = cardOf(better, 'Edited');
          const field = fieldFor([...base, { card: orig, faction: 'Lab' }, { card: edited, faction: 'Lab' }], estimates);
          const a = estimateCard(orig, 'Lab', field);
          const b = estimateCard(edited, 'Lab', field);
          if (a.estimate === undefined || b.estimate === undefined) return;
          assert.ok(b.estimate >= a.estimate * (1 - EPS), `better ${edit.stat} lowered ${a.estimate} to ${b.estimate}: ${JSON.stringify(spec)}`);
        }),
        { numRuns: 40, seed: 31 },
      ));
  });

  it('flags a card far too cheap and one far too dear, and not the field', () => {
    const field = bundledField();
    const cheap = estimate({
      class: 'Cruiser',
      points: 190,
      bs: 3,
      d: 5,
      sh: 14,
      ac: 3,
      hp: 16,
      weapons: [
        { type: 'Energy', range: 24, damage: 4, attacks: 6 },
        { type: 'Ion', range: 18, damage: 3, attacks: 6 },
      ],
    });
    assert.ok(cheap.farOff && cheap.ratio! < 1, JSON.stringify(cheap));
    const dear = estimate({ class: 'Cruiser', points: 190, bs: 9, hp: 3, weapons: [{ type: 'Blast', range: 6, damage: 1, attacks: 1 }] });
    assert.ok(dear.farOff && dear.ratio! > 1, JSON.stringify(dear));
    const fair = bundledCards().map((c) => estimateCard(c.card, c.faction, field));
    assert.ok(fair.filter((e) => e.farOff).length <= 1, 'at most one field card beyond twice the spread');
  });

  it('lists what it does not price', () => {
    const e = estimateCard(bundledCards()[4]!.card, bundledCards()[4]!.faction, bundledField());
    // Movement, weapon range and launch bays are priced (the battle model): the Carrier's Launch Bays are not "abilities" left out;
    // CR is too (boarding on the approach), so a card with CR does not list it.
    assert.equal(bundledCards()[4]!.card.name.value, 'Brood Carrier');
    assert.deepEqual(e.unpriced, ['LD', 'tonnage', 'orders']);
    const lumen = bundledCards().find((c) => c.card.name.value === 'Lumen Destroyer')!;
    assert.deepEqual(estimateCard(lumen.card, lumen.faction, bundledField()).unpriced, ['LD', 'tonnage', 'orders', 'abilities'], 'Hit & Run is not priced');
    const bare = estimate({ class: 'Destroyer', points: 145, bs: 5, hp: 5, weapons: [{ type: 'Auto', range: 9, damage: 1, attacks: 3 }] });
    assert.ok(!bare.unpriced.includes('movement') && !bare.unpriced.includes('orders') && !bare.unpriced.includes('CR'), 'its CR 7/2 is weighed');
  });

  it('never throws on odd cards: a result with a reason', () => {
    const field = bundledField();
    const odd = [
      'faction: X\nunits:\n  - name: No Guns\n    class: Carrier\n    points: 300\n    stats: "6/3 5+ 9+ 10 5+ 11 5/3 6/3 7"\n',
      'faction: X\nunits:\n  - name: Zero HP\n    class: Cruiser\n    points: 190\n    stats: "6/3 5+ 9+ 10 5+ 0 5/3 6/3 7"\n    weapons:\n      - G — Energy, 18", 2, 2\n',
      'faction: X\nunits:\n  - name: Absurd\n    class: Cruiser\n    points: 190\n    stats: "6/3 3+ 3+ 1000000 3+ 1000000000 5/3 6/3 7"\n    weapons:\n      - G — Auto, 18", 5, 1000000000\n',
      'faction: X\nunits:\n  - name: Garbage\n    class: Nope\n    points: lots\n    stats: 12\n',
      'faction: X\nunits:\n  - {}\n  - name: Half\n    class: Fighter\n',
    ];
    const t0 = performance.now();
    for (const text of odd) {
      const doc = parseDocument('file:///x/odd.unit.yaml', text) as UnitDocument;
      for (const card of doc.units) {
        const e = estimateCard(card, 'X', field);
        assert.ok(e.estimate !== undefined || e.reason, `${e.name}: neither an estimate nor a reason`);
        if (e.estimate !== undefined) assert.ok(Number.isFinite(e.estimate) && e.estimate > 0);
      }
    }
    assert.ok(performance.now() - t0 < 20_000);
    const noGuns = estimateCard((parseDocument('file:///x/a.unit.yaml', odd[0]!) as UnitDocument).units[0]!, 'X', field);
    assert.match(noGuns.reason!, /deals no damage/);
    const zero = estimateCard((parseDocument('file:///x/b.unit.yaml', odd[1]!) as UnitDocument).units[0]!, 'X', field);
    assert.match(zero.reason!, /HP/);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (junk) => {
        const doc = parseDocument(
          'file:///x/j.unit.yaml',
          `faction: J\nunits:\n  - name: J\n    class: Cruiser\n    points: 190\n    stats: ${JSON.stringify(junk)}\n`,
        );
        for (const card of (doc as UnitDocument | undefined)?.units ?? []) {
          const e = estimateCard(card, 'J', field);
          assert.ok(e.estimate !== undefined || e.reason);
        }
      }),
      { numRuns: 100, seed: 5 },
    );
  });
});
