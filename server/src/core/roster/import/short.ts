/** The roster's one-line export read back: "Name (Faction): A 250, 2× B + C 160; 970/1000 · rules … · fs1-…". */
import type { Draft, Item } from './types';
import { IMPORT_LIMITS } from './types';
import { type Cards, nameKey } from './names';
import { limitOf, type Lines } from './text';

/** Our one-line roster: "Name (Faction): A 250, 2× B + C 160; 970/1000 · rules … · fs1-…". */
export function fromShort({ all, long }: Lines, cards: Cards): Draft | undefined {
  const nonBlank = all.map((l, i) => [l.trim(), i] as const).filter(([l]) => l);
  if (nonBlank.length !== 1) return undefined;
  const at = nonBlank[0]![1];
  // A fleet of a hundred entries is longer than a line of a post may be: the whole line is read. Its
  // end is checked first, so that the pattern below (two spans that may backtrack) runs only on a roster's line.
  const l = long.get(at + 1)?.trim() ?? nonBlank[0]![0];
  if (l.length > IMPORT_LIMITS.lineChars && !/(?:^|; )(?:\d+ pts|\d+\/\d+)(?: \(\d+ errors?\))?(?: \u00b7 rules [^;]{0,300})?$/.test(l.slice(-400)))
    return undefined;
  const m = /^(?:(.*?): )?(?:(.*); )?(\d+ pts|\d+\/\d+)(?: \(\d+ errors?\))?(?: \u00b7 rules .*)?$/.exec(l);
  if (!m) return undefined;
  // A fleet's name may hold ": " itself ("Choir's Wake: Second (Kith'ra): ..."): the head ends at the
  // first ": " after a "(Faction)" the cards know, else at the first ": " before a card's name.
  if (m[1] !== undefined && m[2] !== undefined) {
    const line = `${m[1]}: ${m[2]}`;
    const factions = new Set(cards.factions.map(nameKey));
    const cuts: number[] = [];
    for (let i = line.indexOf(': '); i >= 0 && cuts.length < 50; i = line.indexOf(': ', i + 1)) cuts.push(i);
    const first = (body: string) => cards.byKey.has(nameKey(shortItem(body.split(', ')[0] ?? '').name));
    const cut =
      cuts.find((i) => {
        const f = /\(([^()]*)\)$/.exec(line.slice(0, i));
        return f !== null && factions.has(nameKey(f[1]!));
      }) ?? cuts.find((i) => first(line.slice(i + 2)));
    if (cut !== undefined) {
      m[1] = line.slice(0, cut);
      m[2] = line.slice(cut + 2);
    }
  }
  const d: Draft = { format: 'short', units: [], unread: [], loose: [] };
  const head = m[1] ?? '';
  const hm = /^(.*?)\s*\(([^()]*)\)$/.exec(head);
  if (hm) {
    if (hm[1]) d.name = hm[1];
    d.faction = hm[2];
  } else if (head) d.name = head;
  d.points = limitOf(m[3]!);
  // Items are ", "-separated and a carried unit follows " + ", but a card's name may hold either
  // ("Lance, Second", "Hammer + Anvil"): of the ways to cut the line into items, the one that names
  // the most cards, then (our export: every item ends with its points) leaves the fewest items
  // without points, then has the most items.
  const pieces = m[2] !== undefined ? m[2].split(', ') : [];
  const isCard = (n: string) => cards.byKey.has(nameKey(n));
  const ours = / \u00b7 rules /.test(l);
  const MAX_JOIN = 8;
  const score = (p: string): [number, number] => {
    const r = shortItem(p, isCard);
    return [[r, ...r.carried].filter((x) => isCard(x.name)).length, ours && !SHORT_POINTS.test(p) ? -1 : 0];
  };
  // best[i]: the best cut of the first i pieces, as [cards named, items without points (negated), items] and where its last item starts.
  const best: { v: [number, number, number]; from: number }[] = [{ v: [0, 0, 0], from: 0 }];
  const better = (a: [number, number, number], b: [number, number, number]) => (a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] > b[2]);
  for (let i = 1; i <= pieces.length; i++) {
    let pick: { v: [number, number, number]; from: number } | undefined;
    for (let j = i - 1; j >= Math.max(0, i - MAX_JOIN); j--) {
      const [k, bare] = score(pieces.slice(j, i).join(', '));
      const prev = best[j]!.v;
      const v: [number, number, number] = [prev[0] + k, prev[1] + bare, prev[2] + 1];
      if (!pick || better(v, pick.v)) pick = { v, from: j };
    }
    best.push(pick!);
  }
  const items: string[] = [];
  for (let i = pieces.length; i > 0; i = best[i]!.from) items.unshift(pieces.slice(best[i]!.from, i).join(', '));
  for (const p of items) {
    const r = shortItem(p, isCard);
    const embark: { name: string; line: number }[] = [];
    for (const c of r.carried) for (let k = 0; k < c.count; k++) embark.push({ name: c.name, line: at + 1 });
    d.units.push({ name: r.name, count: r.count, embark, line: at + 1 });
  }
  return d;
}

/** An item's points as rosterShort writes them: "250", "250+?", "?". */
const SHORT_POINTS = / (?:\d+(?:\+\?)?|\?)$/;

/**
 * One item of the one-line roster, as rosterShort writes it: "[N× ]Name[ + [k× ]Name]... POINTS".
 * With `isCard`, a name that holds " + " itself is one name: the longest run of parts that names a card.
 */
function shortItem(s: string, isCard?: (name: string) => boolean): Item & { carried: Item[] } {
  const body = s.replace(SHORT_POINTS, '');
  const parts = body.split(' + ');
  const counted = (p: string): Item => {
    const m = /^(\d+)\u00d7 (.*)$/.exec(p);
    return m ? { name: m[2]!, count: Number(m[1]) } : { name: p, count: 1 };
  };
  const groups: Item[] = [];
  for (let i = 0; i < parts.length;) {
    let j = i + 1;
    if (isCard)
      for (let k = Math.min(parts.length, i + 8); k > i + 1; k--)
        if (isCard(counted(parts.slice(i, k).join(' + ')).name)) {
          j = k;
          break;
        }
    groups.push(counted(parts.slice(i, j).join(' + ')));
    i = j;
  }
  return { ...(groups[0] ?? { name: '', count: 1 }), carried: groups.slice(1) };
}
