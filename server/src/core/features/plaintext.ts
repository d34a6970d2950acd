/**
 * Markdown as plain text, for clients that ask for it (Emacs's eglot without markdown-mode asks
 * for `plaintext` hovers; some clients read completion documentation only as text). Covers what the
 * features write: bold and emphasis, inline code, backslash escapes, headings, quotes, lists,
 * rules and tables, which become columns aligned with spaces.
 */

/** Placeholders for escaped characters while markers are removed (private-use code points). */
const ESC_OPEN = '\uE000';
const ESC_CLOSE = '\uE001';

function inline(s: string): string {
  const escaped: string[] = [];
  let t = s.replace(/\\([!-/:-@[-`{-~])/g, (_m, c: string) => `${ESC_OPEN}${escaped.push(c) - 1}${ESC_CLOSE}`);
  t = t
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/__(.+?)__/g, '$1')
    .replace(/(^|[^\p{L}\p{N}*])\*(?!\s)(.+?)(?<!\s)\*(?![\p{L}\p{N}*])/gu, '$1$2')
    .replace(/(^|[^\p{L}\p{N}_])_(?!\s)(.+?)(?<!\s)_(?![\p{L}\p{N}_])/gu, '$1$2')
    .replace(/\[([^\]]*)\]\(([^)\s]*)\)/g, (_m, text: string, href: string) => (href && href !== text ? `${text} (${href})` : text));
  return t.replace(new RegExp(`${ESC_OPEN}(\\d+)${ESC_CLOSE}`, 'g'), (_m, i: string) => escaped[Number(i)] ?? '');
}

/** The cells of a table row, split at pipes that are not escaped. */
function cells(row: string): string[] {
  const body = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return body.split(/(?<!\\)\|/).map((c) => inline(c.trim()));
}

const isDelimiterRow = (row: string) => /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(row);

function table(rows: string[]): string[] {
  const grid = rows.filter((r) => !isDelimiterRow(r)).map(cells);
  const widths: number[] = [];
  for (const r of grid) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return grid.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - [...c].length)))
      .join('  ')
      .trimEnd(),
  );
}

export function markdownToPlain(md: string): string {
  const lines = md.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*\|/.test(line)) {
      const rows: string[] = [];
      while (i < lines.length && /^\s*\|/.test(lines[i]!)) rows.push(lines[i++]!);
      i--;
      out.push(...table(rows));
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push('─'.repeat(24));
      continue;
    }
    const heading = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.push(inline(heading[1]!));
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) {
      out.push(`  ${inline(quote[1]!)}`);
      continue;
    }
    const item = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (item) {
      out.push(`${item[1]}• ${inline(item[2]!)}`);
      continue;
    }
    // A hard line break (two trailing spaces or a backslash) is a line end in text.
    out.push(inline(line.replace(/( {2,}|\\)$/, '')));
  }
  return out.join('\n');
}
