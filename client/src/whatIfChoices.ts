/**
 * The choices the what-if commands offer (./commands.ts), worked out without the editor so that a
 * test can read them: the versions of a fleet list to compare it with (its saved text, the text it
 * had when it was opened, git's HEAD), the opponent picked last put first, and the lists over
 * their points limit told apart before they are offered (such a list cannot fight).
 */

/** A version of the list to play beside it as it is now. */
export interface Version {
  text: string;
  /** How the view names it: "the saved version". */
  label: string;
  /** What the pick says of it. */
  description: string;
}

/**
 * The versions worth comparing with, each once and none the same as the list now: the saved text
 * (while there are unsaved edits), the text the file had when it was opened (edits saved since),
 * and git's HEAD. Empty: there is nothing to compare.
 */
export function versionsToCompare(now: string, found: { saved?: string; opened?: string; head?: string }): Version[] {
  const out: Version[] = [];
  const add = (text: string | undefined, label: string, description: string) => {
    if (text === undefined || text === now || out.some((v) => v.text === text)) return;
    out.push({ text, label, description });
  };
  add(found.saved, 'the saved version', 'The file as it is on disk, without your unsaved edits');
  add(found.opened, 'the version when you opened it', 'The list as it was when you opened it, before the edits saved since');
  add(found.head, 'the last commit', 'The list as git last committed it (HEAD)');
  return out;
}

/**
 * The opponent picked last (`last`, as `key` names an item) first in the list, under its own
 * heading, and not again in its section; the list as it was when that opponent is not in it.
 */
export function lastPickedFirst<T>(items: readonly T[], last: string | undefined, key: (item: T) => string | undefined, heading: (label: string) => T): T[] {
  if (!last) return [...items];
  const at = items.findIndex((i) => key(i) === last);
  if (at < 0) return [...items];
  const rest = items.filter((_, i) => i !== at);
  return [heading('Picked last'), items[at]!, ...rest];
}

/** A fleet as its summary gives it: what it costs and its limit, if any. */
export interface Priced {
  total: number;
  limit?: number;
}

/** The warning a list over its points limit carries in a pick ("over its limit": it cannot fight); undefined when it is within it. */
export function overLimitWarning(s: Priced | null | undefined): string | undefined {
  if (!s || s.limit === undefined || s.total <= s.limit) return undefined;
  return `over its limit by ${s.total - s.limit} pts: it cannot fight until it is within ${s.limit}`;
}
