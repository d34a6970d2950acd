/**
 * Closing a card file keeps its cards when the file is on disk, however it got there: created and
 * saved while open (with or without the watcher's events, which arrive while the file is open),
 * saved with new text, or never announced at all. A file that was never saved, or was deleted while
 * open, is gone once closed. Driven over stdio as VS Code drives the server: didOpen, didChange,
 * didSave, workspace/didChangeWatchedFiles, didClose.
 */
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';

const card = (name: string, cls = 'Destroyer', points = 145) =>
  `  - name: ${name}\n    class: ${cls}\n    points: ${points}\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - Gun — Energy, 12", 2, 3\n      - Lance — Auto, 9", 1, 4\n`;
const CARDS = (...names: string[]) => `faction: Homebrew Reach\nunits:\n${names.map((n) => card(n)).join('')}`;
const FLEET = (...names: string[]) => `name: Test Fleet\nfaction: Homebrew Reach\npoints: 500\nunits:\n${names.map((n) => `  - unit: ${n}\n`).join('')}`;

const CREATED = 1;
const CHANGED = 2;
const DELETED = 3;

const unknown = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'FS-UNIT-UNKNOWN' || d.code === 'FS-FACTION-UNKNOWN').length;
const spent = (ds: Diagnostic[]) => {
  const d = ds.find((x) => x.code === 'FS-FLEET-UNDER');
  const m = d && /costs (\d+) of/.exec(typeof d.message === 'string' ? d.message : d.message.value);
  return m ? Number(m[1]) : undefined;
};

describe('closing a card file keeps its cards when the file is on disk', function () {
  this.timeout(60000);
  let c: Client;
  let n = 0;

  beforeEach(async () => {
    c = await startServer({ files: { 'keep/other.unit.yaml': 'faction: Elsewhere\nunits:\n' + card('Elsewhere Ship') } });
  });
  afterEach(async () => c?.stop());

  /** Opens a fleet naming `names` and waits until the server has read the workspace. */
  async function fleetOf(...names: string[]): Promise<string> {
    return c.open(`fleets/f${n++}.fleet.yaml`, FLEET(...names));
  }

  /**
   * Waits for the fleet's diagnostics to say its cards resolve (`spentPts` of 500) or not, for a
   * version of the fleet edited now (so that earlier diagnostics cannot answer), and checks that
   * "go to definition" on its first entry agrees.
   */
  async function fleetResolves(fleet: string, yes: boolean, spentPts?: number, at = 'now'): Promise<Diagnostic[]> {
    const text = c.texts.get(fleet)!;
    await c.edit(fleet, 'name: Test Fleet', text.includes('name: Test Fleet ') ? 'name: Test Fleet' : 'name: Test Fleet ');
    const defined = async () => {
      const def = await c.request<unknown[] | { uri: string } | null>('textDocument/definition', {
        textDocument: { uri: fleet },
        position: c.pos(fleet, '- unit: ', 9),
      });
      return Array.isArray(def) ? def.length > 0 : !!def;
    };
    // Right after a close, the cards must never look absent; elsewhere, they must come back.
    if (yes && at === 'now') assert.ok(await defined(), 'the first entry has no definition');
    else if (yes) await c.poll('the first entry to have a definition', defined);
    return c.diagnosticsWhere(fleet, yes ? `the fleet to resolve its cards (${spentPts} pts)` : 'the fleet to miss its cards', (ds) =>
      yes ? unknown(ds) === 0 && spent(ds) === spentPts : unknown(ds) > 0,
    );
  }

  /** A file written on disk, and the watcher's event for it. */
  async function diskFile(rel: string, text: string): Promise<string> {
    const uri = c.writeFile(rel, text);
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: CREATED }] });
    return uri;
  }

  /** A while of server activity: the diagnostics of a bystander document after an edit. */
  async function settle(): Promise<void> {
    const probe = await c.open(`fleets/probe${n++}.fleet.yaml`, FLEET('Elsewhere Ship'));
    await c.diagnosticsWhere(probe, 'a probe', () => true);
    await c.close(probe);
  }

  it('created and saved while open, with the watcher\u2019s event: the cards stay after closing', async () => {
    const cards = await c.open('cards/new.unit.yaml', '');
    await c.edit(cards, '', CARDS('Ember Hawk'));
    const fleet = await fleetOf('Ember Hawk');
    await fleetResolves(fleet, true, 145);
    // Save: VS Code writes the file, sends didSave, and the watcher reports the file created.
    c.writeFile('cards/new.unit.yaml', CARDS('Ember Hawk'));
    await c.conn.sendNotification('textDocument/didSave', { textDocument: { uri: cards } });
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: cards, type: CREATED }] });
    await c.close(cards);
    await settle();
    await fleetResolves(fleet, true, 145);
  });

  it('created while open with no save or watcher event reaching the server: closing reads the file', async () => {
    const cards = await c.open('cards/quiet.unit.yaml', CARDS('Quiet Wing'));
    const fleet = await fleetOf('Quiet Wing');
    await fleetResolves(fleet, true, 145);
    c.writeFile('cards/quiet.unit.yaml', CARDS('Quiet Wing'));
    await c.close(cards);
    await settle();
    await fleetResolves(fleet, true, 145);
  });

  it('saved with new text while open: after closing, the saved text counts, not the old file', async () => {
    const uri = await diskFile('cards/edit.unit.yaml', CARDS('Old Name'));
    const fleet = await fleetOf('New Name', 'Second Ship');
    await fleetResolves(fleet, false);
    const cards = await c.open('cards/edit.unit.yaml', CARDS('Old Name'));
    assert.equal(cards, uri);
    await c.edit(cards, 'Old Name', 'New Name');
    await c.edit(cards, 'faction: Homebrew Reach\nunits:\n', 'faction: Homebrew Reach\nunits:\n' + card('Second Ship'));
    await fleetResolves(fleet, true, 290);
    c.writeFile('cards/edit.unit.yaml', c.texts.get(cards)!);
    await c.conn.sendNotification('textDocument/didSave', { textDocument: { uri: cards } });
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: cards, type: CHANGED }] });
    await c.close(cards);
    await settle();
    await fleetResolves(fleet, true, 290);
  });

  it('closed with unsaved edits: the file on disk counts again', async () => {
    await diskFile('cards/disk.unit.yaml', CARDS('Disk Ship'));
    const fleet = await fleetOf('Disk Ship');
    await fleetResolves(fleet, true, 145, 'soon');
    const cards = await c.open('cards/disk.unit.yaml', CARDS('Disk Ship'));
    await c.edit(cards, 'Disk Ship', 'Draft Ship');
    await fleetResolves(fleet, false);
    await c.close(cards);
    await fleetResolves(fleet, true, 145, 'soon');
  });

  it('never saved: its cards are gone once closed, and so are its diagnostics', async () => {
    const cards = await c.open('cards/draft.unit.yaml', CARDS('Draft Hawk') + '    bases: 9\n');
    const fleet = await fleetOf('Draft Hawk');
    await fleetResolves(fleet, true, 145);
    await c.diagnosticsWhere(cards, 'the draft\u2019s own problem', (ds) => ds.length > 0);
    await c.close(cards);
    await fleetResolves(fleet, false);
    await c.waitFor('the draft\u2019s diagnostics to be cleared', () => c.diagnostics.get(cards)?.diagnostics.length === 0);
  });

  it('deleted while open: its cards are gone once closed', async () => {
    const uri = await diskFile('cards/doomed.unit.yaml', CARDS('Doomed Ship'));
    const fleet = await fleetOf('Doomed Ship');
    await fleetResolves(fleet, true, 145, 'soon');
    const cards = await c.open('cards/doomed.unit.yaml', CARDS('Doomed Ship'));
    rmSync(join(c.root, 'cards/doomed.unit.yaml'));
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: DELETED }] });
    await settle();
    await fleetResolves(fleet, true, 145);
    await c.close(cards);
    await fleetResolves(fleet, false);
  });
});
