/**
 * The browser version's simulation worker (dist/web/sim-worker.js), which the server's worker
 * starts beside its own bundle (./runners.ts): one task at a time, posted as `{ task }`, played by
 * the core's own runner (core/sim/run-here.ts, the same code as the desktop's threads); it posts
 * `{ m }` (progress, partial results) while it runs, then `{ result }` or `{ error }`. Ended by its
 * owner when the task is cancelled.
 */
import { inProcessRunner } from '../core/worker';
import type { SimTask } from '../core/service';

interface WorkerScope {
  onmessage: ((e: MessageEvent<{ task?: SimTask }>) => void) | null;
  postMessage(m: unknown): void;
}

const scope = self as unknown as WorkerScope;
// No turns between slices: nothing else runs in this worker, and its owner ends it to cancel.
const runner = inProcessRunner({ turn: () => Promise.resolve() });

scope.onmessage = (e) => {
  const task = e.data?.task;
  if (!task) return;
  runner
    .run(task, 'request', (m) => scope.postMessage({ m }))
    .then(
      (result) => scope.postMessage({ result }),
      (err: unknown) => scope.postMessage({ error: err instanceof Error ? err.message : String(err) }),
    );
};
