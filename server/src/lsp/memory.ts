/**
 * Gives memory back once a burst of work is over. Reading a big workspace parses every file once
 * and drops the models (closed files are kept as text), so the heap grows with garbage while the
 * scan runs. V8 sizes the heap by how fast garbage is made, and in Node nothing tells it later that
 * the process went idle: with no allocation there is no collection, and the heap it grew to (three
 * to four times what is live) stays resident for the rest of the session. So when the event loop
 * has been idle for a while and the heap holds far more than was live at the last collection, the
 * server collects, a few times a second apart while that still returns memory (each full collection
 * compacts some more pages). Hand-written: the policy is ours, and no library drives V8's collector.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** What the policy reads and does; the host is the process, tests give a fake one. */
export interface MemoryHost {
  /** The heap's size (committed) and what was in use, in bytes. */
  heap(): { total: number; used: number };
  /** Share of the last interval the event loop was busy (0..1). */
  busy(): number;
  /** A full collection; false when there is none to run. */
  collect(): boolean;
}

/** Checked this often (ms). */
export const SETTLE_EVERY_MS = 1000;
/** Idle means the event loop was busy less than this share of an interval. */
const IDLE_BELOW = 0.05;
/** Collect when the heap holds this much more than was live after the last collection (bytes). */
const SLACK = 48 * 1024 * 1024;
/** Collect again while the heap holds more than this beyond what is in use (bytes), at most `ROUNDS` times. */
const LEFT = 24 * 1024 * 1024;
const ROUNDS = 6;

/**
 * The policy: call `tick()` every SETTLE_EVERY_MS. When the loop is idle and the heap has grown
 * SLACK past where it last settled, it collects, then again every other tick (V8 hands pages back
 * as it sweeps, after the collection) while the heap still holds more than LEFT beyond what is in
 * use, at most ROUNDS times; where the heap then stands is the new mark. Work that arrives meanwhile
 * pauses it.
 */
export class MemorySettler {
  /** The heap's size where it last settled (0: never). */
  private settled = 0;
  /** Collections in the current round (0: not settling). */
  private round = 0;
  /** Ticks since the last collection of the round. */
  private since = 0;
  /** Collections run, for tests and the log. */
  collections = 0;

  constructor(private readonly host: MemoryHost) {}

  tick(): void {
    // The collection just run is the busy part of the last interval, not the editor's work.
    const ours = this.round > 0 && this.since === 0;
    this.since++;
    if (this.host.busy() >= IDLE_BELOW && !ours) return;
    const { total, used } = this.host.heap();
    if (this.round === 0) {
      if (total < this.settled + SLACK) return;
    } else {
      if (this.since < 2) return;
      if (total - used < LEFT || this.round >= ROUNDS) {
        this.round = 0;
        this.settled = total;
        return;
      }
    }
    if (!this.host.collect()) return;
    this.collections++;
    this.round++;
    this.since = 0;
  }
}

let gcFn: (() => void) | null | undefined;

/**
 * V8's full collection. Node exposes it only under --expose-gc, which an editor does not pass when
 * it starts the server; the flag is turned on just long enough to take `gc` from a new context (as
 * jest's leak detector does), then off again.
 */
function fullGc(): (() => void) | undefined {
  if (gcFn !== undefined) return gcFn ?? undefined;
  const given = (globalThis as { gc?: unknown }).gc;
  if (typeof given === 'function') return (gcFn = given as () => void);
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    gcFn = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    gcFn = null;
  } finally {
    try {
      v8.setFlagsFromString('--no-expose-gc');
    } catch {
      // the flag stays on: harmless
    }
  }
  return gcFn ?? undefined;
}

/** The process as a MemoryHost. */
export function processMemory(): MemoryHost {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return {
    heap: () => {
      const s = v8.getHeapStatistics();
      return { total: s.total_heap_size, used: s.used_heap_size };
    },
    busy: () => {
      const now = performance.eventLoopUtilization();
      const d = performance.eventLoopUtilization(now, last);
      last = now;
      return d.utilization;
    },
    collect: () => {
      const gc = fullGc();
      if (!gc) return false;
      gc();
      return true;
    },
  };
}

/** Starts settling memory in the background (the timer does not keep the process alive). */
export function settleMemory(host: MemoryHost = processMemory()): MemorySettler {
  const s = new MemorySettler(host);
  setInterval(() => s.tick(), SETTLE_EVERY_MS).unref();
  return s;
}
