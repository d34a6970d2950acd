/**
 * `fabled-star battle` through `runBattle` with an in-memory file system: the JSON shape of
 * FORMATS.md, the text report, the same seed giving the same numbers, and every way the input can
 * be wrong (exit 2, one line, no stack trace).
 */
import { strict as assert } from 'node:assert';
import { battlePool, runBattle } from '../../server/src/cli/battle';
import { battleInChunks, localExecutor, runChunkTask, SessionCache, type ChunkTask } from '../../server/src/core/sim/chunked';
import { formatPercent, formatPercentError, prepareBattle, type BattleResult } from '../../server/src/core/service';
import type { FleetDocument } from '../../server/src/core/model/types';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeControls } from '../../server/src/cli/terminal';
import { nodeIO, type CliIO } from '../../server/src/cli/io';
import { memoryIO } from './memoryIO';
import { EXAMPLE_BATTLE_ARGS, EXAMPLES, exampleCardsWorkspace } from '../exampleFleets';

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
  - name: Broken Card
    class: Cruiser
    points: 190
    stats: { M: 9, BS: 5+ }
`;
const FLEET_A = `name: Lances
faction: Testers
points: 500
units:
  - unit: Lance Destroyer
    count: 2
`;
const FLEET_B = `name: Maws
faction: Testers
points: 500
units:
  - unit: Maw Frigate
    count: 3
`;

const FILES: Record<string, string> = { '/ws/cards/test.unit.yaml': CARDS, '/ws/a.fleet.yaml': FLEET_A, '/ws/b.fleet.yaml': FLEET_B };
const BASE = ['--fleet', '/ws/a.fleet.yaml', '--vs', '/ws/b.fleet.yaml', '--trials', '2000'];

describe('battle CLI', function () {
  this.timeout(120000);
  it("takes the opponent by a bundled example fleet's name, as the live odds lens does, with the figures of its file; a misspelt one names the closest", async () => {
    const args = (vs: string) => [
      '--fleet',
      join(EXAMPLES, 'fleets/standard-1000.fleet.yaml'),
      '--vs',
      vs,
      '--cards',
      EXAMPLES,
      '--trials',
      '400',
      '--format',
      'json',
    ];
    const byFile = memoryIO(FILES);
    Object.assign(byFile, nodeIO(), { stdout: (t: string) => (byFile.out += t), stderr: (t: string) => (byFile.err += t) });
    assert.equal(await runBattle(args(join(EXAMPLES, 'fleets/standard-1000-myr-valari.fleet.yaml')), byFile), 0, byFile.err);
    const byName = memoryIO(FILES);
    Object.assign(byName, nodeIO(), { stdout: (t: string) => (byName.out += t), stderr: (t: string) => (byName.err += t) });
    assert.equal(await runBattle(args('lantern watch'), byName), 0, byName.err);
    assert.deepEqual(JSON.parse(byName.out), JSON.parse(byFile.out));
    const typo = memoryIO(FILES);
    Object.assign(typo, nodeIO(), { stdout: (t: string) => (typo.out += t), stderr: (t: string) => (typo.err += t) });
    assert.equal(await runBattle(args('Lanturn Watch'), typo), 2);
    assert.match(typo.err, /no bundled example fleet named "Lanturn Watch"; did you mean "Lantern Watch"\?/);
    assert.equal(typo.out, '');
  });

  it('prints exactly the JSON shape of FORMATS.md', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runBattle([...BASE, '--format', 'json', '--seed', '5', '--rounds', '4'], io), 0, io.err);
    const r = JSON.parse(io.out);
    assert.deepEqual(Object.keys(r), [
      'method',
      'trials',
      'seed',
      'rounds',
      'mode',
      'variants',
      'sides',
      'bothDestroyed',
      'draw',
      'meanRounds',
      'policy',
      'assumptions',
    ]);
    assert.equal(r.method, 'sampled');
    assert.equal(r.trials, 2000);
    assert.equal(r.seed, 5);
    assert.equal(r.rounds, 4);
    assert.equal(r.mode, 'approach');
    assert.equal(r.sides.length, 2);
    for (const s of r.sides) {
      assert.deepEqual(Object.keys(s), ['fleet', 'faction', 'points', 'annihilation', 'pointsVictory', 'pointsDestroyed', 'units']);
      assert.deepEqual(Object.keys(s.annihilation), ['p', 'se']);
      assert.deepEqual(Object.keys(s.pointsVictory), ['p', 'se']);
      assert.deepEqual(Object.keys(s.pointsDestroyed), ['mean', 'p10', 'p50', 'p90']);
      for (const u of s.units) {
        assert.deepEqual(Object.keys(u), ['name', 'copy', 'points', 'alive', 'fired', 'boarded', 'rammed']);
        assert.equal(u.alive.length, 4);
      }
    }
    assert.deepEqual(
      r.sides.map((s: { fleet: string; points: number; units: { name: string; copy: number }[] }) => [
        s.fleet,
        s.points,
        s.units.map((u) => `${u.name} ${u.copy}`),
      ]),
      [
        // Copies of a card carry distinct names (FORMATS.md), and their copy numbers.
        ['Lances', 290, ['Lance Destroyer #1 1', 'Lance Destroyer #2 2']],
        ['Maws', 330, ['Maw Frigate #1 1', 'Maw Frigate #2 2', 'Maw Frigate #3 3']],
      ],
    );
    assert.ok(Math.abs(r.sides[0].pointsVictory.p + r.sides[1].pointsVictory.p + r.draw.p - 1) < 1e-12);
    assert.deepEqual(Object.keys(r.draw), ['p', 'se']);
    assert.deepEqual(Object.keys(r.bothDestroyed), ['p', 'se']);
    assert.ok(r.assumptions.some((a: string) => a.includes('Skirmish table') && a.includes('36"')));
  });

  it('fights at a fixed range with --range, and the same seed prints the same numbers', async () => {
    const a = memoryIO(FILES);
    const b = memoryIO(FILES);
    assert.equal(await runBattle([...BASE, '--range', '12', '--format', 'json'], a), 0);
    assert.equal(await runBattle([...BASE, '--range', '12', '--format', 'json'], b), 0);
    assert.equal(a.out, b.out);
    assert.equal(JSON.parse(a.out).mode, 'fixed');
  });

  it('prints a readable report by default', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runBattle(BASE, io), 0);
    assert.match(io.out, /^Lances \(Testers, 290 pts\) vs Maws \(Testers, 330 pts\)/);
    assert.match(io.out, /Who wins/);
    assert.match(io.out, /Maw Frigate #3/);
    assert.match(io.out, /Policy: /);
    assert.match(io.out, /Assumptions/);
  });

  it('writes every chance as the views do (one rounding rule: 0.06% is never 0.1%)', async () => {
    const text = memoryIO(FILES);
    const json = memoryIO(FILES);
    assert.equal(await runBattle(BASE, text), 0);
    assert.equal(await runBattle([...BASE, '--format', 'json'], json), 0);
    const r = JSON.parse(json.out) as BattleResult;
    const lines = text.out.split('\n');
    const row = (name: string) => lines.slice(lines.indexOf('Who wins')).find((l) => l.trimStart().startsWith(name)) ?? '';
    for (const s of r.sides) {
      const line = row(s.fleet);
      for (const c of [s.annihilation, s.pointsVictory]) assert.ok(line.includes(`${formatPercent(c.p)}`) && line.includes(formatPercentError(c.se)), line);
    }
    assert.ok(row('Draw on points').includes(formatPercent(r.draw.p)), row('Draw on points'));
    const unit = r.sides[1].units[2]!;
    assert.ok(row('Maw Frigate #3').includes(formatPercent(unit.alive[unit.alive.length - 1]!)), row('Maw Frigate #3'));
    assert.equal(formatPercent(0.0006), '0.06%');
  });

  it('--help exits 0 and lists the options', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runBattle(['--help'], io), 0);
    for (const flag of ['--fleet', '--vs', '--cards', '--range', '--rounds', '--trials', '--seed', '--format']) assert.ok(io.out.includes(flag), flag);
  });

  const bad = (fleet: string) => ({ ...FILES, '/ws/bad.fleet.yaml': fleet });
  const failures: [string, string[], Record<string, string>, RegExp][] = [
    ['a missing fleet file', ['--fleet', '/ws/none.fleet.yaml', '--vs', '/ws/b.fleet.yaml'], FILES, /no such file: \/ws\/none\.fleet\.yaml/],
    ['no --vs', ['--fleet', '/ws/a.fleet.yaml'], FILES, /both --fleet FILE and --vs FILE are needed/],
    [
      'an unknown card',
      ['--fleet', '/ws/bad.fleet.yaml', '--vs', '/ws/b.fleet.yaml'],
      bad('name: X\nfaction: Testers\npoints: 500\nunits:\n  - unit: Lance Destroyr\n'),
      /cannot fight: line 5: No card named "Lance Destroyr"; did you mean "Lance Destroyer"\?/,
    ],
    [
      'a fleet over its points',
      ['--fleet', '/ws/bad.fleet.yaml', '--vs', '/ws/b.fleet.yaml'],
      bad('name: X\nfaction: Testers\npoints: 100\nunits:\n  - unit: Lance Destroyer\n'),
      /cannot fight: line 3: .*over/,
    ],
    [
      'a card the simulator cannot use',
      ['--fleet', '/ws/bad.fleet.yaml', '--vs', '/ws/b.fleet.yaml'],
      bad('name: X\nfaction: Testers\npoints: 500\nunits:\n  - unit: Broken Card\n'),
      /cannot fight/,
    ],
    ['YAML that is not a fleet', ['--fleet', '/ws/bad.fleet.yaml', '--vs', '/ws/b.fleet.yaml'], bad(': : :\n\t- ]['), /cannot fight|could not be read/],
    [
      'a fleet of 100,000 units',
      ['--fleet', '/ws/bad.fleet.yaml', '--vs', '/ws/b.fleet.yaml'],
      bad('name: X\nfaction: Testers\npoints: 99999999\nunits:\n  - unit: Lance Destroyer\n    count: 100000\n'),
      /at most 200/,
    ],
    [
      'a card with errors (500 weapons on a Destroyer), which the battle would otherwise play',
      ['--fleet', '/ws/bad.fleet.yaml', '--vs', '/ws/b.fleet.yaml'],
      {
        ...FILES,
        '/ws/cards/gunboat.unit.yaml': `faction: Testers\nunits:\n  - name: Gunboat\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n${Array.from({ length: 500 }, (_, i) => `      - Gun ${i} — Energy, 18", 2, 3`).join('\n')}\n`,
        '/ws/bad.fleet.yaml': 'name: X\nfaction: Testers\npoints: 500\nunits:\n  - unit: Gunboat\n',
      },
      /cannot fight: line 5: the card "Gunboat" has errors: gunboat\.unit\.yaml line \d+: A Destroyer has 2 weapon systems; this card lists 500/,
    ],
    ['--fleet given twice (it would play the second)', [...BASE, '--fleet', '/ws/b.fleet.yaml'], FILES, /--fleet is given twice; give it once/],
    ['a negative seed', [...BASE, '--seed', '-1'], FILES, /--seed must be a whole number from 0 to 4294967295, not "-1"/],
    ['a variant parameter given twice', [...BASE, '--variant', 'retreat:threshold=0.5,threshold=0.9'], FILES, /retreat:"?threshold"? is given twice/],
    ['zero threads', [...BASE, '--threads', '0'], FILES, /--threads must be a whole number of threads from 1 to 256, not "0"/],
    ['absurd trials', [...BASE.slice(0, 4), '--trials', '1e99'], FILES, /--trials must be a whole number of trials from 1 to 1000000/],
    ['a negative range', [...BASE, '--range=-3'], FILES, /--range must be a distance/],
    ['zero rounds', [...BASE, '--rounds', '0'], FILES, /--rounds must be/],
    ['an unknown flag', [...BASE, '--warp'], FILES, /Unknown option '--warp'/],
    ['a wrong format', [...BASE, '--format', 'xml'], FILES, /--format must be text or json/],
    ['a folder as the fleet', ['--fleet', '/ws/cards', '--vs', '/ws/b.fleet.yaml'], FILES, /is a folder/],
    ['a card file as the fleet', ['--fleet', '/ws/cards/test.unit.yaml', '--vs', '/ws/b.fleet.yaml'], FILES, /is not a fleet list/],
    ['a missing cards folder', [...BASE, '--cards', '/nowhere'], FILES, /no such file or folder: \/nowhere/],
  ];
  for (const [what, args, files, re] of failures)
    it(`exits 2 on ${what}, in one line`, async () => {
      const io = memoryIO(files);
      assert.equal(await runBattle(args, io), 2);
      assert.match(io.err, re);
      assert.equal(io.err.trim().split('\n').length, 1, io.err);
      assert.doesNotMatch(io.err, /\n\s+at /);
      assert.equal(io.out, '');
    });

  it('never lets control characters from a file reach the terminal', async () => {
    const io = memoryIO(bad('name: "Evil\\e[2J\\x07"\nfaction: Testers\npoints: 500\nunits:\n  - unit: "Lance\\e]52;c;AAAA\\x07"\n'));
    assert.equal(await runBattle(['--fleet', '/ws/bad.fleet.yaml', '--vs', '/ws/b.fleet.yaml'], io), 2);

    assert.doesNotMatch(io.err, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    assert.equal(escapeControls('a\u001b[2Jb\u0007\u009b'), 'a\\u001b[2Jb\\u0007\\u009b');
  });

  it('prints the same numbers with --threads 1 and --threads 2 (worker threads, from the built dist/)', async () => {
    const real = nodeIO();
    const outs: string[] = [];
    for (const threads of ['1', '2']) {
      let out = '';
      let err = '';
      const io: CliIO = { ...real, stdout: (s) => (out += s), stderr: (s) => (err += s) };
      assert.equal(await runBattle([...EXAMPLE_BATTLE_ARGS, '--format', 'json', '--trials', '2500', '--seed', '4', '--threads', threads], io), 0, err);
      outs.push(out);
    }
    assert.equal(outs[1], outs[0]);
    assert.equal(JSON.parse(outs[0]!).trials, 2500);
  });

  it('prints the same numbers with --threads 1, 2 and 3 (this thread beside one and two workers)', async function () {
    this.timeout(120_000);
    const real = nodeIO();
    const outs: string[] = [];
    for (const threads of ['1', '2', '3']) {
      let out = '';
      let err = '';
      const io: CliIO = { ...real, stdout: (s) => (out += s), stderr: (s) => (err += s) };
      assert.equal(await runBattle([...EXAMPLE_BATTLE_ARGS, '--format', 'json', '--trials', '6500', '--seed', '9', '--threads', threads], io), 0, err);
      outs.push(out);
    }
    assert.equal(outs[1], outs[0]);
    assert.equal(outs[2], outs[0]);
  });

  it("--threads N is this thread and N - 1 workers: both play chunks, and the numbers are one run's", async function () {
    this.timeout(120_000);
    // One worker fewer than the threads asked for: this thread plays too.
    for (const [threads, workers] of [
      [2, 1],
      [3, 2],
    ] as const) {
      const p = battlePool(20_000, threads)!;
      try {
        assert.equal(p.threads, workers);
      } finally {
        await p.close();
      }
    }
    assert.equal(battlePool(20_000, 1), undefined);
    const ws = exampleCardsWorkspace();
    const side = (file: string) => {
      const path = join(EXAMPLES, 'fleets', file);
      return { doc: ws.set(`file://${path}`, readFileSync(path, 'utf8')) as FleetDocument, ws };
    };
    const prepared = prepareBattle([side('standard-1000.fleet.yaml'), side('standard-1000-myr-valari.fleet.yaml')], { trials: 6000, seed: 3 });
    assert.ok(!('refused' in prepared));
    const job = prepared.battle;
    const pool = battlePool(6000, 2)!;
    const here: number[] = [];
    const cache = new SessionCache();
    try {
      const exec = pool.executor((task: ChunkTask) => {
        here.push(task.index);
        return runChunkTask(task, cache);
      });
      const split = await battleInChunks(job, exec, 2);
      const one = await battleInChunks(job, localExecutor(), 1);
      assert.deepEqual(split, one);
      // This thread took the first chunk (the worker was still starting) and left some to the worker.
      assert.equal(here[0], 0);
      assert.ok(here.length >= 1 && here.length < 6, `this thread played chunks ${here.join(', ')} of 6`);
    } finally {
      await pool.close();
    }
  });

  it('hands the worker threads only the chunks they play, so a long battle raises no listener warning', async function () {
    this.timeout(120_000);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      let out = '';
      let err = '';
      const io: CliIO = { ...nodeIO(), stdout: (s) => (out += s), stderr: (s) => (err += s) };
      // 13 chunks of trials: more than ten in flight at once, were they all handed to the pool.
      assert.equal(await runBattle([...EXAMPLE_BATTLE_ARGS, '--format', 'json', '--trials', '13000', '--threads', '2'], io), 0, err);
      assert.equal(JSON.parse(out).trials, 13000);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
  });

  it('runs the example fleets from disk', async () => {
    const real = nodeIO();
    let out = '';
    let err = '';
    const io: CliIO = { ...real, stdout: (s) => (out += s), stderr: (s) => (err += s) };
    const code = await runBattle([...EXAMPLE_BATTLE_ARGS, '--format', 'json', '--trials', '500'], io);
    assert.equal(code, 0, err);
    const r = JSON.parse(out);
    assert.deepEqual(
      r.sides.map((s: { fleet: string; points: number }) => [s.fleet, s.points]),
      [
        ['The Hunger Within', 1000],
        ['Lantern Watch', 1000],
      ],
    );
  });
});
