/** The roster's own exports read back: JSON, the printable HTML, the plain text and the markdown. */
import type { Draft } from './types';
import { decodeHtml, limitOf, unescapeMd } from './text';

/** Our JSON export. */
export function fromJson(text: string): Draft | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || t.length > 20_000_000) return undefined;
  let j: unknown;
  try {
    j = JSON.parse(t);
  } catch {
    return undefined;
  }
  if (!j || typeof j !== 'object' || !Array.isArray((j as { entries?: unknown }).entries)) return undefined;
  const o = j as { name?: unknown; faction?: unknown; limit?: unknown; objectives?: unknown; entries: unknown[] };
  const d: Draft = { format: 'json', units: [], unread: [], loose: [] };
  if (typeof o.name === 'string' && o.name) d.name = o.name;
  if (typeof o.faction === 'string' && o.faction) d.faction = o.faction;
  if (typeof o.limit === 'number') d.points = o.limit;
  if (typeof o.objectives === 'number') d.objectives = o.objectives;
  const rules = (o as { rules?: { version?: unknown } }).rules;
  if (rules && typeof rules.version === 'string') d.rules = rules.version;
  o.entries.forEach((e, i) => {
    const x = e as { unit?: unknown; count?: unknown; embarked?: unknown };
    if (!x || typeof x.unit !== 'string') {
      d.unread.push({ line: 1, text: `entries[${i}]`, why: 'an entry without a unit name' });
      return;
    }
    const embark = Array.isArray(x.embarked)
      ? x.embarked.flatMap((y) => (y && typeof (y as { name?: unknown }).name === 'string' ? [{ name: (y as { name: string }).name, line: 1 }] : []))
      : [];
    d.units.push({ name: x.unit, count: typeof x.count === 'number' ? x.count : 1, embark, line: 1 });
  });
  return d;
}

/** The HTML export's QR code, as qr.ts draws it on one line: nothing but its drawing and its label. */
export const QR_LINE =
  /^<svg class="qr share" xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+" shape-rendering="crispEdges" role="img" aria-label="[^"<>&]*(?:&#39;[^"<>&]*)*"><rect width="\d+" height="\d+" fill="#fff"\/><path fill="#000" d="(?:M\d+ \d+h\d+v1h-\d+z)*"\/><\/svg>$/;

/** Our printable HTML export: the units table. */
export function fromHtml(all: string[]): Draft | undefined {
  if (!all.some((l) => l.startsWith('<tr class="entry">'))) return undefined;
  const d: Draft = { format: 'html', units: [], unread: [], loose: [] };
  all.forEach((l, i) => {
    let m: RegExpExecArray | null;
    if ((m = /^<h1>(.*)<\/h1>$/.exec(l))) {
      const n = decodeHtml(m[1]!);
      if (n !== '(unnamed fleet)') d.name = n;
    } else if ((m = /^<p class="meta">(.*)<\/p>$/.exec(l))) {
      const f = decodeHtml(m[1]!.split(' · ')[0]!);
      if (f !== '(no faction)') d.faction = f;
      const obj = /\b(\d+) objectives?\b/.exec(m[1]!);
      if (obj) d.objectives = Number(obj[1]);
    } else if ((m = /^<p class="points[^"]*">(.*?)(?:<span|<\/p>)/.exec(l))) d.points = limitOf(decodeHtml(m[1]!));
    else if ((m = /^<tr class="entry"><td class="n">(\d+)<\/td><td><strong>(.*?)<\/strong><\/td>/.exec(l)))
      d.units.push({ name: decodeHtml(m[2]!), count: Number(m[1]), embark: [], line: i + 1 });
    else if ((m = /^<tr class="embarked"><td class="n"><\/td><td>\u21b3 (.*?)(?: <small>\(each copy\)<\/small>)?<\/td>/.exec(l))) {
      const last = d.units.at(-1);
      if (last) last.embark.push({ name: decodeHtml(m[1]!), line: i + 1 });
    }
  });
  return d;
}

/** Our plain-text export: a "Units" section of entries indented two spaces. */
export function fromText(all: string[]): Draft | undefined {
  const units = all.indexOf('Units', 3);
  if (units < 0 || !all.includes('By class', units) || !/^Points: /.test(all[2] ?? '')) return undefined;
  const d: Draft = { format: 'text', units: [], unread: [], loose: [] };
  if (all[0] && all[0] !== '(unnamed fleet)') d.name = all[0];
  const meta = (all[1] ?? '').split(' · ');
  if (meta[0] && meta[0] !== '(no faction)') d.faction = meta[0];
  const obj = /\b(\d+) objectives?$/.exec(all[1] ?? '');
  if (obj) d.objectives = Number(obj[1]);
  d.points = limitOf(all[2]!);
  for (let i = units + 1; i < all.length && all[i] !== ''; i++) {
    const l = all[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^ {2}(?! )(?:(\d+)\u00d7 )?(.*) \[[^\]]*\] (?:\d+(?:\+\?)?|\?) pts\b/.exec(l)))
      d.units.push({ name: m[2]!, count: m[1] !== undefined ? Number(m[1]) : 1, embark: [], line: i + 1 });
    else if ((m = /^ {4}\+ embarked: (.*) \[[^\]]*\] (?:\d+|\?) pts$/.exec(l))) d.units.at(-1)?.embark.push({ name: m[1]!, line: i + 1 });
  }
  // Its shape but not its indentation (a forum trimmed the spaces): read as a post.
  if (d.units.length === 0 && all[units + 1]?.trim() && all[units + 1]!.trim() !== '(no units)') return undefined;
  return d;
}

/** Our markdown export: a "## Units" section of `- **Name** · Class · pts` items. */
export function fromMarkdown(all: string[]): Draft | undefined {
  const units = all.indexOf('## Units');
  if (units < 0 || !/^# /.test(all[0] ?? '')) return undefined;
  const d: Draft = { format: 'markdown', units: [], unread: [], loose: [] };
  const name = unescapeMd(all[0]!.slice(2));
  if (name !== '(unnamed fleet)') d.name = name;
  for (let i = 1; i < units; i++) {
    const l = all[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^\*\*(\d+(?: \/ \d+)? pts)\*\*/.exec(l))) d.points = limitOf(m[1]!);
    else if ((m = /^\*\*(.*?)\*\* \u00b7 /.exec(l)) && d.faction === undefined) {
      const f = unescapeMd(m[1]!);
      if (f !== '(no faction)') d.faction = f;
      const obj = /\b(\d+) objectives?$/.exec(l);
      if (obj) d.objectives = Number(obj[1]);
    }
  }
  for (let i = units + 1; i < all.length && !/^## /.test(all[i]!); i++) {
    const l = all[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^- \*\*(?:(\d+)\u00d7 )?(.*)\*\* \u00b7 /.exec(l)))
      d.units.push({ name: unescapeMd(m[2]!), count: m[1] !== undefined ? Number(m[1]) : 1, embark: [], line: i + 1 });
    else if ((m = /^ *- Embarked: \*\*(.*)\*\* \u00b7 /.exec(l))) d.units.at(-1)?.embark.push({ name: unescapeMd(m[1]!), line: i + 1 });
  }
  const first = all.slice(units + 1).find((l) => l.trim());
  if (d.units.length === 0 && first !== undefined && first !== '- (no units)' && !/^## /.test(first)) return undefined;
  return d;
}
