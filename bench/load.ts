/**
 * The load benchmark: a server that never goes deaf, and battles spread over threads.
 *
 * - Hover latency (median, max) on a fleet entry while 0, 8 and 40 battle requests are in flight,
 *   over stdio against the built server, as a busy editor sends them (each a different seed, so
 *   that none replaces another). Goal: within 2x of idle, under 50 ms on an idle machine.
 * - `fabled-star battle` of the two 1,000-point example fleets, 20,000 trials, with --threads 1 and
 *   --threads 2 (the built CLI, wall time of the whole command, best of 3): the speed-up (goal at
 *   least 1.8x on 2 cores), and that both print the same numbers.
 * - The engine's time per trial beside two floors, each the time to draw that many d10s from the same
 *   generator. Goal: under 3x. (1) The numbers the engine draws: in kernel mode a whole Fire action
 *   is one draw from its exact distribution, so this floor is small (about 70 a trial). (2) The d10s
 *   a trial would roll at the table: every attack, dodge and armour die of each Fire action (its
 *   expected count, from the exact kernel's inputs), both sides' LD dice for Initiative, and the
 *   recharge, Board and Ram dice the engine rolls. Both ratios are reported, each labelled.
 *
 * The machine's load average is printed beside the figures: other work on the machine slows the
 * threads and the hovers alike.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { BattleSession } from '../server/src/core/sim/fleet-battle';
import { makeRng } from '../server/src/core/sim/dice';
import { CancellationTokenSource } from 'vscode-languageserver-protocol';
import { startServer, type Client } from '../test/protocol/harness';
import { EXAMPLES, ROOT, exampleBattle, exampleFiles, exampleWorkspace, load, median, percentile, type Row } from './util';

const CLI = path.join(ROOT, 'bin', 'fabled-star.js');

/** A battle request of 20,000 trials left running (cancel it through its source). */
function battleInFlight(c: Client, fleet: string, vs: string, seed: number): { source: CancellationTokenSource; done: Promise<unknown> } {
  const source = new CancellationTokenSource();
  const params = { fleet: { uri: fleet }, vs: { uri: vs }, options: { trials: 20000, seed }, workDoneToken: `load-${seed}` };
  return { source, done: c.conn.sendRequest('fabledStar/battle', params, source.token) };
}

async function hovers(c: Client, uri: string, n: number): Promise<number[]> {
  const times: number[] = [];
  const position = c.pos(uri, 'unit: ', 8);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await c.request('textDocument/hover', { textDocument: { uri }, position });
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return times;
}

/** The server process's resident memory in MB (Linux), worker threads included. */
function serverRssMb(c: Client): string {
  try {
    const status = fs.readFileSync(`/proc/${c.child.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? (kb / 1024).toFixed(0) : '?';
  } catch {
    return '?';
  }
}

async function hoverUnderLoad(): Promise<Row[]> {
  const rows: Row[] = [];
  const files = exampleFiles();
  const c = await startServer({ files });
  try {
    const fleet = await c.open('fleets/standard-1000.fleet.yaml', files['fleets/standard-1000.fleet.yaml']);
    const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
    for (let i = 0; i < 200 && !(await c.request('fabledStar/fleetSummary', { uri: vs })); i++) await new Promise((r) => setTimeout(r, 50));
    await hovers(c, fleet, 10); // warm up
    let idle = NaN;
    let seed = 1;
    for (const inFlight of [0, 8, 40]) {
      const sources: { cancel(): void }[] = [];
      const pending: Promise<unknown>[] = [];
      let dropped = 0;
      for (let i = 0; i < inFlight; i++) {
        const b = battleInFlight(c, fleet, vs, seed++);
        sources.push(b.source);
        pending.push(
          b.done.catch((e: { code?: number }) => {
            if (e.code === -32802) dropped++;
          }),
        );
      }
      const t = await hovers(c, fleet, 40);
      const rss = serverRssMb(c);
      const m = median(t);
      if (inFlight === 0) idle = m;
      rows.push({
        name: `hover on a fleet entry while ${inFlight} battle requests are in flight (median; max beside)`,
        medianMs: m,
        goal: inFlight === 0 ? '< 50 ms idle' : `<= 2x idle (${(2 * idle).toFixed(1)} ms)`,
        note: `max ${Math.max(...t).toFixed(1)} ms; ${dropped} of the requests were answered ServerCancelled by the bounded queue; server RSS ${rss} MB (its worker threads included); ${load()}`,
      });
      sources.forEach((s) => s.cancel());
      await Promise.all(pending);
    }
  } finally {
    await c.stop();
  }
  return rows;
}

/**
 * The CPU time of the whole process (every thread: user + system, ms), written to stderr as it
 * exits. On a machine shared by other sessions the wall clock of a command with more threads is not
 * its own to choose (Linux shares the cores between sessions, not threads), so the CPU it costs is
 * reported beside it.
 */
const CPU_REPORT = 'data:text/javascript,process.on("exit",()=>{const c=process.cpuUsage();process.stderr.write(`\\ncpu-ms ${(c.user+c.system)/1000}\\n`)})';

function runCli(args: string[]): Promise<{ ms: number; cpuMs: number; out: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    execFile(process.execPath, ['--import', CPU_REPORT, CLI, ...args], { cwd: EXAMPLES, maxBuffer: 1 << 26 }, (e, out, err) =>
      e ? reject(e) : resolve({ ms: performance.now() - t0, cpuMs: Number(/cpu-ms ([\d.]+)/.exec(err)?.[1] ?? NaN), out }),
    );
  });
}

/** The CLI battle of the two 1,000-point example fleets, `trials` trials, with these extra flags. */
function cliBattle(trials: number, extra: string[]): Promise<{ ms: number; cpuMs: number; out: string }> {
  const fleets = ['--fleet', 'fleets/standard-1000.fleet.yaml', '--vs', 'fleets/standard-1000-myr-valari.fleet.yaml'];
  return runCli(['battle', ...fleets, '--trials', String(trials), '--format', 'json', ...extra]);
}

/**
 * `battle --threads 2` against `--threads 1` at 200,000 trials, in alternating pairs (A B A B: a
 * machine whose load moves meets both alike), and the default thread count against one thread
 * from 1,000 to 200,000 trials: what the threads' goals are measured by.
 */
async function threads(): Promise<Row[]> {
  await cliBattle(1000, ['--threads', '1']); // warm the disk cache
  const pairs: { one: number; two: number; cpu1: number; cpu2: number; same: boolean }[] = [];
  for (let i = 0; i < 3; i++) {
    const one = await cliBattle(200_000, ['--threads', '1']);
    const two = await cliBattle(200_000, ['--threads', '2']);
    pairs.push({ one: one.ms, two: two.ms, cpu1: one.cpuMs, cpu2: two.cpuMs, same: one.out === two.out });
  }
  const ratios = pairs.map((p) => p.one / p.two);
  const rows: Row[] = [
    {
      name: 'battle --threads 2 against --threads 1: the two 1,000-point fleets, 200,000 trials, 3 alternating pairs',
      medianMs: median(ratios),
      unit: 'x',
      goal: '>= 1.6x',
      note:
        `pair ratios ${ratios.map((r) => r.toFixed(2)).join(' / ')}; wall ${(median(pairs.map((p) => p.two)) / 1000).toFixed(2)} s against ` +
        `${(median(pairs.map((p) => p.one)) / 1000).toFixed(2)} s; CPU ${(median(pairs.map((p) => p.cpu2)) / 1000).toFixed(2)} s against ` +
        `${(median(pairs.map((p) => p.cpu1)) / 1000).toFixed(2)} s; ${pairs.every((p) => p.same) ? 'the same numbers' : 'DIFFERENT NUMBERS'}; ${load()}`,
    },
  ];
  for (const trials of [1000, 20_000, 32_000, 50_000]) {
    const walls: { byDefault: number[]; one: number[] } = { byDefault: [], one: [] };
    for (let i = 0; i < 3; i++) {
      walls.byDefault.push((await cliBattle(trials, [])).ms);
      walls.one.push((await cliBattle(trials, ['--threads', '1'])).ms);
    }
    rows.push({
      name: `battle without --threads against --threads 1, ${trials.toLocaleString('en-US')} trials: wall time`,
      medianMs: median(walls.byDefault) / median(walls.one),
      unit: 'x',
      goal: '<= 1x (within the noise)',
      note: `${median(walls.byDefault).toFixed(0)} ms against ${median(walls.one).toFixed(0)} ms, 3 alternating pairs; ${load()}`,
    });
  }
  return rows;
}

export function benchFloor(): Row[] {
  const job = exampleBattle(exampleWorkspace(), 'standard-1000.fleet.yaml', 'standard-1000-myr-valari.fleet.yaml');
  const trials = 20000;
  const play = () => {
    const s = new BattleSession(job.fleets, { trials, seed: 1 }, { limits: job.limits });
    const t0 = performance.now();
    s.step();
    return { ms: performance.now() - t0, draws: s.run.diceDrawn, tabletop: s.run.tabletopDice };
  };
  play(); // warm the JIT
  const runs = [play(), play(), play()];
  const engine = median(runs.map((r) => r.ms));
  const draws = runs[0]!.draws;
  const tabletop = Math.round(runs[0]!.tabletop);
  const rng = makeRng(1);
  const roll = (n: number) => {
    const t0 = performance.now();
    let x = 0;
    for (let i = 0; i < n; i++) x += uniformInt(rng, 1, 10);
    return { ms: performance.now() - t0, x };
  };
  roll(draws);
  const dice = median([roll(draws).ms, roll(draws).ms, roll(draws).ms]);
  roll(tabletop);
  const table = median([roll(tabletop).ms, roll(tabletop).ms, roll(tabletop).ms]);
  const perTrial = (ms: number) => (1000 * ms) / trials;
  return [
    {
      name: `engine: the two 1,000-point fleets, ${trials.toLocaleString('en-US')} trials (${(draws / trials).toFixed(0)} numbers drawn per trial)`,
      medianMs: perTrial(engine),
      unit: 'µs/trial',
      goal: 'report',
      note: load(),
    },
    {
      name: 'floor (1), numbers drawn: as many d10s as the engine draws numbers, from the same generator (pure-rand xoroshiro128+)',
      medianMs: perTrial(dice),
      unit: 'µs/trial',
      goal: 'report',
    },
    { name: 'engine time over floor (1), numbers drawn', medianMs: engine / dice, unit: 'x', goal: '< 3x', note: load() },
    {
      name: `floor (2), tabletop dice: the d10s a trial would roll at the table (${(tabletop / trials).toFixed(0)} a trial: attack, dodge, armour, LD, recharge, Board, Ram), from the same generator`,
      medianMs: perTrial(table),
      unit: 'µs/trial',
      goal: 'report',
    },
    { name: 'engine time over floor (2), tabletop dice', medianMs: engine / table, unit: 'x', goal: '< 3x', note: load() },
  ];
}

/** A fleet of `n` entries of the example Consumed cards (over its limit: a roster reports that too). */
function bigFleet(n: number): string {
  const names = ['Oblivion Maw', 'Gnawing Cruiser', 'Consumed Maw Frigate', 'Maw Escort Pack'];
  const entries = Array.from({ length: n }, (_, i) => `  - unit: ${names[i % names.length]}\n    count: ${1 + (i % 3)}\n`);
  return `name: Big Hunger\nfaction: Consumed\npoints: 1000\nobjectives: 6\nunits:\n${entries.join('')}`;
}

/**
 * The server never blocks: a hover on a 500-entry fleet while the player edits it and its roster is
 * asked again after each edit (as the Fleet view does), a Price by battle runs and 8 battles are in
 * flight, beside the same hover idle.
 */
async function hoverBesideRosterAndPricing(): Promise<Row[]> {
  const files = exampleFiles();
  const big = bigFleet(500);
  const c = await startServer({ files: { ...files, 'fleets/big.fleet.yaml': big } });
  try {
    const fleet = await c.open('fleets/big.fleet.yaml', big);
    const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
    for (let i = 0; i < 200 && !(await c.request('fabledStar/fleetSummary', { uri: vs })); i++) await new Promise((r) => setTimeout(r, 50));
    await c.request('fabledStar/roster', { uri: fleet });
    await hovers(c, fleet, 10); // warm up
    const idle = await hovers(c, fleet, 40);
    const sources: CancellationTokenSource[] = [];
    const pending: Promise<unknown>[] = [];
    const quiet = (e: unknown) => void e;
    const price = new CancellationTokenSource();
    sources.push(price);
    pending.push(c.conn.sendRequest('fabledStar/priceByBattle', { card: { name: 'Gnawing Cruiser' }, workDoneToken: 'load-price' }, price.token).catch(quiet));
    const source = c.uri('fleets/standard-1000.fleet.yaml');
    for (let i = 0; i < 8; i++) {
      const b = battleInFlight(c, source, vs, 100 + i);
      sources.push(b.source);
      pending.push(b.done.catch(quiet));
    }
    // The player edits the fleet (a count goes up and down) and the Fleet view asks for its roster each time.
    let editing = true;
    let rosters = 0;
    const editor = (async () => {
      for (let k = 0; editing; k++) {
        await c.edit(fleet, k % 2 ? '    count: 3' : '    count: 2', k % 2 ? '    count: 2' : '    count: 3');
        await c.request('fabledStar/roster', { uri: fleet });
        rosters++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const busy = await hovers(c, fleet, 40);
    editing = false;
    await editor;
    sources.forEach((s) => s.cancel());
    await Promise.all(pending);
    const m = median(idle);
    return [
      { name: 'hover on an entry of a 500-entry fleet, idle', medianMs: m, goal: 'reference', note: `max ${Math.max(...idle).toFixed(1)} ms` },
      {
        name: '... while it is edited and its roster asked after each edit, a Price by battle runs and 8 battles are in flight',
        medianMs: median(busy),
        goal: `<= 2x idle (${(2 * m).toFixed(1)} ms), at most 100 ms`,
        note: `${(median(busy) / m).toFixed(2)}x idle; 90th percentile ${percentile(busy, 0.9).toFixed(1)} ms, max ${Math.max(...busy).toFixed(1)} ms; ${rosters} rosters meanwhile; ${load()}`,
      },
    ];
  } finally {
    await c.stop();
  }
}

/** The server process's CPU time so far (user + system, every thread), in ms (Linux). */
function serverCpuMs(c: Client): number {
  const stat = fs.readFileSync(`/proc/${c.child.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/**
 * One server on `threads` simulation threads: a first battle of the two 1,000-point example fleets
 * (the threads start and warm up), then a second with another seed, timed: what a player who runs
 * the battle view again waits for.
 */
async function secondBattle(threads: number, trials: number): Promise<{ ms: number; cpuMs: number; result: string }> {
  const files = exampleFiles();
  const c = await startServer({ files, settings: { simulation: { threads } } });
  try {
    const fleet = await c.open('fleets/standard-1000.fleet.yaml', files['fleets/standard-1000.fleet.yaml']);
    const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
    for (let i = 0; i < 200 && !(await c.request('fabledStar/fleetSummary', { uri: vs })); i++) await new Promise((r) => setTimeout(r, 50));
    const battle = (seed: number) => c.request('fabledStar/battle', { fleet: { uri: fleet }, vs: { uri: vs }, options: { trials, seed } });
    await battle(1);
    const cpu0 = serverCpuMs(c);
    const t0 = performance.now();
    const r = await battle(2);
    const ms = performance.now() - t0;
    return { ms, cpuMs: serverCpuMs(c) - cpu0, result: JSON.stringify(r) };
  } finally {
    await c.stop();
  }
}

/**
 * The server's second battle on 2 threads against 1 (goal: at least 1.6x faster): a fresh server
 * for each, alternating 1 2 1 2, medians and the pair ratios.
 */
async function serverThreads(): Promise<Row[]> {
  const trials = Number(process.env.BENCH_TRIALS ?? 20000);
  const runs: Record<number, { ms: number; cpuMs: number; result: string }[]> = { 1: [], 2: [] };
  const pairs = Number(process.env.BENCH_PAIRS ?? 5);
  for (let i = 0; i < pairs; i++) for (const n of [1, 2]) runs[n]!.push(await secondBattle(n, trials));
  const ratios = runs[1]!.map((r, i) => r.ms / runs[2]![i]!.ms);
  const same = runs[1]!.every((r, i) => r.result === runs[2]![i]!.result);
  const med = (n: number, k: 'ms' | 'cpuMs') => median(runs[n]!.map((r) => r[k]));
  const label = `${trials.toLocaleString('en-US')} trials of the two 1,000-point fleets`;
  return [
    {
      name: `server, second battle on 1 thread: ${label}`,
      medianMs: med(1, 'ms'),
      goal: 'report',
      note: `server CPU ${med(1, 'cpuMs').toFixed(0)} ms; ${load()}`,
    },
    {
      name: `server, second battle on 2 threads: the same`,
      medianMs: med(2, 'ms'),
      goal: 'report',
      note: `server CPU ${med(2, 'cpuMs').toFixed(0)} ms; ${same ? 'the same figures as on 1 thread' : 'DIFFERENT FIGURES from 1 thread'}; ${load()}`,
    },
    {
      name: "speed-up of the server's second battle on 2 threads over 1 (median of the pair ratios)",
      medianMs: median(ratios),
      unit: 'x',
      goal: '>= 1.6x',
      note: `pairs ${ratios.map((x) => x.toFixed(2)).join(' / ')}; medians ${(med(1, 'ms') / med(2, 'ms')).toFixed(2)}x; ${load()}`,
    },
  ];
}

export async function benchLoad(): Promise<Row[]> {
  const parts = (process.env.BENCH_PARTS ?? 'hover,big,threads,serverThreads,floor').split(',');
  const rows: Row[] = [];
  if (parts.includes('hover')) rows.push(...(await hoverUnderLoad()));
  if (parts.includes('big')) rows.push(...(await hoverBesideRosterAndPricing()));
  if (parts.includes('threads')) rows.push(...(await threads()));
  if (parts.includes('serverThreads')) rows.push(...(await serverThreads()));
  if (parts.includes('floor')) rows.push(...benchFloor());
  return rows;
}
