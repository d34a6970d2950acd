/**
 * The simulator's requests of a service instance: duels, a card against the field, fleet battles
 * (with the what-if and precision), the live odds lens, the points estimate and prices measured by
 * battle, all played on the instance's runner.
 */
import type { ServiceParts } from './parts';

export interface SimRequests {}

export function simRequests(_parts: ServiceParts): SimRequests {
  return {};
}
