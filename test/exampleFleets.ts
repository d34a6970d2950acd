/** The bundled examples folder, and the CLI's arguments for its two 1,000-point fleets (the battle tests' standard pair). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workspace } from '../server/src/core/workspace';

export const EXAMPLES = join(__dirname, '..', 'examples');

export const EXAMPLE_BATTLE_ARGS: readonly string[] = [
  '--fleet',
  join(EXAMPLES, 'fleets/standard-1000.fleet.yaml'),
  '--vs',
  join(EXAMPLES, 'fleets/standard-1000-myr-valari.fleet.yaml'),
  '--cards',
  EXAMPLES,
];

/** A workspace of the examples' unit and faction files (the showcase's deliberate mistakes left out), by file URI. */
export function exampleCardsWorkspace(): Workspace {
  const ws = new Workspace();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(unit|faction)\.yaml$/.test(e.name) && !p.includes('showcase')) ws.set(`file://${p}`, readFileSync(p, 'utf8'));
    }
  };
  walk(EXAMPLES);
  return ws;
}
