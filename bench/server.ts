/**
 * The language server over stdio, driven as an editor drives it: the time from a one-line
 * edit to fresh diagnostics for a 300-line fleet in a workspace of 200 card files and for one line of
 * a 20,000-line unit file, with push diagnostics (publishDiagnostics) and with pull diagnostics
 * (textDocument/diagnostic right after the change, as VS Code does); and hover and completion latency.
 *
 * Edits are a typing pause apart (longer than the default re-validation delay), so each measures
 * the first change after a pause, which the server validates at once.
 */
import { performance } from 'node:perf_hooks';
import { bigUnitFile, bigWorkspace } from './generate';
import { median, type Row } from './util';
import { startServer, type Client } from '../test/protocol/harness';
import { CLASS_NAMES } from '../server/src/core/rules/data';
import { DEFAULT_SETTINGS } from '../protocol';

const EDITS = 30;
/** Edits (and queries) first made and not measured: the server's code is compiled by the first few. */
const WARMUP = 6;
const QUERIES = 60;
/** Longer than the default `fabledStar.diagnostics.delayMs`: each edit starts a new burst. */
const PAUSE_MS = DEFAULT_SETTINGS.diagnostics.delayMs + 50;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function workspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [uri, text] of bigWorkspace(4000, 0)) files[uri.replace('file:///bench/', '')] = text;
  files['big/big.unit.yaml'] = bigUnitFile(20000, 'Big');
  const fleet = ['name: Bench Armada', 'faction: Bench', 'points: 100000', 'objectives: 10', 'units:'];
  for (let e = 0; fleet.length < 305; e++) {
    const i = (e * 37) % 4000;
    fleet.push(`  - unit: Bench ${CLASS_NAMES[4 + (i % 6)]} ${i}`, `    count: ${1 + (e % 3)}`);
  }
  files['fleets/armada.fleet.yaml'] = fleet.join('\n') + '\n';
  return files;
}

async function waitIndexed(c: Client, files: Record<string, string>): Promise<void> {
  const expected = Object.values(files).reduce((n, t) => n + (t.match(/^ {2}- name: /gm) ?? []).length, 0);
  for (let i = 0; i < 2400; i++) {
    const cards = await c.request<unknown[]>('fabledStar/listCards', {});
    if (cards.length >= expected) return;
    await pause(50);
  }
  throw new Error('the workspace was not indexed');
}

/** One-line edits of `line` (alternating two texts); time until diagnostics for that version. */
async function pushEdits(c: Client, uri: string, a: string, b: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + EDITS; i++) {
    const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
    await pause(PAUSE_MS);
    const t0 = performance.now();
    const version = await c.edit(uri, from, to);
    await c.waitFor('fresh diagnostics', () => (c.arrivals.get(uri)?.version === version ? true : undefined), 30000);
    if (i >= WARMUP) times.push(c.arrivals.get(uri)!.at - t0);
  }
  return times;
}

async function pullEdits(c: Client, uri: string, a: string, b: string): Promise<number[]> {
  const times: number[] = [];
  let previousResultId: string | undefined;
  for (let i = 0; i < WARMUP + EDITS; i++) {
    const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
    await pause(PAUSE_MS);
    const t0 = performance.now();
    await c.edit(uri, from, to);
    const r = await c.request<{ kind: string; resultId?: string; items?: unknown[] }>('textDocument/diagnostic', {
      textDocument: { uri },
      ...(previousResultId ? { previousResultId } : {}),
    });
    if (i >= WARMUP) times.push(performance.now() - t0);
    if (r.kind !== 'full') throw new Error('expected a full report after an edit');
    previousResultId = r.resultId;
  }
  return times;
}

async function latency(c: Client, method: string, params: () => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + QUERIES; i++) {
    const t0 = performance.now();
    const r = await c.request<unknown>(method, params());
    if (i >= WARMUP) times.push(performance.now() - t0);
    if (r === null || r === undefined) throw new Error(`${method} gave nothing`);
  }
  return times;
}

export async function benchServer(): Promise<Row[]> {
  const files = workspaceFiles();
  const rows: Row[] = [];
  const fleetRel = 'fleets/armada.fleet.yaml';
  const bigRel = 'big/big.unit.yaml';
  const bigText = files[bigRel]!;
  // A line in the middle of the big file, and one of the fleet's count lines.
  const mid = bigText.indexOf('points: ', bigText.length >> 1);
  const bigLine = bigText.slice(mid, bigText.indexOf('\n', mid));
  const bigEdited = bigLine.replace(/\d+$/, (n) => String(Number(n) + 1));
  const fleetLine = '    count: 2';

  for (const mode of (process.env.BENCH_ORDER === 'pull-first' ? ['pull', 'push'] : ['push', 'pull']) as ('push' | 'pull')[]) {
    const c = await startServer({ files, pull: mode === 'pull' });
    try {
      await waitIndexed(c, files);
      const fleet = await c.open(fleetRel, files[fleetRel]);
      const big = await c.open(bigRel, bigText);
      if (mode === 'push') {
        await c.waitFor('first diagnostics', () => (c.arrivals.has(fleet) && c.arrivals.has(big) ? true : undefined), 60000);
        const f = await pushEdits(c, fleet, fleetLine, '    count: 3');
        rows.push({ name: 'edit -> fresh diagnostics, 300-line fleet, 200 card files (push)', medianMs: median(f), goal: '< 20 ms' });
        const b = await pushEdits(c, big, bigLine, bigEdited);
        rows.push({ name: 'edit -> fresh diagnostics, one line of the 20,000-line unit file (push)', medianMs: median(b), goal: '< 50 ms' });
      } else {
        const f = await pullEdits(c, fleet, fleetLine, '    count: 3');
        rows.push({ name: 'edit -> fresh diagnostics, 300-line fleet, 200 card files (pull)', medianMs: median(f), goal: '< 20 ms' });
        const b = await pullEdits(c, big, bigLine, bigEdited);
        rows.push({ name: 'edit -> fresh diagnostics, one line of the 20,000-line unit file (pull)', medianMs: median(b), goal: '< 50 ms' });
        continue;
      }
      const hb = await latency(c, 'textDocument/hover', () => ({ textDocument: { uri: big }, position: c.pos(big, 'LD: 6/3', 5, 400) }));
      rows.push({ name: 'hover on a stat, 20,000-line unit file', medianMs: median(hb), goal: '< 10 ms' });
      const hf = await latency(c, 'textDocument/hover', () => ({ textDocument: { uri: fleet }, position: c.pos(fleet, 'unit: ', 8, 70) }));
      rows.push({ name: 'hover on a fleet entry (card stat line and points)', medianMs: median(hf), goal: '< 10 ms' });
      const cf = await latency(c, 'textDocument/completion', () => ({ textDocument: { uri: fleet }, position: c.pos(fleet, 'unit: ', 6, 70) }));
      rows.push({ name: 'completion of a card name in the fleet (4000 cards)', medianMs: median(cf), goal: '< 10 ms' });
      const cb = await latency(c, 'textDocument/completion', () => ({ textDocument: { uri: big }, position: c.pos(big, 'class: ', 7, 400) }));
      rows.push({ name: 'completion of a class, 20,000-line unit file', medianMs: median(cb), goal: '< 10 ms' });
    } finally {
      await c.stop();
    }
  }
  return rows;
}
