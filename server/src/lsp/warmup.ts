/**
 * The warm-up of a fresh server (issue 14, the cold open). The first document a process parses and
 * checks pays once for what V8 does lazily: compiling each function on its first call, and running
 * it slowly until it has seen enough calls to be optimised. Measured on the benchmark's 20,000-line
 * unit file, a server that had first parsed and checked the bundled example files spent about 10–15%
 * less main-thread CPU on it than a fresh one.
 *
 * So while no document is open, the server reads and checks the bundled example files (about 400
 * lines) in a workspace of its own, one small step per turn of the event loop: a didOpen that
 * arrives waits for one step at most (a few milliseconds), and the warm-up stops for good as soon
 * as a document is open. Nothing it builds is kept: the server's workspace, caches and answers are
 * the same as without it (the points estimate's reference field is left alone: the bundled field
 * alone costs about 90 ms of volleys, too long for a step; one volley between two example cards
 * warms that code instead, outside the memo).
 */
import { Workspace } from '../core/workspace';
import { checkDocument } from '../core/check/index';
import { exampleFiles } from '../core/examples/index';
import { computeShare } from '../core/balance/index';
import { profileFromCard, sanitizeProfile } from '../core/sim/profile';
import type { UnitCard } from '../core/model/types';

export type Step = () => void;

/** The warm-up's steps, in order: each example file parsed, then each checked, then one volley. */
export function warmUpSteps(): Step[] {
  const ws = new Workspace();
  const files = exampleFiles();
  const steps: Step[] = files.map((f) => () => void ws.set(`fabled-warmup:/${f.path}`, f.text));
  for (const f of files)
    steps.push(() => {
      const doc = ws.get(`fabled-warmup:/${f.path}`);
      if (doc) checkDocument(doc, ws);
    });
  steps.push(() => {
    const cards: UnitCard[] = ws.allCards().map((r) => r.card);
    const profiles = cards.map((c) => profileFromCard(c).profile).filter((p) => p !== undefined);
    if (profiles.length >= 2) computeShare(sanitizeProfile(profiles[0]!), sanitizeProfile(profiles[profiles.length - 1]!));
  });
  return steps;
}

/**
 * Runs `steps` one per turn (`next`, setImmediate by default) while `idle()` holds; stops for good
 * at the first turn it does not. A step that throws ends the warm-up (it is only a warm-up).
 * Resolves with the number of steps run.
 */
export function warmUp(idle: () => boolean, steps: Step[] = warmUpSteps(), next: (f: () => void) => void = (f) => void setImmediate(f)): Promise<number> {
  return new Promise((resolve) => {
    let ran = 0;
    const turn = () => {
      if (ran >= steps.length || !idle()) return resolve(ran);
      try {
        steps[ran]!();
      } catch {
        return resolve(ran);
      }
      ran++;
      next(turn);
    };
    next(turn);
  });
}
