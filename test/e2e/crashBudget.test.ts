/**
 * The restart policy on its own, with a fake clock: the e2e test crashes a real server four times,
 * this one walks the edges (the window sliding, a manual restart clearing the count).
 */
import { strict as assert } from 'node:assert';
import { CrashBudget } from '../../client/src/crashBudget';

const MIN = 60_000;

/** Crash times in minutes, and whether the client should restart after each. */
const cases: { name: string; at: number[]; restart: boolean[] }[] = [
  { name: 'restarts after each of the first three crashes', at: [0, 0.1, 0.2], restart: [true, true, true] },
  { name: 'gives up at the fourth crash within three minutes', at: [0, 1, 2, 2.9], restart: [true, true, true, false] },
  { name: 'forgets crashes older than three minutes', at: [0, 1, 2, 3.5], restart: [true, true, true, true] },
  { name: 'keeps giving up while crashes stay frequent', at: [0, 0, 0, 0, 0.5], restart: [true, true, true, false, false] },
  { name: 'restarts again once the window has slid past the burst', at: [0, 0, 0, 0, 3.1], restart: [true, true, true, false, true] },
];

describe('the crash budget of the language client', () => {
  for (const c of cases) {
    it(c.name, () => {
      let now = 0;
      const budget = new CrashBudget(4, 3 * MIN, () => now);
      const got = c.at.map((t) => {
        now = t * MIN;
        return budget.record().restart;
      });
      assert.deepEqual(got, c.restart);
    });
  }

  it('starts counting afresh after a restart the user asked for', () => {
    let now = 0;
    const budget = new CrashBudget(4, 3 * MIN, () => now);
    for (let i = 0; i < 4; i++) budget.record();
    budget.reset();
    now = 1000;
    assert.deepEqual(budget.record(), { restart: true, crashes: 1, limit: 4 });
  });
});
