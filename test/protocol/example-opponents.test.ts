/**
 * A new player's first fleet, in a folder with nothing else: the server lists the bundled example
 * fleets as opponents, fights one of them with its bundled cards, and a fleet pasted from an
 * example resolves (no unknown cards) without a single card file in the folder.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type Client } from './harness';
import type { BattleResult } from '../../server/src/core/sim/types';
import type { FleetSummary } from '../../protocol';
import type { CompletionItem, CompletionList } from 'vscode-languageserver-protocol';
import { EXAMPLES } from '../exampleFleets';

describe('example opponents in an empty folder', function () {
  this.timeout(120_000);
  let c: Client;
  before(async () => {
    c = await startServer({ files: {} });
  });
  after(async () => c?.stop());

  it('lists the bundled example fleets, each with its points and game size', async () => {
    const list = await c.request<FleetSummary[]>('fabledStar/exampleFleets', {});
    assert.equal(list.length, 5);
    for (const f of list) {
      assert.match(f.uri, /^fabled-example:/);
      assert.ok(f.name && f.faction, JSON.stringify(f));
      assert.deepEqual(f.unknownUnits, [], f.name);
      assert.ok(f.limit && f.total <= f.limit, `${f.name}: ${f.total} of ${f.limit}`);
      assert.ok(f.gameSize, f.name);
    }
    assert.ok(list.some((f) => f.name === 'The Hunger Within'));
  });

  it("fights a fleet of the user's own against an example fleet", async () => {
    const mine = await c.open(
      'ember.fleet.yaml',
      'name: Ember Vanguard\nfaction: Myr-Valari\npoints: 500\nunits:\n  - unit: Lumen Cruiser\n  - unit: Shardlight Escort\n',
    );
    await c.diagnosticsWhere(mine, 'no errors in a fleet of example cards', (d) => d.every((x) => x.severity !== 1));
    const list = await c.request<FleetSummary[]>('fabledStar/exampleFleets', {});
    const vs = list.find((f) => f.name === 'The Hunger Within')!;
    const r = await c.request<BattleResult>('fabledStar/battle', { fleet: { uri: mine }, vs: { uri: vs.uri }, options: { trials: 200, seed: 1 } });
    assert.equal(r.sides[0].fleet, 'Ember Vanguard');
    assert.equal(r.sides[1].fleet, 'The Hunger Within');
    assert.equal(r.trials, 200);
    await assert.rejects(
      c.request('fabledStar/battle', { fleet: { uri: mine }, vs: { uri: 'fabled-example:/fleets/none.fleet.yaml' }, options: { trials: 10 } }),
      /No opponent's fleet list/,
    );
  });

  it('resolves a fleet pasted from an example: no unknown cards, its points counted', async () => {
    const text = readFileSync(join(EXAMPLES, 'fleets', 'battle-2000.fleet.yaml'), 'utf8');
    const uri = await c.open('pasted.fleet.yaml', text);
    const d = await c.diagnosticsWhere(uri, 'diagnostics', () => true);
    assert.deepEqual(
      d.filter((x) => x.severity === 1).map((x) => x.message),
      [],
    );
    const s = await c.request<FleetSummary>('fabledStar/fleetSummary', { uri });
    assert.deepEqual(s.unknownUnits, []);
    assert.ok(s.total > 1500, String(s.total));
  });

  it("completes a fleet's faction with the workspace's own (those of files without cards too), then the bundled example factions", async () => {
    await c.open('ashen.faction.yaml', 'faction: Ashen Reach\ndoctrine: Standard\n');
    // A card file with its faction but no card named yet: its faction is offered too.
    await c.open('ember.unit.yaml', 'faction: Ember Court\nunits:\n  - class: Fighter\n');
    const text = 'name: F\nfaction: \npoints: 1000\n';
    const uri = await c.open('new.fleet.yaml', text);
    const r = await c.request<CompletionList | CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 9 } });
    const items = (Array.isArray(r) ? r : r.items).sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
    assert.deepEqual(
      items.map((i) => `${i.label} (${i.detail})`),
      ['Ashen Reach (no cards yet)', 'Ember Court (no cards yet)', 'Consumed (bundled example, 10 cards)', 'Myr-Valari (bundled example, 10 cards)'],
    );
    // A unit cards file is for the user's own faction: no example faction there.
    const unit = await c.open('new.unit.yaml', 'faction: \n');
    const u = await c.request<CompletionList | CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: unit },
      position: { line: 0, character: 9 },
    });
    assert.deepEqual(
      (Array.isArray(u) ? u : u.items).map((i) => i.label),
      ['Ashen Reach', 'Ember Court'],
    );
  });
});
