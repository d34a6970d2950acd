/**
 * How the checker reads a few things the rulebook and FORMATS.md allow: a faction known only by its
 * Command Board, a stat line with a value left out, a card made by a merge key, and a card of
 * another faction in a fleet (its points count).
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import { buildRoster } from '../../server/src/core/roster/model';
import { fleetTotals } from '../../server/src/core/fleetPoints';
import { STAT_ORDER } from '../../server/src/core/rules/data';
import type { FleetDocument, UnitDocument } from '../../server/src/core/model/types';

const WEAPONS = `    weapons: ["Gun — E, 18\\", 2, 3", "Laser — I, 9\\", 2, 4"]\n`;
const card = (stats: string) => `faction: T\nunits:\n  - name: A\n    class: Destroyer\n    points: 145\n    stats: ${stats}\n${WEAPONS}`;

function statProblems(text: string) {
  const ws = new Workspace();
  const doc = ws.set('file:///ws/a.unit.yaml', text) as UnitDocument;
  return { doc, problems: checkDocument(doc, ws).filter((p) => p.code.startsWith('FS-STAT')) };
}

describe('a stat line with a value left out', () => {
  const LINE = ['9/6', '5+', '7+', '4', '6+', '5', '6/3', '7/2', '3'];
  it('is one error, the missing stat, as the mapping form says it; the other values are read as their stats', () => {
    for (let i = 0; i < LINE.length; i++) {
      const stat = STAT_ORDER[i]!;
      const line = statProblems(card(`"${LINE.filter((_, k) => k !== i).join(' ')}"`));
      const mapping = statProblems(
        card(
          `{ ${STAT_ORDER.map((s, k) => (k === i ? '' : `${s}: ${LINE[k]}`))
            .filter(Boolean)
            .join(', ')} }`,
        ),
      );
      assert.deepEqual(
        line.problems.map((p) => p.code),
        ['FS-STAT-MISSING'],
        `${stat} left out: ${line.problems.map((p) => p.message).join(' | ')}`,
      );
      assert.equal(mapping.problems.length, 1);
      // Where the values tell which stat is missing, the line says what the mapping says; where two
      // stats of one form stand side by side (BS D, LD CR), it names both.
      if (line.doc.units[0]!.stats!.unsure) assert.match(line.problems[0]!.message, new RegExp(`Missing stat: one of [^(]*\\b${stat}\\b`));
      else {
        assert.equal(line.problems[0]!.message, mapping.problems[0]!.message);
        for (const s of STAT_ORDER)
          assert.equal(line.doc.units[0]!.stats!.entries[s]?.raw, mapping.doc.units[0]!.stats!.entries[s]?.raw, `${stat} left out: ${s}`);
      }
    }
  });
  it('names SH, AC, HP, M and T when they are left out (their neighbours have other forms)', () => {
    for (const stat of ['M', 'SH', 'AC', 'HP', 'T']) {
      const i = STAT_ORDER.indexOf(stat as (typeof STAT_ORDER)[number]);
      const { problems } = statProblems(card(`"${LINE.filter((_, k) => k !== i).join(' ')}"`));
      assert.match(problems[0]!.message, new RegExp(`^Missing stat ${stat}:`));
    }
  });
  it('nine values, or ten, are read as before', () => {
    assert.deepEqual(statProblems(card(`"${LINE.join(' ')}"`)).problems, []);
    assert.deepEqual(
      statProblems(card(`"${LINE.join(' ')} 4"`)).problems.map((p) => p.code),
      ['FS-STAT-EXTRA'],
    );
  });
});

describe('a card made by a merge key', () => {
  const MERGED = `faction: Testers
units:
  - &base
    name: Gunboat
    class: Destroyer
    points: 145
    stats: { M: 9/6, BS: 5+, D: 7+, SH: 4, AC: 6+, HP: 5, LD: 6/3, T: 3 }
${WEAPONS}  - <<: *base
    class: Destroyer
`;
  it('that keeps the name is a duplicate said once on each card, the merged one at its merge; its missing CR is said on it too', () => {
    const ws = new Workspace();
    const doc = ws.set('file:///ws/m.unit.yaml', MERGED) as UnitDocument;
    const ps = checkDocument(doc, ws);
    const at = (code: string) => ps.filter((p) => p.code === code).map((p) => MERGED.slice(p.span.start, p.span.end));
    assert.deepEqual(at('FS-DUPLICATE-CARD'), ['Gunboat', '<<']);
    assert.deepEqual(at('FS-STAT-MISSING'), ['stats', '<<']);
    const [base, merged] = doc.units;
    for (const p of ps) {
      const inBase = p.span.start >= base!.span.start && p.span.end <= base!.span.end;
      const inMerged = p.span.start >= merged!.span.start && p.span.end <= merged!.span.end;
      assert.ok(inBase !== inMerged, `${p.code} is on one card`);
      if (inMerged && MERGED.slice(p.span.start, p.span.end) === '<<') {
        assert.equal(p.data?.replacements, undefined, 'no fix that would edit the base');
        assert.ok(
          p.related?.some((r) => r.span.start >= base!.span.start && r.span.end <= base!.span.end),
          'says where the value comes from',
        );
      }
    }
    const dup = ps.find((p) => p.code === 'FS-DUPLICATE-CARD' && MERGED.slice(p.span.start, p.span.end) === '<<')!;
    assert.match(dup.message, /takes its name from the mapping it merges/);
  });
  it('a fleet of the merged card lists its problems under it', () => {
    const ws = new Workspace();
    ws.set('file:///ws/m.unit.yaml', MERGED.replace('  - <<: *base\n', '  - <<: *base\n    name: Gunboat II\n'));
    const fleet = ws.set('file:///ws/f.fleet.yaml', 'name: F\nfaction: Testers\npoints: 500\nunits:\n  - unit: Gunboat II\n') as FleetDocument;
    const r = buildRoster(fleet, ws);
    assert.deepEqual(
      r.entries[0]!.problems.map((p) => p.code),
      ['FS-STAT-MISSING'],
    );
    assert.equal(r.legal, false);
  });
});

describe('a faction known by its Command Board only', () => {
  it('is no unknown faction on a fleet', () => {
    const ws = new Workspace();
    ws.set('file:///ws/other.unit.yaml', card('"9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"'));
    ws.set(
      'file:///ws/court.faction.yaml',
      'faction: Lantern Court\ndoctrine: Elite\ncpSources: [{ name: A, cp: 2 }, { name: B, cp: 2 }]\nfactionAbility: { name: P, text: N. }\ncommandAbilities: []\n',
    );
    const codes = (faction: string) =>
      checkDocument(ws.set('file:///ws/f.fleet.yaml', `name: F\nfaction: ${faction}\npoints: 500\nunits: []\n`) as FleetDocument, ws).map((p) => p.code);
    assert.ok(!codes('Lantern Court').includes('FS-FACTION-UNKNOWN'));
    assert.ok(!codes('lantern court').includes('FS-FACTION-UNKNOWN'), 'letter case');
    assert.ok(codes('Lantern Cort').includes('FS-FACTION-UNKNOWN'), 'a near miss is still unknown');
  });
});

describe('a card of another faction in a fleet', () => {
  it('counts its points toward the total, in the roster and every figure; the fleet error still says it does not belong', () => {
    const ws = new Workspace();
    ws.set('file:///ws/t.unit.yaml', card('"9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"'));
    ws.set('file:///ws/u.unit.yaml', card('"9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"').replace('faction: T', 'faction: U').replace('name: A', 'name: Raider'));
    const fleet = ws.set('file:///ws/f.fleet.yaml', 'name: F\nfaction: T\npoints: 200\nunits:\n  - unit: A\n  - unit: Raider\n') as FleetDocument;
    const totals = fleetTotals(fleet, ws);
    assert.equal(totals.total, 290);
    assert.equal(totals.entries[1]!.foreign, true);
    const r = buildRoster(fleet, ws);
    assert.equal(r.total, 290);
    assert.deepEqual(
      checkDocument(fleet, ws)
        .map((p) => p.code)
        .sort(),
      ['FS-FLEET-OVER', 'FS-UNIT-FACTION'],
    );
  });
});
