/**
 * The hardening tests' time bounds are safety nets against hangs, not speed goals (those are in
 * `npm run bench`). On a machine busier than its cores (CI runners shared with other jobs, several
 * test runs at once) a case that takes 300 ms alone can take seconds of wall time, so each bound is
 * stretched by how many runnable processes there are per core, and never shrunk. A real hang (a
 * quadratic parse, an endless loop) still runs into the stretched bound.
 */
import { cpus, loadavg } from 'node:os';

/** Runnable processes per core over the last minute, at least 1 (at most 20, so a hang still ends). */
export function busyFactor(): number {
  const perCore = loadavg()[0]! / Math.max(1, cpus().length);
  return Math.min(20, Math.max(1, perCore));
}

/** A safety bound for now: the nominal bound, stretched on a busy machine. */
export function bound(ms: number): number {
  return Math.round(ms * busyFactor());
}

/** "no answer within 2000 ms", or "no answer within 9000 ms (2000 ms, x4.5 for a busy machine)". */
export function describeBound(nominal: number, actual: number): string {
  return actual === nominal ? `${actual} ms` : `${actual} ms (${nominal} ms, x${(actual / nominal).toFixed(1)} for a busy machine)`;
}
