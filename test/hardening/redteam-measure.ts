/**
 * Time and memory of each red-team case, for the README and SECURITY.md:
 *
 *   npm run build && node --import tsx test/hardening/redteam-measure.ts
 *
 * Each CLI case runs the built CLI in a process of its own and reports its wall time and peak
 * resident memory (maxRSS); server cases run the built server over stdio and read its peak
 * resident memory (VmHWM) from /proc. The machine's load shows in the times: they are figures, not
 * bounds (the tests hold the bounds).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection } from 'vscode-languageserver/node';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import { ServerState } from '../../server/src/lsp/state';
import { startServer } from '../protocol/harness';
import { alikeName, longNameCardFiles, unknownEntriesFleet } from './redteam';
import type { CardInfo } from '../../protocol';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const rows: string[][] = [];
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
const secs = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** Runs the CLI; its peak resident memory comes from the process itself, on exit. */
function cli(args: string[]): Promise<{ ms: number; maxRssKb: number; code: number | null; stderr: string }> {
  const script = `process.on('exit', () => process.stderr.write('\\nMAXRSS ' + process.resourceUsage().maxRSS + '\\n')); require(process.argv[1]);`;
  return new Promise((res) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', script, CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => res({ ms: performance.now() - t0, maxRssKb: Number(/MAXRSS (\d+)/.exec(err)?.[1] ?? 0), code, stderr: err }));
  });
}

function vmHwmKb(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fabled-measure-'));
  try {
    // 2. Did you mean: in the core, and through the CLI.
    for (const [what, name] of [
      ['random', undefined],
      ['alike', (i: number) => alikeName(900, i)],
    ] as const) {
      const ws = new Workspace();
      const cardFiles = name ? longNameCardFiles(2000, 900, 500, 'Hostile', name) : longNameCardFiles();
      const fleet = name ? unknownEntriesFleet(500, 900, 'Hostile', (i) => alikeName(900, 5000 + i) + 'z') : unknownEntriesFleet();
      cardFiles.forEach((t, i) => ws.set(`file:///w/c${i}.unit.yaml`, t));
      const doc = ws.set('file:///w/f.fleet.yaml', fleet)!;
      const heap0 = process.memoryUsage().heapUsed;
      const t = performance.now();
      checkDocument(doc, ws);
      rows.push([
        `2. 500 unknown 900-char fleet entries vs 2,000 cards of 900-char names (${what} names), core check`,
        secs(performance.now() - t),
        `+${Math.max(0, Math.round((process.memoryUsage().heapUsed - heap0) / 1048576))} MB heap`,
      ]);
      const sub = join(dir, `dym-${what}`);
      mkdirSync(sub);
      cardFiles.forEach((t, i) => writeFileSync(join(sub, `c${i}.unit.yaml`), t));
      writeFileSync(join(sub, 'f.fleet.yaml'), fleet);
      const r = await cli(['check', join(sub, 'f.fleet.yaml'), '--cards', sub, '--format', 'json']);
      rows.push([`2. the same (${what}), fabled-star check`, secs(r.ms), mb(r.maxRssKb)]);
    }

    // 4. A card file linked to /proc/self/pagemap.
    const pm = join(dir, 'pagemap');
    mkdirSync(pm);
    symlinkSync('/proc/self/pagemap', join(pm, 'evil.unit.yaml'));
    const p = await cli(['check', join(pm, 'evil.unit.yaml')]);
    rows.push(['4. fabled-star check on a *.unit.yaml linked to /proc/self/pagemap', secs(p.ms), mb(p.maxRssKb)]);
    const z = await cli(['sim', '--cards', join(pm, 'evil.unit.yaml'), '--attacker', 'A', '--defender', 'B']);
    rows.push(['4. fabled-star sim --cards the same link', secs(z.ms), mb(z.maxRssKb)]);

    // 5. A folder it cannot list (a path too long for the system, even for root).
    const deep = join(dir, 'deep');
    mkdirSync(deep);
    const d = 'd'.repeat(250);
    execFileSync(process.execPath, [
      '-e',
      `process.chdir(process.argv[1]); for (let i = 0; i < 20; i++) { require('fs').mkdirSync('${d}'); process.chdir('${d}'); }`,
      deep,
    ]);
    const u = await cli(['check', deep]);
    rows.push([`5. fabled-star check on a folder it cannot list (exit ${u.code})`, secs(u.ms), mb(u.maxRssKb)]);

    // 3. Control characters: the escaping costs nothing measurable; the whole run.
    const esc = join(dir, 'esc');
    mkdirSync(esc);
    writeFileSync(
      join(esc, 'e.unit.yaml'),
      `faction: X\nunits:\n${Array.from({ length: 2000 }, (_, i) => `  - name: "E\\e[2K\\r${i}"\n    class: "D\\u009b2J${i}"\n`).join('')}`,
    );
    const e = await cli(['check', esc]);
    rows.push(['3. fabled-star check, 2,000 cards whose names and classes hold ESC, CR and C1 controls (4,000 escaped lines)', secs(e.ms), mb(e.maxRssKb)]);

    // 6. Watched-file events naming links out of the workspace and procfs files.
    {
      const outside = mkdtempSync(join(tmpdir(), 'fabled-outside-'));
      writeFileSync(join(outside, 'o.unit.yaml'), 'faction: X\nunits:\n  - name: Outsider\n');
      const links = {
        'pagemap.unit.yaml': '/proc/self/pagemap',
        'status.unit.yaml': '/proc/self/status',
        'passwd.unit.yaml': '/etc/passwd',
        'o.unit.yaml': join(outside, 'o.unit.yaml'),
      };
      const c = await startServer({
        files: { 'in.unit.yaml': 'faction: X\nunits:\n  - name: Inside\n' },
        before: (root) => Object.entries(links).forEach(([rel, target]) => symlinkSync(target, join(root, rel))),
      });
      await c.poll('scan', async () => (await c.request<CardInfo[]>('fabledStar/listCards', {})).length > 0);
      const t = performance.now();
      await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: Object.keys(links).map((rel) => ({ uri: c.uri(rel), type: 1 })) });
      const late = c.writeFile('late.unit.yaml', 'faction: X\nunits:\n  - name: Late\n');
      await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: late, type: 1 }] });
      await c.poll('late', async () => (await c.request<CardInfo[]>('fabledStar/listCards', {})).some((x) => x.name === 'Late'));
      const cards = (await c.request<CardInfo[]>('fabledStar/listCards', {})).length;
      rows.push([
        `6. server: watched-file events for links to pagemap, status, passwd and a card outside (${cards} cards indexed)`,
        secs(performance.now() - t),
        mb(vmHwmKb(c.child.pid!)),
      ]);
      await c.stop();
      rmSync(outside, { recursive: true, force: true });
    }

    // 8. A folder of 3,000 card files removed while it is scanned.
    {
      const files: Record<string, string> = { 'b/b.unit.yaml': 'faction: X\nunits:\n  - name: Sentinel\n' };
      for (let i = 0; i < 3000; i++) files[`a/f${i}.unit.yaml`] = `faction: X\nunits:\n  - name: Ghost ${i}\n`;
      const c = await startServer({ files, folders: ['a', 'b'] });
      const t = performance.now();
      await c.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: { added: [], removed: [{ uri: pathToFileURL(join(c.root, 'a')).toString(), name: 'a' }] },
      });
      await c.poll('b', async () => (await c.request<CardInfo[]>('fabledStar/listCards', {})).some((x) => x.name === 'Sentinel'), 60_000);
      const ghosts = (await c.request<CardInfo[]>('fabledStar/listCards', {})).filter((x) => x.name.startsWith('Ghost')).length;
      rows.push([`8. server: a 3,000-file folder removed while scanned (${ghosts} ghost cards left)`, secs(performance.now() - t), mb(vmHwmKb(c.child.pid!))]);
      await c.stop();
    }

    // 9. Settings for 150,000 distinct URIs.
    {
      const connection = {
        workspace: { getConfiguration: () => Promise.resolve({}) },
        console: { error: () => undefined, warn: () => undefined, log: () => undefined, info: () => undefined },
      } as unknown as Connection;
      const state = new ServerState(connection);
      state.initialize({ processId: null, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } } });
      global.gc?.();
      const heap0 = process.memoryUsage().heapUsed;
      const t = performance.now();
      for (let i = 0; i < 150_000; i++) await state.settingsFor(`file:///w/dir${i % 100}/file${i}.unit.yaml`);
      global.gc?.();
      rows.push([
        `9. settings asked for 150,000 distinct URIs (${state.settingsCached} kept)`,
        secs(performance.now() - t),
        `${Math.round((process.memoryUsage().heapUsed - heap0) / 1024)} kB heap retained${global.gc ? '' : ' (run with --expose-gc for a settled figure)'}`,
      ]);
    }

    // 11. A bad Content-Length: time until the server has logged it and exited.
    for (const [what, frame] of [
      ['not a number', 'Content-Length: abc\r\n\r\n{}'],
      ['longer than the body', 'Content-Length: 200\r\n\r\n{"jsonrpc":"2.0","id":9,"method":"shutdown"}'],
    ] as const) {
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'ignore', 'ignore'] });
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
      child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await new Promise((r) => setTimeout(r, 500));
      const t = performance.now();
      child.stdin.write(frame);
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      rows.push([`11. server: a Content-Length ${what} → logged, exit ${code}`, secs(performance.now() - t), '—']);
    }
  } finally {
    // rm walks by descriptor: the deep folder's paths are too long for rmSync.
    execFileSync('rm', ['-rf', dir]);
  }
  console.log('| case | time | memory |\n| --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
