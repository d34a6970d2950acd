/**
 * The Fleet view's stale-tree race, with the view's own request code (client/src/rosterEdits.ts)
 * against the bundled server over stdio: the tree is drawn, the user edits the fleet above the
 * entry in the editor, then clicks Remove (Embark, Disembark) on it. The click names the entry as
 * the tree showed it; the server must refuse it as stale (nothing changed, the tree redrawn) rather
 * than act on whatever entry now sits at that index.
 */
import { strict as assert } from 'node:assert';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { fleetServer, positionAt, type Client } from './harness';
import { FILES } from './fixtures';
import type { RosterData, RosterEditResult } from '../../protocol';
import { rosterEditOutcome, rosterEditParams, type RosterAction, type RosterEditOutcome } from '../../client/src/rosterEdits';

const PATH = 'fleets/screen.fleet.yaml';
const TEXT = `name: Escort Screen
faction: Myr-Valari
points: 1000
units:
  - unit: Lumen Destroyer
  - unit: Shardlight Escort
  - unit: Lumen Cruiser
    embark:
      - Veilwing Fighter Wing
  - unit: Lumen Destroyer
    count: 3
`;

function offsetAt(text: string, p: { line: number; character: number }): number {
  const lines = text.split('\n');
  let o = 0;
  for (let i = 0; i < p.line; i++) o += lines[i]!.length + 1;
  return o + p.character;
}

describe('the Fleet view never acts on another entry than the one clicked (stale tree)', function () {
  this.timeout(60000);
  let c: Client;
  let uri: string;

  before(async () => {
    ({ c, uri } = await fleetServer(FILES, PATH, TEXT, (r) => r.entries[1]?.class === 'Escort'));
  });
  after(async () => c?.stop());

  /** Back to the starting text (as a user's undo would be), and the tree drawn from it. */
  async function reset(): Promise<RosterData> {
    const text = c.texts.get(uri)!;
    await c.change(uri, [{ range: { start: positionAt(text, 0), end: positionAt(text, text.length) }, text: TEXT }], TEXT);
    return tree();
  }

  const tree = () => c.request<RosterData>('fabledStar/roster', { uri });

  /** The user types in the editor: `find` becomes `replacement`. */
  const type = (find: string, replacement: string) => c.edit(uri, find, replacement);

  /** A click in the view, as the view does it: its request, the server's answer, the edit applied when there is one. */
  async function click(roster: RosterData, action: RosterAction): Promise<RosterEditOutcome> {
    const result = await c.request<RosterEditResult | null>('fabledStar/rosterEdit', rosterEditParams(roster, action, c.versions.get(uri)));
    const outcome = rosterEditOutcome(result, c.versions.get(uri));
    if ('apply' in outcome) await apply(outcome.apply);
    return outcome;
  }

  async function apply(e: TextEdit): Promise<void> {
    const text = c.texts.get(uri)!;
    const start = offsetAt(text, e.range.start);
    const end = offsetAt(text, e.range.end);
    await c.change(uri, [{ range: e.range, text: e.newText }], text.slice(0, start) + e.newText + text.slice(end));
  }

  const units = async () => (await tree()).entries.map((e) => `${e.count > 1 ? `${e.count}× ` : ''}${e.unit}${e.embarked.map((x) => ` + ${x.name}`).join('')}`);

  function refusedStale(o: RosterEditOutcome): void {
    assert.ok(!('apply' in o), 'the stale click was applied');
    assert.equal(o.redraw, true);
    assert.match(o.message, /changed since the Fleet view was drawn/);
  }

  it('Remove after a line above was deleted: refused, nothing changed; after the redraw it removes the clicked entry', async () => {
    const drawn = await reset();
    const escort = drawn.entries[1]!;
    assert.equal(escort.unit, 'Shardlight Escort');
    await type('  - unit: Lumen Destroyer\n  - unit: Shardlight', '  - unit: Shardlight');
    const before = c.texts.get(uri);
    refusedStale(await click(drawn, { action: 'remove', entry: escort, copies: 'all' }));
    assert.equal(c.texts.get(uri), before, 'the text is as the user left it');
    assert.deepEqual(await units(), ['Shardlight Escort', 'Lumen Cruiser + Veilwing Fighter Wing', '3× Lumen Destroyer']);
    // The redrawn tree names the entry where it is now.
    const redrawn = await tree();
    const o = await click(redrawn, { action: 'remove', entry: redrawn.entries[0]!, copies: 'all' });
    assert.ok('apply' in o, JSON.stringify(o));
    assert.deepEqual(await units(), ['Lumen Cruiser + Veilwing Fighter Wing', '3× Lumen Destroyer']);
  });

  it('Embark after a line was added above: refused; the carrier it was meant for gets it after the redraw', async () => {
    const drawn = await reset();
    // Disembark first, so that the Cruiser's bay has room.
    assert.ok('apply' in (await click(drawn, { action: 'disembark', entry: drawn.entries[2]!, embarked: 0 })));
    const cruiserTree = await tree();
    await type('  - unit: Lumen Destroyer\n  - unit: Shardlight', '  - unit: Shardlight Escort\n  - unit: Lumen Destroyer\n  - unit: Shardlight');
    refusedStale(await click(cruiserTree, { action: 'embark', entry: cruiserTree.entries[2]!, card: 'Veilwing Fighter Wing' }));
    assert.deepEqual(await units(), ['Shardlight Escort', 'Lumen Destroyer', 'Shardlight Escort', 'Lumen Cruiser', '3× Lumen Destroyer']);
    const redrawn = await tree();
    assert.ok('apply' in (await click(redrawn, { action: 'embark', entry: redrawn.entries[3]!, card: 'Veilwing Fighter Wing' })));
    assert.deepEqual(await units(), [
      'Shardlight Escort',
      'Lumen Destroyer',
      'Shardlight Escort',
      'Lumen Cruiser + Veilwing Fighter Wing',
      '3× Lumen Destroyer',
    ]);
  });

  it('Disembark after the entries were reordered: refused', async () => {
    const drawn = await reset();
    // The user moves the Cruiser (with its fighter) to the top.
    await type('  - unit: Lumen Destroyer\n  - unit: Shardlight Escort\n', '');
    await type('    count: 3\n', '    count: 3\n  - unit: Lumen Destroyer\n  - unit: Shardlight Escort\n');
    refusedStale(await click(drawn, { action: 'disembark', entry: drawn.entries[2]!, embarked: 0 }));
    assert.deepEqual(await units(), ['Lumen Cruiser + Veilwing Fighter Wing', '3× Lumen Destroyer', 'Lumen Destroyer', 'Shardlight Escort']);
  });

  it('an index that names another unit is refused even at the current version (a client that sends the editor’s version)', async () => {
    const drawn = await reset();
    await type('  - unit: Lumen Destroyer\n  - unit: Shardlight', '  - unit: Shardlight');
    const params = { ...rosterEditParams(drawn, { action: 'remove', entry: drawn.entries[1]!, copies: 'all' }, undefined), version: c.versions.get(uri) };
    const r = await c.request<RosterEditResult>('fabledStar/rosterEdit', params);
    assert.ok('refused' in r && r.refused === 'stale', JSON.stringify(r));
  });

  it('Remove One on "3× Lumen Destroyer" leaves two; Remove All takes the entry', async () => {
    const drawn = await reset();
    const three = drawn.entries[3]!;
    assert.equal(three.count, 3);
    assert.ok('apply' in (await click(drawn, { action: 'remove', entry: three, copies: 'one' })));
    assert.deepEqual(await units(), ['Lumen Destroyer', 'Shardlight Escort', 'Lumen Cruiser + Veilwing Fighter Wing', '2× Lumen Destroyer']);
    const redrawn = await tree();
    assert.ok('apply' in (await click(redrawn, { action: 'remove', entry: redrawn.entries[3]!, copies: 'all' })));
    assert.deepEqual(await units(), ['Lumen Destroyer', 'Shardlight Escort', 'Lumen Cruiser + Veilwing Fighter Wing']);
  });

  it('Add on a card already fielded alone raises its count', async () => {
    const drawn = await reset();
    assert.ok('apply' in (await click(drawn, { action: 'add', card: 'Shardlight Escort' })));
    assert.deepEqual(await units(), ['Lumen Destroyer', '2× Shardlight Escort', 'Lumen Cruiser + Veilwing Fighter Wing', '3× Lumen Destroyer']);
    assert.match(c.texts.get(uri)!, /\n {2}- unit: Shardlight Escort\n {4}count: 2\n {2}- unit: Lumen Cruiser\n/);
  });

  it('an answer computed on a text the user has typed past is not applied', () => {
    const o = rosterEditOutcome({ edit: { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'x' }, version: 4 }, 5);
    assert.ok(!('apply' in o) && o.redraw);
  });
});
