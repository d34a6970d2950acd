/**
 * The live odds lens over stdio against the bundled server: with
 * `fabledStar.liveOdds.opponent` set, a fleet's code lenses include "wins 54% ± 1% vs Lantern
 * Watch", whose figure is `fabled-star battle`'s for the same seed and trials; it refreshes the
 * lenses while the battles run and after an edit shows the edited fleet's figure; a fleet named
 * by name (a bundled example) works too; an unknown opponent and a fleet with errors say why; an
 * empty setting shows no lens. And the battle request's what-if (compareWith) gives `battle --compare-with`'s figures.
 * The lens's battles run in a process of their own, in a scheduling group of its own at the lowest
 * priority (so that they never take the server's share of a busy machine), which ends with the server.
 */
import { performance } from 'node:perf_hooks';
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { startServer, type Client } from './harness';
import type { BattleResult } from '../../server/src/core/sim/types';
import { runBattle } from '../../server/src/cli/battle';
import { nodeIO } from '../../server/src/cli/io';
import { LIVE_ODDS_TITLE_MAX, liveOddsTitle, winsFigure } from '../../server/src/core/features/liveOdds';
import { HOST_GROUP_NICE, hostGroupNice } from '../../server/src/node/sim-worker';
import { EXAMPLES } from '../exampleFleets';
import { halfWidthWords, stoppedWords } from '../../server/src/core/rules/words';
import { BATTLE_PRECISION } from '../../server/src/core/rules/data';

const LENS_PRECISION = BATTLE_PRECISION.lens;

interface CodeLens {
  command?: { title: string; tooltip?: string; command: string; arguments?: unknown[] };
}

function exampleFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(unit|faction|fleet)\.yaml$/.test(f) && !p.includes('showcase')) out[relative(EXAMPLES, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(EXAMPLES);
  return out;
}

async function cliJson(args: string[]): Promise<BattleResult> {
  let out = '';
  let err = '';
  const code = await runBattle([...args, '--format', 'json', '--threads', '1'], { ...nodeIO(), stdout: (s) => (out += s), stderr: (s) => (err += s) });
  assert.equal(code, 0, err);
  return JSON.parse(out) as BattleResult;
}

/** The most the lens plays: it stops sooner, once sure to its precision (2,000 battles at least). */
const TRIALS = 5000;

describe('live odds lens over stdio', function () {
  this.timeout(180_000);
  let c: Client;
  let refreshes = 0;
  const files = exampleFiles();
  before(async () => {
    c = await startServer({ files, settings: { liveOdds: { opponent: 'fleets/standard-1000-myr-valari.fleet.yaml', trials: TRIALS } } });
    c.conn.onRequest('workspace/codeLens/refresh', () => {
      refreshes++;
      return null;
    });
    const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
    for (let i = 0; i < 200 && !(await c.request('fabledStar/fleetSummary', { uri: vs })); i++) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => c?.stop());

  const liveLens = async (uri: string): Promise<CodeLens | undefined> => {
    const lenses = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    return lenses.find((l) => /^wins |^Live odds\b/.test(l.command?.title ?? ''));
  };
  /** Asks for the lenses until the live one is final (its tooltip, the whole text, ends in "(N battles)" or says why not). */
  const finalLens = (uri: string) =>
    c.poll(
      'the final live odds',
      async () => {
        const l = await liveLens(uri);
        const t = l?.command?.tooltip ?? '';
        // Final: "(N battles)" at the end, or why there is no figure (a note on a run under way is no final figure).
        return /^Live odds /.test(t) || / \([\d,]+ battles(, [^)]*)?\)$/.test(t) ? l : undefined;
      },
      120_000,
    );

  it("shows the fleet's wins against the opponent file, the figure of battle with the same seed and trials", async () => {
    const uri = await c.open('fleets/standard-1000.fleet.yaml', files['fleets/standard-1000.fleet.yaml']);
    const first = await liveLens(uri);
    assert.ok(first, 'a live odds lens at once');
    assert.match(first.command!.title, /^wins .* vs Lantern Watch/);
    const lens = await finalLens(uri);
    const r = await cliJson([
      '--fleet',
      join(EXAMPLES, 'fleets/standard-1000.fleet.yaml'),
      '--vs',
      join(EXAMPLES, 'fleets/standard-1000-myr-valari.fleet.yaml'),
      '--cards',
      EXAMPLES,
      '--trials',
      String(TRIALS),
      '--precision',
      String(LENS_PRECISION),
      '--seed',
      '1',
    ]);
    const s = r.sides[0].pointsVictory;
    assert.equal(r.stopped, 'precision', 'the lens stops once sure, before the most it may play');
    assert.ok(r.trials < TRIALS);
    assert.equal(lens.command!.title, liveOddsTitle('Lantern Watch', { kind: 'final', ...s, draw: r.draw.p, trials: r.trials, requested: TRIALS }));
    assert.equal(
      lens.command!.tooltip,
      `${winsFigure(s, r.draw.p)} vs Lantern Watch (${r.trials.toLocaleString('en-US')} battles, sure to ${halfWidthWords(r.precision!)})`,
    );
    assert.ok(refreshes > 0, 'the server asked the editor for the lenses again');
    // The lens opens the battle view against that opponent.
    assert.equal(lens.command!.command, 'fabledStar.simulateBattle');
    const args = lens.command!.arguments?.[0] as { fleet: { uri: string }; vs: { uri: string; name: string } };
    assert.equal(args.vs.uri, c.uri('fleets/standard-1000-myr-valari.fleet.yaml'));
    assert.equal(args.vs.name, 'Lantern Watch');
  });

  it("answers the lenses asked for right behind an edit after that edit's diagnostics", async () => {
    const uri = c.uri('fleets/standard-1000.fleet.yaml');
    await finalLens(uri);
    // After a typing pause the edit is checked at once; the editor's lens request follows it.
    await new Promise((r) => setTimeout(r, 400));
    const t0 = performance.now();
    const version = await c.edit(uri, 'unit: Oblivion Maw', 'unit: Oblivion Mawx');
    try {
      const lenses = await c.request<{ command?: { title: string; tooltip?: string } }[]>('textDocument/codeLens', { textDocument: { uri } });
      const answered = performance.now();
      const diag = c.arrivals.get(uri);
      assert.equal(diag?.version, version, 'the diagnostics of the edit had arrived when the lenses did');
      assert.ok(diag!.at >= t0 && diag!.at <= answered);
      // The edited fleet's run starts once typing pauses: until then the lens says it is coming.
      assert.match(lenses.find((l) => /^(wins |Live odds\b)/.test(l.command?.title ?? ''))!.command!.tooltip!, /simulating/);
    } finally {
      await c.edit(uri, 'unit: Oblivion Mawx', 'unit: Oblivion Maw');
      await finalLens(uri);
    }
  });

  it("after an edit, shows the edited fleet's figure (the old run cancelled)", async () => {
    const uri = c.uri('fleets/standard-1000.fleet.yaml');
    const before = (await finalLens(uri)).command!.tooltip;
    // Drop the two escort packs: a weaker fleet.
    await c.edit(uri, '  - unit: Maw Escort Pack\n    count: 2\n', '');
    const after = await finalLens(uri);
    const dir = mkdtempSync(join(tmpdir(), 'live-odds-'));
    try {
      const edited = join(dir, 'edited.fleet.yaml');
      writeFileSync(edited, c.texts.get(uri)!);
      const r = await cliJson([
        '--fleet',
        edited,
        '--vs',
        join(EXAMPLES, 'fleets/standard-1000-myr-valari.fleet.yaml'),
        '--cards',
        EXAMPLES,
        '--trials',
        String(TRIALS),
        '--precision',
        String(LENS_PRECISION),
      ]);
      const s = r.sides[0].pointsVictory;
      assert.equal(after.command!.tooltip, `${winsFigure(s, r.draw.p)} vs Lantern Watch (${r.trials.toLocaleString('en-US')} battles, ${stoppedWords(r)})`);
      assert.notEqual(after.command!.tooltip, before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fabledStar/battle with compareWith (the saved text of the list) gives battle --compare-with\u2019s figures', async () => {
    const uri = c.uri('fleets/standard-1000.fleet.yaml');
    const saved = files['fleets/standard-1000.fleet.yaml']!;
    const now = c.texts.get(uri)!;
    assert.notEqual(now, saved, 'the list was edited above');
    const options = { trials: 1200, seed: 3 };
    const r = await c.request<BattleResult>('fabledStar/battle', {
      fleet: { uri },
      vs: { uri: c.uri('fleets/standard-1000-myr-valari.fleet.yaml') },
      options,
      compareWith: { text: saved, label: 'the saved version' },
    });
    const dir = mkdtempSync(join(tmpdir(), 'what-if-'));
    try {
      const edited = join(dir, 'edited.fleet.yaml');
      writeFileSync(edited, now);
      const cli = await cliJson([
        '--fleet',
        edited,
        '--vs',
        join(EXAMPLES, 'fleets/standard-1000-myr-valari.fleet.yaml'),
        '--compare-with',
        join(EXAMPLES, 'fleets/standard-1000.fleet.yaml'),
        '--cards',
        EXAMPLES,
        '--trials',
        '1200',
        '--seed',
        '3',
      ]);
      assert.deepEqual(r.compareFleets!.difference, cli.compareFleets!.difference);
      assert.deepEqual(r.compareFleets!.summary, cli.compareFleets!.summary);
      assert.equal(r.sides[0].pointsVictory.p, cli.sides[0].pointsVictory.p);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A version that cannot fight says so.
    await assert.rejects(
      c.request('fabledStar/battle', {
        fleet: { uri },
        vs: { uri: c.uri('fleets/standard-1000-myr-valari.fleet.yaml') },
        options,
        compareWith: { text: saved.replace('unit: Oblivion Maw', 'unit: No Such Maw'), label: 'the saved version' },
      }),
      /The saved version cannot fight: line \d+: No card named "No Such Maw"/,
    );
  });

  it('takes a fleet by name (a bundled example), says why when it cannot play, and is off when the setting is empty', async () => {
    const uri = c.uri('fleets/standard-1000.fleet.yaml');
    const reconfigure = async (liveOdds: Record<string, unknown>) => {
      c.settings = { liveOdds };
      await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: c.settings } });
    };
    await reconfigure({ opponent: 'the long hunger', trials: 300 });
    const named = await finalLens(uri);
    assert.match(named.command!.title, /^wins [\d.]+% \u00b1 [\d.]+%(, draws \d+%)?( vs The Long Hunger)?$/);
    // Fewer battles than a run until sure plays at least: it says how sure they are.
    assert.match(named.command!.tooltip!, /^wins [\d.]+% \u00b1 [\d.]+%(, draws \d+%)? vs The Long Hunger \(300 battles, stopped at the cap: \u00b1[\d.]+%\)$/);
    // Short titles (a half-width editor shows them whole), the whole text in the tooltip.
    const short = (l: CodeLens) => {
      assert.ok(l.command!.title.length <= LIVE_ODDS_TITLE_MAX, l.command!.title);
      return l.command!;
    };
    await reconfigure({ opponent: 'Nobody Here', trials: 300 });
    const nobody = short(await finalLens(uri));
    assert.equal(nobody.title, 'Live odds: no fleet named "Nobody Here"');
    assert.match(nobody.tooltip!, /^Live odds vs Nobody Here: no fleet named "Nobody Here"/);
    // A misspelt name: the closest, where a narrow editor still shows it.
    await reconfigure({ opponent: 'Lanturn Wach', trials: 300 });
    const typo = short(await finalLens(uri));
    assert.equal(typo.title, 'Live odds: did you mean "Lantern Watch"?');
    assert.match(typo.tooltip!, /^Live odds vs Lanturn Wach: no fleet named "Lanturn Wach"; did you mean "Lantern Watch"\?/);
    await reconfigure({ opponent: 'The Long Hunger', trials: 300 });
    await c.edit(uri, 'unit: Oblivion Maw', 'unit: No Such Maw');
    const broken = short(await finalLens(uri));
    assert.equal(broken.title, 'Live odds: this fleet cannot fight yet');
    assert.match(broken.tooltip!, /^Live odds vs The Long Hunger: this fleet cannot fight yet: line \d+: /);
    await c.edit(uri, 'unit: No Such Maw', 'unit: Oblivion Maw');
    await reconfigure({ opponent: '' });
    assert.equal(await liveLens(uri), undefined);
  });
});

/** The processes a process started (Linux: every thread's children). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}
/** Whether a process runs (Linux; a zombie, ended but not yet reaped, does not). */
const alive = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
};

describe('live odds lens: where its battles run', function () {
  this.timeout(120_000);
  it('in a process of its own at nice 19, in an autogroup of its own at a lower priority (Linux), ended with the server', async () => {
    const files = exampleFiles();
    const c = await startServer({ files, settings: { liveOdds: { opponent: 'fleets/standard-1000-myr-valari.fleet.yaml', trials: 20_000 } } });
    let host: number | undefined;
    try {
      const uri = await c.open('fleets/standard-1000.fleet.yaml', files['fleets/standard-1000.fleet.yaml']);
      const pid = c.child.pid!;
      // The lens asked for starts the battles once typing pauses, in a process that lowers its priority as it starts.
      let seen: number | undefined;
      host = await c
        .poll(
          'a process for the battles, at the lowest priority',
          async () => {
            await c.request('textDocument/codeLens', { textDocument: { uri } });
            seen = childrenOf(pid)[0];
            return seen !== undefined && alive(seen) && getPriority(seen) === 19 ? seen : undefined;
          },
          30_000,
        )
        .catch((e: Error) => {
          throw new Error(`${e.message} (the server's child: ${seen ?? 'none'}${seen ? `, nice ${getPriority(seen)}` : ''})`);
        });
      // "/autogroup-N nice K", or nothing for a process in the root group (a session of PID 1's, as a
      // CI runner's may be: the root group has no nice of its own, it weighs as 0).
      const group = (p: number) => readFileSync(`/proc/${p}/autogroup`, 'utf8').trim();
      const niceOf = (g: string) => Number(/ nice (-?\d+)$/.exec(g)?.[1] ?? 0);
      assert.match(group(host), /^\/autogroup-\d+ nice -?\d+$/, 'the battles run in an autogroup of their own');
      assert.notEqual(group(host).split(' ')[0], group(pid).split(' ')[0], "not in the server's scheduling group");
      // The server keeps the group it was started in (this test's own, whatever a CI runner set its
      // nice to); the battles' group is at HOST_GROUP_NICE, or at the server's if that is lower.
      assert.equal(group(pid), group(process.pid), "the server keeps this test's scheduling group and its priority");
      assert.equal(niceOf(group(host)), Math.max(HOST_GROUP_NICE, niceOf(group(pid))), `the battles' group: ${group(host)}`);
    } finally {
      await c.stop();
    }
    await c.poll("the battles' process to end with the server", async () => !alive(host!), 10_000);
  });
});

describe("live odds lens: the battles' scheduling group", () => {
  it("is at HOST_GROUP_NICE, or at the server group's nice where that is already lower, never above 19", () => {
    assert.equal(hostGroupNice('/autogroup-12 nice 0'), HOST_GROUP_NICE);
    assert.equal(hostGroupNice('/autogroup-12 nice -5\n'), HOST_GROUP_NICE);
    assert.equal(hostGroupNice('/autogroup-12 nice 10\n'), 10);
    assert.equal(hostGroupNice('/autogroup-12 nice 19'), 19);
    assert.equal(hostGroupNice('garbage'), HOST_GROUP_NICE);
    // A server in the root group (a session of PID 1's) reads nothing there.
    assert.equal(hostGroupNice(''), HOST_GROUP_NICE);
  });
});

describe('live odds lens: a fleet that cannot fight, while the battles before it are still stopping', function () {
  this.timeout(120_000);
  it('says why at once, without waiting for the background process (busy, at the lowest priority, on a loaded machine)', async () => {
    const files = exampleFiles();
    const c = await startServer({ files, settings: { liveOdds: { opponent: 'fleets/standard-1000-myr-valari.fleet.yaml', trials: 50_000 } } });
    let host: number | undefined;
    try {
      const uri = await c.open('fleets/standard-1000.fleet.yaml', files['fleets/standard-1000.fleet.yaml']);
      // The whole text, in the tooltip (the title is short).
      const lens = async (): Promise<string> => {
        const all = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
        const live = all.find((l) => /^wins |^Live odds\b/.test(l.command?.title ?? ''));
        return live?.command?.tooltip ?? '';
      };
      // The battles under way (a partial figure), in their process.
      await c.poll('the battles under way', async () => / of at most [\d,]+ battles\)$/.test(await lens()), 60_000);
      host = childrenOf(c.child.pid!)[0];
      assert.ok(host, 'no process for the battles');
      // Frozen, as a process at the lowest priority is while other work takes every core: it cannot answer the stop.
      process.kill(host, 'SIGSTOP');
      await c.edit(uri, 'unit: Oblivion Maw', 'unit: No Such Maw');
      const title = await c
        .poll(
          'the lens to say why the fleet cannot fight',
          async () => {
            const t = await lens();
            return /cannot fight/.test(t) ? t : undefined;
          },
          10_000,
        )
        .catch(async (e: Error) => {
          throw new Error(`${e.message}; the lens: ${await lens()}`);
        });
      assert.match(title, /^Live odds vs Lantern Watch: this fleet cannot fight yet: line \d+: /);
    } finally {
      if (host)
        try {
          process.kill(host, 'SIGCONT');
        } catch {
          // Ended already: past the bound the server ends a process that stopped answering.
        }
      await c.stop();
    }
  });
});
