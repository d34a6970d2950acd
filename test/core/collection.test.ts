/**
 * The collection (FORMATS.md "Collection") over the bundled examples: a collection that owns what
 * the Myr-Valari Standard list fields but one Lumen Cruiser. The warning lands on the entry that
 * fields the card in `check --format json` (and, through the same check, in the editor); the roster
 * and the Fleet view's data say what to buy; Add Unit's choices know what is spare; and nothing is
 * said without a collection.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCheck } from '../../server/src/cli/check';
import { runRoster } from '../../server/src/cli/roster';
import { fileUri } from '../../server/src/cli/io';
import { runCli as cli, EXAMPLES } from '../helpers';
import { Workspace } from '../../server/src/core/workspace';
import { exampleFallback } from '../../server/src/core/examples/index';
import { checkDocument } from '../../server/src/core/check/index';
import { createFabledService } from '../../server/src/core/service';
import { rosterData } from '../../server/src/lsp/roster';
import type { FleetDocument } from '../../server/src/core/model/types';
import { complete } from '../../server/src/core/features/completion';

const FLEET = path.join(EXAMPLES, 'fleets', 'standard-1000-myr-valari.fleet.yaml');

/** Everything the list fields (Lantern Watch), with one Lumen Cruiser fewer than it fields. */
const ONE_SHORT = `# The models on my shelf.
owned:
  - Radiant Court
  - unit: Veilwing Fighter Wing
    count: 2
  - Lumen Destroyer
  - Prism Frigate Squadron
  - Shardlight Escort
  - unit: Lumen Bomber Wing
    count: 1
  - unit: Lumen Cruiser
    count: 0
`;

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fabled-collection-'));
  fs.writeFileSync(path.join(dir, 'shelf.collection.yaml'), ONE_SHORT);
  fs.writeFileSync(path.join(dir, 'everything.collection.yaml'), ONE_SHORT.replace('count: 0', 'count: 3'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Report {
  diagnostics: { file: string; line: number; column: number; code: string; message: string; severity: string }[];
}

/** The collection's diagnostics on the Myr-Valari list and on the collections (the other example fleets field cards it never owned). */
const shortOf = (r: Report) =>
  r.diagnostics.filter((d) => d.code.startsWith('FS-COLLECTION') && (/myr-valari\.fleet\.yaml$/.test(d.file) || /collection\.yaml$/.test(d.file)));

describe('collection', () => {
  it('check --collection FILE: FS-COLLECTION-SHORT on the entry that fields the card, naming both counts', async () => {
    const r = await cli(runCheck, ['--format', 'json', '--collection', path.join(dir, 'shelf.collection.yaml'), EXAMPLES]);
    const report = JSON.parse(r.out) as Report;
    const found = shortOf(report);
    assert.equal(found.length, 1, JSON.stringify(found));
    const d = found[0]!;
    assert.equal(d.code, 'FS-COLLECTION-SHORT');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, 'You own no Lumen Cruiser; this fleet fields 1');
    assert.match(d.file, /standard-1000-myr-valari\.fleet\.yaml$/);
    const lines = fs.readFileSync(FLEET, 'utf8').split('\n');
    assert.equal(lines[d.line - 1]!.slice(d.column - 1, d.column - 1 + 'Lumen Cruiser'.length), 'Lumen Cruiser');
  });

  it('a collection found among the paths is used (the first by path), and a second one is reported', async () => {
    const r = await cli(runCheck, ['--format', 'json', EXAMPLES, dir]);
    const report = JSON.parse(r.out) as Report;
    const codes = shortOf(report).map((d) => `${path.basename(d.file)} ${d.code}`);
    // everything.collection.yaml comes first by path: it owns three cruisers, so nothing is short.
    assert.deepEqual(codes, ['shelf.collection.yaml FS-COLLECTION-SECOND']);
    // --collection picks the other one whatever the paths.
    const chosen = JSON.parse(
      (await cli(runCheck, ['--format', 'json', '--collection', path.join(dir, 'shelf.collection.yaml'), EXAMPLES, dir])).out,
    ) as Report;
    assert.ok(shortOf(chosen).some((d) => d.code === 'FS-COLLECTION-SHORT'));
  });

  it('says nothing about owning without a collection', async () => {
    const r = await cli(runCheck, ['--format', 'json', EXAMPLES]);
    assert.deepEqual(shortOf(JSON.parse(r.out) as Report), []);
    const roster = await cli(runRoster, [FLEET, '--cards', EXAMPLES]);
    assert.doesNotMatch(roster.out, /To field this list|every model/);
  });

  it('refuses --collection that is not a collection file', async () => {
    const r = await cli(runCheck, ['--collection', FLEET, EXAMPLES]);
    assert.equal(r.code, 2);
    assert.match(r.err, /a collection is a \*\.collection\.yaml file/);
  });

  it('the roster says what to buy: "To field this list: 1 x Lumen Cruiser"', async () => {
    const r = await cli(runRoster, [FLEET, '--cards', EXAMPLES, '--cards', path.join(dir, 'shelf.collection.yaml')]);
    assert.match(r.out, /^To field this list: 1 x Lumen Cruiser$/m);
    const json = JSON.parse((await cli(runRoster, [FLEET, '--cards', EXAMPLES, '--cards', path.join(dir, 'shelf.collection.yaml'), '--format', 'json'])).out);
    assert.deepEqual(json.toBuy, [{ name: 'Lumen Cruiser', count: 1 }]);
  });

  it("the Fleet view's data: what to buy, and which cards Add Unit would add without a model", () => {
    const ws = new Workspace();
    for (const f of ['myr-valari/myr-valari.unit.yaml', 'myr-valari/myr-valari.faction.yaml'])
      ws.set(fileUri(path.join(EXAMPLES, f)), fs.readFileSync(path.join(EXAMPLES, f), 'utf8'));
    const fleet = ws.set(fileUri(FLEET), fs.readFileSync(FLEET, 'utf8')) as FleetDocument;
    const none = rosterData(createFabledService({ workspace: ws }), fleet, () => undefined);
    assert.equal(none.toBuy, undefined);
    assert.ok(none.addChoices.every((c) => c.spare === undefined));
    ws.set('file:///shelf/shelf.collection.yaml', ONE_SHORT);
    const data = rosterData(createFabledService({ workspace: ws }), fleet, () => undefined);
    assert.equal(data.toBuy, 'To field this list: 1 x Lumen Cruiser');
    const spare = Object.fromEntries(data.addChoices.map((c) => [c.name, c.spare]));
    assert.equal(spare['Lumen Cruiser'], 0);
    assert.equal(spare['Veilwing Fighter Wing'], 1, 'two owned, one embarked');
    assert.equal(spare['Eternal Lantern'], 0, 'never owned');
    // Each fleet on its own, embarked units counted: a second cruiser carrying a wing is short of both.
    const two = ws.set(
      'file:///shelf/two.fleet.yaml',
      'name: Two\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Cruiser\n    count: 2\n    embark: [Veilwing Fighter Wing, Veilwing Fighter Wing]\n',
    ) as FleetDocument;
    const msgs = checkDocument(two, ws)
      .filter((p) => p.code === 'FS-COLLECTION-SHORT')
      .map((p) => `${two.text.slice(p.span.start, p.span.end)}: ${p.message}`);
    assert.deepEqual(msgs, [
      'Lumen Cruiser: You own no Lumen Cruiser; this fleet fields 2',
      'Veilwing Fighter Wing: You own 2 Veilwing Fighter Wing; this fleet fields 4',
      'Veilwing Fighter Wing: You own 2 Veilwing Fighter Wing; this fleet fields 4',
    ]);
  });

  it('a card the fleets field from the bundled examples is a card to the collection too, where the workspace has cards of its own', () => {
    // A new player's folder: a card of their own, a fleet of the Myr-Valari examples, a collection of those models.
    const ws = exampleFallback(new Workspace());
    ws.set('file:///shelf/mine.unit.yaml', 'faction: Ashen Reach\nunits:\n  - name: Cinder Hawk\n    class: Frigate\n    points: 110\n');
    const fleet = ws.set(
      'file:///shelf/my.fleet.yaml',
      'name: Mine\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Cruiser\n    count: 2\n',
    ) as FleetDocument;
    const collection = ws.set('file:///shelf/my.collection.yaml', 'owned:\n  - unit: Lumen Cruiser\n  - Lumen Crusier\n  - Cinder Hawk\n')!;
    const unknown = checkDocument(collection, ws)
      .filter((p) => p.code === 'FS-COLLECTION-UNKNOWN')
      .map((p) => collection.text.slice(p.span.start, p.span.end));
    assert.deepEqual(unknown, ['Lumen Crusier'], 'the fleet fields Lumen Cruiser: the collection knows it too');
    assert.deepEqual(
      checkDocument(fleet, ws)
        .filter((p) => p.code === 'FS-COLLECTION-SHORT')
        .map((p) => p.message),
      ['You own 1 Lumen Cruiser; this fleet fields 2'],
    );
  });

  it("completion offers a collection's keys and every card's name", () => {
    const ws = new Workspace();
    ws.set(fileUri(path.join(EXAMPLES, 'myr-valari/myr-valari.unit.yaml')), fs.readFileSync(path.join(EXAMPLES, 'myr-valari/myr-valari.unit.yaml'), 'utf8'));
    const labels = (text: string) => complete(ws.set('file:///c/a.collection.yaml', text), ws, text, text.length).items.map((i) => i.label);
    assert.deepEqual(labels(''), ['owned']);
    assert.deepEqual(labels('owned:\n  - unit: Lum'), ['Lumen Bomber Wing', 'Lumen Cruiser', 'Lumen Destroyer']);
    assert.ok(labels('owned:\n  - Lum').includes('Lumen Cruiser'));
  });
});
