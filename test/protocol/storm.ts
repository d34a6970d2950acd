/**
 * A storm of file events, as the event-storm test and the bench (`npm run bench -- storm`) play
 * it against the bundled server over stdio: thousands of card files written into a folder the
 * server already knows, reported as one Created event each in one `workspace/didChangeWatchedFiles`
 * (what VS Code sends for a `git checkout` or an unzip), or deleted, or reported created when they
 * are gone already; and, to compare with, the same files in a folder moved in (one event for the
 * folder). Measured meanwhile: how long a hover on the open fleet takes (against its time when the
 * server is idle), the server's resident memory, and how long until the fleet resolves the card of
 * the last file.
 */
import { readFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';

export const CREATED = 1;
export const DELETED = 3;

export const stormCard = (i: number) => `faction: Storm\nunits:\n  - name: Storm Card ${i}\n    class: Frigate\n    points: 40\n`;
const FLEET = (last: number) => `name: Storm Fleet\nfaction: Storm\npoints: 1000\nunits:\n  - unit: Storm Base\n  - unit: Storm Card ${last}\n`;

const unknown = (ds: Diagnostic[]) => ds.some((d) => d.code === 'FS-UNIT-UNKNOWN');

/** A server whose workspace knows the folder `cards/` (one card in it), with the fleet open and the first scan over. */
export async function stormServer(n: number): Promise<{ c: Client; fleet: string }> {
  const c = await startServer({
    files: { 'cards/base.unit.yaml': stormCard(0).replace('Storm Card 0', 'Storm Base'), 'fleets/storm.fleet.yaml': FLEET(n - 1) },
  });
  const fleet = await c.open('fleets/storm.fleet.yaml', FLEET(n - 1));
  await c.waitFor(
    'the end of the first scan',
    () => c.notifications.some((m) => m.method === '$/progress' && (m.params as { value: { kind: string } }).value.kind === 'end'),
    60000,
  );
  await c.diagnosticsWhere(fleet, 'the fleet without the storm card', unknown, 60000);
  return { c, fleet };
}

/** The server's resident memory, in MB (Linux). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const hover = async (c: Client, fleet: string): Promise<number> => {
  const t = performance.now();
  const h = await c.request<{ contents: unknown } | null>('textDocument/hover', {
    textDocument: { uri: fleet },
    position: c.pos(fleet, 'unit: Storm Base', 8),
  });
  if (!h) throw new Error('no hover on the fleet\u2019s card');
  return performance.now() - t;
};

/** The median time of a hover on the fleet while the server has nothing else to do. */
export async function idleHoverMs(c: Client, fleet: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) times.push(await hover(c, fleet));
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

export interface Storm {
  /** From the events sent until the fleet and every file of the storm showed what they mean (indexed and checked). */
  ms: number;
  /** The slowest hover meanwhile (one after another, 50 ms apart), and how many. */
  maxHoverMs: number;
  hovers: number;
  /** The most the server's resident memory grew meanwhile, in MB. */
  rssGrowthMb: number;
}

/**
 * Sends `send`, and hovers on the fleet (one after another, 50 ms apart) and samples the server's
 * memory until the fleet's diagnostics say `resolved` (whether the last storm card is known) and
 * each of `files` has its diagnostics published: some when `resolved` (the storm's cards have no
 * stats), none when not.
 */
export async function during(c: Client, fleet: string, resolved: boolean, files: readonly string[], send: () => Promise<void>): Promise<Storm> {
  const pid = c.child.pid!;
  const base = rssMb(pid);
  let peak = base;
  let stop = false;
  let maxHoverMs = 0;
  let hovers = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const t0 = performance.now();
  const hovering = (async () => {
    while (!stop) {
      maxHoverMs = Math.max(maxHoverMs, await hover(c, fleet));
      hovers++;
      peak = Math.max(peak, rssMb(pid));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await send();
    await c.diagnosticsWhere(
      fleet,
      resolved ? 'the fleet resolving the storm card' : 'the fleet without the storm card',
      (d) => unknown(d) !== resolved,
      120000,
    );
    const shows = (u: string) => (c.diagnostics.get(u)?.diagnostics.length ?? -1) > 0 === resolved;
    // Checked at every message: from the first file not there yet (a pass over all is a test client too slow to read).
    let next = 0;
    const there = () => {
      while (next < files.length && shows(files[next]!)) next++;
      return next === files.length && files.every(shows);
    };
    await c.waitFor(resolved ? 'every storm file checked' : 'every storm file\u2019s problems cleared', there, 120000);
    return { ms: performance.now() - t0, maxHoverMs, hovers, rssGrowthMb: peak - base };
  } finally {
    stop = true;
    clearInterval(sampler);
    await hovering;
  }
}

/** Writes storm cards 0..n-1 into `dir` (relative to the workspace). */
export function writeStorm(c: Client, dir: string, n: number): string[] {
  mkdirSync(join(c.root, dir), { recursive: true });
  const uris: string[] = [];
  for (let i = 0; i < n; i++) {
    const rel = `${dir}/s${String(i).padStart(5, '0')}.unit.yaml`;
    writeFileSync(join(c.root, rel), stormCard(i));
    uris.push(c.uri(rel));
  }
  return uris;
}

/** One workspace/didChangeWatchedFiles with an event of `type` for each uri. */
export const events = (c: Client, uris: readonly string[], type: number) =>
  c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: uris.map((uri) => ({ uri, type })) });

/** n card files written into the known folder, one Created event each. */
export async function createdStorm(c: Client, fleet: string, n: number): Promise<{ storm: Storm; uris: string[] }> {
  const uris = writeStorm(c, 'cards', n);
  return { storm: await during(c, fleet, true, uris, () => events(c, uris, CREATED)), uris };
}

/** The files deleted, one Deleted event each. */
export async function deletedStorm(c: Client, fleet: string, uris: string[]): Promise<Storm> {
  for (const u of uris) rmSync(new URL(u));
  return during(c, fleet, false, uris, () => events(c, uris, DELETED));
}

/** Created events for n files that are gone already, then one for a file that is there (the last card). */
export async function goneStorm(c: Client, fleet: string, n: number): Promise<Storm> {
  const gone = Array.from({ length: n - 1 }, (_, i) => c.uri(`cards/gone${i}.unit.yaml`));
  const rel = `cards/s${String(n - 1).padStart(5, '0')}.unit.yaml`;
  writeFileSync(join(c.root, rel), stormCard(n - 1));
  return during(c, fleet, true, [c.uri(rel)], () => events(c, [...gone, c.uri(rel)], CREATED));
}

/** The folder-created path, to compare with: the same n files in a folder moved into the workspace, one event for the folder. */
export async function folderMovedIn(c: Client, fleet: string, n: number): Promise<Storm> {
  const files = writeStorm(c, '.staging/new', n).map((u) => u.replace('/.staging/new/', '/cards/new/'));
  return during(c, fleet, true, files, async () => {
    renameSync(join(c.root, '.staging/new'), join(c.root, 'cards/new'));
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(join(c.root, 'cards/new')).toString(), type: CREATED }],
    });
  });
}
