/**
 * The warm-up of a fresh server (the cold open). The first document a process parses and
 * checks pays once for what V8 does lazily: compiling each function on its first call, and running
 * it slowly until it has seen enough calls to be optimised. The points estimate is the extreme: the
 * 180 volleys of the benchmark file's reference field take 60–100 ms in a fresh process and about
 * 5 ms once the same code has run before.
 *
 * So while no document is open, the server reads, checks and estimates the bundled example files
 * (about 400 lines) in a workspace of its own, one small step per turn of the event loop (each a
 * few milliseconds, 11 at most, about 40 of them): a didOpen that arrives waits for one step at
 * most, and the warm-up stops for good as soon as a document is open. The server's workspace and
 * answers are the same as without it; what it leaves are memo tables keyed by content (volleys,
 * weapon outcomes, the bundled field's fit), which the server fills the same way whenever it needs
 * them, and the bundled example cards parsed (they are parsed on first use anyway). The bundled
 * field is what a workspace with fewer than ten standard-cost cards is estimated against, so its
 * first card file is estimated at once.
 */
import { createFabledService, type FabledService } from '../core/service';

export type Step = () => void;

/**
 * The warm-up's steps, in order (the core's service says which: `warmUpSteps`), in a workspace of
 * their own. `estimates`: the estimate state whose bundled field is fitted (the server's workspace's).
 */
export function warmUpSteps(estimates?: FabledService['estimates']): Step[] {
  // The warm-up's workspace has its own fits and prices, but fills the volley and approach memos of `estimates`.
  return createFabledService({ shareMemosWith: estimates }).warmUpSteps(estimates);
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
