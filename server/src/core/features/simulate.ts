/** The `fabledStar/simulate` request's run: a duel checked by service.ts `prepareSimulation`, stepped a slice at a time. */
import { SimulationRun } from '../sim/index';
import type { SimulationInput } from '../sim/runner';

/** A simulation checked and ready to run, as plain data (it may cross to a worker thread). */
export type { SimulationInput };

/** The run of a checked simulation, to be stepped a slice at a time (in a worker thread, or between turns of a loop). */
export function simulationRun(input: SimulationInput): SimulationRun {
  return new SimulationRun(input.attacker, input.defender, input.options, { variants: input.variants, compare: input.compare });
}
