/**
 * The fresh server's warm-up (server/src/lsp/warmup.ts): small steps, one per turn, only
 * while no document is open, and nothing of it is seen in what the server answers.
 */
import assert from 'node:assert/strict';
import { warmUp, warmUpSteps, type Step } from '../../server/src/lsp/warmup';
import { exampleFiles } from '../../server/src/core/examples/index';
import { estimatesOf, fieldFor, newEstimates } from '../../server/src/core/balance/index';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check/index';
import { pointsEstimateProblems } from '../../server/src/core/features/pointsEstimate';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

/** A hand-driven event loop: `next` queues, `turn` runs the oldest. */
function loop() {
  const queue: (() => void)[] = [];
  return {
    next: (f: () => void) => void queue.push(f),
    turn: () => queue.shift()?.(),
    get pending() {
      return queue.length;
    },
  };
}

describe('warm-up of a fresh server', () => {
  it('runs one step per turn while idle, and all of them', async () => {
    const l = loop();
    const ran: number[] = [];
    const steps: Step[] = [0, 1, 2].map((i) => () => void ran.push(i));
    const done = warmUp(() => true, steps, l.next);
    assert.deepEqual(ran, [], 'nothing runs before the first turn (initialized returns at once)');
    l.turn();
    assert.deepEqual(ran, [0]);
    l.turn();
    assert.deepEqual(ran, [0, 1]);
    while (l.pending) l.turn();
    assert.deepEqual(ran, [0, 1, 2]);
    assert.equal(await done, 3);
  });

  it('stops for good at the first turn a document is open', async () => {
    const l = loop();
    let open = false;
    const ran: number[] = [];
    const steps: Step[] = [0, 1, 2, 3].map((i) => () => void ran.push(i));
    const done = warmUp(() => !open, steps, l.next);
    l.turn();
    open = true; // a didOpen arrives between two steps
    l.turn();
    open = false; // and is closed again: the warm-up does not come back
    while (l.pending) l.turn();
    assert.deepEqual(ran, [0]);
    assert.equal(await done, 1);
  });

  it('ends at a step that throws, without throwing', async () => {
    const l = loop();
    const steps: Step[] = [
      () => undefined,
      () => {
        throw new Error('boom');
      },
      () => assert.fail('no step after the one that threw'),
    ];
    const done = warmUp(() => true, steps, l.next);
    while (l.pending) l.turn();
    assert.equal(await done, 1);
  });

  it('parses, checks and estimates the bundled examples, and works out the bundled field, in small steps', () => {
    const steps = warmUpSteps(estimates);
    let ran = 0;
    for (; ran < steps.length; ran++) steps[ran]!();
    assert.ok(ran > 2 * exampleFiles().length + 2, `the volley steps were added as it ran: ${ran} steps`);
    // The bundled field is worked out: asking for it (and for the examples' notes) computes no volley.
    const stats = estimates.volleys.stats;
    const before = stats.computed;
    const field = fieldFor([], estimates);
    assert.equal(field.source, 'examples');
    assert.ok(field.members.length >= 10);
    // A workspace of the examples, its volleys those of the warmed state, computes none either.
    const ws = new Workspace();
    estimatesOf(ws, () => newEstimates(estimates));
    for (const f of exampleFiles()) ws.set(`file:///${f.path}`, f.text);
    for (const doc of ws.documents()) pointsEstimateProblems(doc, ws, checkDocument(doc, ws));
    assert.equal(stats.computed, before, 'no volley left to compute after the warm-up');
  });
});
