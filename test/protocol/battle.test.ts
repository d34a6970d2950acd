/**
 * `fabledStar/battle` over stdio against the bundled server: the example fleets from a workspace
 * on disk give the CLI's figures from the same seed; the run reports work-done progress, streams
 * partial results that sharpen, answers other requests meanwhile, and stops when cancelled; bad
 * requests fail with a sentence.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CancellationTokenSource, WorkDoneProgress, type WorkDoneProgressReport } from 'vscode-languageserver-protocol/node';
import { startServer, type Client } from './harness';
import { BattlePartialResult, BattleProgress } from '../../protocol';
import type { BattleResult, SimulationResult } from '../../server/src/core/sim/types';
import { runBattle } from '../../server/src/cli/battle';
import { nodeIO } from '../../server/src/cli/io';

import { EXAMPLES, EXAMPLE_BATTLE_ARGS } from '../exampleFleets';

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
  const code = await runBattle([...args, '--format', 'json'], { ...nodeIO(), stdout: (s) => (out += s), stderr: (s) => (err += s) });
  assert.equal(code, 0, err);
  return JSON.parse(out) as BattleResult;
}

// On this machine's default (one simulation thread: a battle steps on it) and on two threads (a
// battle in chunks of trials on both, kept warm from one battle to the next): the same answers.
for (const threads of [undefined, 2])
  describe(`fabledStar/battle over stdio${threads ? `, on ${threads} simulation threads` : ''}`, function () {
    this.timeout(180_000);
    let c: Client;
    before(async () => {
      c = await startServer({ files: exampleFiles(), ...(threads ? { settings: { simulation: { threads } } } : {}) });
      // The workspace scan reads the fleets from disk; wait until the server knows them all.
      for (const f of ['standard-1000', 'standard-1000-myr-valari', 'battle-2000', 'battle-2000-consumed']) {
        const uri = c.uri(`fleets/${f}.fleet.yaml`);
        for (let i = 0; i < 200; i++) {
          if (await c.request('fabledStar/fleetSummary', { uri })) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });
    after(async () => c?.stop());

    it("gives the CLI's figures from the same seed, for a fleet file on disk", async () => {
      const fleet = c.uri('fleets/standard-1000.fleet.yaml');
      const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
      const options = { trials: 3000, seed: 42, rounds: 5 };
      const r = await c.request<BattleResult>('fabledStar/battle', { fleet: { uri: fleet }, vs: { uri: vs }, options });
      const cli = await cliJson([...EXAMPLE_BATTLE_ARGS, '--trials', '3000', '--seed', '42', '--rounds', '5']);
      assert.deepEqual(r, cli);
      assert.equal(r.sides[0].fleet, 'The Hunger Within');
    });

    it("stops when sure as `battle --precision` does, with the CLI's figures and words, and stays ready for the next battle", async () => {
      const fleet = c.uri('fleets/standard-1000.fleet.yaml');
      const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
      const ask = (precision: unknown) =>
        c.request<BattleResult>('fabledStar/battle', { fleet: { uri: fleet }, vs: { uri: vs }, options: { trials: 20000, seed: 8 }, precision });
      const r = await ask(0.02);
      const cli = await cliJson([...EXAMPLE_BATTLE_ARGS, '--trials', '20000', '--seed', '8', '--precision', '0.02']);
      assert.deepEqual(r, cli);
      assert.equal(r.stopped, 'precision');
      assert.ok(r.trials < 20000 && r.requestedTrials === 20000 && r.precision! <= 0.02, `${r.trials} battles, ±${r.precision}`);
      // The threads it dropped chunks on are still there: the next battle plays at once, and right.
      const again = await ask(0.02);
      assert.deepEqual(again, r);
      await assert.rejects(ask(0.7), /precision must be a half-width above 0 and below 0\.5 \(0\.01 is ±1%\), not 0\.7\./);
      await assert.rejects(ask('sure'), /precision must be .*not "sure"\./);
    });

    it("plays rule variants beside the standard rules with the CLI's figures, and the simulate request too", async () => {
      const fleet = c.uri('fleets/standard-1000.fleet.yaml');
      const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
      const options = { trials: 1500, seed: 5, variants: ['break-tests'], compare: true };
      const r = await c.request<BattleResult>('fabledStar/battle', { fleet: { uri: fleet }, vs: { uri: vs }, options });
      const cli = await cliJson([...EXAMPLE_BATTLE_ARGS, '--trials', '1500', '--seed', '5', '--variant', 'break-tests', '--compare']);
      assert.deepEqual(r, cli);
      assert.equal(r.variants[0], 'break-tests');
      assert.equal(r.compare!.standard.variants.length, 0);
      await assert.rejects(
        c.request('fabledStar/battle', { fleet: { uri: fleet }, vs: { uri: vs }, options: { variants: ['morale', 'retreat'] } }),
        /cannot be combined/,
      );
      const sim = await c.request<SimulationResult>('fabledStar/simulate', {
        attacker: { name: 'Radiant Court' },
        defender: { name: 'Hollow Throne' },
        options: { trials: 500, seed: 7 },
        variants: ['morale'],
        compare: true,
      });
      assert.equal(sim.engagement.rounds, 3);
      assert.equal(sim.engagement.variants![0], 'morale');
      const vv = sim.engagement.variantVictory!;
      assert.ok(Math.abs(vv.attacker + vv.defender - 1) < 1e-9, 'a winner on morale every time');
      assert.ok(sim.engagement.attackerWins <= vv.attacker + 1e-9, 'destroying the other unit wins on morale');
      assert.equal(sim.engagement.compare!.standard.rounds, 6);
      await assert.rejects(
        c.request('fabledStar/simulate', { attacker: { name: 'Radiant Court' }, defender: { name: 'Hollow Throne' }, variants: ['flanking'] }),
        /Unknown variant "flanking"/,
      );
    });

    it('reports progress, streams sharpening partial results, and answers other requests meanwhile', async () => {
      const fleet = c.uri('fleets/battle-2000.fleet.yaml');
      const vs = c.uri('fleets/battle-2000-consumed.fleet.yaml');
      const reports: WorkDoneProgressReport[] = [];
      const partials: BattleResult[] = [];
      const counts: { done: number; total: number }[] = [];
      const subs = [
        c.conn.onProgress(BattleProgress, 'battle-count', (v) => {
          counts.push(v);
        }),
        c.conn.onProgress(WorkDoneProgress.type, 'battle-work', (v) => {
          if (v.kind === 'report') reports.push(v);
        }),
        c.conn.onProgress(BattlePartialResult, 'battle-partial', (v) => {
          partials.push(v);
        }),
      ];
      const p = c.conn.sendRequest<BattleResult>('fabledStar/battle', {
        fleet: { uri: fleet },
        vs: { uri: vs },
        options: { trials: 20000, seed: 3 },
        workDoneToken: 'battle-work',
        partialResultToken: 'battle-partial',
        progressToken: 'battle-count',
      });
      const symbols = await c.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri: fleet } });
      assert.ok(Array.isArray(symbols));
      const r = await p;
      subs.forEach((s) => s.dispose());
      assert.equal(r.trials, 20000);
      assert.ok(reports.length > 0, 'work-done progress');
      // The battles as numbers ({done, total}), not a percentage a client has to turn back into battles.
      assert.ok(counts.length > 0, 'battle counts on the progress token');
      assert.ok(
        counts.every((x) => x.total === 20000 && Number.isInteger(x.done) && x.done >= 0 && x.done <= 20000),
        JSON.stringify(counts.slice(0, 3)),
      );
      assert.deepEqual(
        counts.map((x) => x.done),
        [...counts.map((x) => x.done)].sort((a, b) => a - b),
      );
      assert.ok(partials.length >= 2, `${partials.length} partial results`);
      const trials = partials.map((x) => x.trials);
      assert.deepEqual(
        [...trials].sort((a, b) => a - b),
        trials,
        'each partial result has more trials than the one before',
      );
      assert.ok(trials[0]! < 20000 && trials[0]! > 0);
      // A partial result is the same battle with fewer trials: its figures sit within a few standard errors of the final ones.
      const first = partials[0]!;
      const se = first.sides[0].pointsVictory.se + r.sides[0].pointsVictory.se;
      assert.ok(Math.abs(first.sides[0].pointsVictory.p - r.sides[0].pointsVictory.p) <= 4 * se + 1e-9);
    });

    it('stops when cancelled in the middle of the run', async () => {
      const source = new CancellationTokenSource();
      let reported!: () => void;
      const midRun = new Promise<void>((res) => (reported = res));
      const sub = c.conn.onProgress(WorkDoneProgress.type, 'battle-cancel', (v) => {
        if (v.kind === 'report') reported();
      });
      const p = c.conn.sendRequest(
        'fabledStar/battle',
        {
          fleet: { uri: c.uri('fleets/battle-2000.fleet.yaml') },
          vs: { uri: c.uri('fleets/battle-2000-consumed.fleet.yaml') },
          options: { trials: 1_000_000, rounds: 100 },
          workDoneToken: 'battle-cancel',
        },
        source.token,
      );
      await midRun;
      source.cancel();
      await p.then(
        () => assert.fail('the battle ran to the end although it was cancelled'),
        (e: { code?: number }) => assert.equal(e.code, -32800),
      );
      sub.dispose();
      // The threads a cancel ended are started again for the next battle.
      const next = await c.request<BattleResult>('fabledStar/battle', {
        fleet: { uri: c.uri('fleets/standard-1000.fleet.yaml') },
        vs: { uri: c.uri('fleets/standard-1000-myr-valari.fleet.yaml') },
        options: { trials: 1000, seed: 1 },
      });
      assert.equal(next.trials, 1000);
    });

    it("plays a what-if (another version of the fleet, the same dice) with the CLI's figures", async () => {
      const text = readFileSync(join(EXAMPLES, 'fleets/standard-1000.fleet.yaml'), 'utf8');
      const other = text.replace(/count: 2/, 'count: 1');
      assert.notEqual(other, text);
      const r = await c.request<BattleResult>('fabledStar/battle', {
        fleet: { uri: c.uri('fleets/standard-1000.fleet.yaml') },
        vs: { uri: c.uri('fleets/standard-1000-myr-valari.fleet.yaml') },
        options: { trials: 2500, seed: 11 },
        compareWith: { text: other, label: 'one escort fewer' },
      });
      const dir = mkdtempSync(join(tmpdir(), 'what-if-'));
      try {
        const file = join(dir, 'other.fleet.yaml');
        writeFileSync(file, other);
        const cli = await cliJson([...EXAMPLE_BATTLE_ARGS, '--compare-with', file, '--trials', '2500', '--seed', '11']);
        assert.deepEqual(r.compareFleets, cli.compareFleets);
        assert.deepEqual(r.sides, cli.sides);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('names what a battle would play (fabledStar/battleInputs): a new key after an edit of a fleet or a card it uses, the same after any other edit, and the sentence of a fleet that cannot fight', async () => {
      const fleet = c.uri('fleets/standard-1000.fleet.yaml');
      const vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
      const inputs = () => c.request<{ key?: string; cannotFight?: string }>('fabledStar/battleInputs', { fleet: { uri: fleet }, vs: { uri: vs } });
      const first = await inputs();
      assert.ok(first.key, JSON.stringify(first));
      assert.deepEqual(await inputs(), first, 'asked twice, the same battle');
      const cards = await c.open('consumed/maw-squadrons.unit.yaml', readFileSync(join(EXAMPLES, 'consumed/maw-squadrons.unit.yaml'), 'utf8'));
      // A card neither fleet uses: the same battle.
      await c.edit(cards, 'points: 75', 'points: 95');
      assert.deepEqual(await inputs(), first, 'an edit of the Maw Bomber Brood (in neither fleet)');
      // A card the fleet uses: another battle.
      await c.edit(cards, 'Hook Cannon — Auto, 9", 1, 3', 'Hook Cannon — Auto, 9", 2, 3');
      const escorts = await inputs();
      assert.ok(escorts.key && escorts.key !== first.key, 'an edit of the Maw Escort Pack (in the fleet)');
      await c.edit(cards, 'Hook Cannon — Auto, 9", 2, 3', 'Hook Cannon — Auto, 9", 1, 3');
      assert.deepEqual(await inputs(), first, 'the card edit undone');
      // The fleet itself: a comment changes nothing, a count does; over its points it cannot fight.
      const list = await c.open('fleets/standard-1000.fleet.yaml', readFileSync(join(EXAMPLES, 'fleets/standard-1000.fleet.yaml'), 'utf8'));
      assert.equal(list, fleet);
      await c.edit(fleet, '# A 1000-point', '# My 1000-point');
      assert.deepEqual(await inputs(), first, 'a comment');
      await c.edit(fleet, 'count: 2', 'count: 1');
      const fewer = await inputs();
      assert.ok(fewer.key && fewer.key !== first.key, 'one escort fewer');
      await c.edit(fleet, 'count: 1', 'count: 9');
      const over = await inputs();
      assert.match(
        over.cannotFight ?? '',
        /^The fleet "The Hunger Within" cannot fight: line \d+: The fleet costs \d+ pts, \d+ over its 1000 pts limit/,
        JSON.stringify(over),
      );
      await c.edit(fleet, 'count: 9', 'count: 2');
      assert.deepEqual(await inputs(), first, 'the fleet edit undone');
      await c.close(fleet);
      await c.close(cards);
    });

    it('fails with a sentence on a fleet with errors, an unknown fleet, or bad options', async () => {
      const broken = await c.open('fleets/broken.fleet.yaml', 'name: Broken\nfaction: Consumed\npoints: 500\nunits:\n  - unit: Oblivion Maww\n');
      const good = c.uri('fleets/standard-1000.fleet.yaml');
      await assert.rejects(
        c.request('fabledStar/battle', { fleet: { uri: broken }, vs: { uri: good } }),
        /cannot fight: line 5: No card named "Oblivion Maww"/,
      );
      await assert.rejects(c.request('fabledStar/battle', { fleet: { uri: c.uri('nowhere.fleet.yaml') }, vs: { uri: good } }), /No fleet list at/);
      await assert.rejects(c.request('fabledStar/battle', { fleet: { uri: good }, vs: { uri: good }, options: { trials: -1 } }), /trials must be/);
      await assert.rejects(c.request('fabledStar/battle', null), /trials|No fleet/);
    });
  });
