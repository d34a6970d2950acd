/**
 * Live odds on a fleet: a code lens that says how often the fleet wins against the
 * opponent the `fabledStar.liveOdds.opponent` setting names ("wins 54% ± 1% vs Lantern Watch"),
 * played again after each edit. The words and the lookups are here (pure); the server runs the
 * battles on a worker thread (lsp/liveOdds.ts). "Wins" is the points victory, as in `battle`'s
 * sentences, and the figure is `fabled-star battle`'s for the same seed and trials.
 */
import type { FleetDocument, Span } from '../model/types';
import { iconSafe } from './shared';
import type { Lens } from './codeLens';
import { suggest } from '../model/yaml';
import { stoppedWords } from '../rules/words';

/** The fleet of that name (case and spacing aside), or undefined. */
export function fleetNamed(name: string, fleets: Iterable<FleetDocument>): FleetDocument | undefined {
  const want = name.trim().replace(/\s+/g, ' ').toLowerCase();
  if (!want) return undefined;
  for (const f of fleets) if ((f.name.value ?? '').trim().replace(/\s+/g, ' ').toLowerCase() === want) return f;
  return undefined;
}

/**
 * Why no fleet goes by that name: the closest name first ("did you mean"), where a narrow lens or
 * a terminal shows it, then what else would do, with the bundled examples' names (`examples`) and
 * the names the workspace has (`known`, closest looked up among them too).
 */
export function noFleetNamed(name: string, examples: readonly string[], known: readonly string[] = [], what = 'a fleet file'): string {
  const close = suggest(name.trim(), [...known, ...examples]);
  const shown = examples.slice(0, 5).map((n) => `"${n}"`);
  return `no fleet named "${name}"${close ? `; did you mean "${close}"?` : ''} (${what}, or a fleet's name such as ${shown.join(', ')})`;
}

/** Whether the setting names a file rather than a fleet: it ends in .fleet.yaml or has a folder in it. */
export function namesFile(setting: string): boolean {
  return /\.fleet\.ya?ml$/i.test(setting.trim()) || /[\\/]/.test(setting);
}

/**
 * A share as a player reads it, to the precision its error allows: whole percents while the error
 * is a point or more ("54% ± 2%"), one decimal under that ("4.4% ± 0.3%": "4% ± 0.3%" read as
 * 4, and the battle view's 4.9% as another figure); none never happened or always did ("0%").
 */
export function oddsFigure(p: number, se: number): string {
  const e = 100 * se;
  if (e === 0) return `${Math.round(100 * p)}%`;
  return e >= 0.95 ? `${Math.round(100 * p)}% \u00b1 ${Math.round(e)}%` : `${(100 * p).toFixed(1)}% \u00b1 ${e.toFixed(1)}%`;
}

/** Below this share of draws the lens says only the wins. */
export const LIVE_ODDS_DRAWS_SHOWN = 0.05;

/**
 * "wins 34% ± 1%, draws 31%": the wins (a points victory), and the draws when there are enough of
 * them to matter, so that a mirror match's 34% is not read as 66% lost.
 */
export function winsFigure(wins: { p: number; se: number }, draw: number): string {
  return `wins ${oddsFigure(wins.p, wins.se)}${draw >= LIVE_ODDS_DRAWS_SHOWN ? `, draws ${Math.round(100 * draw)}%` : ''}`;
}

/**
 * What the lens knows of its run: nothing yet, the figure so far, the final figure, or why there is
 * none. `note`: why a run under way has not moved for a while (it waits for a free core, or it was
 * restarted), said beside what it knows.
 */
export type LiveOddsState =
  | { kind: 'waiting'; note?: string }
  | { kind: 'partial'; p: number; se: number; draw: number; trials: number; requested: number; note?: string }
  | { kind: 'final'; p: number; se: number; draw: number; trials: number; requested: number; stopped?: 'precision' | 'cap'; precision?: number }
  | { kind: 'failed'; why: string };

/** Battle counts as `battle` prints them ("1,000"); made once (toLocaleString makes a formatter at every call). */
const COUNT = new Intl.NumberFormat('en-US');

/**
 * The lens's whole text (names are plain text: icon syntax disarmed): its tooltip, where a narrow
 * editor still shows all of it (the opponent's full name, the battle count, a "did you mean").
 */
export function liveOddsDetail(vs: string, s: LiveOddsState): string {
  const against = `vs ${iconSafe(vs || 'the opponent')}`;
  switch (s.kind) {
    case 'waiting':
      return `wins \u2026 ${against} (${s.note ?? 'simulating'})`;
    case 'partial':
      // The lens plays until sure (`BATTLE_PRECISION.lens`): the setting's battles are the most it plays.
      return `${winsFigure(s, s.draw)} ${against} (${COUNT.format(s.trials)} of at most ${COUNT.format(s.requested)} battles${s.note ? `; ${s.note}` : ''})`;
    case 'final': {
      // The count says why the battle view's figure (of its own, often more, battles) may differ by a point or two; the stop, how sure it is.
      const stopped = stoppedWords(s);
      return `${winsFigure(s, s.draw)} ${against} (${COUNT.format(s.trials)} battles${stopped ? `, ${stopped}` : ''})`;
    }
    case 'failed':
      return `Live odds ${against}: ${iconSafe(s.why, 400)}`;
  }
}

/**
 * The longest lens title: a lens line shares the editor's width with the fleet's points and "Battle
 * vs …", and what runs past the edge is cut off unseen, so the lens says the figure and the rest
 * is in its tooltip (liveOddsDetail).
 */
export const LIVE_ODDS_TITLE_MAX = 40;

/** The opponent's name as the short title has it. */
const SHORT_NAME = 16;

/** The lens's short title: the figure against whom, or what is wrong in a few words. */
export function liveOddsTitle(vs: string, s: LiveOddsState): string {
  const against = `vs ${iconSafe(vs || 'the opponent', SHORT_NAME)}`;
  switch (s.kind) {
    case 'waiting':
      return clip(`wins \u2026 ${against}`);
    // The figure first: the opponent's name only where it fits (it is in the tooltip, and in the setting).
    case 'partial':
      return fit(winsFigure(s, s.draw), ` ${against}`, ' \u2026');
    case 'final':
      return fit(winsFigure(s, s.draw), ` ${against}`, '');
    case 'failed': {
      // A misspelt opponent: the closest name, which is what to type. Otherwise the first clause ("no fleet
      // named …", "this fleet cannot fight yet"); the reason after it is in the tooltip.
      const close = /did you mean "([^"]*)"\?/.exec(s.why)?.[1];
      const head = close !== undefined ? `did you mean "${close}"?` : s.why.split(/[:;(]/)[0]!.trim();
      return clip(`Live odds: ${iconSafe(head, LIVE_ODDS_TITLE_MAX)}`);
    }
  }
}

/** `head` with `rest` and `end` where they fit in LIVE_ODDS_TITLE_MAX characters, else `head` and `end`. */
function fit(head: string, rest: string, end: string): string {
  const all = `${head}${rest}${end}`;
  return all.length <= LIVE_ODDS_TITLE_MAX ? all : clip(`${head}${end}`);
}

/** A title cut to LIVE_ODDS_TITLE_MAX characters (an ellipsis where it was cut). */
function clip(title: string): string {
  return title.length <= LIVE_ODDS_TITLE_MAX ? title : `${title.slice(0, LIVE_ODDS_TITLE_MAX - 1).trimEnd()}\u2026`;
}

/**
 * The lens on the fleet's `points:` line (or its name, or its first line), opening the battle view
 * against the opponent. A line of its own: on the name's line, beside the points and "Battle vs …",
 * a half-width editor cut the figure off at its edge.
 */
export function liveOddsLens(doc: FleetDocument, vs: { uri: string; name: string } | undefined, title: string, tooltip?: string): Lens {
  const span: Span = doc.points.keySpan ?? doc.name.keySpan ?? { start: 0, end: 0 };
  return { span, title, ...(tooltip ? { tooltip } : {}), ...(vs ? { battle: { fleet: { uri: doc.uri, name: doc.name.value ?? '' }, vs } } : {}) };
}
