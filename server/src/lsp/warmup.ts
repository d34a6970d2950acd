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
import {
  Workspace,
  checkDocument,
  exampleFiles,
  bundledCards,
  fieldFor,
  estimatesOf,
  standardCards,
  pointsEstimateProblems,
  newEstimates,
  type Estimates,
  type Problem,
} from '../core/service';

export type Step = () => void;

/** Fire actions computed per step while the bundled field's volleys are worked out (a few ms each, cold). */
const PAIRS_PER_STEP = 16;

/**
 * The warm-up's steps, in order: each example file parsed, then each checked; the bundled example
 * cards' reference field, its volleys a few at a time; then each example file's estimate notes.
 * Some steps add the steps that follow them (how many volleys there are is known only then).
 * `estimates`: the estimate state whose bundled field is fitted (the server's workspace's).
 */
export function warmUpSteps(estimates: Estimates = newEstimates()): Step[] {
  const ws = new Workspace();
  // The warm-up's workspace has its own fits and prices, but fills the volleys and approaches of `estimates`.
  estimatesOf(ws, () => newEstimates(estimates));
  const files = exampleFiles();
  const uri = (path: string) => `fabled-warmup:/${path}`;
  const checked = new Map<string, Problem[]>();
  const steps: Step[] = files.map((f) => () => void ws.set(uri(f.path), f.text));
  for (const f of files)
    steps.push(() => {
      const doc = ws.get(uri(f.path));
      if (doc) checked.set(f.path, checkDocument(doc, ws));
    });
  // The field of the bundled examples is what a workspace with fewer than ten standard-cost cards
  // is estimated against: worked out here a few volleys at a time (memoized as any volley is), the
  // estimate's code is compiled and the field is ready when such a file is opened.
  steps.push(() => void bundledCards());
  // Once the members are known (this step runs), the steps for their volleys, the field and the
  // example files' estimate notes are added behind it.
  steps.push(() => {
    const members = standardCards(bundledCards());
    const pairs = members.flatMap((a) => members.map((d) => [a, d] as const));
    for (let from = 0; from < pairs.length; from += PAIRS_PER_STEP)
      steps.push(() => {
        for (const [a, d] of pairs.slice(from, from + PAIRS_PER_STEP)) estimates.volleys.shareOf(a.profile, d.profile, a.off, d.def);
      });
    steps.push(() => void fieldFor([], estimates));
    for (const f of files)
      steps.push(() => {
        const doc = ws.get(uri(f.path));
        if (doc) pointsEstimateProblems(doc, ws, checked.get(f.path) ?? []);
      });
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
