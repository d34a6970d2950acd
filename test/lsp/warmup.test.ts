/**
 * The fresh server's warm-up (server/src/lsp/warmup.ts, issue 14): small steps, one per turn, only
 * while no document is open, and nothing of it is seen in what the server answers.
 */
import assert from 'node:assert/strict';
import { warmUp, warmUpSteps, type Step } from '../../server/src/lsp/warmup';
import { exampleFiles } from '../../server/src/core/examples/index';

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

  it('parses and checks every bundled example file in small steps', () => {
    const steps = warmUpSteps();
    assert.equal(steps.length, 2 * exampleFiles().length + 1, 'a parse and a check per file, then one volley');
    for (const s of steps) s();
  });
});
