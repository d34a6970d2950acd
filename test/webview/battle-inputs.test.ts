/**
 * The battle view's watch on its fleets (client/src/battleInputs.ts), on a clock of the test's own:
 * an edit is checked once the edits pause; a battle whose inputs changed is said out of date and
 * played again, one whose inputs did not (an edit of a card neither fleet uses, an edit undone)
 * is left alone; a fleet that cannot fight is said so once, with the server's sentence, and the
 * figures are current again when the edit is undone; an answer overtaken by a later run is dropped.
 */
import { strict as assert } from 'node:assert';
import { BattleInputsWatch, type BattleInputsHooks } from '../../client/src/battleInputs';
import type { BattleInputs } from '../../protocol';

/** A watch whose server answers `now`, whose timers the test fires, and which records what it did. */
function watch(delay = 100) {
  const state = { now: { key: 'k1' } as BattleInputs, asked: 0, down: false };
  const events: string[] = [];
  const timers = new Map<number, () => void>();
  let next = 0;
  const hooks: BattleInputsHooks = {
    ask: async () => {
      state.asked++;
      if (state.down) throw new Error('The Fabled Star language server is not running.');
      return state.now;
    },
    changed: () => {
      events.push('changed');
      // The panel reruns: the run's figures are for the inputs as they are now.
      w.started(hooks.ask());
    },
    cannotFight: (s) => events.push(`cannot: ${s}`),
    current: () => events.push('current'),
    setTimer: (f) => {
      timers.set(++next, f);
      return next;
    },
    clearTimer: (t) => timers.delete(t as number),
  };
  const w = new BattleInputsWatch(hooks, delay);
  /** Lets the edits pause: the one timer left fires, and its check settles. */
  const pause = async () => {
    assert.ok(timers.size <= 1, `${timers.size} timers pending: the edits were not debounced`);
    for (const [id, f] of [...timers]) {
      timers.delete(id);
      f();
    }
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { w, state, events, timers, pause };
}

describe('the battle view follows its fleets (battleInputs)', () => {
  it('plays again after an edit that changes the battle, once the edits pause', async () => {
    const { w, state, events, pause } = watch();
    w.started(Promise.resolve({ key: 'k1' }));
    state.now = { key: 'k2' };
    w.edited();
    w.edited();
    w.edited();
    assert.deepEqual(events, [], 'nothing happens while the player types');
    await pause();
    assert.deepEqual(events, ['changed']);
    // The rerun's figures are for k2: another edit that leaves k2 does nothing.
    w.edited();
    await pause();
    assert.deepEqual(events, ['changed']);
  });

  it('leaves the figures alone after an edit the battle does not read (a card neither fleet uses, a comment)', async () => {
    const { w, state, events, pause } = watch();
    w.started(Promise.resolve({ key: 'k1' }));
    w.edited();
    await pause();
    assert.equal(state.asked, 1);
    assert.deepEqual(events, []);
  });

  it('says once that a fleet cannot fight, with the sentence, and plays again once it can', async () => {
    const { w, state, events, pause } = watch();
    w.started(Promise.resolve({ key: 'k1' }));
    state.now = { cannotFight: 'The fleet "Dawn Tide" cannot fight: line 3: 1230 points, over the limit of 1000' };
    w.edited();
    await pause();
    w.edited();
    await pause();
    assert.deepEqual(events, ['cannot: The fleet "Dawn Tide" cannot fight: line 3: 1230 points, over the limit of 1000']);
    state.now = { key: 'k3' };
    w.edited();
    await pause();
    assert.deepEqual(events.slice(1), ['changed']);
  });

  it('says the figures are current again when the edit that stopped the fleet is undone', async () => {
    const { w, state, events, pause } = watch();
    w.started(Promise.resolve({ key: 'k1' }));
    state.now = { cannotFight: 'no' };
    w.edited();
    await pause();
    state.now = { key: 'k1' };
    w.edited();
    await pause();
    assert.deepEqual(events, ['cannot: no', 'current']);
  });

  it('plays a battle whose first run failed once its fleets can fight (no key to compare with)', async () => {
    const { w, state, events, pause } = watch();
    w.started(Promise.resolve({ cannotFight: 'no' }));
    state.now = { key: 'k1' };
    w.edited();
    await pause();
    assert.deepEqual(events, ['changed']);
  });

  it('drops an answer overtaken by a run that started meanwhile', async () => {
    const { w, state, events } = watch();
    w.started(Promise.resolve({ key: 'k1' }));
    state.now = { key: 'k2' };
    const check = w.check();
    // The player pressed Run again before the answer came: that run's figures are for k2.
    w.started(Promise.resolve({ key: 'k2' }));
    await check;
    assert.deepEqual(events, []);
  });

  it('never acts after it is disposed, and a server that is not there is asked again at the next edit', async () => {
    const { w, state, events, timers, pause } = watch();
    w.started(Promise.resolve({ key: 'k1' }));
    state.now = { key: 'k2' };
    w.edited();
    w.dispose();
    assert.equal(timers.size, 0, 'the pending check is dropped');
    w.edited();
    await pause();
    assert.deepEqual(events, []);

    const other = watch();
    other.w.started(Promise.resolve({ key: 'k1' }));
    other.state.now = { key: 'k2' };
    other.state.down = true;
    other.w.edited();
    await other.pause();
    assert.deepEqual(other.events, []);
    other.state.down = false;
    other.w.edited();
    await other.pause();
    assert.deepEqual(other.events, ['changed']);
  });
});
