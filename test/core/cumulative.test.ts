/** Cumulative odds (core/sim/cumulative.ts) and `sim`'s report of them: the same list in the JSON and the text. */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { atLeast } from '../../server/src/core/sim/cumulative';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO } from '../../server/src/cli/io';

const ROOT = path.resolve(__dirname, '../..');

describe('cumulative odds', () => {
  it('P(at least N) adds up the chances of N or more, from 1 to the largest value', () => {
    const got = atLeast([
      { value: 0, p: 0.3 },
      { value: 2, p: 0.25 },
      { value: 4, p: 0.3 },
      { value: 6, p: 0.15 },
    ]);
    assert.deepEqual(
      got.map((x) => x.value),
      [1, 2, 3, 4, 5, 6],
    );
    const want = [0.7, 0.7, 0.45, 0.45, 0.15, 0.15];
    got.forEach((x, i) => assert.ok(Math.abs(x.p - want[i]!) < 1e-12, `${x.value}: ${x.p}`));
    assert.deepEqual(atLeast([{ value: 0, p: 1 }]), []);
    assert.deepEqual(atLeast([]), []);
  });

  it('a card with millions of HP: one row per value the distribution has, not one per HP', () => {
    const got = atLeast([
      { value: 0, p: 0.5 },
      { value: 3, p: 0.25 },
      { value: 99_999_999, p: 0.25 },
    ]);
    assert.deepEqual(got, [
      { value: 3, p: 0.5 },
      { value: 99_999_999, p: 0.25 },
    ]);
    assert.deepEqual(atLeast([{ value: Infinity, p: 1 }]), []);
  });

  it('never rises with N and never passes 1, whatever the rounding of the input', () => {
    const pts = Array.from({ length: 200 }, (_, i) => ({ value: i, p: 1 / 199.99 }));
    const got = atLeast(pts);
    for (let i = 1; i < got.length; i++) assert.ok(got[i]!.p <= got[i - 1]!.p);
    assert.ok(got[0]!.p <= 1);
  });

  it('sim: the text report prints, beside the histogram, the rows its JSON gives', async () => {
    const run = async (format: string) => {
      let out = '';
      const code = await runSim(
        ['--attacker', 'Lumen Destroyer', '--defender', 'Consumed Maw Frigate', '--cards', path.join(ROOT, 'examples'), '--trials', '500', '--format', format],
        { ...nodeIO(), cwd: ROOT, stdout: (s) => (out += s), stderr: () => undefined },
      );
      assert.equal(code, 0);
      return out;
    };
    const json = JSON.parse(await run('json'));
    const text = await run('text');
    const rows = [...text.matchAll(/^ {2}at least +(\d+) HP +(\S+)$/gm)].map((m) => [Number(m[1]), m[2]]);
    assert.ok(text.indexOf('Chance of at least N HP lost') > text.indexOf('Hull damage (HP lost)'));
    const pct = (p: number) => (p > 0 && p < 0.0005 ? '<0.1%' : `${(100 * p).toFixed(1)}%`);
    assert.deepEqual(
      rows,
      json.volley.hullDamageAtLeast.map((x: { value: number; p: number }) => [x.value, pct(x.p)]),
    );
  });
});
