/**
 * What-if on the same dice: `battle --compare-with A2` plays the fleet and its changed
 * copy against the same opponent, battle i of both from the same dice, and reports each difference
 * with its paired standard error (BATTLE.md "What-if", FORMATS.md `compareFleets`). Identical
 * fleets give differences of exactly 0; a clearly stronger copy a difference far beyond its
 * paired error; the differences are A2's figures minus the fleet's, run apart from the same seed;
 * and the numbers are the same in one thread, in chunks over threads, and a slice at a time.
 */
import { formatPercent } from '../../server/src/core/rules/words';
import { strict as assert } from 'node:assert';
import { runBattle } from '../../server/src/cli/battle';
import { memoryIO } from './memoryIO';
import { compareInChunks, FleetComparisonSession, pairedDelta } from '../../server/src/core/sim/compare';
import { localExecutor, runChunkTask, SessionCache, type BattleJob, type ChunkExecutor } from '../../server/src/core/sim/chunked';
import { simulateBattle, type Fleet } from '../../server/src/core/sim/fleet-battle';
import { Workspace } from '../../server/src/core/workspace';
import { fleetForBattle } from '../../server/src/core/features/battle';
import { cardErrors, checkDocument } from '../../server/src/core/check';
import type { FleetDocument } from '../../server/src/core/model/types';
import type { BattleResult } from '../../server/src/core/sim/types';

const CARDS = `faction: Testers
units:
  - name: Lance Destroyer
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Lance — Energy, 18", 2, 3
      - Pulse — Ion, 9", 2, 4
  - name: Maw Frigate
    class: Frigate
    points: 110
    stats: "9/3 6+ 8+ 2 6+ 3 - 6/2 2"
    weapons:
      - Maw Cannon — Piercing, 12", 2, 3
`;
const fleetText = (name: string, unit: string, count: number) => `name: ${name}
faction: Testers
points: 500
units:
  - unit: ${unit}
    count: ${count}
`;
const FLEET_A = fleetText('Lances', 'Lance Destroyer', 2);
// The same list written differently (a comment, another order of keys): the same fleet.
const FLEET_A_COPY = `# the same list
faction: Testers
name: Lances
points: 500
units:
  - count: 2
    unit: Lance Destroyer
`;
const FLEET_A2 = fleetText('Lances', 'Lance Destroyer', 3);
const FLEET_B = fleetText('Maws', 'Maw Frigate', 3);

const FILES: Record<string, string> = {
  '/ws/cards/test.unit.yaml': CARDS,
  '/ws/a.fleet.yaml': FLEET_A,
  '/ws/a-copy.fleet.yaml': FLEET_A_COPY,
  '/ws/a2.fleet.yaml': FLEET_A2,
  '/ws/b.fleet.yaml': FLEET_B,
};

async function battleJson(args: string[]): Promise<BattleResult> {
  const io = memoryIO(FILES);
  assert.equal(await runBattle([...args, '--format', 'json', '--cards', '/ws/cards', '--threads', '1'], io), 0, io.err);
  return JSON.parse(io.out) as BattleResult;
}

const RUN = ['--vs', '/ws/b.fleet.yaml', '--trials', '3000', '--seed', '11'];

function fleetsOf(texts: string[]): { fleet: Fleet; limit?: number }[] {
  const ws = new Workspace();
  ws.set('file:///ws/cards/test.unit.yaml', CARDS);
  return texts.map((t, i) => {
    const doc = ws.set(`file:///ws/f${i}.fleet.yaml`, t) as FleetDocument;
    const b = fleetForBattle(doc, ws, checkDocument(doc, ws), cardErrors);
    assert.ok(b.fleet, b.errors.join('; '));
    return { fleet: b.fleet, limit: b.limit };
  });
}

/** `threads` engines, each chunk on the next one, answering out of order (what worker threads do). */
function shuffledThreads(threads: number, seed: number): ChunkExecutor {
  const caches = Array.from({ length: threads }, () => new SessionCache());
  let k = 0;
  let r = seed;
  return (task) => {
    const out = runChunkTask(task, caches[k++ % threads]!);
    r = (r * 1103515245 + 12345) % 2147483648;
    return new Promise((res) => setTimeout(() => res(out), r % 5));
  };
}

describe('battle --compare-with: a fleet against its changed copy on the same dice', function () {
  this.timeout(300_000);

  it('identical fleets give differences of exactly 0, with standard errors of 0', async () => {
    // A copy of the file (the fleet's own file is refused: below).
    {
      const r = await battleJson(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/a-copy.fleet.yaml']);
      const c = r.compareFleets!;
      assert.ok(c, 'compareFleets is there');
      assert.deepEqual(Object.keys(c), ['fleet', 'result', 'difference', 'summary']);
      for (const s of c.difference.sides) for (const d of [s.annihilation, s.pointsVictory]) assert.deepEqual(d, { delta: 0, se: 0 });
      assert.deepEqual(c.difference.draw, { delta: 0, se: 0 });
      assert.match(c.summary[0]!, /^With the change: Lances wins about as often as before/);
      // The text report says so in words, as the battle view does, not "+0.0% ± 0.0".
      const io = memoryIO(FILES);
      assert.equal(
        await runBattle(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/a-copy.fleet.yaml', '--cards', '/ws/cards', '--threads', '1'], io),
        0,
        io.err,
      );
      assert.match(io.out, /no change/);
      assert.doesNotMatch(io.out, /[+\u2212]0\.0% \u00b1 0\.0/);
      assert.ok(
        c.summary.some((l) => l.includes('the change makes no difference')),
        c.summary.join('\n'),
      );
    }
  });

  it('a clearly stronger copy gives a difference beyond 4 paired standard errors, in the words of FORMATS.md', async () => {
    const r = await battleJson(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/a2.fleet.yaml']);
    const d = r.compareFleets!.difference;
    assert.ok(d.sides[0]!.pointsVictory.se > 0);
    assert.ok(d.sides[0]!.pointsVictory.delta > 4 * d.sides[0]!.pointsVictory.se, JSON.stringify(d));
    assert.ok(d.sides[1]!.pointsVictory.delta < -4 * d.sides[1]!.pointsVictory.se, JSON.stringify(d));
    // Chances as every figure shown writes them (the views, the CLI).
    const pct = formatPercent;
    assert.equal(
      r.compareFleets!.summary[0]!.split(';')[0],
      `With the change: Lances wins ${pct(r.compareFleets!.result.sides[0].pointsVictory.p)} instead of ${pct(r.sides[0].pointsVictory.p)}`,
    );
  });

  it('the differences are exactly A2\u2019s figures minus the fleet\u2019s, each run apart from the same seed', async () => {
    const both = await battleJson(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/a2.fleet.yaml']);
    const a = await battleJson(['--fleet', '/ws/a.fleet.yaml', ...RUN]);
    const a2 = await battleJson(['--fleet', '/ws/a2.fleet.yaml', ...RUN]);
    const { compareFleets, ...base } = both;
    assert.deepEqual(base, a, 'the fleet\u2019s own figures are its battle\u2019s');
    assert.deepEqual(compareFleets!.result, a2, 'the changed fleet\u2019s figures are its battle\u2019s');
    const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
    for (const s of [0, 1] as const)
      for (const k of ['annihilation', 'pointsVictory'] as const)
        assert.equal(compareFleets!.difference.sides[s]![k].delta, round6(a2.sides[s][k].p - a.sides[s][k].p));
    assert.equal(compareFleets!.difference.draw.delta, round6(a2.draw.p - a.draw.p));
  });

  it('the same numbers in one thread, over threads in any order, and a slice at a time', async () => {
    const [a, b, a2] = fleetsOf([FLEET_A, FLEET_B, FLEET_A2]);
    const cases: [string, BattleJob][] = [
      ['approaching', { fleets: [a!.fleet, b!.fleet], options: { trials: 2600, seed: 4 }, limits: [a!.limit, b!.limit] }],
      [
        'with a variant beside the standard rules',
        { fleets: [a!.fleet, b!.fleet], options: { trials: 1200, seed: 5, variants: [{ name: 'retreat', parameters: {} }], compare: true } },
      ],
      // About 510 a trial, 590 with the bigger fleet: a limit of one trial that some trials of both reach.
      ['cut short by the work limit of one trial', { fleets: [a!.fleet, b!.fleet], options: { trials: 6000, seed: 9 }, workLimit: 551 }],
    ];
    for (const [what, job] of cases) {
      const one = await compareInChunks(job, a2!, localExecutor(), 1);
      for (const threads of [2, 3])
        assert.deepEqual(await compareInChunks(job, a2!, shuffledThreads(threads, 7 * threads), threads), one, `${what}: ${threads} threads`);
      const session = new FleetComparisonSession(job, a2!);
      while (!session.step(50_000));
      assert.deepEqual(session.result(), one, `${what}: a slice at a time`);
      assert.equal(one.compareFleets!.result.trials, one.trials, `${what}: both played the same battles`);
      if (what.startsWith('cut short')) {
        assert.equal(one.trials, 6000, 'every trial is played');
        const cut = [one.cutTrials!, one.compareFleets!.result.cutTrials!];
        assert.ok(
          cut.every((k) => k > 0 && k < 6000),
          `trials ended at the limit: ${cut.join(', ')}`,
        );
        assert.ok(cut[1]! > cut[0]!, 'the bigger fleet reaches the limit more often');
        assert.equal(one.compareFleets!.result.cutShort, true);
      }
      if (what.startsWith('with a variant')) assert.ok(one.compare && one.compareFleets!.result.variants.includes('retreat'));
      // Until sure: the fleet's battle stops at the same chunk in every way of playing it, the changed one plays as many.
      const precision = 0.03;
      const sure = await compareInChunks(job, a2!, localExecutor(), 1, { precision });
      assert.deepEqual(await compareInChunks(job, a2!, shuffledThreads(2, 11), 2, { precision }), sure, `${what}: until sure, 2 threads`);
      const stepped = new FleetComparisonSession(job, a2!, precision);
      while (!stepped.step(50_000));
      assert.deepEqual(stepped.result(), sure, `${what}: until sure, a slice at a time`);
      assert.equal(sure.compareFleets!.result.trials, sure.trials, `${what}: until sure, both played the same battles`);
      assert.ok(sure.stopped !== undefined && sure.requestedTrials === job.options.trials, `${what}: says why it stopped`);
    }
  });

  it('the paired standard error is the spread of the battle-by-battle differences', () => {
    // Four battles: the change wins one it lost (+1), keeps two, and loses one it won (-1).
    const win = (c: number) => c === 1;
    const d = pairedDelta([0, 1, 0, 1], [1, 1, 0, 0], 0.5, 0.5, win);
    assert.equal(d.delta, 0);
    // The differences +1, 0, 0, -1 have sample variance 2/3; over 4 battles the error is sqrt(1/6).
    assert.equal(d.se, Math.round(Math.sqrt(2 / 3 / 4) * 1e6) / 1e6);
    assert.deepEqual(pairedDelta([1, 0, 1], [1, 0, 1], 2 / 3, 2 / 3, win), { delta: 0, se: 0 });
  });

  it('prints the change in the text report, and says what is wrong with a bad --compare-with', async () => {
    const io = memoryIO(FILES);
    assert.equal(
      await runBattle(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/a2.fleet.yaml', '--cards', '/ws/cards', '--threads', '1'], io),
      0,
      io.err,
    );
    assert.match(io.out, /Compared with the changed list \(435 pts; the fleet has 290\), on the same dice/);
    assert.match(io.out, /With the change: Lances wins \d+(?:\.\d+)?% instead of \d+(?:\.\d+)?%/);
    assert.match(io.out, /\+\d+\.\d% \u00b1 \d\.\d/);
    for (const [file, why] of [
      ['/ws/none.fleet.yaml', /no such file: \/ws\/none\.fleet\.yaml/],
      ['/ws/cards/test.unit.yaml', /is not a fleet list/],
    ] as const) {
      const bad = memoryIO(FILES);
      assert.equal(await runBattle(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', file, '--cards', '/ws/cards'], bad), 2);
      assert.match(bad.err, why);
    }
    // Another list (not this one changed): its figures under its own name, never this list's.
    const renamed = memoryIO({ ...FILES, '/ws/other.fleet.yaml': fleetText('Other Lances', 'Lance Destroyer', 3) });
    assert.equal(
      await runBattle(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/other.fleet.yaml', '--cards', '/ws/cards', '--threads', '1'], renamed),
      0,
    );
    assert.match(renamed.out, /With Other Lances in place of Lances: wins \d+(?:\.\d+)?% instead of \d+(?:\.\d+)?%/);
    assert.doesNotMatch(renamed.out, /With the change: Lances/);
    // The fleet's own file is no changed copy: a usage error that says so.
    const self = memoryIO(FILES);
    assert.equal(await runBattle(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/a.fleet.yaml', '--cards', '/ws/cards'], self), 2);
    assert.match(self.err, /--compare-with names the same file as --fleet .*give the changed copy/);
    assert.equal(self.out, '');
    const broken = memoryIO({ ...FILES, '/ws/bad.fleet.yaml': fleetText('Broken', 'No Such Card', 1) });
    assert.equal(await runBattle(['--fleet', '/ws/a.fleet.yaml', ...RUN, '--compare-with', '/ws/bad.fleet.yaml', '--cards', '/ws/cards'], broken), 2);
    assert.match(broken.err, /: \/ws\/bad\.fleet\.yaml: the fleet cannot fight: line 5: No card named "No Such Card"/);
  });

  it('is the same battle as simulateBattle for the fleet itself', () => {
    const [a, b, a2] = fleetsOf([FLEET_A, FLEET_B, FLEET_A2]);
    const job: BattleJob = { fleets: [a!.fleet, b!.fleet], options: { trials: 800, seed: 2 }, limits: [a!.limit, b!.limit] };
    const s = new FleetComparisonSession(job, a2!);
    s.step();
    const { compareFleets, ...rest } = s.result();
    assert.deepEqual(rest, simulateBattle(job.fleets, job.options, { limits: job.limits }));
    assert.ok(compareFleets);
  });
});
