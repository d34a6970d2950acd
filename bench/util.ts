/**
 * What the benchmarks share: the row they report, a median, the machine's load, and the bundled
 * examples read as the CLI and the server read them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadavg, availableParallelism } from 'node:os';
import { Workspace } from '../server/src/core/workspace';
import { prepareBattle, type PreparedBattle } from '../server/src/core/service';
import type { FleetDocument } from '../server/src/core/model/types';

/** The repository (the benchmarks run bundled, from .bench/bundle/). */
export const ROOT = path.join(__dirname, '..', '..');
export const EXAMPLES = path.join(ROOT, 'examples');

export interface Row {
  name: string;
  medianMs: number;
  goal: string;
  note?: string;
  /** What the figure counts, when not milliseconds. */
  unit?: string;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The value at or below which a share `q` of `xs` lie (nearest rank). */
export function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** The machine's load beside a figure: other work on it slows every wall clock here. */
export const load = () => `load average ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`;

/** Each example file (cards, boards and fleets, not the showcase of mistakes) matching `name`, by its path under examples/. */
export function exampleFiles(name: RegExp = /\.(unit|faction|fleet)\.yaml$/): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d)) {
      const p = path.join(d, f);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (name.test(f) && !p.includes('showcase')) out[path.relative(EXAMPLES, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(EXAMPLES);
  return out;
}

/** A workspace of the example cards and boards (no fleets). */
export function exampleWorkspace(): Workspace {
  const ws = new Workspace();
  for (const [rel, text] of Object.entries(exampleFiles(/\.(unit|faction)\.yaml$/))) ws.set(`file://${path.join(EXAMPLES, rel)}`, text);
  return ws;
}

/** Two example fleet lists as the battle's job, set up as the CLI and the server do (service.ts `prepareBattle`). */
export function exampleBattle(ws: Workspace, a: string, b: string): PreparedBattle {
  const side = (file: string) => {
    const p = path.join(EXAMPLES, 'fleets', file);
    return { doc: ws.set(`file://${p}`, fs.readFileSync(p, 'utf8')) as FleetDocument, ws };
  };
  const r = prepareBattle([side(a), side(b)], {});
  if ('refused' in r) throw new Error(`${r.refused.side === 0 ? a : b}: ${r.refused.errors.join('; ')}`);
  return r.battle;
}
