/**
 * `fabled-star battle`: the fleet battle of two fleet lists (BATTLE.md, FORMATS.md "Fleet battle").
 * Cards come from `--cards` files or folders (default: the current folder, as for `sim`); the numbers
 * come from the pure core. Every problem is one line on stderr and exit status 2.
 */
import { createFabledService, FabledService, inProcessRunner, type BattleResult, type FleetDocument } from '../core/service';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CHUNK_LOG_ENV, CHUNK_YOUNG_MB, cores, loggedChunk, SimPool, workerFile } from '../node/sim-pool';
import { poolRunner } from '../node/runners';
import { fileUri, loadCards, readProblem } from './io';
import { command, type OptionRow } from './args';
import { escapeControls } from './terminal';
import { readVariantFlags, twoSidedCommand, VARIANT_HELP } from './variants';

/** A battle ready to play, a what-if's other version of its fleet, and a side of it. */
type BattleJob = Parameters<FabledService['playBattle']>[0];
type ChangedFleet = NonNullable<Parameters<FabledService['playBattle']>[1]>['changed'];
type BattleSide = Parameters<FabledService['prepareFleets']>[0][number];

const {
  battleDefaults: BATTLE_DEFAULTS,
  battleOptionKeys: BATTLE_OPTION_KEYS,
  precisionMinTrials: PRECISION_MIN_TRIALS,
  chunkTrials: CHUNK_TRIALS,
} = FabledService;
const { formatPercent, formatPercentError, textTable: table, asNumber, describeValue } = FabledService;

/**
 * Trials per thread that pay for starting it: a thread's first chunks pay its warm-up (loading the
 * bundle, V8's tier-up, the exact kernels). Measured on a 2-core machine with two 1,000-point
 * example fleets, alternating runs: 2 threads against 1 take about the same wall time at 20,000
 * trials (ratio 0.91 to 1.03 over two runs) for half as much CPU again, 0.88 at 32,000, 0.75 at
 * 50,000 and 0.65 at 200,000; so a second thread starts at 32,000 trials, where it is faster.
 */
export const TRIALS_PER_THREAD = 16_000;

export const BATTLE_HELP = `Usage: fabled-star battle --fleet FILE --vs FILE|NAME [--cards PATH]... [options]

Plays the two fleet lists against each other for a number of rounds, many times over with seeded
dice, and prints how often each side wins (by destroying the other fleet, or by points destroyed),
the points each side destroys, and each unit's chance to survive each round.

Options:
  --fleet FILE             your fleet list (*.fleet.yaml); side 1 of the report
  --vs FILE|NAME           the opponent's fleet list; side 2. Or a bundled example fleet by its
                           name ("Lantern Watch"), with its own cards, as the live odds lens
                           takes it (fabledStar.liveOdds.opponent)
  --cards PATH             a *.unit.yaml / *.faction.yaml file or a folder searched recursively;
                           may repeat (default: the current folder)
  --range INCHES           fight at a fixed range (every unit that far from every enemy, as in
                           \`sim\`); without it the fleets enter from opposite edges of the table of
                           their game size and close in
  --rounds N               round limit (default ${BATTLE_DEFAULTS.rounds})
  --trials N               battles to sample (default ${BATTLE_DEFAULTS.trials}); with --precision, the most
  --precision P            stop once every headline figure (each side's annihilation and points
                           victory, the draw) is sure to within P (its 95% half-width: 0.01 is
                           ±1%), after ${PRECISION_MIN_TRIALS.toLocaleString('en-US')} battles at least; without it --trials N plays
                           exactly N
  --seed N                 random seed; the same seed gives the same numbers (default ${BATTLE_DEFAULTS.seed})
  --threads N              threads to spread the trials over, this one and N - 1 workers
                           (default: one for every ${TRIALS_PER_THREAD.toLocaleString('en-US')} trials, up to the machine's
                           cores, here ${cores()}); the numbers are the same whatever N
${VARIANT_HELP}
  --compare-with FILE      a changed copy of --fleet (*.fleet.yaml): plays it against the same
                           opponent on the same dice (battle i of both rolls the same dice) and
                           shows the difference with its paired standard error
  --format text|json       a readable report (default) or one JSON object on stdout
  -h, --help               show this help

Exit status: 0 success, 2 usage problem, unreadable file, a fleet with errors or an unknown card.
`;

/** Chances as every figure shown to players writes them (the views too). */
const pct = formatPercent;
const num = (x: number, d = 1) => x.toFixed(d);

/** The readable report, in the manner of `sim`'s. */
export function renderBattleReport(r: BattleResult): string {
  const [a, b] = r.sides;
  const out: string[] = [];
  const name = (s: typeof a) => escapeControls(s.fleet || '(unnamed fleet)');
  out.push(`${name(a)} (${escapeControls(a.faction)}, ${a.points} pts) vs ${name(b)} (${escapeControls(b.faction)}, ${b.points} pts)`);
  out.push(
    `Up to ${r.rounds} rounds, ${r.mode === 'fixed' ? 'at a fixed range' : 'approaching from the table edges'} (${r.method}, ${r.trials} trials, seed ${r.seed})`,
  );
  const stopped = FabledService.stoppedWords(r);
  if (stopped) out.push(`Battles played: ${r.trials.toLocaleString('en-US')}, ${stopped}.`);
  if (r.cutTrials)
    out.push(
      `Cut short: ${r.cutTrials.toLocaleString('en-US')} of ${r.trials.toLocaleString('en-US')} battles reached the work limit of one battle and were ended there, scored as they stood (see Assumptions).`,
    );
  if (r.cutShort && r.requestedTrials !== undefined && r.trials < r.requestedTrials)
    out.push(
      `Cut short: ${r.trials.toLocaleString('en-US')} of ${r.requestedTrials.toLocaleString('en-US')} battles were played, as many as the run beside this one; the figures are from those (see Assumptions).`,
    );
  out.push('');
  out.push('Who wins');
  // Under morale the win on morale is a column of its own: points victory stays by points.
  const morale = a.variantVictory !== undefined && b.variantVictory !== undefined;
  const mor = (s: typeof a) => (morale ? [pct(s.variantVictory!.p), formatPercentError(s.variantVictory!.se)] : []);
  const blank = morale ? ['', ''] : [];
  out.push(
    ...table(
      [
        ['', 'destroys the other fleet', '', 'more points destroyed', '', ...(morale ? ['wins on morale', ''] : [])],
        [name(a), pct(a.annihilation.p), formatPercentError(a.annihilation.se), pct(a.pointsVictory.p), formatPercentError(a.pointsVictory.se), ...mor(a)],
        [name(b), pct(b.annihilation.p), formatPercentError(b.annihilation.se), pct(b.pointsVictory.p), formatPercentError(b.pointsVictory.se), ...mor(b)],
        ['Draw on points', '', '', pct(r.draw.p), formatPercentError(r.draw.se), ...blank],
        ...(r.bothDestroyed.p > 0
          ? [['Both fleets destroyed at once (a Ram)', pct(r.bothDestroyed.p), formatPercentError(r.bothDestroyed.se), '', '', ...blank]]
          : []),
      ],
      [false, true, true, true, true, ...(morale ? [true, true] : [])],
    ).map((l) => `  ${l}`),
  );
  out.push(`  Mean rounds played: ${num(r.meanRounds, 2)}`);
  out.push('');
  out.push('Points destroyed (mean; 10th, 50th, 90th percentile)');
  for (const s of r.sides)
    out.push(
      `  ${name(s)}: ${num(s.pointsDestroyed.mean)} of ${s === a ? b.points : a.points}; ${s.pointsDestroyed.p10}, ${s.pointsDestroyed.p50}, ${s.pointsDestroyed.p90}`,
    );
  for (const s of r.sides) {
    const routs = s.units.some((u) => u.routed !== undefined);
    out.push('');
    out.push(
      routs
        ? `${name(s)}: chance each unit is alive (on the table, not destroyed, not fled) after each round, how often it fled, and what it did per battle`
        : `${name(s)}: chance each unit is alive after each round, and what it did per battle`,
    );
    const head = ['Unit', 'Pts', ...Array.from({ length: r.rounds }, (_, i) => `R${i + 1}`), ...(routs ? ['Fled'] : []), 'Fired', 'Boarded', 'Rammed'];
    const rows = s.units.map((u) => [
      `${escapeControls(u.name)}${s.units.filter((x) => x.name === u.name).length > 1 ? ` #${u.copy}` : ''}`,
      String(u.points),
      ...u.alive.map((x) => pct(x)),
      ...(routs ? [pct(u.routed?.[u.routed.length - 1] ?? 0)] : []),
      num(u.fired, 2),
      num(u.boarded, 2),
      num(u.rammed, 2),
    ]);
    out.push(
      ...table(
        [head, ...rows],
        head.map((_, i) => i > 0),
      ).map((l) => `  ${l}`),
    );
  }
  out.push(...FabledService.renderBattleVariants(r, escapeControls));
  out.push('');
  out.push(`Policy: ${r.policy}`);
  out.push('');
  out.push('Assumptions');
  for (const x of r.assumptions) out.push(`  - ${x}`);
  return out.join('\n') + '\n';
}

/** With CHUNK_LOG_ENV set: a line on stderr at each step of the command, on the wall clock (ms since the epoch; the threads' lines use the same clock). */
const stepLog = process.env[CHUNK_LOG_ENV]
  ? (what: string) =>
      process.stderr.write(`main ${what} at ${(performance.timeOrigin + performance.now()).toFixed(1)} (process start ${performance.timeOrigin.toFixed(1)})\n`)
  : () => undefined;

/** More threads than this is a typing mistake. */
const MAX_THREADS = 256;

/**
 * The worker threads for a battle of `trials` trials over `threads` threads, this one included,
 * started at once so that they load while this thread reads the cards (undefined: one thread, a
 * run of one chunk, or no worker bundle; the battle then plays here without starting any). This
 * thread plays chunks beside them (sim-pool.ts `executor`), so `--threads 2` starts one worker.
 */
export function battlePool(trials: number, threads: number): SimPool | undefined {
  const n = Math.min(threads, Math.ceil(trials / CHUNK_TRIALS));
  const file = workerFile();
  if (n <= 1 || !file) return undefined;
  return new SimPool(n - 1, file, { eager: true, youngMb: CHUNK_YOUNG_MB, tasksPerThread: 2 });
}

/** The threads for a run of `trials` trials: one for every TRIALS_PER_THREAD, at least one, at most the machine's cores. */
export function threadsFor(trials: number, available = cores()): number {
  return Math.max(1, Math.min(available, Math.floor(trials / TRIALS_PER_THREAD)));
}

/**
 * The battle, its trials in chunks over `threads` threads (core/sim/chunked.ts), this one and
 * worker threads: the same numbers as in one thread. One thread, or a run of one chunk, plays here
 * without starting any. A pool given (from `battlePool`) is its caller's to close. With
 * `precision`, it stops once every headline figure is that sure (`battle --precision`).
 */
export async function playBattle(job: BattleJob, threads: number, given?: SimPool, changed?: ChangedFleet, precision?: number): Promise<BattleResult> {
  const pool = given ?? battlePool(FabledService.battleTrials(job), threads);
  const local = inProcessRunner();
  // This thread plays chunks beside the workers (sim-pool.ts `executor`).
  const runner = pool ? poolRunner(pool, { here: (task) => loggedChunk(task, local), lanes: pool.threads + 1 }) : local;
  try {
    // With --compare-with, the changed fleet against the same opponent on the same dice (core/sim/compare.ts).
    return await createFabledService({ runner }).playBattle(job, { changed, precision });
  } finally {
    if (!given) await pool?.close();
  }
}

const BATTLE_COMMAND = twoSidedCommand({
  name: 'battle',
  help: BATTLE_HELP,
  sides: { fleet: 'FILE', vs: 'FILE' },
  // The battle's flags are its options' names (BATTLE_OPTION_KEYS), --threads and --precision.
  flags: {
    ...Object.fromEntries(BATTLE_OPTION_KEYS.map((key) => [key, { type: 'string' } satisfies OptionRow])),
    threads: { type: 'string' } satisfies OptionRow,
    precision: { type: 'string' } satisfies OptionRow,
    'compare-with': { type: 'string' } satisfies OptionRow,
  },
});

export const runBattle = command(BATTLE_COMMAND, async ({ values, format, fail: usage }, io) => {
  const { fleet: fleetPath, vs: vsPath } = values;

  // Errors name the options as the flags the user typed.
  const raw = Object.fromEntries(BATTLE_OPTION_KEYS.map((key) => [key, (values as Record<string, unknown>)[key]]));
  const v = FabledService.battleOptions(raw, (spec) => `--${spec.flag}`);
  if (!v.options) return usage(v.errors.join(' '));
  const rules = readVariantFlags(values, usage);
  if (rules === 2) return 2;
  const { precision, error: badPrecision } = FabledService.battlePrecision(values.precision, '--precision');
  if (badPrecision) return usage(badPrecision);
  const threads = values.threads === undefined ? threadsFor(v.options.trials ?? BATTLE_DEFAULTS.trials) : asNumber(values.threads);
  if (threads === undefined || !Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
    return usage(`--threads must be a whole number of threads from 1 to ${MAX_THREADS}, not ${describeValue(values.threads)}.`);

  const changedPath = values['compare-with'];
  // The opponent by name: a bundled example fleet (no such file, and not a path).
  const byName = !io.exists(vsPath) && !FabledService.namesFile(vsPath);
  const found = byName ? createFabledService({}).opponent({ name: vsPath, examplesOnly: true, what: 'give a *.fleet.yaml file' }) : undefined;
  if (found && 'why' in found) return usage(`--vs: no such file, and ${found.why.replace(/^no fleet/, 'no bundled example fleet')}`);
  const example = found?.doc;
  for (const p of [fleetPath, ...(example ? [] : [vsPath]), ...(changedPath === undefined ? [] : [changedPath])]) {
    if (!io.exists(p)) return usage(`no such file: ${p}`);
    if (io.isDirectory(p)) return usage(`${p} is a folder; give a *.fleet.yaml file.`);
    if (!/\.fleet\.ya?ml$/i.test(p)) return usage(`${p} is not a fleet list (*.fleet.yaml).`);
  }
  // The fleet against itself is no what-if: most likely the changed copy was meant (or not saved yet).
  if (changedPath !== undefined && path.resolve(io.cwd, changedPath) === path.resolve(io.cwd, fleetPath))
    return usage(
      `--compare-with names the same file as --fleet (${changedPath}): give the changed copy of the list (a second *.fleet.yaml), and the two are played on the same dice.`,
    );
  const fight = async (pool: SimPool | undefined): Promise<number> => {
    const { ws, problems } = loadCards(io, values.cards ?? [io.cwd]);
    stepLog('cards read');
    if (problems.length) return usage(...problems);
    const fleets: FleetDocument[] = [];
    for (const p of changedPath === undefined ? [fleetPath, vsPath] : [fleetPath, vsPath, changedPath]) {
      if (fleets.length === 1 && example) {
        fleets.push(example);
        continue;
      }
      let text: string;
      try {
        text = io.readFile(p);
      } catch (e) {
        return usage(readProblem(p, e));
      }
      // Each fleet under its own URI, even when both flags name the same file.
      const doc = ws.set(`${fileUri(p)}${['', '#vs', '#changed'][fleets.length]}`, text);
      if (!doc || doc.kind !== 'fleet') return usage(`${p} could not be read as a fleet list.`);
      fleets.push(doc);
    }
    const options = { ...v.options, variants: rules.choices, compare: rules.compare };
    // A bundled example fleet fights with the bundled cards, as the lens has it.
    const sides = (pair: [FleetDocument, FleetDocument]) =>
      pair.map((doc): BattleSide => ({ doc, ws: doc === example ? found!.ws : ws })) as [BattleSide, BattleSide];
    const fleetsHere = createFabledService({ workspace: ws });
    const prepared = fleetsHere.prepareFleets(sides([fleets[0]!, fleets[1]!]), options);
    // With --compare-with, the changed fleet against the same opponent (core/sim/compare.ts).
    const other = fleets[2] ? fleetsHere.prepareFleets(sides([fleets[2], fleets[1]!]), options) : undefined;
    for (const [p, file] of [
      [prepared, fleetPath],
      [other, changedPath],
    ] as const) {
      if (!p || !('refused' in p)) continue;
      const { side, errors } = p.refused;
      const path = side === 0 ? file : vsPath;
      return usage(FabledService.cannotFight(`${path}: the fleet`, errors, `; run "fabled-star check ${path}"`));
    }
    if ('refused' in prepared || (other && 'refused' in other)) return 2;
    const changed = other ? { fleet: other.battle.fleets[0], limit: other.battle.limits?.[0] } : undefined;
    // Another faction's list is another fleet, not a change of this one: played, and said so.
    const [own, alt] = [fleets[0]!.faction.value, fleets[2]?.faction.value];
    if (fleets[2] && own !== undefined && alt !== undefined && own.toLowerCase() !== alt.toLowerCase())
      io.stderr(
        `fabled-star battle: note: ${escapeControls(changedPath!)} is a ${escapeControls(alt)} fleet and ${escapeControls(fleetPath)} a ${escapeControls(own)} one: "with the change" below means with the other faction's list.\n`,
      );
    stepLog('battle prepared');
    const result = await playBattle(prepared.battle, threads, pool, changed, precision);
    stepLog('battle played');
    io.stdout(
      format === 'json'
        ? `${JSON.stringify(result, null, 2)}\n`
        : renderBattleReport(result) + (result.compareFleets ? FabledService.renderFleetComparison(result, escapeControls) : ''),
    );
    return 0;
  };
  // The threads start loading now, while this thread reads the cards (closed on every way out).
  stepLog('options read');
  const pool = battlePool(v.options.trials ?? BATTLE_DEFAULTS.trials, threads);
  stepLog('pool made');
  try {
    return await fight(pool);
  } finally {
    await pool?.close();
  }
});
