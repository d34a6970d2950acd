/**
 * The roster's edits (add a unit, remove an entry, embark, disembark) as text edits on the fleet:
 * each keeps the file's style and produces a fleet that re-parses with the expected entries and no
 * new errors.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import type { FleetDocument } from '../../server/src/core/model/types';
import {
  addChoices,
  addUnitEdit,
  applyEdit,
  disembarkEdit,
  embarkChoices,
  embarkEdit,
  removeEntryEdit,
  type OffsetEdit,
} from '../../server/src/core/roster/edits';
import { fileUri } from '../../server/src/cli/io';

const ROOT = path.resolve(__dirname, '../..');
const CARD_FILES = [
  'examples/myr-valari/myr-valari.unit.yaml',
  'examples/myr-valari/myr-valari.faction.yaml',
  'examples/consumed/consumed.faction.yaml',
  'examples/consumed/maw-capitals.unit.yaml',
  'examples/consumed/maw-squadrons.unit.yaml',
];
const EXAMPLES = [
  'examples/fleets/skirmish-500.fleet.yaml',
  'examples/fleets/standard-1000.fleet.yaml',
  'examples/fleets/battle-2000.fleet.yaml',
  'examples/showcase/over-budget.fleet.yaml',
];

function workspace(): Workspace {
  const ws = new Workspace();
  for (const f of CARD_FILES) ws.set(fileUri(path.join(ROOT, f)), fs.readFileSync(path.join(ROOT, f), 'utf8'));
  return ws;
}

const URI = 'file:///ws/edit.fleet.yaml';

function fleet(ws: Workspace, text: string): FleetDocument {
  return ws.set(URI, text) as FleetDocument;
}

/** Errors (by code and text) of a fleet; "no new errors" compares these. */
function errors(ws: Workspace, doc: FleetDocument): string[] {
  return checkDocument(doc, ws)
    .filter((p) => p.severity === 'error' && p.code !== 'FS-FLEET-OVER')
    .map((p) => `${p.code} ${p.message}`);
}

function entries(doc: FleetDocument): string[] {
  return (doc.units?.items ?? []).map((e) =>
    [e.unit.value, e.count.value !== 1 ? `×${e.count.value}` : '', ...(e.embark?.items ?? []).map((x) => `+${x.value}`)].filter(Boolean).join(' '),
  );
}

/** Applies an edit, re-parses, and checks that no error appeared that was not there before. */
function apply(ws: Workspace, doc: FleetDocument, edit: OffsetEdit | undefined): FleetDocument {
  assert.ok(edit, 'no edit');
  const before = errors(ws, doc);
  const after = fleet(ws, applyEdit(doc.text, edit));
  const added = errors(ws, after).filter((e) => !before.includes(e));
  assert.deepEqual(added, [], `new errors in:\n${after.text}`);
  assert.deepEqual(
    after.problems.filter((p) => p.code.startsWith('FS-YAML') || p.code === 'FS-TYPE'),
    [],
  );
  return after;
}

describe('roster edits on the example fleets', () => {
  for (const file of EXAMPLES) {
    const name = path.basename(file);
    it(`${name}: add every card of the faction, embark on a carrier, disembark, remove every entry`, () => {
      const ws = workspace();
      let doc = fleet(ws, fs.readFileSync(path.join(ROOT, file), 'utf8'));
      const start = entries(doc);
      const choices = addChoices(doc, ws);
      assert.ok(choices.length >= 5, 'the faction has cards to offer');
      assert.ok(choices.every((c) => c.faction === doc.faction.value));
      const fielded = (d: FleetDocument, name: string) =>
        (d.units?.items ?? []).filter((e) => e.unit.value === name && !e.embark?.items.length).reduce((t, e) => t + (e.count.value ?? 1), 0);
      const raised: string[] = [];
      for (const c of choices) {
        const before = entries(doc).length;
        const had = fielded(doc, c.name);
        doc = apply(ws, doc, addUnitEdit(doc, c.name));
        assert.equal(fielded(doc, c.name), had + 1, `one more ${c.name}`);
        // A card fielded alone gets one more copy on its entry; any other comes as a new entry.
        if (had > 0) raised.push(c.name);
        else assert.equal(entries(doc).at(-1), c.name);
        assert.equal(entries(doc).length, before + (had > 0 ? 0 : 1));
      }
      const added = choices.length - raised.length;
      assert.equal(entries(doc).length, start.length + added);
      // Embark where a bay has room (the last added carrier-class cards come with empty bays).
      const idx = (doc.units?.items ?? []).findIndex((_e, i) => i >= start.length && embarkChoices(doc, ws, i).some((x) => x.fits));
      assert.ok(idx >= 0, 'some card has a launch bay');
      const pick = embarkChoices(doc, ws, idx).find((x) => x.fits)!;
      doc = apply(ws, doc, embarkEdit(doc, idx, pick.name));
      assert.deepEqual(
        doc.units!.items[idx]!.embark!.items.map((x) => x.value),
        [pick.name],
      );
      doc = apply(ws, doc, disembarkEdit(doc, idx, 0));
      assert.deepEqual(doc.units!.items[idx]!.embark?.items ?? [], []);
      // Remove the added entries from the end, and one copy of each raised one: back to the original entries.
      for (let i = entries(doc).length - 1; i >= start.length; i--) doc = apply(ws, doc, removeEntryEdit(doc, i));
      for (const name of raised) {
        const i = doc.units!.items.findIndex((e) => e.unit.value === name && !e.embark?.items.length && (e.count.value ?? 1) > 1);
        doc = apply(ws, doc, removeEntryEdit(doc, i, 'one'));
      }
      assert.deepEqual(entries(doc), start);
      // Then the original ones, first to last.
      while (entries(doc).length) doc = apply(ws, doc, removeEntryEdit(doc, 0));
      assert.deepEqual(entries(doc), []);
      doc = apply(ws, doc, addUnitEdit(doc, choices[0]!.name));
      assert.deepEqual(entries(doc), [choices[0]!.name]);
    });
  }
});

describe('roster edits keep the file’s style', () => {
  const ws = workspace();
  const head = 'name: T\nfaction: Myr-Valari\npoints: 1000\n';
  const cases: { name: string; text: string; edit: (d: FleetDocument) => OffsetEdit | undefined; expect: string }[] = [
    {
      name: 'add to a block list, after a trailing comment',
      text: `${head}units:\n  - unit: Lumen Cruiser   # flagship\n    count: 1\n# end\n`,
      edit: (d) => addUnitEdit(d, 'Shardlight Escort'),
      expect: `${head}units:\n  - unit: Lumen Cruiser   # flagship\n    count: 1\n  - unit: Shardlight Escort\n# end\n`,
    },
    {
      name: 'add to a list at the key’s column, without a final line break',
      text: `${head}units:\n- Lumen Cruiser`,
      edit: (d) => addUnitEdit(d, 'Shardlight Escort', 2),
      expect: `${head}units:\n- Lumen Cruiser\n- unit: Shardlight Escort\n  count: 2`,
    },
    {
      name: 'add to a flow list, quoting a name with a comma',
      text: `${head}units: [Lumen Cruiser, {unit: Shardlight Escort, count: 2}]\n`,
      edit: (d) => addUnitEdit(d, 'Odd, Name'),
      expect: `${head}units: [Lumen Cruiser, {unit: Shardlight Escort, count: 2}, "Odd, Name"]\n`,
    },
    {
      name: 'add to an empty flow list',
      text: `${head}units: []\n`,
      edit: (d) => addUnitEdit(d, 'Lumen Cruiser'),
      expect: `${head}units: [Lumen Cruiser]\n`,
    },
    {
      name: 'add under an empty key, keeping its comment',
      text: `${head}units: # none yet\nobjectives: 5\n`,
      edit: (d) => addUnitEdit(d, 'Lumen Cruiser'),
      expect: `${head}units: # none yet\n  - unit: Lumen Cruiser\nobjectives: 5\n`,
    },
    {
      name: 'add without a units key, with CRLF line ends',
      text: head.replace(/\n/g, '\r\n'),
      edit: (d) => addUnitEdit(d, 'Lumen Cruiser'),
      expect: `${head}units:\n  - unit: Lumen Cruiser\n`.replace(/\n/g, '\r\n'),
    },
    {
      name: 'add a name YAML would misread',
      text: `${head}units:\n  - Lumen Cruiser\n`,
      edit: (d) => addUnitEdit(d, 'yes: #1 [x]'),
      expect: `${head}units:\n  - Lumen Cruiser\n  - unit: "yes: #1 [x]"\n`,
    },
    {
      name: 'remove the middle entry of a block list, with its lines',
      text: `${head}units:\n  - unit: A\n    count: 2\n  - unit: B\n    embark:\n      - C\n  - D\n`,
      edit: (d) => removeEntryEdit(d, 1),
      expect: `${head}units:\n  - unit: A\n    count: 2\n  - D\n`,
    },
    {
      name: 'remove the last item of a flow list with its comma',
      text: `${head}units: [A, B, C]\n`,
      edit: (d) => removeEntryEdit(d, 2),
      expect: `${head}units: [A, B]\n`,
    },
    {
      name: 'remove the first item of a flow list',
      text: `${head}units: [A, B]\n`,
      edit: (d) => removeEntryEdit(d, 0),
      expect: `${head}units: [B]\n`,
    },
    {
      name: 'embark on a bare entry: it becomes a mapping',
      text: `${head}units:\n  - Lumen Cruiser\n  - Shardlight Escort\n`,
      edit: (d) => embarkEdit(d, 0, 'Veilwing Fighter Wing'),
      expect: `${head}units:\n  - unit: Lumen Cruiser\n    embark:\n      - Veilwing Fighter Wing\n  - Shardlight Escort\n`,
    },
    {
      name: 'embark on an entry without embark',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n    count: 1 # one\n  - unit: Lumen Cruiser\n`,
      edit: (d) => embarkEdit(d, 0, 'Lumen Bomber Wing'),
      expect: `${head}units:\n  - unit: Dawnhold Carrier\n    count: 1 # one\n    embark:\n      - Lumen Bomber Wing\n  - unit: Lumen Cruiser\n`,
    },
    {
      name: 'embark onto an existing block embark list',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n    embark:\n    - Lumen Bomber Wing\n`,
      edit: (d) => embarkEdit(d, 0, 'Veilwing Fighter Wing'),
      expect: `${head}units:\n  - unit: Dawnhold Carrier\n    embark:\n    - Lumen Bomber Wing\n    - Veilwing Fighter Wing\n`,
    },
    {
      name: 'embark onto a flow embark list',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n    embark: [Lumen Bomber Wing]\n`,
      edit: (d) => embarkEdit(d, 0, 'Veilwing Fighter Wing'),
      expect: `${head}units:\n  - unit: Dawnhold Carrier\n    embark: [Lumen Bomber Wing, Veilwing Fighter Wing]\n`,
    },
    {
      name: 'embark onto a single name',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n    embark: Lumen Bomber Wing\n`,
      edit: (d) => embarkEdit(d, 0, 'Veilwing Fighter Wing'),
      expect: `${head}units:\n  - unit: Dawnhold Carrier\n    embark: [Lumen Bomber Wing, Veilwing Fighter Wing]\n`,
    },
    {
      name: 'embark on a bare entry in a flow list',
      text: `${head}units: [Dawnhold Carrier, Lumen Cruiser]\n`,
      edit: (d) => embarkEdit(d, 1, 'Veilwing Fighter Wing'),
      expect: `${head}units: [Dawnhold Carrier, {unit: Lumen Cruiser, embark: [Veilwing Fighter Wing]}]\n`,
    },
    {
      name: 'disembark the first of two',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n    embark:\n      - Lumen Bomber Wing\n      - Veilwing Fighter Wing\n`,
      edit: (d) => disembarkEdit(d, 0, 0),
      expect: `${head}units:\n  - unit: Dawnhold Carrier\n    embark:\n      - Veilwing Fighter Wing\n`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const doc = fleet(ws, c.text);
      const edit = c.edit(doc);
      assert.ok(edit, 'no edit');
      assert.equal(applyEdit(doc.text, edit), c.expect);
      const after = fleet(ws, c.expect);
      assert.deepEqual(
        after.problems.filter((p) => p.severity === 'error'),
        [],
      );
    });
  }

  it('edits it cannot make safely are undefined, never a broken file', () => {
    assert.equal(removeEntryEdit(fleet(ws, `${head}units:\n  - A\n`), 3), undefined);
    assert.equal(embarkEdit(fleet(ws, `${head}units:\n  - A\n`), 1, 'B'), undefined);
    assert.equal(disembarkEdit(fleet(ws, `${head}units:\n  - A\n`), 0, 0), undefined);
    assert.equal(addUnitEdit(fleet(ws, `${head}units: Lumen Cruiser\n`), 'B'), undefined);
  });
});

describe('roster choices', () => {
  const ws = workspace();
  it('Add unit offers the fleet faction’s cards, with class and points, biggest first', () => {
    const doc = fleet(ws, 'name: T\nfaction: consumed\npoints: 1000\nunits: []\n');
    const choices = addChoices(doc, ws);
    assert.ok(choices.length > 3);
    assert.ok(choices.every((c) => c.faction === 'Consumed' && c.class && c.points !== undefined));
    assert.ok(choices.every((c, i) => i === 0 || (choices[i - 1]!.points ?? 0) >= (c.points ?? 0)));
  });

  it('Embark offers what the bays carry and says whether it still fits', () => {
    const doc = fleet(
      ws,
      'name: T\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Cruiser\n  - unit: Lumen Destroyer\n  - unit: Dawnhold Carrier\n',
    );
    // Launch Bay Tier 1 carries Fighters only.
    assert.deepEqual(
      embarkChoices(doc, ws, 0).map((c) => [c.name, c.fits]),
      [['Veilwing Fighter Wing', true]],
    );
    assert.deepEqual(embarkChoices(doc, ws, 1), []);
    assert.deepEqual(
      embarkChoices(doc, ws, 2)
        .map((c) => c.class)
        .sort(),
      ['Bomber', 'Fighter'],
    );
    const full = fleet(ws, 'name: T\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Cruiser\n    embark: [Veilwing Fighter Wing]\n');
    assert.deepEqual(
      embarkChoices(full, ws, 0).map((c) => [c.name, c.fits]),
      [['Veilwing Fighter Wing', false]],
    );
  });
});

describe('roster edits never lose a word the user wrote (#24)', () => {
  const ws = workspace();
  const head = 'name: T\nfaction: Myr-Valari\npoints: 1000\n';
  const cases: { name: string; text: string; edit: (d: FleetDocument) => OffsetEdit | undefined; expect: string }[] = [
    {
      name: 'remove an entry ending in a nested embark list keeps the comments up to the next entry',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n    embark:\n      - Lumen Bomber Wing\n  # escorts below\n\n  # the screen\n  - unit: Shardlight Escort\n`,
      edit: (d) => removeEntryEdit(d, 0),
      expect: `${head}units:\n  # escorts below\n\n  # the screen\n  - unit: Shardlight Escort\n`,
    },
    {
      name: 'remove the last entry keeps a column-0 comment before the next key',
      text: `${head}units:\n  - unit: Lumen Cruiser\n  - unit: Dawnhold Carrier\n    embark:\n      - Lumen Bomber Wing\n# objectives next\nobjectives: 5\n`,
      edit: (d) => removeEntryEdit(d, 1),
      expect: `${head}units:\n  - unit: Lumen Cruiser\n# objectives next\nobjectives: 5\n`,
    },
    {
      name: 'remove in a flow list keeps the comment after the comma',
      text: `${head}units: [Lumen Cruiser, # the flagship's escort\n  Shardlight Escort]\n`,
      edit: (d) => removeEntryEdit(d, 0),
      expect: `${head}units: [ # the flagship's escort\n  Shardlight Escort]\n`,
    },
    {
      name: 'remove the last item of a flow list keeps the comment after the comma before it',
      text: `${head}units: [Lumen Cruiser, # the flagship's escort\n  Shardlight Escort]\n`,
      edit: (d) => removeEntryEdit(d, 1),
      expect: `${head}units: [Lumen Cruiser, # the flagship's escort\n  ]\n`,
    },
    {
      name: 'remove a flow item on its own line takes that line',
      text: `${head}units: [\n  Lumen Cruiser, # one\n  Shardlight Escort, # two\n  Lumen Destroyer # three\n]\n`,
      edit: (d) => removeEntryEdit(d, 1),
      expect: `${head}units: [\n  Lumen Cruiser, # one\n  Lumen Destroyer # three\n]\n`,
    },
    {
      name: 'add in a CR-only file writes CR',
      text: `${head}units:\n  - unit: Lumen Cruiser\n`.replace(/\n/g, '\r'),
      edit: (d) => addUnitEdit(d, 'Shardlight Escort'),
      expect: `${head}units:\n  - unit: Lumen Cruiser\n  - unit: Shardlight Escort\n`.replace(/\n/g, '\r'),
    },
    {
      name: 'embark in a CR-only file writes CR',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n  - unit: Lumen Cruiser\n`.replace(/\n/g, '\r'),
      edit: (d) => embarkEdit(d, 0, 'Lumen Bomber Wing'),
      expect: `${head}units:\n  - unit: Dawnhold Carrier\n    embark:\n      - Lumen Bomber Wing\n  - unit: Lumen Cruiser\n`.replace(/\n/g, '\r'),
    },
    {
      name: 'add to a one-line flow fleet without units puts them inside the braces',
      text: `{name: T, faction: Myr-Valari, points: 500}\n`,
      edit: (d) => addUnitEdit(d, 'Lumen Cruiser'),
      expect: `{name: T, faction: Myr-Valari, points: 500, units: [Lumen Cruiser]}\n`,
    },
    {
      name: 'add a card already fielded alone raises its count',
      text: `${head}units:\n  - unit: Lumen Cruiser # flagship\n  - unit: Shardlight Escort\n`,
      edit: (d) => addUnitEdit(d, 'Lumen Cruiser'),
      expect: `${head}units:\n  - unit: Lumen Cruiser # flagship\n    count: 2\n  - unit: Shardlight Escort\n`,
    },
    {
      name: 'add a card already fielded with a count raises that count',
      text: `${head}units: [{unit: Shardlight Escort, count: 2}, Lumen Cruiser]\n`,
      edit: (d) => addUnitEdit(d, 'Shardlight Escort'),
      expect: `${head}units: [{unit: Shardlight Escort, count: 3}, Lumen Cruiser]\n`,
    },
    {
      name: 'add a card fielded as a bare name in a flow list',
      text: `${head}units: [Lumen Cruiser]\n`,
      edit: (d) => addUnitEdit(d, 'Lumen Cruiser'),
      expect: `${head}units: [{unit: Lumen Cruiser, count: 2}]\n`,
    },
    {
      name: 'add a card fielded only as a carrier with embarked units adds an entry',
      text: `${head}units:\n  - unit: Dawnhold Carrier\n    embark: [Lumen Bomber Wing]\n`,
      edit: (d) => addUnitEdit(d, 'Dawnhold Carrier'),
      expect: `${head}units:\n  - unit: Dawnhold Carrier\n    embark: [Lumen Bomber Wing]\n  - unit: Dawnhold Carrier\n`,
    },
    {
      name: 'remove one of three lowers the count',
      text: `${head}units:\n  - unit: Shardlight Escort\n    count: 3 # screen\n`,
      edit: (d) => removeEntryEdit(d, 0, 'one'),
      expect: `${head}units:\n  - unit: Shardlight Escort\n    count: 2 # screen\n`,
    },
    {
      name: 'remove one of one removes the entry',
      text: `${head}units:\n  - unit: Shardlight Escort\n  - Lumen Cruiser\n`,
      edit: (d) => removeEntryEdit(d, 0, 'one'),
      expect: `${head}units:\n  - Lumen Cruiser\n`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const doc = fleet(ws, c.text);
      const edit = c.edit(doc);
      assert.ok(edit, 'no edit');
      assert.equal(applyEdit(doc.text, edit), c.expect);
      const after = fleet(ws, c.expect);
      assert.deepEqual(
        after.problems.filter((p) => p.severity === 'error'),
        [],
      );
    });
  }

  it('an entry whose anchor another entry uses is not removed (the alias would dangle), nor an alias edited as the entry it names', () => {
    const doc = fleet(ws, `${head}units:\n  - &flag Lumen Cruiser\n  - *flag\n  - Dawnhold Carrier\n`);
    assert.equal(removeEntryEdit(doc, 0), undefined);
    // The alias reads as the first entry's text: an edit of "it" would change the first entry.
    assert.equal(removeEntryEdit(doc, 1), undefined);
    assert.equal(embarkEdit(doc, 1, 'Veilwing Fighter Wing'), undefined);
    assert.equal(removeEntryEdit(doc, 1, 'one'), undefined);
    assert.ok(removeEntryEdit(doc, 2));
  });
});

describe('Add without a units key keeps to the fleet’s YAML document', () => {
  const ws = workspace();
  for (const [name, text, expect] of [
    [
      'before a "..." that ends it',
      '---\nname: T\nfaction: Myr-Valari\npoints: 500\n...\n',
      '---\nname: T\nfaction: Myr-Valari\npoints: 500\nunits:\n  - unit: Lumen Cruiser\n...\n',
    ],
    [
      'before a second document',
      'name: T\nfaction: Myr-Valari\npoints: 500\n---\n# notes\n',
      'name: T\nfaction: Myr-Valari\npoints: 500\nunits:\n  - unit: Lumen Cruiser\n---\n# notes\n',
    ],
    [
      'at the end, after a leading "---"',
      '---\nname: T\nfaction: Myr-Valari\npoints: 500',
      '---\nname: T\nfaction: Myr-Valari\npoints: 500\nunits:\n  - unit: Lumen Cruiser\n',
    ],
  ] as const) {
    it(name, () => {
      const doc = fleet(ws, text);
      const edit = addUnitEdit(doc, 'Lumen Cruiser');
      assert.ok(edit);
      assert.equal(applyEdit(text, edit), expect);
      assert.deepEqual(entries(fleet(ws, expect)), ['Lumen Cruiser']);
    });
  }
});
