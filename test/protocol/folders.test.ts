/**
 * Folders of cards moved, copied and deleted, over stdio, with the file events as VS
 * Code sends them: ONE event for the folder (no extension), Created or Deleted, and a rename as
 * Deleted(old) + Created(new). The server registers a watcher whose glob matches folders, reads a
 * folder that comes, and forgets every card, faction and fleet under one that goes; the open
 * fleet, the card list (the engagement picker's) and the fleet summaries (the battle picker's)
 * follow at once.
 */
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { CardInfo, FleetSummary } from '../../protocol';
import { startServer, type Client } from './harness';

const CREATED = 1;
const DELETED = 3;

const card = (name: string, points = 145) =>
  `  - name: ${name}\n    class: Destroyer\n    points: ${points}\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - Gun — Energy, 12", 2, 3\n`;
const CARDS = (faction: string, ...names: string[]) => `faction: ${faction}\nunits:\n${names.map((n) => card(n)).join('')}`;
const FLEET = (name: string, faction: string, ...units: string[]) =>
  `name: ${name}\nfaction: ${faction}\npoints: 500\nunits:\n${units.map((n) => `  - unit: ${n}\n`).join('')}`;

const unknown = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'FS-UNIT-UNKNOWN' || d.code === 'FS-FACTION-UNKNOWN').length;

/** A folder of cards and a fleet outside the workspace, to be moved or copied in. */
function outside(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fabled-outside-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const REEF = {
  'reef/reef.unit.yaml': CARDS('Reef', 'Reef Hawk', 'Reef Lance'),
  'reef/more/deep.unit.yaml': CARDS('Reef', 'Deep Warden'),
  'reef/reef.fleet.yaml': FLEET('Reef Raiders', 'Reef', 'Reef Hawk', 'Deep Warden'),
};

/** The open fleet of the workspace names the reef's cards. */
const MINE = FLEET('Home Guard', 'Reef', 'Reef Hawk', 'Reef Lance');

describe('folders moved, copied and deleted (stdio, one event per folder)', function () {
  this.timeout(60000);
  let c: Client;
  let away: string | undefined;

  afterEach(async () => {
    await c?.stop();
    if (away) rmSync(away, { recursive: true, force: true });
    away = undefined;
  });

  const folderUri = (rel: string) => pathToFileURL(join(c.root, rel)).toString();
  const events = (...changes: [string, number][]) =>
    c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: changes.map(([rel, type]) => ({ uri: folderUri(rel), type })) });
  const cards = async () => (await c.request<CardInfo[]>('fabledStar/listCards', {})).map((x) => `${x.name} @ ${x.uri.slice(folderUri('').length)}`).sort();
  const summary = (rel: string) => c.request<FleetSummary | null>('fabledStar/fleetSummary', { uri: c.uri(rel) });

  async function started(files: Record<string, string> = {}, pull = false): Promise<string> {
    c = await startServer({ files: { 'fleets/mine.fleet.yaml': MINE, ...files }, pull });
    const fleet = await c.open('fleets/mine.fleet.yaml', MINE);
    // How many notifications had come when the scan's end did.
    const end = await c.waitFor('the end of the first scan', () => {
      const i = c.notifications.findIndex((n) => n.method === '$/progress' && (n.params as { value: { kind: string } }).value.kind === 'end');
      return i >= 0 && i + 1;
    });
    // A pulling client is asked to pull again once the scan has ended (50 ms later, once per burst):
    // that refresh must have come before a test counts the refreshes that follow its own change.
    if (pull) await c.waitFor('the first scan\u2019s refresh', () => c.refreshAfter.some((n) => n >= end));
    return fleet;
  }

  it('registers a watcher that matches folders, for their creation and deletion', async () => {
    await started();
    await c.waitFor('the watcher registration', () => c.registrations.length > 0);
    const reg = c.registrations.find((r) => (r as { method: string }).method === 'workspace/didChangeWatchedFiles') as {
      registerOptions: { watchers: { globPattern: string; kind?: number }[] };
    };
    assert.ok(reg, JSON.stringify(c.registrations));
    const folders = reg.registerOptions.watchers.find((w) => w.globPattern === '**/*');
    assert.ok(folders, JSON.stringify(reg.registerOptions.watchers));
    // WatchKind.Create | WatchKind.Delete: no change events for every file of the workspace.
    assert.equal(folders.kind, 1 | 4);
  });

  it('a folder moved in is read: the open fleet resolves, its cards and its fleet are listed', async () => {
    const fleet = await started();
    await c.diagnosticsWhere(fleet, 'the fleet naming cards not there yet', (d) => unknown(d) > 0);
    away = outside(REEF);
    renameSync(join(away, 'reef'), join(c.root, 'reef'));
    await events(['reef', CREATED]);
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => unknown(d) === 0);
    assert.deepEqual(await cards(), ['Deep Warden @ /reef/more/deep.unit.yaml', 'Reef Hawk @ /reef/reef.unit.yaml', 'Reef Lance @ /reef/reef.unit.yaml']);
    // The battle picker's opponent: read, not "not read yet".
    const s = await summary('reef/reef.fleet.yaml');
    assert.equal(s?.name, 'Reef Raiders');
    assert.equal(s?.total, 290);
    // The closed files have their diagnostics (the fleet under its points).
    await c.waitFor('the moved fleet checked', () => c.diagnostics.get(c.uri('reef/reef.fleet.yaml')));
  });

  it('a folder deleted or moved out drops every card, faction and fleet under it at once', async () => {
    const fleet = await started({ ...REEF, 'reef/reef.faction.yaml': 'faction: Reef\n', 'reefs-too/other.unit.yaml': CARDS('Reef', 'Reef Spur') });
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => unknown(d) === 0);
    assert.equal((await cards()).length, 4);
    const cardFile = c.uri('reef/reef.unit.yaml');
    await c.waitFor('the card file checked', () => c.diagnostics.get(cardFile));
    rmSync(join(c.root, 'reef'), { recursive: true });
    await events(['reef', DELETED]);
    await c.diagnosticsWhere(fleet, 'the fleet without its cards', (d) => unknown(d) === 2);
    // A folder whose name starts like the deleted one's is not under it.
    assert.deepEqual(await cards(), ['Reef Spur @ /reefs-too/other.unit.yaml']);
    assert.equal(await summary('reef/reef.fleet.yaml'), null);
    assert.deepEqual(c.diagnostics.get(cardFile)?.diagnostics, [], 'the gone file has no diagnostics left');
    const symbols = await c.request<{ name: string }[]>('workspace/symbol', { query: 'Reef' });
    assert.deepEqual(
      symbols.map((x) => x.name),
      ['Reef Spur'],
    );
  });

  it('a folder renamed inside the workspace (Deleted old + Created new): the cards are there once, at their new place', async () => {
    const fleet = await started(REEF);
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => unknown(d) === 0);
    renameSync(join(c.root, 'reef'), join(c.root, 'atoll'));
    await events(['reef', DELETED], ['atoll', CREATED]);
    await c.poll('the cards at their new place', async () => (await cards()).every((x) => x.includes('/atoll/')) && (await cards()).length === 3);
    assert.deepEqual(await cards(), ['Deep Warden @ /atoll/more/deep.unit.yaml', 'Reef Hawk @ /atoll/reef.unit.yaml', 'Reef Lance @ /atoll/reef.unit.yaml']);
    await c.diagnosticsWhere(
      fleet,
      'the fleet still resolved, with no duplicate',
      (d) => unknown(d) === 0 && !d.some((x) => /duplicate/i.test(String(x.message))),
    );
    assert.equal(await summary('reef/reef.fleet.yaml'), null);
    assert.equal((await summary('atoll/reef.fleet.yaml'))?.name, 'Reef Raiders');
  });

  it('a folder renamed with one of its files open: after the editor reopens it at its new place, its cards are there once', async () => {
    const fleet = await started(REEF);
    const oldUri = await c.open('reef/reef.unit.yaml', REEF['reef/reef.unit.yaml']);
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => unknown(d) === 0);
    renameSync(join(c.root, 'reef'), join(c.root, 'atoll'));
    // As VS Code does: the folder's events, then the editor's document closed and opened at the new path.
    await events(['reef', DELETED], ['atoll', CREATED]);
    await c.close(oldUri);
    await c.open('atoll/reef.unit.yaml', REEF['reef/reef.unit.yaml']);
    const expected = ['Deep Warden @ /atoll/more/deep.unit.yaml', 'Reef Hawk @ /atoll/reef.unit.yaml', 'Reef Lance @ /atoll/reef.unit.yaml'];
    await c.poll('each card once, at its new place', async () => JSON.stringify(await cards()) === JSON.stringify(expected));
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await cards(), expected);
    await c.diagnosticsWhere(c.uri('atoll/reef.unit.yaml'), 'the reopened file without duplicates', (d) => !d.some((x) => /DUP/.test(String(x.code))));
  });

  it('a folder moved in past fabledStar.workspace.maxFiles: only up to the cap is read, and the log says so', async () => {
    c = await startServer({ files: { 'fleets/mine.fleet.yaml': MINE }, settings: { workspace: { maxFiles: 3 } } });
    await c.waitFor('the end of the first scan', () =>
      c.notifications.some((n) => n.method === '$/progress' && (n.params as { value: { kind: string } }).value.kind === 'end'),
    );
    away = outside({ ...REEF, 'reef/extra.unit.yaml': CARDS('Reef', 'Extra') });
    renameSync(join(away, 'reef'), join(c.root, 'reef'));
    await events(['reef', CREATED]);
    await c.waitFor('the warning', () => c.notifications.some((n) => n.method === 'window/logMessage' && /maxFiles/.test(JSON.stringify(n.params))));
    // One file was in the workspace: two more of the four fit under the cap of 3, and stay two (the
    // folder is listed again a moment later, under the same cap).
    const read = async () => {
      const files = new Set((await c.request<CardInfo[]>('fabledStar/listCards', {})).map((x) => x.uri));
      return files.size + ((await summary('reef/reef.fleet.yaml')) !== null ? 1 : 0);
    };
    await c.poll('two files read', async () => (await read()) === 2);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await read(), 2);
  });

  it('a folder deleted with one of its files open: the open file\u2019s cards stay while it is open, and go when it closes', async () => {
    const fleet = await started(REEF);
    const open = await c.open('reef/reef.unit.yaml', REEF['reef/reef.unit.yaml']);
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => unknown(d) === 0);
    rmSync(join(c.root, 'reef'), { recursive: true });
    await events(['reef', DELETED]);
    await c.poll(
      'the closed file\u2019s card gone, the open one\u2019s kept',
      async () => JSON.stringify(await cards()) === JSON.stringify(['Reef Hawk @ /reef/reef.unit.yaml', 'Reef Lance @ /reef/reef.unit.yaml']),
    );
    assert.equal(unknown(await c.diagnosticsWhere(fleet, 'the fleet checked', () => true)), 0, 'the editor\u2019s text still holds both cards');
    await c.close(open);
    await c.poll('every card gone', async () => (await cards()).length === 0);
    await c.diagnosticsWhere(fleet, 'the fleet without its cards', (d) => unknown(d) === 2);
  });

  it('two folders copied in at once (cp -r a b dest): both are read', async () => {
    const fleet = await started();
    away = outside({ ...REEF, 'tide/tide.unit.yaml': CARDS('Reef', 'Tide Runner') });
    cpSync(join(away, 'reef'), join(c.root, 'sea', 'reef'), { recursive: true });
    cpSync(join(away, 'tide'), join(c.root, 'sea', 'tide'), { recursive: true });
    await events(['sea/reef', CREATED], ['sea/tide', CREATED]);
    await c.poll('both folders read', async () => (await cards()).length === 4);
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => unknown(d) === 0);
  });

  it('a big folder moved in (more than a few hundred files) is scanned: every card, then the open fleet', async () => {
    const fleet = await started();
    const big: Record<string, string> = {};
    for (let i = 0; i < 400; i++) big[`bulk/c${String(i).padStart(3, '0')}.unit.yaml`] = CARDS('Reef', `Bulk ${i}`);
    big['bulk/zz.unit.yaml'] = CARDS('Reef', 'Reef Hawk', 'Reef Lance');
    away = outside(big);
    renameSync(join(away, 'bulk'), join(c.root, 'bulk'));
    await events(['bulk', CREATED]);
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => unknown(d) === 0, 30000);
    await c.poll('every card listed', async () => (await cards()).length === 402, 30000);
  });

  it('a folder created then deleted before it is read leaves nothing behind', async () => {
    const fleet = await started();
    away = outside(REEF);
    renameSync(join(away, 'reef'), join(c.root, 'reef'));
    await events(['reef', CREATED]);
    rmSync(join(c.root, 'reef'), { recursive: true });
    await events(['reef', DELETED]);
    // Something after it, to know the server has handled both: a card file created and read.
    writeFileSync(join(c.root, 'marker.unit.yaml'), CARDS('Other', 'Marker'));
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: c.uri('marker.unit.yaml'), type: CREATED }] });
    await c.poll('the marker read', async () => (await cards()).length > 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await cards(), ['Marker @ /marker.unit.yaml']);
    await c.diagnosticsWhere(fleet, 'the fleet still naming unknown cards', (d) => unknown(d) > 0);
  });

  it('a folder still filling when it is read: the files copied in after it was listed are read a moment later', async () => {
    await started();
    mkdirSync(join(c.root, 'late'));
    writeFileSync(join(c.root, 'late', 'a.unit.yaml'), CARDS('Reef', 'Reef Hawk'));
    await events(['late', CREATED]);
    await c.poll('the first file read', async () => (await cards()).length === 1);
    // No event for this one: the client reported the folder only.
    writeFileSync(join(c.root, 'late', 'b.unit.yaml'), CARDS('Reef', 'Reef Lance'));
    await c.poll('the late file read', async () => (await cards()).length === 2, 10000);
  });

  it('a pulling client (VS Code) is asked to pull again, and its pull resolves the fleet', async () => {
    const fleet = await started({}, true);
    const pulled = async () => (await c.request<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: fleet } })).items;
    assert.equal(unknown(await pulled()), 2);
    const refreshes = c.refreshes;
    away = outside(REEF);
    renameSync(join(away, 'reef'), join(c.root, 'reef'));
    await events(['reef', CREATED]);
    await c.waitFor('a diagnostics refresh', () => c.refreshes > refreshes);
    assert.equal(unknown(await pulled()), 0);
    rmSync(join(c.root, 'reef'), { recursive: true });
    const again = c.refreshes;
    await events(['reef', DELETED]);
    await c.waitFor('a diagnostics refresh', () => c.refreshes > again);
    assert.equal(unknown(await pulled()), 2);
  });
});
