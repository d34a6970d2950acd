/**
 * Suppression comments (FORMATS.md): `# fabled-star-disable-next-line FS-CODE[, FS-CODE...]` on
 * the line above a problem, `# fabled-star-disable-line FS-CODE` at the end of the problem's line,
 * and `# fabled-star-disable FS-CODE` on a line of its own for the whole file. The language server
 * and `check` both apply them (service.ts `diagnose`); a directive that suppresses nothing, or
 * names no known code, is reported on its own (FS-DISABLE-UNUSED, FS-DISABLE-UNKNOWN, info).
 *
 * Comments are found with the yaml package's lexer, so that a "#" inside a block scalar or a
 * quoted string (the text of an ability) is never read as a directive.
 */
import { CST, Lexer } from 'yaml';
import type { Problem, Span } from './types';
import { CODES, type Code } from './codes';
import { nearest } from './suggest';
import { problem } from './yaml';

/** The words that start a directive, for a cheap test before lexing. */
export const DIRECTIVE_MARK = 'fabled-star-disable';

export type DirectiveKind = 'next-line' | 'line' | 'file';

export interface Directive {
  kind: DirectiveKind;
  /** The comment, from its "#" to the end of its line. */
  span: Span;
  /** The line (0-based) of the comment. */
  line: number;
  /** Whether the comment is alone on its line (else it ends a line of content). */
  ownLine: boolean;
  /** The codes it names, each with its place in the comment. */
  codes: { code: string; span: Span }[];
}

const KEYWORD = /^#[ \t]*fabled-star-(disable-next-line|disable-line|disable)(?=[ \t]|$)/;
const CODE_LIST = /^[ \t]+([A-Za-z0-9_-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_-]+)*)/;

/** The start offset of each line (a line ends at \n, \r\n or a lone \r). */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) out.push(i + 1);
  }
  return out;
}

/** The line (0-based) of `off`, by binary search over `starts`. */
export function lineOf(starts: readonly number[], off: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= off) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Tokens the lexer emits that are no text of the source (document start, a scalar's mark, a flow error's end). */
const MARKERS = new Set(['doc-mode', 'scalar', 'flow-error-end']);

/** Every suppression comment of `text`, in order. */
export function directivesIn(text: string, starts: readonly number[] = lineStarts(text)): Directive[] {
  if (!text.includes(DIRECTIVE_MARK)) return [];
  const out: Directive[] = [];
  let off = 0;
  for (const tok of new Lexer().lex(text)) {
    const type = CST.tokenType(tok);
    if (type && MARKERS.has(type)) continue;
    const at = off;
    off += tok.length;
    if (type !== 'comment') continue;
    const m = KEYWORD.exec(tok);
    if (!m) continue;
    const line = lineOf(starts, at);
    const ownLine = text.slice(starts[line], at).trim() === '';
    const kind: DirectiveKind = m[1] === 'disable-next-line' ? 'next-line' : m[1] === 'disable-line' ? 'line' : 'file';
    const codes: Directive['codes'] = [];
    const list = CODE_LIST.exec(tok.slice(m[0].length));
    if (list) {
      let from = at + m[0].length + list[0].length - list[1]!.length;
      for (const part of list[1]!.split(',')) {
        const lead = part.length - part.trimStart().length;
        const code = part.trim();
        codes.push({ code, span: { start: from + lead, end: from + lead + code.length } });
        from += part.length + 1;
      }
    }
    out.push({ kind, span: { start: at, end: at + tok.length }, line, ownLine, codes });
  }
  return out;
}

/** A code as the tables spell it, when `name` is one in any case. */
function knownCode(name: string): Code | undefined {
  const up = name.toUpperCase();
  return up in CODES ? (up as Code) : undefined;
}

const WHERE: Record<DirectiveKind, string> = { 'next-line': 'on the next line', line: 'on this line', file: 'in this file' };

/**
 * `problems` without those a directive of `text` suppresses, followed by the directives' own
 * problems: one that suppresses nothing, one that names no known code, and a whole-file directive
 * that is not on a line of its own.
 */
export function suppress(text: string, problems: readonly Problem[]): Problem[] {
  if (!text.includes(DIRECTIVE_MARK)) return [...problems];
  const starts = lineStarts(text);
  const directives = directivesIn(text, starts);
  if (!directives.length) return [...problems];
  const byLine = problems.map((p) => lineOf(starts, p.span.start));
  const hidden = new Set<number>();
  const notes: Problem[] = [];
  for (const d of directives) {
    if (!d.codes.length) {
      const keyword = d.kind === 'file' ? DIRECTIVE_MARK : `${DIRECTIVE_MARK}-${d.kind}`;
      notes.push(
        problem(
          'FS-DISABLE-UNKNOWN',
          `This suppression comment names no code, so nothing is hidden; name the codes after it: # ${keyword} FS-RANGE-BAND`,
          d.span,
        ),
      );
      continue;
    }
    if (d.kind === 'file' && !d.ownLine) {
      for (const c of d.codes)
        notes.push(
          problem(
            'FS-DISABLE-UNUSED',
            `# fabled-star-disable hides ${c.code} in the whole file only on a line of its own; at the end of a line, write # fabled-star-disable-line`,
            c.span,
          ),
        );
      continue;
    }
    const target = d.kind === 'next-line' ? d.line + 1 : d.line;
    for (const c of d.codes) {
      const code = knownCode(c.code);
      if (!code) {
        const near = nearest(c.code.toUpperCase(), Object.keys(CODES), { n: 1, bonus: 0, allowed: () => 3 });
        notes.push(
          problem(
            'FS-DISABLE-UNKNOWN',
            `${c.code} is no problem code, so nothing is hidden${near.length ? `; did you mean ${near[0]}?` : ''}`,
            c.span,
            near.length ? { replacements: near } : undefined,
          ),
        );
        continue;
      }
      let used = false;
      problems.forEach((p, i) => {
        if (p.code === code && (d.kind === 'file' || byLine[i] === target)) {
          hidden.add(i);
          used = true;
        }
      });
      if (!used) notes.push(problem('FS-DISABLE-UNUSED', `No ${code} is reported ${WHERE[d.kind]}: this suppression hides nothing`, c.span));
    }
  }
  return [...problems.filter((_, i) => !hidden.has(i)), ...notes];
}
