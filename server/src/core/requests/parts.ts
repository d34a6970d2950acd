/**
 * What a service instance's request groups (the files beside this one) share: its workspace, how
 * it has the checks of a document, its points-estimate state, how it finds an opponent and a
 * document, where it tells a failure and the runner its simulations run on. The facade
 * (../service.ts) makes one per instance and hands it to each group; only the facade imports a
 * group, and the edges see the groups only as methods of the FabledService they are part of.
 */
import type { FabledDocument, Problem } from '../model/types';
import type { Workspace } from '../workspace';
import type { Estimates } from '../balance/index';
import type { SimRunner } from '../sim/runner';

export interface ServiceParts {
  ws: Workspace;
  /** The checks of a document of any workspace: the cached ones for the instance's own, else afresh. */
  checks: (doc: FabledDocument, ws: Workspace) => Problem[];
  estimates: Estimates;
  /** A document as the editor has it now (an open file not yet in the workspace), else the workspace's. */
  documentAt: (uri: string) => FabledDocument | undefined;
  log: (message: string, error?: unknown) => void;
  runner: SimRunner | undefined;
}
