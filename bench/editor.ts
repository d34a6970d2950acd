/**
 * Speed as the editor sees it: the BUILT server (dist/server.js) over stdio, driven by a
 * real LSP client (vscode-languageserver-protocol's createProtocolConnection, as the protocol
 * tests do), side by side with yaml-language-server over stdio configured with our JSON schema, in
 * the same run, with the bare parse of the position-keeping YAML parsers as the floor.
 *
 * (a) Cold open: a fresh server, didOpen of a 20,000-line unit file -> its diagnostics; RSS after.
 * (b) A workspace of 20,000 card files and 500 fleets: server start -> the opened fleet's resolved
 *     diagnostics; hover latency during the scan; work-done progress seen; RSS after indexing.
 * (c) Edit -> diagnostics in a fleet (a fleet edit, and a card edit the fleet depends on) in
 *     workspaces of 1,000, 10,000 and 20,000 card files: the curve should stay flat.
 * (d) Where the open fleet's cards are: in the same 20,000-file workspace, an open fleet
 *     naming the cards of the first, the middle and the last files read, for a client that is
 *     published to and for one that pulls (VS Code); beside the floor, a fresh process that lists,
 *     reads and parses every file with the server's parser. And the folder of those 20,000 card files
 *     moved out of the workspace (one Deleted event for the folder, as VS Code sends it) and back in
 *     (one Created event): until the card list is empty, and full again.
 *
 * Figures are medians with min and max. Linux: RSS is read from /proc/<pid>/status.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { bigUnitFile, card } from './generate';
import { median, type Row } from './util';
import { CAPABILITIES, startServer, type Client } from '../test/protocol/harness';
import { CLASS_NAMES } from '../server/src/core/rules/data';
import fg from 'fast-glob';
import { parseDocument, kindOfUri } from '../server/src/core/model/parse';
import { ChunkCache } from '../server/src/core/model/chunks';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WS_RUNS = Number(process.env.BENCH_WS_RUNS ?? 3);
const EDITS = 20;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function proc(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * CPU time (user + system, ms) a process has used: beside wall-clock figures on a shared machine,
 * where other processes' load inflates the wall clock but not this.
 */
export function cpuMs(pid: number | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * CPU time (ms) of a process's main thread alone (Linux: `se.sum_exec_runtime` in
 * /proc/<pid>/task/<pid>/sched, in microseconds): the JavaScript and the garbage collector's share
 * of it, without the collector's and compiler's helper threads, which the process CPU time includes.
 */
export function mainThreadMs(pid: number | undefined): number {
  try {
    const m = /se\.sum_exec_runtime\s*:\s*([\d.]+)/.exec(readFileSync(`/proc/${pid}/task/${pid}/sched`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

function spread(xs: number[], unit = 'ms'): string {
  const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
  return xs.length > 1 ? `min ${f(Math.min(...xs))}, max ${f(Math.max(...xs))} ${unit}, n=${xs.length}` : `n=1`;
}

/** The 20,000-line file, with one deliberate schema error (so both servers show they checked it). */
export function coldFile(): string {
  const text = bigUnitFile(20000, 'Bench');
  const at = text.indexOf('    points: ', text.length >> 1);
  return text.slice(0, at) + '    points: lots' + text.slice(text.indexOf('\n', at));
}

interface Cold {
  ms: number;
  /** CPU time the server spent from didOpen to the diagnostics. */
  cpu: number;
  /** The same, of its main thread alone. */
  main: number;
  rss: number;
  problems: number;
  /** A one-line edit after the open (its notes in, when ours): didChange -> the new version's diagnostics. */
  edit: number;
  /** The server's CPU time over that edit (the peer's 200 ms typing pause is wall time, not CPU). */
  editCpu: number;
}

/** The one-line edit both servers get after the open: a points value in the middle of the file. */
function editOf(text: string): { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string } {
  const at = text.indexOf('    points: ', text.length >> 2);
  const line = text.slice(0, at).split('\n').length - 1;
  const end = text.indexOf('\n', at) - at;
  return { range: { start: { line, character: 0 }, end: { line, character: end } }, text: '    points: 205' };
}

/** `text` with `editOf(text)` applied. */
function edited(text: string): string {
  const at = text.indexOf('    points: ', text.length >> 2);
  return text.slice(0, at) + '    points: 205' + text.slice(text.indexOf('\n', at));
}

async function oursCold(text: string): Promise<Cold> {
  const c = await startServer({ folder: false });
  try {
    await pause(300); // let the process settle after initialize, as an editor's would
    const cpu0 = cpuMs(c.child.pid);
    const main0 = mainThreadMs(c.child.pid);
    const t0 = performance.now();
    const uri = await c.open('big.unit.yaml', text);
    await c.waitFor('diagnostics', () => c.arrivals.has(uri), 60000);
    const ms = c.arrivals.get(uri)!.at - t0;
    const cpu = cpuMs(c.child.pid) - cpu0;
    const main = mainThreadMs(c.child.pid) - main0;
    const rss = proc(c.child.pid, 'VmRSS');
    const problems = c.diagnostics.get(uri)!.diagnostics.length;
    // The notes follow the checks: let them in (and the server settle) before the edit.
    await pause(1500);
    const change = editOf(text);
    const cpu1 = cpuMs(c.child.pid);
    const t1 = performance.now();
    const version = await c.change(uri, [change], edited(text));
    await c.waitFor("the edit's diagnostics", () => c.arrivals.get(uri)?.version === version, 60000);
    return { ms, cpu, main, rss, problems, edit: c.arrivals.get(uri)!.at - t1, editCpu: cpuMs(c.child.pid) - cpu1 };
  } finally {
    await c.stop();
  }
}

/** yaml-language-server over stdio, with schemas/fabled-unit.schema.json mapped to *.unit.yaml. */
async function peerCold(text: string): Promise<Cold> {
  const dir = mkdtempSync(join(tmpdir(), 'fabled-peer-'));
  const file = join(dir, 'big.unit.yaml');
  writeFileSync(file, text);
  const uri = pathToFileURL(file).toString();
  const schema = pathToFileURL(join(process.cwd(), 'schemas', 'fabled-unit.schema.json')).toString();
  const yamlSettings = {
    validate: true,
    hover: false,
    completion: false,
    format: { enable: false },
    schemaStore: { enable: false },
    schemas: { [schema]: ['*.unit.yaml'] },
  };
  const bin = join(process.cwd(), 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
  const child = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  let arrived: { at: number; n: number } | undefined;
  let editArrived: number | undefined;
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    if (p.uri === uri && !arrived) arrived = { at: performance.now(), n: p.diagnostics.length };
    // yaml-language-server publishes without a version: the first message after the edit is its.
    else if (p.uri === uri && editArrived === undefined && editSent) editArrived = performance.now();
  });
  let editSent = false;
  conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map((i) => (i.section === 'yaml' ? yamlSettings : i.section === 'editor' ? { tabSize: 2, detectIndentation: false } : null)),
  );
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.listen();
  try {
    await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: null, capabilities: CAPABILITIES(false) });
    await conn.sendNotification('initialized', {});
    await conn.sendNotification('workspace/didChangeConfiguration', { settings: { yaml: yamlSettings } });
    await pause(300);
    const cpu0 = cpuMs(child.pid);
    const main0 = mainThreadMs(child.pid);
    const t0 = performance.now();
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    for (let i = 0; !arrived && i < 6000; i++) await pause(5);
    if (!arrived) throw new Error('yaml-language-server sent no diagnostics');
    const open = {
      ms: arrived.at - t0,
      cpu: cpuMs(child.pid) - cpu0,
      main: mainThreadMs(child.pid) - main0,
      rss: proc(child.pid, 'VmRSS'),
      problems: arrived.n,
    };
    await pause(1500);
    const cpu1 = cpuMs(child.pid);
    const t1 = performance.now();
    editSent = true;
    await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [editOf(text)] });
    for (let i = 0; editArrived === undefined && i < 6000; i++) await pause(2);
    if (editArrived === undefined) throw new Error('yaml-language-server sent no diagnostics after the edit');
    return { ...open, edit: editArrived - t1, editCpu: cpuMs(child.pid) - cpu1 };
  } finally {
    try {
      await Promise.race([conn.sendRequest('shutdown'), pause(2000)]);
      await conn.sendNotification('exit');
    } catch {
      // gone already
    }
    conn.dispose();
    await Promise.race([new Promise((r) => child.once('exit', r)), pause(2000)]);
    if (child.exitCode === null) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor: a fresh node process parses the text once (cold, as a fresh server does) with each parser. */
function bareParse(text: string): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'fabled-floor-'));
  const file = join(dir, 'big.unit.yaml');
  writeFileSync(file, text);
  const script = `
    const fs = require('fs'); const { performance } = require('perf_hooks');
    const text = fs.readFileSync(${JSON.stringify(file)}, 'utf8');
    const which = process.argv[1];
    let parse;
    if (which === 'yaml-ast-parser') { const p = require('@stoplight/yaml-ast-parser'); parse = (t) => p.load(t); }
    else { const y = require('yaml'); parse = (t) => y.parseDocument(t, { keepSourceTokens: false }); }
    const t0 = performance.now(); parse(text); process.stdout.write(String(performance.now() - t0));`;
  const out: Record<string, number> = {};
  try {
    for (const which of ['yaml-ast-parser', 'yaml'])
      out[which] = Number(execFileSync(process.execPath, ['-e', script, which], { cwd: process.cwd(), encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** A workspace of `cards` one-card files and `fleets` fleets of 8 entries each. */
function workspace(cards: number, fleets: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < cards; i++) files[`cards/c${String(i).padStart(5, '0')}.unit.yaml`] = ['faction: Bench', 'units:', ...card(i, 'Bench')].join('\n') + '\n';
  for (let f = 0; f < fleets; f++) {
    const out = [`name: Bench Fleet ${f}`, 'faction: Bench', 'points: 100000', 'objectives: 10', 'units:'];
    for (let e = 0; e < 8; e++) {
      const i = (f * 7 + e * 13) % cards;
      out.push(`  - unit: Bench ${CLASS_NAMES[4 + (i % 6)]} ${i}`);
      if (e % 3 === 0) out.push('    count: 2');
    }
    files[`fleets/fleet-${String(f).padStart(3, '0')}.fleet.yaml`] = out.join('\n') + '\n';
  }
  return files;
}

const ended = (c: Client) => c.notifications.some((n) => n.method === '$/progress' && (n.params as { value: { kind: string } }).value.kind === 'end');

interface WsRun {
  firstResolved: number;
  /** CPU time the server had spent when the fleet's resolved diagnostics were seen. */
  cpu: number;
  /** CPU time the server had spent at the end of the scan. */
  scanCpu: number;
  scanEnd: number;
  hovers: number[];
  reports: number;
  rss: number;
  hwm: number;
  /** RSS once the server went idle after the scan and stopped giving memory back, and when (ms after the scan's end). */
  settled: number;
  settleMs: number;
  fleetEdits: number[];
  cardEdits: number[];
}

async function workspaceRun(cards: number, fleets: number, edits: boolean): Promise<WsRun> {
  const files = workspace(cards, fleets);
  const fleetRel = 'fleets/fleet-000.fleet.yaml';
  let t0 = 0;
  // The client's typing delay is 0 here, so that a card edit's dependents are re-checked at once and what is timed is the work.
  const c = await startServer({ files, settings: { diagnostics: { delayMs: 0 } }, before: () => (t0 = performance.now()) });
  try {
    const fleet = await c.open(fleetRel, files[fleetRel]);
    const hovers: number[] = [];
    // The first publication that resolves the fleet (it may come before the scan ends), and the
    // server's CPU time when it was seen.
    const resolved = () => c.diagnostics.has(fleet) && !c.diagnostics.get(fleet)!.diagnostics.some((x) => x.code === 'FS-UNIT-UNKNOWN');
    let first: { at: number; cpu: number } | undefined;
    const look = () => {
      if (!first && resolved()) first = { at: c.arrivals.get(fleet)!.at, cpu: cpuMs(c.child.pid) };
    };
    while (!ended(c) && performance.now() - t0 < 120000) {
      const h0 = performance.now();
      await c.request('textDocument/hover', { textDocument: { uri: fleet }, position: c.pos(fleet, 'objectives', 2) });
      hovers.push(performance.now() - h0);
      look();
      await pause(20);
      look();
    }
    await c.waitFor('scan end', () => ended(c), 120000);
    const scanEnd = performance.now() - t0;
    const scanCpu = cpuMs(c.child.pid);
    await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => !d.some((x) => x.code === 'FS-UNIT-UNKNOWN'), 120000);
    look();
    const firstResolved = first!.at - t0;
    const cpu = first!.cpu;
    const reports = c.notifications.filter((n) => n.method === '$/progress' && (n.params as { value: { kind: string } }).value.kind === 'report').length;
    const rss = proc(c.child.pid, 'VmRSS');
    const hwm = proc(c.child.pid, 'VmHWM');
    // The server gives memory back once idle (after re-checking the closed files): RSS once it has
    // not moved for 5 s (at most 90 s).
    const s0 = performance.now();
    const { settled, settledAt } = await settledRss(c.child.pid, rss, s0);
    const settleMs = settledAt - s0 + (s0 - t0 - scanEnd);
    const fleetEdits: number[] = [];
    const cardEdits: number[] = [];
    if (edits) {
      await pause(500); // let the re-validation of the workspace after the scan finish
      for (let i = 0; i < EDITS + 3; i++) {
        await pause(60);
        const [a, b] = i % 2 ? ['    count: 3', '    count: 2'] : ['    count: 2', '    count: 3'];
        const e0 = performance.now();
        const v = await c.edit(fleet, a, b);
        await c.waitFor('fleet diagnostics', () => c.arrivals.get(fleet)?.version === v, 30000);
        if (i >= 3) fleetEdits.push(c.arrivals.get(fleet)!.at - e0);
      }
      const cardRel = 'cards/c00000.unit.yaml';
      const cardUri = await c.open(cardRel, files[cardRel]);
      await c.waitFor('card diagnostics', () => c.arrivals.has(cardUri), 30000);
      for (let i = 0; i < EDITS + 3; i++) {
        await pause(60);
        const n = c.published.length;
        const [a, b] = i % 2 ? ['    points: 41', '    points: 40'] : ['    points: 40', '    points: 41'];
        const text = c.texts.get(cardUri)!;
        const from = text.includes(a) ? a : text.match(/ {4}points: \d+/)![0];
        const e0 = performance.now();
        await c.edit(cardUri, from, b);
        await c.waitFor('the fleet re-checked', () => c.published.slice(n).some((p) => p.uri === fleet), 30000);
        if (i >= 3) cardEdits.push(c.arrivals.get(fleet)!.at - e0);
      }
    }
    return { firstResolved, cpu, scanCpu, scanEnd, hovers, reports, rss, hwm, settled, settleMs, fleetEdits, cardEdits };
  } finally {
    await c.stop();
  }
}

export async function benchEditor(): Promise<Row[]> {
  const rows: Row[] = [];
  // BENCH_PARTS=a (or b, c, d): only those parts; (c) at 20,000 files reuses the first run of (b).
  const parts = process.env.BENCH_PARTS ?? 'abcd';
  if (parts.includes('a')) await coldOpen(rows);
  if (parts.includes('b') || parts.includes('c')) await workspaces(rows, parts.includes('b'), parts.includes('c'));
  if (parts.includes('d')) await wherever(rows);
  rows.push({ name: 'load average at the end', medianMs: Number(load()), goal: '', unit: '' });
  return rows;
}

const load = () => loadavg()[0]!.toFixed(1);

async function coldOpen(rows: Row[]): Promise<void> {
  const text = coldFile();
  const lines = text.split('\n').length - 1;
  const ours: Cold[] = [];
  const peer: Cold[] = [];
  const floors: Record<string, number[]> = {};
  const loadStart = load();
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so that both see the same load.
    ours.push(await oursCold(text));
    peer.push(await peerCold(text));
    for (const [k, v] of Object.entries(bareParse(text))) (floors[k] ??= []).push(v);
  }
  const oMs = ours.map((r) => r.ms);
  const pMs = peer.map((r) => r.ms);
  const floorName = Object.keys(floors).sort((a, b) => median(floors[a]!) - median(floors[b]!))[0]!;
  const floor = median(floors[floorName]!);
  rows.push({
    name: `(a) cold open, ${lines}-line unit file, fresh server: didOpen -> diagnostics (${ours[0]!.problems} problems)`,
    medianMs: median(oMs),
    goal: `>= 5x faster than the peer, <= 2x the floor`,
    note: `${spread(oMs)}; ${(median(pMs) / median(oMs)).toFixed(1)}x faster than the peer, ${(median(oMs) / floor).toFixed(2)}x the floor; server CPU ${median(ours.map((r) => r.cpu)).toFixed(0)} ms (main thread ${median(ours.map((r) => r.main)).toFixed(0)} ms); load ${loadStart}`,
  });
  rows.push({
    name: `(a) peer: yaml-language-server ${peerVersion()} with schemas/fabled-unit.schema.json (${peer[0]!.problems} problems)`,
    medianMs: median(pMs),
    goal: 'reference',
    note: `${spread(pMs)}; server CPU ${median(peer.map((r) => r.cpu)).toFixed(0)} ms (main thread ${median(peer.map((r) => r.main)).toFixed(0)} ms)`,
  });
  const oEdit = ours.map((r) => r.edit);
  const pEdit = peer.map((r) => r.edit);
  const oEc = median(ours.map((r) => r.editCpu));
  const pEc = median(peer.map((r) => r.editCpu));
  rows.push({
    name: '(a) then a one-line edit -> its diagnostics (notes included), server CPU',
    medianMs: oEc,
    goal: '>= 10x less than the peer',
    note: `${(pEc / oEc).toFixed(1)}x less than the peer; wall ${median(oEdit).toFixed(1)} ms (${spread(oEdit)})`,
  });
  rows.push({
    name: '(a) peer: the same edit, server CPU',
    medianMs: pEc,
    goal: 'reference',
    note: `wall ${median(pEdit).toFixed(0)} ms (${spread(pEdit)}), of which 200 ms is its pause for typing`,
  });
  for (const [k, v] of Object.entries(floors))
    rows.push({
      name: `(a) floor: bare first parse in a fresh process, ${k}${k === floorName ? ' (fastest)' : ''}`,
      medianMs: median(v),
      goal: 'reference',
      note: spread(v),
    });
  rows.push({
    name: '(a) RSS after the cold open (MB): ours',
    medianMs: median(ours.map((r) => r.rss)),
    goal: 'next to the peer',
    note: spread(
      ours.map((r) => r.rss),
      'MB',
    ),
    unit: 'MB',
  });
  rows.push({
    name: '(a) RSS after the cold open (MB): yaml-language-server',
    medianMs: median(peer.map((r) => r.rss)),
    goal: 'reference',
    note: spread(
      peer.map((r) => r.rss),
      'MB',
    ),
    unit: 'MB',
  });
}

async function workspaces(rows: Row[], b: boolean, c: boolean): Promise<void> {
  const big: WsRun[] = [];
  for (let i = 0; i < (b ? WS_RUNS : 1); i++) big.push(await workspaceRun(20000, 500, i === 0 && c));
  const first = big.map((r) => r.firstResolved);
  rows.push({
    name: '(b) 20,000 card files + 500 fleets: server start -> first opened fleet resolved',
    medianMs: median(first),
    goal: '< 3000 ms',
    note: `${spread(first)}; server CPU by then ${median(big.map((r) => r.cpu)).toFixed(0)} ms; scan end ${median(big.map((r) => r.scanEnd)).toFixed(0)} ms (server CPU ${median(big.map((r) => r.scanCpu)).toFixed(0)} ms); load ${load()}`,
  });
  const hov = big.flatMap((r) => r.hovers);
  rows.push({
    name: '(b) hover on the open fleet during the scan',
    medianMs: median(hov),
    goal: 'answered during the scan',
    note: `${spread(hov)}; progress reports per scan: ${big.map((r) => r.reports).join(', ')}`,
  });
  rows.push({
    name: '(b) RSS after indexing, once the server is idle (MB)',
    medianMs: median(big.map((r) => r.settled)),
    goal: '< 200 MB',
    note: `${spread(
      big.map((r) => r.settled),
      'MB',
    )}; settled ${(median(big.map((r) => r.settleMs)) / 1000).toFixed(1)} s after the scan ended`,
    unit: 'MB',
  });
  rows.push({
    name: "(b) RSS at the scan's end, and the peak (MB)",
    medianMs: median(big.map((r) => r.rss)),
    goal: '',
    note: `peak (VmHWM) ${median(big.map((r) => r.hwm)).toFixed(0)} MB`,
    unit: 'MB',
  });

  const curve: { size: number; run: WsRun }[] = [];
  for (const size of [1000, 10000]) curve.push({ size, run: await workspaceRun(size, Math.min(500, size / 2), true) });
  curve.push({ size: 20000, run: big[0]! });
  for (const { size, run } of curve) {
    rows.push({
      name: `(c) fleet edit -> fleet diagnostics, ${size} card files`,
      medianMs: median(run.fleetEdits),
      goal: 'flat',
      note: spread(run.fleetEdits),
    });
    rows.push({
      name: `(c) card edit -> the fleet using it re-checked, ${size} card files`,
      medianMs: median(run.cardEdits),
      goal: 'flat',
      note: spread(run.cardEdits),
    });
  }
}

function peerVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(process.cwd(), 'node_modules', 'yaml-language-server', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '';
  }
}

const POS_RUNS = Number(process.env.BENCH_POS_RUNS ?? 3);
const WHERE_CARDS = 20000;

/** A fleet naming 8 cards of the files at `from` (the files are read in name order). */
function whereFleet(from: number): string {
  const out = ['name: Where Fleet', 'faction: Bench', 'points: 100000', 'objectives: 10', 'units:'];
  for (let i = from; i < from + 8; i++) out.push(`  - unit: Bench ${CLASS_NAMES[4 + (i % 6)]} ${i}`);
  return out.join('\n') + '\n';
}

interface WhereRun {
  /** Server start -> the open fleet's diagnostics with every card resolved. */
  resolved: number;
  /** Server CPU by then. */
  cpu: number;
  /** RSS then, and at the scan's end; the peak. */
  rss: number;
  scanEnd: number;
  rssEnd: number;
  hwm: number;
}

/**
 * One run: server start -> the open fleet resolved. A push client waits for the publication; a
 * pulling one pulls as VS Code does, when the document opens and whenever the server asks it to
 * pull again (workspace/diagnostic/refresh).
 */
async function whereRun(from: number, pull: boolean): Promise<WhereRun> {
  const files = workspace(WHERE_CARDS, 500);
  const rel = 'fleets/where.fleet.yaml';
  files[rel] = whereFleet(from);
  let t0 = 0;
  const c = await startServer({ files, pull, before: () => (t0 = performance.now()) });
  try {
    const fleet = await c.open(rel, files[rel]);
    const resolved = (ds: { code?: unknown }[]) => !ds.some((x) => x.code === 'FS-UNIT-UNKNOWN');
    let at = 0;
    let cpu = 0;
    let rss = 0;
    if (pull) {
      for (;;) {
        const seen = c.refreshes;
        const r = await c.request<{ items: { code?: unknown }[] }>('textDocument/diagnostic', { textDocument: { uri: fleet } });
        if (resolved(r.items)) {
          at = performance.now() - t0;
          break;
        }
        await c.waitFor('a refresh', () => c.refreshes > seen, 120000);
      }
    } else {
      await c.diagnosticsWhere(fleet, 'the fleet resolved', resolved, 120000);
      at = c.arrivals.get(fleet)!.at - t0;
    }
    cpu = cpuMs(c.child.pid);
    rss = proc(c.child.pid, 'VmRSS');
    await c.waitFor('scan end', () => ended(c), 120000);
    const scanEnd = performance.now() - t0;
    return { resolved: at, cpu, rss, scanEnd, rssEnd: proc(c.child.pid, 'VmRSS'), hwm: proc(c.child.pid, 'VmHWM') };
  } finally {
    await c.stop();
  }
}

/** `node <bench bundle> --floor <dir>`: lists, reads and parses every card file under dir; prints the ms it took. */
export function floorMain(dir: string): void {
  const t0 = performance.now();
  const list = fg.sync(['**/*.{unit,faction,fleet}.{yaml,yml}'], { cwd: dir, ignore: ['**/node_modules/**', '**/.git/**'], absolute: true, dot: false });
  list.sort();
  let problems = 0;
  for (const f of list) {
    const uri = pathToFileURL(f).toString();
    // As the server reads a closed file: no parse cache kept.
    const doc = parseDocument(uri, readFileSync(f, 'utf8'), kindOfUri(uri)!, new ChunkCache(false));
    problems += doc?.problems.length ?? 0;
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0, files: list.length, problems }));
}

/** The floor: a fresh process (as a fresh server) lists, reads and parses the workspace's files; wall time from its spawn. */
function floorRun(dir: string): { wall: number; inside: number; files: number } {
  const t0 = performance.now();
  const out = JSON.parse(execFileSync(process.execPath, [process.argv[1]!, '--floor', dir], { encoding: 'utf8', maxBuffer: 1 << 20 })) as {
    ms: number;
    files: number;
  };
  return { wall: performance.now() - t0, inside: out.ms, files: out.files };
}

async function wherever(rows: Row[]): Promise<void> {
  const spots: [string, number][] = [
    ['first', 0],
    ['middle', WHERE_CARDS / 2],
    ['last', WHERE_CARDS - 8],
  ];
  const runs = new Map<string, WhereRun[]>();
  const floors: { wall: number; inside: number; files: number }[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'fabled-floor-ws-'));
  const loadStart = load();
  try {
    const files = workspace(WHERE_CARDS, 500);
    files['fleets/where.fleet.yaml'] = whereFleet(0);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    // Interleaved, so that every case sees the same load.
    for (let i = 0; i < POS_RUNS; i++) {
      floors.push(floorRun(dir));
      for (const pull of [false, true])
        for (const [name, from] of spots) {
          const key = `${name} ${pull ? 'pull' : 'push'}`;
          runs.set(key, [...(runs.get(key) ?? []), await whereRun(from, pull)]);
        }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const floor = median(floors.map((f) => f.wall));
  rows.push({
    name: `(d) floor: a fresh process lists, reads and parses all ${floors[0]!.files} files (the server's parser)`,
    medianMs: floor,
    goal: 'reference',
    note: `${spread(floors.map((f) => f.wall))}; ${median(floors.map((f) => f.inside)).toFixed(0)} ms of it inside the process; load ${loadStart}`,
  });
  for (const pull of [false, true])
    for (const [name] of spots) {
      const rs = runs.get(`${name} ${pull ? 'pull' : 'push'}`)!;
      const ms = rs.map((r) => r.resolved);
      rows.push({
        name: `(d) 20,000 card files: server start -> an open fleet naming the ${name} files' cards resolved, ${pull ? 'pulled (VS Code)' : 'published'}`,
        medianMs: median(ms),
        goal: '< 2000 ms, <= 1.5x the floor',
        note: `${spread(ms)}; ${(median(ms) / floor).toFixed(2)}x the floor; server CPU by then ${median(rs.map((r) => r.cpu)).toFixed(0)} ms; RSS then ${median(rs.map((r) => r.rss)).toFixed(0)} MB, at the scan's end (${median(rs.map((r) => r.scanEnd)).toFixed(0)} ms) ${median(rs.map((r) => r.rssEnd)).toFixed(0)} MB, peak ${median(rs.map((r) => r.hwm)).toFixed(0)} MB`,
      });
    }
  const moves: FolderMove[] = [];
  for (let i = 0; i < POS_RUNS; i++) moves.push(await folderMove());
  rows.push({
    name: '(d) the folder of 20,000 card files moved out (one Deleted event) -> no card listed',
    medianMs: median(moves.map((m) => m.out)),
    goal: 'every card gone at once',
    note: `${spread(moves.map((m) => m.out))}; server CPU ${median(moves.map((m) => m.outCpu)).toFixed(0)} ms`,
  });
  rows.push({
    name: '(d) moved back in (one Created event) -> every card listed',
    medianMs: median(moves.map((m) => m.in)),
    goal: 'read as a scan',
    note: `${spread(moves.map((m) => m.in))}; server CPU ${median(moves.map((m) => m.inCpu)).toFixed(0)} ms; RSS then ${median(moves.map((m) => m.rss)).toFixed(0)} MB, once idle ${median(moves.map((m) => m.settled)).toFixed(0)} MB`,
  });
  rows.push({ name: '(d) load average at the end of (d)', medianMs: Number(load()), goal: '', unit: '' });
}

interface FolderMove {
  out: number;
  outCpu: number;
  in: number;
  inCpu: number;
  /** RSS when every card is listed again, and once the server is idle. */
  rss: number;
  settled: number;
}

/** The 20,000 card files' folder moved out of the workspace and back, each as one folder event. */
export async function folderMove(): Promise<FolderMove> {
  const files = workspace(WHERE_CARDS, 500);
  const c = await startServer({ files });
  const away = mkdtempSync(join(tmpdir(), 'fabled-away-'));
  try {
    await c.open('fleets/fleet-000.fleet.yaml', files['fleets/fleet-000.fleet.yaml']);
    await c.waitFor('scan end', () => ended(c), 120000);
    const count = async () => (await c.request<unknown[]>('fabledStar/listCards', {})).length;
    await c.poll('every card listed', async () => (await count()) === WHERE_CARDS, 120000);
    const folder = pathToFileURL(join(c.root, 'cards')).toString();
    const move = async (from: string, to: string, type: number, want: number) => {
      renameSync(from, to);
      const cpu0 = cpuMs(c.child.pid);
      const t0 = performance.now();
      await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: folder, type }] });
      await c.poll('the cards', async () => (await count()) === want, 120000);
      return { ms: performance.now() - t0, cpu: cpuMs(c.child.pid) - cpu0 };
    };
    const out = await move(join(c.root, 'cards'), join(away, 'cards'), 3, 0);
    const back = await move(join(away, 'cards'), join(c.root, 'cards'), 1, WHERE_CARDS);
    const rss = proc(c.child.pid, 'VmRSS');
    // Then as (b): RSS once it has not moved for 5 s (at most 90 s).
    const { settled } = await settledRss(c.child.pid, rss, performance.now());
    return { out: out.ms, outCpu: out.cpu, in: back.ms, inCpu: back.cpu, rss, settled };
  } finally {
    await c.stop();
    rmSync(away, { recursive: true, force: true });
  }
}

/** A process's RSS once it has not moved (by more than 1 MB) for 5 s, polled every 0.5 s from `s0`, at most 90 s; and when it last moved. */
async function settledRss(pid: number | undefined, rss: number, s0: number): Promise<{ settled: number; settledAt: number }> {
  let settled = rss;
  let settledAt = s0;
  while (performance.now() - settledAt < 5000 && performance.now() - s0 < 90000) {
    await pause(500);
    const now = proc(pid, 'VmRSS');
    if (Math.abs(now - settled) > 1) {
      settled = now;
      settledAt = performance.now();
    }
  }
  return { settled, settledAt };
}
