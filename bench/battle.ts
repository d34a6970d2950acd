/**
 * The fleet battle benchmark: the fleet battle of the example fleets (examples/fleets), read and built
 * as the CLI does, 20,000 trials of 6 rounds: the two 1,000-point fleets (goal under 2 s) and the
 * two 2,000-point fleets (goal under 5 s), with the cost per trial against the duel's.
 */
import { BattleSession, simulateBattle } from '../server/src/core/sim/fleet-battle';
import { BATTLE_PRECISION } from '../server/src/core/rules/data';
import { simulateEngagement } from '../server/src/core/sim/engagement';
import { profileFromCard } from '../server/src/core/sim/profile';
import { exampleBattle, exampleWorkspace, load, median, type Row } from './util';

/**
 * The example battles' CPU per trial (µs, 20,000 trials, one thread, warm, a new engine each run)
 * as the engine gave it before its speed work, measured beside the engine after it (load about 21
 * on 2 cores): the goal is half.
 */
const ENGINE_BEFORE: readonly (readonly [string, string, number])[] = [
  ['standard-1000.fleet.yaml', 'standard-1000-myr-valari.fleet.yaml', 96],
  ['battle-2000.fleet.yaml', 'battle-2000-consumed.fleet.yaml', 165],
];

function time<T>(runs: number, fn: () => T): { ms: number; cpu: number; last: T } {
  const times: number[] = [];
  const cpu: number[] = [];
  let last!: T;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(times), cpu: median(cpu), last };
}

export async function benchBattle(): Promise<Row[]> {
  const rows: Row[] = [];
  const ws = exampleWorkspace();
  const trials = 20000;
  // The duel of the two Capital Ships, as the simulator's own benchmark runs it: the cost per trial to compare with.
  const card = (name: string) => profileFromCard(ws.findCards(name)[0]!.card).profile!;
  const duel = time(5, () => simulateEngagement(card('Radiant Court'), card('Hollow Throne'), { trials, rounds: 6, seed: 1 }, undefined, { exact: false }));
  const perDuel = (duel.cpu * 1000) / trials;
  rows.push({
    name: `duel for comparison: Radiant Court vs Hollow Throne, ${trials.toLocaleString('en-US')} trials x 6 rounds at 12"`,
    medianMs: duel.ms,
    goal: 'report',
    note: `cpu ${duel.cpu.toFixed(0)} ms; ${perDuel.toFixed(1)} µs cpu per trial`,
  });
  for (const [a, b, goal] of [
    ['standard-1000.fleet.yaml', 'standard-1000-myr-valari.fleet.yaml', '< 2000 ms'],
    ['battle-2000.fleet.yaml', 'battle-2000-consumed.fleet.yaml', '< 5000 ms'],
  ] as const) {
    const job = exampleBattle(ws, a, b);
    const run = () => simulateBattle(job.fleets, { trials, rounds: 6, seed: 1 }, { limits: job.limits });
    run(); // warm the JIT
    const t = time(3, run);
    const r = t.last;
    const per = (t.cpu * 1000) / r.trials;
    const units = job.fleets[0].units.length + job.fleets[1].units.length;
    rows.push({
      name: `battle: ${r.sides[0].fleet} (${r.sides[0].points}) vs ${r.sides[1].fleet} (${r.sides[1].points}), ${units} units, ${trials.toLocaleString('en-US')} trials x 6 rounds, approach`,
      medianMs: t.ms,
      goal,
      note:
        `cpu ${t.cpu.toFixed(0)} ms; ${per.toFixed(0)} µs cpu per trial = ${(per / perDuel).toFixed(0)}x the duel's; ` +
        `points victory ${(100 * r.sides[0].pointsVictory.p).toFixed(1)}% / ${(100 * r.sides[1].pointsVictory.p).toFixed(1)}%${r.trials < trials ? `; CUT SHORT at ${r.trials}` : ''}`,
    });
  }
  // The engine's speed: CPU per trial of each example battle on one thread, beside the goal of half
  // the figure the engine had before its speed work (measured then with this same code).
  for (const [a, b, before] of ENGINE_BEFORE) {
    const job = exampleBattle(ws, a, b);
    const run = () => simulateBattle(job.fleets, { trials, rounds: 6, seed: 1 }, { limits: job.limits });
    run();
    const t = time(3, run);
    const per = (t.cpu * 1000) / t.last.trials;
    rows.push({
      name: `engine speed: ${a.replace('.fleet.yaml', '')} vs ${b.replace('.fleet.yaml', '')}, CPU per trial, one thread`,
      medianMs: per,
      unit: 'µs/trial',
      goal: `<= ${(before / 2).toFixed(0)} µs (half of ${before} µs before)`,
      note: `${load()}; cpu ${t.cpu.toFixed(0)} ms for ${t.last.trials.toLocaleString('en-US')} trials`,
    });
  }
  // The rule variants: each rule variant on the two 1,000-point fleets (the standard run above is the baseline).
  const standard = exampleBattle(ws, 'standard-1000.fleet.yaml', 'standard-1000-myr-valari.fleet.yaml');
  for (const variant of ['sustained-damage', 'break-tests', 'retreat', 'morale']) {
    const run = () =>
      simulateBattle(standard.fleets, { trials, rounds: 6, seed: 1, variants: [{ name: variant, parameters: {} }] }, { limits: standard.limits });
    run();
    const t = time(3, run);
    const r = t.last;
    rows.push({
      name: `battle with --variant ${variant}: the two 1,000-point fleets, ${trials.toLocaleString('en-US')} trials, approach`,
      medianMs: t.ms,
      goal: '< 2000 ms',
      note: `cpu ${t.cpu.toFixed(0)} ms; points victory ${(100 * r.sides[0].pointsVictory.p).toFixed(1)}% / ${(100 * r.sides[1].pointsVictory.p).toFixed(1)}%${r.trials < trials ? `; CUT SHORT at ${r.trials}` : ''}`,
    });
  }
  rows.push(...benchPrecision(ws));
  return rows;
}

/**
 * Runs that stop when sure: a 50/50 mirror and a lopsided battle played as the battle view plays
 * them (a stepped session until every headline figure is sure to BATTLE_PRECISION.view, 200,000
 * battles the cap), each against a run of BENCH_PRECISION_REFERENCE battles (200,000 by default):
 * the goal is every figure inside the precision of the long run, and the lopsided battle done in a
 * fifth of the mirror's battles or at the minimum.
 */
function benchPrecision(ws: ReturnType<typeof exampleWorkspace>): Row[] {
  const precision = BATTLE_PRECISION.view;
  const reference = Number(process.env.BENCH_PRECISION_REFERENCE ?? 200_000);
  const headline = (r: ReturnType<typeof simulateBattle>) => [...r.sides.flatMap((s) => [s.annihilation.p, s.pointsVictory.p]), r.draw.p];
  const played: number[] = [];
  const rows: Row[] = [];
  for (const [what, a, b] of [
    ['a 50/50 mirror', 'standard-1000.fleet.yaml', 'standard-1000.fleet.yaml'],
    ['a lopsided battle', 'standard-1000.fleet.yaml', 'skirmish-500.fleet.yaml'],
  ] as const) {
    const job = exampleBattle(ws, a, b);
    const session = new BattleSession(job.fleets, { trials: 200_000, seed: 1 }, { limits: job.limits, precision });
    const t0 = performance.now();
    while (!session.step(50_000));
    const ms = performance.now() - t0;
    const sure = session.result();
    const long = simulateBattle(job.fleets, { trials: reference, seed: 1 }, { limits: job.limits });
    const gap = Math.max(...headline(sure).map((p, i) => Math.abs(p - headline(long)[i]!)));
    played.push(sure.trials);
    const minimum = BATTLE_PRECISION.minTrials;
    rows.push({
      name: `until sure to ±${100 * precision}% (the battle view): ${what}, ${a.replace('.fleet.yaml', '')} vs ${b.replace('.fleet.yaml', '')}`,
      medianMs: sure.trials,
      unit: 'battles',
      goal:
        played.length === 1
          ? `every figure within ${100 * precision} pts of ${reference.toLocaleString('en-US')} battles`
          : `the same, in at most ${Math.max(minimum, played[0]! / 5).toLocaleString('en-US')} battles (a fifth of the mirror's, or ${minimum.toLocaleString('en-US')})`,
      note:
        `${sure.stopped === 'precision' ? 'sure' : 'CAP'} to ±${(100 * sure.precision!).toFixed(2)}% in ${ms.toFixed(0)} ms; ` +
        `widest gap to ${reference.toLocaleString('en-US')} battles ${(100 * gap).toFixed(2)} pts: ${gap <= precision ? 'met' : 'MISSED'}` +
        (played.length === 2 ? `; ${sure.trials <= Math.max(minimum, played[0]! / 5) ? 'met' : 'MISSED'}` : ''),
    });
  }
  return rows;
}
