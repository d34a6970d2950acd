/** The bundled examples folder, and the CLI's arguments for its two 1,000-point fleets (the battle tests' standard pair). */
import { join } from 'node:path';

export const EXAMPLES = join(__dirname, '..', 'examples');

export const EXAMPLE_BATTLE_ARGS: readonly string[] = [
  '--fleet',
  join(EXAMPLES, 'fleets/standard-1000.fleet.yaml'),
  '--vs',
  join(EXAMPLES, 'fleets/standard-1000-myr-valari.fleet.yaml'),
  '--cards',
  EXAMPLES,
];
