/**
 * The server gives memory back when it goes idle after a burst of work: the policy is
 * driven here with a fake heap and a fake event loop; the real collector is checked to exist.
 */
import { strict as assert } from 'node:assert';
import { MemorySettler, processMemory, type MemoryHost } from '../../server/src/lsp/memory';

const MB = 1024 * 1024;

/** A heap that grows with `work`, and whose collections free `give` of the slack each. */
function fakeHeap(opts: { total: number; used: number; give: (slack: number) => number; collectable?: boolean }) {
  const h = { ...opts, busy: 0, collections: 0 };
  const host: MemoryHost = {
    heap: () => ({ total: h.total, used: h.used }),
    busy: () => h.busy,
    collect: () => {
      if (h.collectable === false) return false;
      h.collections++;
      h.total -= h.give(h.total - h.used);
      return true;
    },
  };
  return { h, host };
}

const ticks = (s: MemorySettler, n: number) => {
  for (let i = 0; i < n; i++) s.tick();
};

describe('settling memory after a burst of work', () => {
  it('does nothing while the event loop is busy, however big the heap', () => {
    const { h, host } = fakeHeap({ total: 400 * MB, used: 90 * MB, give: (slack) => slack / 2 });
    h.busy = 0.6;
    const s = new MemorySettler(host);
    ticks(s, 50);
    assert.equal(h.collections, 0);
  });

  it('once idle, collects until the heap holds little more than what is in use, then stays quiet', () => {
    const { h, host } = fakeHeap({ total: 400 * MB, used: 90 * MB, give: (slack) => slack / 2 });
    const s = new MemorySettler(host);
    ticks(s, 60);
    // 310 MB of slack halves per collection: 155, 77, 39, 19 (under the 24 MB left): four collections.
    assert.equal(h.collections, 4);
    assert.ok(h.total - h.used < 24 * MB);
    ticks(s, 100);
    assert.equal(h.collections, 4, 'a settled heap is left alone');
  });

  it('a heap that gives nothing back is collected a bounded number of times, not forever', () => {
    const { h, host } = fakeHeap({ total: 400 * MB, used: 90 * MB, give: () => 0 });
    const s = new MemorySettler(host);
    ticks(s, 500);
    assert.equal(h.collections, 6);
  });

  it('starts again only when the heap grows well past where it settled', () => {
    const { h, host } = fakeHeap({ total: 400 * MB, used: 90 * MB, give: () => 0 });
    const s = new MemorySettler(host);
    ticks(s, 100);
    const settled = h.collections;
    h.total += 20 * MB;
    ticks(s, 100);
    assert.equal(h.collections, settled, '20 MB more is not worth a collection');
    h.total += 40 * MB;
    ticks(s, 100);
    assert.ok(h.collections > settled, '60 MB more is');
  });

  it('work that arrives in the middle pauses the collections', () => {
    const { h, host } = fakeHeap({ total: 400 * MB, used: 90 * MB, give: (slack) => slack / 2 });
    const s = new MemorySettler(host);
    s.tick();
    assert.equal(h.collections, 1);
    h.busy = 0.5;
    // The tick right after a collection counts the collection as the busy part; the next ones see the work.
    ticks(s, 20);
    assert.equal(h.collections, 1);
    h.busy = 0;
    ticks(s, 20);
    assert.equal(h.collections, 4);
  });

  it('without a collector, does nothing and does not fail', () => {
    const { h, host } = fakeHeap({ total: 400 * MB, used: 90 * MB, give: () => 0, collectable: false });
    const s = new MemorySettler(host);
    ticks(s, 20);
    assert.equal(h.collections, 0);
    assert.equal(s.collections, 0);
  });

  it('finds V8’s full collection in this Node without --expose-gc, and leaves no global gc behind', () => {
    const had = 'gc' in globalThis;
    const host = processMemory();
    assert.equal(host.collect(), true);
    assert.equal('gc' in globalThis, had);
    const { total, used } = host.heap();
    assert.ok(total > 0 && used > 0 && used <= total);
    assert.ok(host.busy() >= 0 && host.busy() <= 1);
  });
});
