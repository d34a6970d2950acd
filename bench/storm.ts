/**
 * A storm of file events: 5,000 card files written into a folder the server already knows, each
 * reported as one Created event in one workspace/didChangeWatchedFiles (a git checkout, an unzip),
 * over stdio against the built server; then the files deleted (one Deleted event each); then 5,000
 * Created events for files that are gone already. Beside it, the same files in a folder moved in
 * (one event for the folder), on a server in the same state. Rounds alternate the two, so that the
 * machine's load weighs on both alike; the median of the rounds is shown.
 *
 * Goals: the storm's files indexed and checked (the open fleet resolving the last file's card, and
 * every file's diagnostics published) within 2x of the folder's time; the slowest hover during each storm within 1 s of a hover's time when idle (every
 * 50 ms, one after another); the server's resident memory growing by under 100 MB.
 */
import { createdStorm, deletedStorm, folderMovedIn, goneStorm, idleHoverMs, stormServer } from '../test/protocol/storm';
import { load, median, type Row } from './util';

const N = 5000;
const ROUNDS = 3;

export async function benchStorm(): Promise<Row[]> {
  const created: number[] = [];
  const moved: number[] = [];
  const ratio: number[] = [];
  const hoverOver: { created: number[]; deleted: number[]; gone: number[] } = { created: [], deleted: [], gone: [] };
  const rss: { created: number[]; deleted: number[]; gone: number[] } = { created: [], deleted: [], gone: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const a = await stormServer(N);
    try {
      const idle = await idleHoverMs(a.c, a.fleet);
      const { storm, uris } = await createdStorm(a.c, a.fleet, N);
      const deleted = await deletedStorm(a.c, a.fleet, uris);
      const gone = await goneStorm(a.c, a.fleet, N);
      created.push(storm.ms);
      hoverOver.created.push(storm.maxHoverMs - idle);
      hoverOver.deleted.push(deleted.maxHoverMs - idle);
      hoverOver.gone.push(gone.maxHoverMs - idle);
      rss.created.push(storm.rssGrowthMb);
      rss.deleted.push(deleted.rssGrowthMb);
      rss.gone.push(gone.rssGrowthMb);
    } finally {
      await a.c.stop();
    }
    const b = await stormServer(N);
    try {
      moved.push((await folderMovedIn(b.c, b.fleet, N)).ms);
    } finally {
      await b.c.stop();
    }
    ratio.push(created.at(-1)! / moved.at(-1)!);
  }
  const rows: Row[] = [
    { name: `${N} Created events in a known folder: until every file is indexed and checked`, medianMs: median(created), goal: 'report', note: load() },
    { name: `the same ${N} files in a folder moved in (one event): the same`, medianMs: median(moved), goal: 'report' },
    { name: 'storm over folder moved in (the same round)', medianMs: median(ratio), unit: 'x', goal: '<= 2x', note: ratio.map((r) => r.toFixed(2)).join(' ') },
  ];
  for (const k of ['created', 'deleted', 'gone'] as const) {
    const what = k === 'created' ? `${N} Created` : k === 'deleted' ? `${N} Deleted` : `${N} Created for files already gone`;
    rows.push({
      name: `${what}: slowest hover over its idle time`,
      medianMs: median(hoverOver[k]),
      goal: '< 1000 ms',
      note: `max ${Math.max(...hoverOver[k]).toFixed(0)} ms`,
    });
    rows.push({
      name: `${what}: resident memory growth`,
      medianMs: median(rss[k]),
      unit: 'MB',
      goal: '< 100 MB',
      note: `max ${Math.max(...rss[k]).toFixed(0)} MB`,
    });
  }
  return rows;
}
