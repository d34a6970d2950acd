/**
 * The fleet battle benchmark: the fleet battle of the example fleets (examples/fleets), read and built
 * as the CLI does, 20,000 trials of 6 rounds: the two 1,000-point fleets (goal under 2 s) and the
 * two 2,000-point fleets (goal under 5 s), with the cost per trial against the duel's.
 */
import { simulateBattle } from '../server/src/core/sim/fleet-battle';
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
  return rows;
}
