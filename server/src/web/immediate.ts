/**
 * `setImmediate` and `clearImmediate` for a web worker, which has neither: the LSP layer yields a
 * turn of the event loop with them (lsp/diagnostics.ts `nextTurn`, the scheduler's clock, the
 * points-by-battle slices). A message on a channel of our own runs on the next task, as
 * setImmediate does in Node; `setTimeout(f, 0)` would wait at least 4 ms once nested. Written by
 * hand: a dozen lines, and the npm polyfills of it target pages (window.postMessage), not workers.
 */
type Immediate = (f: (...args: unknown[]) => void, ...args: unknown[]) => number;

const g = globalThis as unknown as { setImmediate?: Immediate; clearImmediate?: (id: number) => void };

if (typeof g.setImmediate !== 'function') {
  const queued = new Map<number, () => void>();
  let next = 1;
  const channel = new MessageChannel();
  channel.port1.onmessage = (e: MessageEvent<number>) => {
    const run = queued.get(e.data);
    queued.delete(e.data);
    run?.();
  };
  g.setImmediate = (f, ...args) => {
    const id = next++;
    queued.set(id, () => f(...args));
    channel.port2.postMessage(id);
    return id;
  };
  g.clearImmediate = (id) => void queued.delete(id);
}

export {};
