/**
 * The live odds benchmark: the live odds lens never delays diagnostics. Over stdio against the built
 * server, with the example workspace, a one-line edit of a 1,000-point fleet after a typing pause
 * (longer than the re-validation delay, so each is validated at once; 0.2, 0.8 or 1.6 s, so that
 * some edits land before the lens's battles start and some while they run), and after each edit the
 * code lens request an editor sends; the time from the edit to its fresh diagnostics (push),
 * median over the edits, with `fabledStar.liveOdds.opponent` empty (off) and naming the other
 * 1,000-point fleet (on: each edit cancels the running battles and starts new ones on the worker
 * thread, and the client asks for the lenses again whenever the server asks it to). Off and on
 * alternate in short blocks (ABBA, each block every pause length alike), so that the machine's
 * other load falls on both alike; the load average is printed from before and after. Goal: on
 * within 10% of off. The medians by pause length are in the note: only the shortest pause is sure to
 * land while the battles run (on an idle machine they are done before the 0.8 s pause ends).
 *
 * A switch of the setting is followed by the code lens request (with the opponent emptied, it
 * stops the last run) and a pause, so that no battle of an "on" block runs into the next "off" one.
 *
 * Also: how long the lens takes to show its final figure after an edit (the battles of a few
 * thousand trials on one worker thread), and that this figure is the same as `battle`'s.
 */
import { loadavg, availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startServer, type Client } from '../test/protocol/harness';
import { DEFAULT_SETTINGS } from '../protocol';
import { exampleFiles, load, median, type Row } from './util';

const PAUSE_MS = DEFAULT_SETTINGS.diagnostics.delayMs + 50;
const PAUSES_MS = [PAUSE_MS, 4 * PAUSE_MS, 8 * PAUSE_MS];
const BLOCKS = Number(process.env.BENCH_LIVE_BLOCKS ?? 8);
/** Each pause length three times a block. */
const EDITS_PER_BLOCK = 3 * PAUSES_MS.length;
const WARMUP = 6;
const OPPONENT = 'fleets/standard-1000-myr-valari.fleet.yaml';
const FLEET = 'fleets/standard-1000.fleet.yaml';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Lens {
  command?: { title: string };
}

async function setOpponent(c: Client, opponent: string, uri?: string): Promise<void> {
  c.settings = { liveOdds: { opponent, trials: DEFAULT_SETTINGS.liveOdds.trials } };
  await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: c.settings } });
  await pause(100);
  // The lenses with the new setting: with none, the last run (of an "on" block) stops.
  if (uri) await c.request('textDocument/codeLens', { textDocument: { uri } }).catch(() => undefined);
  await pause(300);
}

interface Edit {
  pauseMs: number;
  ms: number;
}

/** Edits as a typing editor sends them: the change, then its code lenses; the time to fresh diagnostics. */
async function edits(c: Client, uri: string, n: number, toggle: { i: number }): Promise<Edit[]> {
  const times: Edit[] = [];
  for (let k = 0; k < n; k++) {
    const [from, to] = toggle.i++ % 2 === 0 ? ['    count: 2', '    count: 1'] : ['    count: 1', '    count: 2'];
    // Typing pauses of three lengths: a keystroke soon after the last (before the battles start),
    // and later ones that land while the battles run on the worker (their partial results arriving).
    await pause(PAUSES_MS[k % PAUSES_MS.length]!);
    const t0 = performance.now();
    const version = await c.edit(uri, from, to);
    void c.request('textDocument/codeLens', { textDocument: { uri } }).catch(() => undefined);
    await c.waitFor('fresh diagnostics', () => (c.arrivals.get(uri)?.version === version ? true : undefined), 30000);
    times.push({ pauseMs: PAUSES_MS[k % PAUSES_MS.length]!, ms: c.arrivals.get(uri)!.at - t0 });
  }
  return times;
}

export async function benchLiveOdds(): Promise<Row[]> {
  const files = exampleFiles();
  const c = await startServer({ files });
  // The editor asks for the lenses again when the server says they changed.
  let fleetUri = '';
  c.conn.onRequest('workspace/codeLens/refresh', () => {
    if (fleetUri) void c.request('textDocument/codeLens', { textDocument: { uri: fleetUri } }).catch(() => undefined);
    return null;
  });
  try {
    const vs = c.uri(OPPONENT);
    for (let i = 0; i < 200 && !(await c.request('fabledStar/fleetSummary', { uri: vs })); i++) await pause(50);
    fleetUri = await c.open(FLEET, files[FLEET]);
    await c.waitFor('first diagnostics', () => (c.arrivals.has(fleetUri) ? true : undefined), 60000);
    const toggle = { i: 0 };
    // Warm both paths (the lens's first run starts the worker thread).
    await setOpponent(c, OPPONENT, fleetUri);
    await edits(c, fleetUri, WARMUP, toggle);
    await setOpponent(c, '', fleetUri);
    await edits(c, fleetUri, WARMUP, toggle);
    const offEdits: Edit[] = [];
    const onEdits: Edit[] = [];
    const loadBefore = loadavg()[0]!;
    for (let b = 0; b < BLOCKS; b++)
      for (const mode of b % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        await setOpponent(c, mode === 'on' ? OPPONENT : '', fleetUri);
        (mode === 'on' ? onEdits : offEdits).push(...(await edits(c, fleetUri, EDITS_PER_BLOCK, toggle)));
      }
    const loads = `load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after, on ${availableParallelism()} cores`;
    const off = offEdits.map((e) => e.ms);
    const on = onEdits.map((e) => e.ms);
    const mOff = median(off);
    const mOn = median(on);
    const byPause = (xs: Edit[]) => PAUSES_MS.map((p) => median(xs.filter((e) => e.pauseMs === p).map((e) => e.ms)).toFixed(1)).join(' / ');
    const pauses = PAUSES_MS.map((p) => (p / 1000).toFixed(1)).join(' / ');

    // The lens's final figure after one edit, with the opponent set and no further edit.
    await setOpponent(c, OPPONENT, fleetUri);
    const [from, to] = toggle.i++ % 2 === 0 ? ['    count: 2', '    count: 1'] : ['    count: 1', '    count: 2'];
    await pause(PAUSE_MS);
    const t0 = performance.now();
    await c.edit(fleetUri, from, to);
    let title = '';
    await c
      .poll(
        'the final live odds',
        async () => {
          const lenses = await c.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: fleetUri } });
          title = lenses.find((l) => /^(wins|Live odds) /.test(l.command?.title ?? ''))?.command?.title ?? '';
          return title.startsWith('wins ') && !/\(simulating\)|of [\d,]+ battles\)$/.test(title);
        },
        120000,
      )
      .catch((e: Error) => {
        throw new Error(`${e.message} (the lens said "${title}")`);
      });
    const toFinal = performance.now() - t0;
    return [
      {
        name: 'edit -> fresh diagnostics, 1,000-point fleet, live odds lens off (median; code lens asked after each edit)',
        medianMs: mOff,
        goal: 'report',
        note: `${off.length} edits; after a pause of ${pauses} s: ${byPause(offEdits)} ms; ${loads}`,
      },
      {
        name: 'the same with the live odds lens on (vs the other 1,000-point fleet, 4,000 battles per edit)',
        medianMs: mOn,
        goal: `<= 1.1x off (${(1.1 * mOff).toFixed(1)} ms)`,
        note: `${on.length} edits; ${(mOn / mOff).toFixed(2)}x off; after a pause of ${pauses} s: ${byPause(onEdits)} ms; max ${Math.max(...on).toFixed(1)} ms on, ${Math.max(...off).toFixed(1)} ms off; ${loads}`,
      },
      {
        name: 'edit -> the lens\u2019s final figure (4,000 battles in the background process)',
        medianMs: toFinal,
        goal: 'report',
        note: `"${title}"; ${load()}`,
      },
    ];
  } finally {
    await c.stop();
  }
}
