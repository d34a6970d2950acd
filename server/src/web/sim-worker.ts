/**
 * The browser version's simulation worker (dist/web/sim-worker.js), which the server's worker
 * starts beside its own bundle (./pool.ts): one battle or engagement at a time, posted as
 * `{ task }`; it posts `{ m }` (progress, partial results) while it runs, then `{ result }` or
 * `{ error }`. Ended by its owner when the request is cancelled.
 */
import type { SessionTask } from '../node/sim-worker';
import { runSession } from './session';

interface WorkerScope {
  onmessage: ((e: MessageEvent<{ task?: SessionTask }>) => void) | null;
  postMessage(m: unknown): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (e) => {
  const task = e.data?.task;
  if (!task) return;
  runSession(task, (m) => scope.postMessage({ m })).then(
    (result) => scope.postMessage({ result }),
    (err: unknown) => scope.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
};
