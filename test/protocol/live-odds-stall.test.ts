/**
 * The live odds lens when its background process hangs (SIGSTOP here; a process at the lowest
 * priority on a machine kept busy looks the same from outside, but runnable): past the bound the
 * server ends the stopped process, starts another that plays the battles again, and the lens says
 * so instead of "(simulating)" for ever; then it goes on (a figure again, or that it waits for a
 * free core when the machine gives it none).
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startServer } from './harness';
import { EXAMPLES } from '../exampleFleets';
import { STALL_NOTES } from '../../server/src/lsp/liveOdds';
import { LIVE_ODDS_TITLE_MAX } from '../../server/src/core/features/liveOdds';
import { STALL_MS } from '../../server/src/node/sim-host';

function exampleFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(unit|faction|fleet)\.yaml$/.test(f) && !p.includes('showcase')) out[relative(EXAMPLES, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(EXAMPLES);
  return out;
}

/** The processes a process started (Linux: every thread's children). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}
const stateOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] ?? '?';
  } catch {
    return 'gone';
  }
};

interface CodeLens {
  command?: { title: string; tooltip?: string };
}

describe('live odds lens: a background process that hangs', function () {
  this.timeout(180_000);
  it('is restarted past the bound, and the lens says so, then goes on, instead of "(simulating)" for ever', async () => {
    const files = exampleFiles();
    const c = await startServer({ files, settings: { liveOdds: { opponent: 'fleets/standard-1000-myr-valari.fleet.yaml', trials: 50_000 } } });
    let host: number | undefined;
    try {
      const uri = await c.open('fleets/standard-1000.fleet.yaml', files['fleets/standard-1000.fleet.yaml']);
      // The lens's short title (what a half-width editor shows whole) and its whole text, the tooltip.
      let title = '';
      const lens = async (): Promise<string> => {
        const all = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
        const live = all.find((l) => /^wins |^Live odds\b/.test(l.command?.title ?? ''))?.command;
        title = live?.title ?? '';
        return live?.tooltip ?? '';
      };
      // Its battles under way, in their process.
      const pid = await c.poll(
        'the battles under way in their process',
        async () => {
          await lens();
          return childrenOf(c.child.pid!)[0];
        },
        60_000,
      );
      host = pid;
      process.kill(pid, 'SIGSTOP');
      const stoppedAt = performance.now();
      const restarted = await c.poll(
        'the lens to say the battles were restarted',
        async () => {
          const t = await lens();
          return t.includes(STALL_NOTES.restarted) ? t : undefined;
        },
        STALL_MS * 4,
      );
      assert.ok(performance.now() - stoppedAt >= STALL_MS * 0.9, 'not before the bound');
      assert.match(restarted, /^wins .* vs Lantern Watch \(.*restarted: the simulation had stalled\)$/);
      // The title stays short beside it: the figure so far, or that one is coming.
      assert.match(title, /^wins /);
      assert.ok(title.length <= LIVE_ODDS_TITLE_MAX, title);
      assert.ok(['gone', 'Z'].includes(stateOf(pid)), `the stopped process was ended (${stateOf(pid)})`);
      const next = childrenOf(c.child.pid!).find((p) => p !== pid);
      assert.ok(next, 'another process plays the battles');
      // Then it goes on: a figure of the new run, or that it waits for a core this machine does not give it.
      const after = await c.poll(
        'the lens to go on',
        async () => {
          const t = await lens();
          return !t.includes(STALL_NOTES.restarted) && (/ battles(; waiting for a free core)?\)$/.test(t) || t.includes(STALL_NOTES.waiting)) ? t : undefined;
        },
        120_000,
      );
      assert.doesNotMatch(after, /\(simulating\)$/);
      assert.match(title, /^wins /);
      assert.ok(title.length <= LIVE_ODDS_TITLE_MAX, title);
    } finally {
      if (host)
        try {
          process.kill(host, 'SIGCONT');
        } catch {
          // Ended already (the server ended it).
        }
      await c.stop();
    }
  });
});
