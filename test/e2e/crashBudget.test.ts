/**
 * The restart policy on its own, with a fake clock: the e2e test crashes a real server four times,
 * this one walks the edges (the window sliding, a manual restart clearing the count).
 */
import { strict as assert } from 'node:assert';
import type { NotificationMessage } from 'vscode-languageserver-protocol';
import { CrashBudget } from '../../client/src/crashBudget';

const MIN = 60_000;

/** Crash times in minutes, and whether the client should restart after each. */
const cases: { name: string; at: number[]; restart: boolean[] }[] = [
  { name: 'restarts after each of the first three crashes', at: [0, 0.1, 0.2], restart: [true, true, true] },
  { name: 'gives up at the fourth crash within three minutes', at: [0, 1, 2, 2.9], restart: [true, true, true, false] },
  { name: 'forgets crashes older than three minutes', at: [0, 1, 2, 3.5], restart: [true, true, true, true] },
  { name: 'keeps giving up while crashes stay frequent', at: [0, 0, 0, 0, 0.5], restart: [true, true, true, false, false] },
  { name: 'restarts again once the window has slid past the burst', at: [0, 0, 0, 0, 3.1], restart: [true, true, true, false, true] },
];

describe('the crash budget of the language client', () => {
  for (const c of cases) {
    it(c.name, () => {
      let now = 0;
      const budget = new CrashBudget(4, 3 * MIN, () => now);
      const got = c.at.map((t) => {
        now = t * MIN;
        return budget.record().restart;
      });
      assert.deepEqual(got, c.restart);
    });
  }

  it('starts counting afresh after a restart the user asked for', () => {
    let now = 0;
    const budget = new CrashBudget(4, 3 * MIN, () => now);
    for (let i = 0; i < 4; i++) budget.record();
    budget.reset();
    now = 1000;
    assert.deepEqual(budget.record(), { restart: true, crashes: 1, limit: 4 });
  });
});

/**
 * Why the client's error handler carries on at every failed message (client/src/ctx.ts): the IPC
 * writer of vscode-jsonrpc, given a server that has just died, fails each write, counting it twice,
 * and the process's close follows. Stopping at "more than 3 errors" would stop the client at the
 * second failed write, before the close that restarts the server is heard.
 */
describe('messages to a language server that has just died', () => {
  it('fail with counts that pass 3 at the second write, and the close is heard after them', async () => {
    const { fork } = await import('node:child_process');
    const { IPCMessageWriter } = await import('vscode-languageserver-protocol/node');
    const child = fork('-e', ['setInterval(() => undefined, 1000)'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    await new Promise((r) => child.once('spawn', r));
    const writer = new IPCMessageWriter(child);
    // What the writer reports, in order: each failed write's count, then 'closed'.
    const heard: (number | undefined | 'closed')[] = [];
    writer.onError(([, , count]) => heard.push(count));
    const closed = new Promise<void>((r) =>
      writer.onClose(() => {
        heard.push('closed');
        r();
      }),
    );
    child.kill('SIGKILL');
    // Dead, but not yet heard as closed: wait for the process to be gone, not for its events.
    const until = Date.now() + 200;
    while (Date.now() < until) {
      // Busy: the child's end is not seen until this turn ends.
    }
    for (let i = 0; i < 3; i++) {
      const change: NotificationMessage = { jsonrpc: '2.0', method: 'textDocument/didChange', params: { i } };
      void writer.write(change).catch(() => undefined);
    }
    await closed;
    const at = heard.indexOf('closed');
    assert.ok(at >= 2, `the close came before two failed writes: ${JSON.stringify(heard)}`);
    assert.ok(
      heard.slice(0, at).some((c) => typeof c === 'number' && c > 3),
      `no count over 3 before the close: ${JSON.stringify(heard)}`,
    );
  });
});
