/**
 * What every check gets: the document, the workspace, and a place to put problems; and the scan
 * for inch figures in free text that several checks share.
 */
import type { FabledDocument, Problem, ProblemData, Span, UnitCard } from '../model/types';
import type { Workspace } from '../workspace';
import { CODES, type Code } from '../model/codes';
import { SuggestBudget, type Prepared } from '../model/suggest';
import { bandList, inches, isBand, nearestBands } from '../rules/lookup';

export class CheckContext {
  readonly problems: Problem[] = [];
  /** The work left for this document's "did you mean" suggestions (see model/suggest.ts). */
  readonly suggestions = new SuggestBudget();
  /** Candidate names prepared once per document, by pool. */
  readonly pools = new Map<string, Prepared[]>();
  /**
   * The card being checked, while it is: a card that merges another mapping (`<<: *base`) has its
   * problems with what it merged reported at its merge key, not on the mapping it came from.
   */
  card: UnitCard | undefined;
  constructor(
    readonly doc: FabledDocument,
    readonly ws: Workspace | undefined,
  ) {}

  report(code: Code, message: string, span: Span, data?: ProblemData, related?: Problem['related']): void {
    const card = this.card;
    if (card?.merge && !(card.span.start <= span.start && span.end <= card.span.end)) {
      // No fix: it would edit the mapping merged from (another card, perhaps), not this one.
      const from = { uri: this.doc.uri, span: { start: span.start, end: span.end }, message: 'This card merges it from here (<<)' };
      const p: Problem = {
        code,
        severity: CODES[code].severity,
        message,
        span: { start: card.merge.start, end: card.merge.end },
        related: [...(related ?? []), from],
      };
      this.problems.push(p);
      return;
    }
    const p: Problem = { code, severity: CODES[code].severity, message, span: { start: span.start, end: span.end } };
    if (data) p.data = data;
    if (related && related.length) p.related = related;
    this.problems.push(p);
  }
}

/** Inch figures inside free text: 9", 9”, 9 inches, 9-inch. */
const INCH_IN_TEXT = /(\d+(?:\.\d+)?)\s*(?:"|\u201d|\u2033|''|-?\s?inch(?:es)?\b)/g;

/**
 * Scans a free-text field's source for inch figures that are not bands. It scans the source slice
 * rather than the decoded value so that the ranges are exact whatever the quoting style.
 */
export function checkTextRanges(ctx: CheckContext, span: Span, what: string): void {
  const src = ctx.doc.text.slice(span.start, span.end);
  INCH_IN_TEXT.lastIndex = 0;
  for (let m = INCH_IN_TEXT.exec(src); m; m = INCH_IN_TEXT.exec(src)) {
    const n = Number(m[1]);
    if (isBand(n)) continue;
    const start = span.start + m.index;
    const near = nearestBands(n);
    ctx.report(
      'FS-RANGE-TEXT',
      `${inches(n)} in ${what} is not a range band; use ${near.map(inches).join(' or ')} (bands: ${bandList()})`,
      { start, end: start + m[0].length },
      {
        replacements: near.map(inches),
      },
    );
  }
}
