/**
 * The diagnostics scheduler against a fake clock: when a document is validated while the user types,
 * when the documents that depend on a changed card are, and when the client is asked to refresh.
 */
import assert from 'node:assert/strict';
import { DIAGNOSTICS_REFRESH_MS, DiagnosticsScheduler, VIEWS_REFRESH_MS, type Cancel, type Clock } from '../../server/src/lsp/scheduler';

/** A clock whose time moves only when the test says so. Immediates run at the current time, before later timers. */
class FakeClock implements Clock {
  private t = 0;
  private seq = 0;
  private queue: { at: number; seq: number; f: () => void; live: boolean }[] = [];

  now(): number {
    return this.t;
  }
  setTimeout(f: () => void, ms: number): Cancel {
    const e = { at: this.t + ms, seq: this.seq++, f, live: true };
    this.queue.push(e);
    return () => (e.live = false);
  }
  setImmediate(f: () => void): Cancel {
    return this.setTimeout(f, 0);
  }
  /** Lets promise callbacks (the host's delay setting, the batch's awaits) run. */
  async settle(): Promise<void> {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  }
  /** Moves time forward by `ms`, running every timer that falls due, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await this.settle();
      const due = this.queue.filter((e) => e.live && e.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      due.live = false;
      this.queue = this.queue.filter((e) => e.live);
      this.t = due.at;
      due.f();
    }
    this.t = end;
  }
  /** Runs the next timer, moving time to it. */
  async step(): Promise<void> {
    await this.settle();
    const due = this.queue.filter((e) => e.live).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
    if (!due) return;
    due.live = false;
    this.queue = this.queue.filter((e) => e.live);
    this.t = due.at;
    due.f();
    await this.settle();
  }
  pending(): number {
    return this.queue.filter((e) => e.live).length;
  }
}

interface Log {
  published: { uri: string; at: number }[];
  diagnosticRefreshes: number[];
  viewRefreshes: number[];
}

function setup(opts: { pull?: boolean; delay?: number } = {}) {
  const clock = new FakeClock();
  const log: Log = { published: [], diagnosticRefreshes: [], viewRefreshes: [] };
  const scheduler = new DiagnosticsScheduler(
    {
      pull: () => !!opts.pull,
      // As the server does: the setting arrives through a promise.
      delayMs: () => Promise.resolve(opts.delay ?? 150),
      publish: (uri) => log.published.push({ uri, at: clock.now() }),
      refreshDiagnostics: () => log.diagnosticRefreshes.push(clock.now()),
      refreshViews: () => log.viewRefreshes.push(clock.now()),
    },
    clock,
  );
  return { clock, log, scheduler, times: (uri: string) => log.published.filter((p) => p.uri === uri).map((p) => p.at) };
}

describe('diagnostics scheduler (fake clock)', () => {
  describe('push mode, one document', () => {
    it('validates an opened document on the next turn', async () => {
      const { clock, scheduler, times } = setup();
      scheduler.schedule('a', 'now');
      assert.deepEqual(times('a'), [], 'not synchronously: queued changes are applied first');
      await clock.advance(0);
      assert.deepEqual(times('a'), [0]);
    });

    it('validates the first change of a burst at once and the rest when typing pauses', async () => {
      const { clock, scheduler, times } = setup({ delay: 150 });
      scheduler.schedule('a', 'typing');
      await clock.advance(0);
      assert.deepEqual(times('a'), [0], 'the first keystroke after a pause is checked at once');
      await clock.advance(50);
      scheduler.schedule('a', 'typing');
      await clock.advance(50);
      scheduler.schedule('a', 'typing');
      await clock.advance(149);
      assert.deepEqual(times('a'), [0], 'still typing: nothing yet');
      await clock.advance(1);
      assert.deepEqual(times('a'), [0, 250], 'once, 150 ms after the last keystroke');
    });

    it('validates at once again after a pause as long as the delay', async () => {
      const { clock, scheduler, times } = setup({ delay: 150 });
      scheduler.schedule('a', 'typing');
      await clock.advance(150);
      scheduler.schedule('a', 'typing');
      await clock.advance(0);
      assert.deepEqual(times('a'), [0, 150]);
    });

    it('waits after a quick second change even when the first has been validated', async () => {
      const { clock, scheduler, times } = setup({ delay: 150 });
      scheduler.schedule('a', 'typing');
      await clock.advance(10);
      scheduler.schedule('a', 'typing');
      await clock.advance(149);
      assert.deepEqual(times('a'), [0]);
      await clock.advance(1);
      assert.deepEqual(times('a'), [0, 160]);
    });

    it('drops a pending validation when the document is closed', async () => {
      const { clock, scheduler, times } = setup({ delay: 150 });
      scheduler.schedule('a', 'typing');
      await clock.advance(10);
      scheduler.schedule('a', 'typing');
      await clock.settle();
      assert.equal(scheduler.isScheduled('a'), true);
      scheduler.forget('a');
      assert.equal(scheduler.isScheduled('a'), false);
      await clock.advance(1000);
      assert.deepEqual(times('a'), [0]);
      assert.equal(clock.pending(), 0);
    });

    it('keeps documents apart: typing in one does not delay another', async () => {
      const { clock, scheduler, times } = setup({ delay: 150 });
      scheduler.schedule('a', 'typing');
      scheduler.schedule('b', 'typing');
      await clock.advance(10);
      scheduler.schedule('a', 'typing');
      scheduler.schedule('b', 'now');
      await clock.advance(0);
      assert.deepEqual(times('b'), [0, 10]);
      await clock.advance(150);
      assert.deepEqual(times('a'), [0, 160]);
    });
  });

  describe('push mode, dependents', () => {
    it('validates the documents that use a changed card after the delay, one per turn', async () => {
      const { clock, scheduler, log } = setup({ delay: 100 });
      scheduler.changed('cards', ['fleet1', 'fleet2'], true);
      await clock.advance(99);
      assert.equal(log.published.length, 0);
      await clock.advance(1);
      assert.deepEqual(
        log.published.map((p) => p.uri),
        ['fleet1', 'fleet2'],
      );
    });

    it('asks for the costly dependents only when the batch runs, after the changed document', async () => {
      const { clock, scheduler, log } = setup({ delay: 100 });
      const asked: number[] = [];
      const later = () => (asked.push(clock.now()), ['card2', 'fleet1']);
      scheduler.schedule('cards', 'now');
      scheduler.changed('cards', ['fleet1'], true, later);
      assert.deepEqual(asked, [], 'not while the change is read');
      await clock.advance(0);
      assert.deepEqual(
        log.published.map((p) => p.uri),
        ['cards'],
        'the changed document first',
      );
      assert.deepEqual(asked, []);
      scheduler.changed('cards', [], true, later);
      await clock.advance(100);
      assert.ok(asked.length > 0 && asked.every((t) => t === 100), `asked when the batch runs: ${asked.join(', ')}`);
      assert.deepEqual(
        log.published.map((p) => p.uri),
        ['cards', 'fleet1', 'card2'],
        'each dependent once',
      );
    });

    it("never asks a pulling client's costly dependents: its refresh pulls everything", async () => {
      const { clock, scheduler, log } = setup({ pull: true, delay: 100 });
      let asked = 0;
      scheduler.changed('cards', [], true, () => (asked++, ['card2']));
      await clock.advance(1000);
      assert.equal(asked, 0);
      assert.equal(log.published.length, 0);
    });

    it('asks once for hints and lenses after a burst of card changes, and never for a fleet change', async () => {
      const { clock, scheduler, log } = setup();
      scheduler.changed('fleet', [], false);
      await clock.advance(1000);
      assert.deepEqual(log.viewRefreshes, []);
      scheduler.changed('cards', [], true);
      await clock.advance(100);
      scheduler.changed('cards', [], true);
      await clock.advance(1000);
      assert.deepEqual(log.viewRefreshes, [1000 + 100 + VIEWS_REFRESH_MS]);
    });

    it('leaves a dependent alone while its own validation is pending', async () => {
      const { clock, scheduler, times } = setup({ delay: 100 });
      scheduler.changed('cards', ['fleet'], true); // the batch runs at t=100
      scheduler.schedule('fleet', 'typing');
      await clock.advance(50);
      scheduler.schedule('fleet', 'typing'); // pending until t=150
      await clock.advance(1000);
      assert.deepEqual(times('fleet'), [0, 150], 'validated by its own timer only');
    });

    it('restarts the wait when another card changes, and validates each dependent once', async () => {
      const { clock, scheduler, log } = setup({ delay: 100 });
      scheduler.changed('cards', ['fleet1'], true);
      await clock.advance(60);
      scheduler.changed('cards', ['fleet1', 'fleet2'], true);
      await clock.advance(1000);
      assert.deepEqual(log.published, [
        { uri: 'fleet1', at: 160 },
        { uri: 'fleet2', at: 160 },
      ]);
    });

    it('abandons a batch when newer work arrives and finishes it later', async () => {
      const { clock, scheduler, log } = setup({ delay: 100 });
      const many = Array.from({ length: 5 }, (_, i) => `fleet${i}`);
      scheduler.changed('cards', many, true);
      await clock.advance(99);
      await clock.step(); // the batch starts: fleet0 now, the next on the next turn
      await clock.step(); // fleet1
      assert.deepEqual(
        log.published.map((p) => p.uri),
        ['fleet0', 'fleet1'],
      );
      // New work in the middle of the batch: the rest waits for it.
      scheduler.changed('cards', ['other'], true);
      await clock.step();
      assert.equal(log.published.length, 2, 'the batch stopped');
      await clock.advance(1000);
      assert.deepEqual(
        log.published
          .filter((p) => p.at === 200)
          .map((p) => p.uri)
          .sort(),
        ['fleet2', 'fleet3', 'fleet4', 'other'],
        'the rest of the batch with the new work, after the new delay (a document the new work affects is among its own dependents)',
      );
      assert.equal(log.published.length, 6, 'fleet0 and fleet1 are not validated again');
    });

    it('revalidates every document soon after a settings or folder change', async () => {
      const { clock, scheduler, log } = setup({ delay: 100 });
      scheduler.revalidateAll(['a', 'b', 'c']);
      await clock.advance(0);
      assert.deepEqual(
        log.published.map((p) => p.uri),
        ['a', 'b', 'c'],
      );
    });
  });

  describe('pull mode', () => {
    it('publishes nothing and asks the client to pull again, once per burst', async () => {
      const { clock, scheduler, log } = setup({ pull: true });
      scheduler.schedule('a', 'now');
      scheduler.schedule('a', 'typing');
      await clock.advance(1000);
      assert.equal(log.published.length, 0);
      assert.deepEqual(log.diagnosticRefreshes, [], 'the client pulls the document it edits by itself');
      scheduler.schedule('fleet', 'dependent');
      scheduler.changed('cards', ['fleet'], true);
      await clock.advance(20);
      scheduler.revalidateAll(['a', 'fleet']);
      await clock.advance(1000);
      assert.deepEqual(log.diagnosticRefreshes, [1000 + 20 + DIAGNOSTICS_REFRESH_MS]);
      assert.equal(log.published.length, 0);
    });
  });
});
