/**
 * The simulator as the CLI's modules read it while they load: its tables (the option flags, the
 * defaults in the help texts) and its words (the renderers), from a service of no workspace. A
 * command that reads cards makes a service of its own, for its workspace and its runner.
 */
import { createFabledService, type FabledService } from '../core/service';

export const simulator: FabledService = createFabledService({});

export type { FabledService };
