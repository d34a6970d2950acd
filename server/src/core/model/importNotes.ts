/**
 * The notes `import` (roster/import/) leaves in the fleet list it writes, in one place for the
 * writer, the check that reports them (check/fleet.ts: FS-IMPORT-GUESS, FS-IMPORT-UNREAD) and their
 * quick fixes (features/codeActions.ts). docs/format.md, "Notes left by import", shows them.
 *
 * - A name read as the closest card, a comment on its entry's (or embarked unit's) line:
 *   `- unit: Celestial Battleship # import: "Celestial Batleship" read as the closest card; other candidates: "A", "B"`
 * - A line not read, a comment at the top of the list, with the cards it may mean:
 *   `# line 3: 3 x Shardlite Escortz @ 80 (no card named "Shardlite Escortz"; closest cards: "Shardlight Escort", "Maw Escort Pack")`
 *
 * Names are written as JSON strings, so that a card named with a quote or a comma reads back whole.
 */

/** The comment after a guessed name (without the leading "# "). */
export function guessNote(written: string, others: readonly string[]): string {
  return `import: ${JSON.stringify(written)} read as the closest card${others.length ? `; other candidates: ${others.map((o) => JSON.stringify(o)).join(', ')}` : ''}`;
}

/** The candidates' part of a line-not-read comment: `closest card: "A"`, `closest cards: "A", "B"`. */
export function candidatesNote(candidates: readonly string[]): string {
  return `closest card${candidates.length > 1 ? 's' : ''}: ${candidates.map((c) => JSON.stringify(c)).join(', ')}`;
}

/** A list of JSON strings separated by ", ", or undefined when it is not one. */
function names(s: string): string[] | undefined {
  const out: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*")\s*(,|$)/y;
  let m: RegExpExecArray | null;
  re.lastIndex = 0;
  while (re.lastIndex < s.length && (m = re.exec(s))) {
    try {
      const v: unknown = JSON.parse(m[1]!);
      if (typeof v !== 'string') return undefined;
      out.push(v);
    } catch {
      return undefined;
    }
    if (m[2] === '') break;
  }
  return out.length && re.lastIndex >= s.length ? out : undefined;
}

export interface GuessNote {
  /** The name as the text wrote it. */
  written: string;
  others: string[];
  /** Offsets of the comment in the text given, from its "#" to the end of its line's content. */
  start: number;
  end: number;
}

const GUESS = /#\s*import: ("(?:[^"\\]|\\.)*") read as the closest card(?:; other candidates: (.*?))?\s*$/;

/** The guess note on the line that holds `offset` (after it), if any. */
export function guessNoteAt(text: string, offset: number): GuessNote | undefined {
  const eol = text.slice(offset, offset + 5000).search(/\r\n|\r|\n|$/);
  const rest = text.slice(offset, offset + eol);
  const m = GUESS.exec(rest);
  if (!m) return undefined;
  const written = names(m[1]!)?.[0];
  const others = m[2] !== undefined ? names(m[2]) : [];
  if (written === undefined || !others) return undefined;
  return { written, others, start: offset + m.index, end: offset + m.index + m[0].trimEnd().length };
}

export interface UnreadNote {
  /** The line of the imported text. */
  line: number;
  /** The line as written. */
  text: string;
  candidates: string[];
  /** Offsets of the comment ("#" to the end of its content). */
  start: number;
  end: number;
}

// Bounded spans (the import writes at most 200 characters of a line, and of each name): a hostile comment stays cheap.
const UNREAD = /^#[ \t]*line (\d{1,7}): (.{0,400}) \(.{0,1000}; closest cards?: (.{1,2500})\)[ \t]*$/gm;

/** Every line-not-read note with candidates in a fleet list's text (comments at the start of a line). */
export function unreadNotes(text: string): UnreadNote[] {
  const out: UnreadNote[] = [];
  UNREAD.lastIndex = 0;
  let m: RegExpExecArray | null;
  // Notes are written before the list's keys: looking at the first lines keeps a huge file cheap.
  const head = text.slice(0, 200_000);
  while ((m = UNREAD.exec(head)) && out.length < 1000) {
    const candidates = names(m[3]!);
    if (!candidates) continue;
    out.push({ line: Number(m[1]), text: m[2]!, candidates, start: m.index, end: m.index + m[0].trimEnd().length });
  }
  return out;
}

/** The copies a posted unit line asks for ("3 x Name", "2x Name", "Name x2"): 1 when it says none. */
export function copiesIn(line: string): number {
  const m = /^\s*(?:[-*\u2022]\s*)?(\d{1,3})\s*[x\u00d7]?\s+\D/i.exec(line) ?? /\s[x\u00d7]\s*(\d{1,3})\b/i.exec(line);
  const n = m ? Number(m[1]) : 1;
  return n >= 1 ? n : 1;
}
