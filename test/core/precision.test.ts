/**
 * `battle --precision P` (FORMATS.md "Fleet battle"), on the built CLI (dist/cli.js, from `npm run
 * build`): a run stops once every headline figure is sure to ±P, between 2,000 battles and the
 * --trials cap, at the same chunk on one thread and two, with its figures inside ±P of a long run;
 * a lopsided battle stops far sooner than a mirror; without --precision the JSON has no `stopped`.
 * The long reference run is 40,000 battles (±0.5% at 50/50), not 200,000: on a shared machine of two
 * cores 200,000 battles of two 1,000-point fleets take minutes.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FLEETS = join(ROOT, 'examples', 'fleets');

interface Figure {
  p: number;
}
interface Result {
  trials: number;
  stopped?: string;
  precision?: number;
  sides: { annihilation: Figure; pointsVictory: Figure }[];
  draw: Figure;
}

function battle(fleet: string, vs: string, ...flags: string[]): Result {
  const out = execFileSync(
    process.execPath,
    [CLI, 'battle', '--fleet', join(FLEETS, fleet), '--vs', join(FLEETS, vs), '--format', 'json', '--seed', '11', ...flags],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  return JSON.parse(out) as Result;
}

const headline = (r: Result) => [...r.sides.flatMap((s) => [s.annihilation.p, s.pointsVictory.p]), r.draw.p];

describe('battle --precision: runs that stop when the figure is sure', function () {
  this.timeout(600_000);
  before(function () {
    if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
  });

  it('a 50/50 mirror and a lopsided battle at ±1% stop inside ±1% of a long run, the lopsided one far sooner; the same chunk on 1 and 2 threads', () => {
    const mirror = ['standard-1000.fleet.yaml', 'standard-1000.fleet.yaml'] as const;
    const lopsided = ['standard-1000.fleet.yaml', 'skirmish-500.fleet.yaml'] as const;
    const stops: Record<string, number> = {};
    for (const [name, [a, b]] of [
      ['mirror', mirror],
      ['lopsided', lopsided],
    ] as const) {
      const one = battle(a, b, '--precision', '0.01', '--trials', '200000', '--threads', '1');
      const two = battle(a, b, '--precision', '0.01', '--trials', '200000', '--threads', '2');
      assert.equal(one.stopped, 'precision', name);
      assert.ok(one.precision! <= 0.01, `${name}: ±${one.precision}`);
      assert.ok(one.trials >= 2000 && one.trials % 1000 === 0, `${name}: ${one.trials} battles, a whole number of chunks`);
      assert.deepEqual(two, one, `${name}: the same stop and figures on two threads`);
      const long = battle(a, b, '--trials', '40000', '--threads', '2');
      headline(one).forEach((p, i) => assert.ok(Math.abs(p - headline(long)[i]!) <= 0.01, `${name}: figure ${i} ${p} vs ${headline(long)[i]} of 40,000`));
      stops[name] = one.trials;
    }
    assert.ok(stops.lopsided! <= Math.max(2000, stops.mirror! / 5), `lopsided stopped after ${stops.lopsided}, the mirror after ${stops.mirror}`);
  });

  it('stops at the cap when the precision is out of reach, and says so; without --precision the JSON has no stop', () => {
    const capped = battle('standard-1000.fleet.yaml', 'standard-1000.fleet.yaml', '--precision', '0.005', '--trials', '3000', '--threads', '1');
    assert.equal(capped.stopped, 'cap');
    assert.equal(capped.trials, 3000);
    assert.ok(capped.precision! > 0.005);
    const plain = battle('standard-1000.fleet.yaml', 'standard-1000.fleet.yaml', '--trials', '3000', '--threads', '1');
    assert.equal(plain.trials, 3000);
    assert.ok(!('stopped' in plain) && !('precision' in plain));
    const text = execFileSync(
      process.execPath,
      [
        CLI,
        'battle',
        '--fleet',
        join(FLEETS, 'standard-1000.fleet.yaml'),
        '--vs',
        join(FLEETS, 'standard-1000.fleet.yaml'),
        '--precision',
        '0.01',
        '--trials',
        '3000',
      ],
      { encoding: 'utf8' },
    );
    assert.match(text, /Battles played: 3,000, stopped at the cap: ±\d+(\.\d)?%\./);
  });
});
