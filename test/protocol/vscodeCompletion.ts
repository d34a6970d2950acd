/**
 * Accepting a completion item the way VS Code does, so that tests see the text a user gets.
 *
 * VS Code inserts every item (plain text too) through its snippet session. Unless the item says
 * `insertTextMode: asIs` (the language client turns it into "keep whitespace"), every line after the
 * first is prefixed with the leading whitespace of the line where the item's range starts, up to
 * that column (SnippetSession.adjustWhitespace); the client's default mode is adjustIndentation.
 * Placeholders are then taken at their defaults: a choice's first option, a placeholder's text, an
 * empty tab stop empty (or what the test types there), and the cursor ends at `$0`.
 */
import type { CompletionItem, InsertReplaceEdit, Position, TextEdit } from 'vscode-languageserver-protocol';

const AS_IS = 1;
const SNIPPET = 2;

export function offsetAt(text: string, p: Position): number {
  let off = 0;
  for (let line = 0; line < p.line; line++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  return Math.min(off + p.character, text.length);
}

/** A snippet with its placeholders at their defaults (or `fill[n]`), and where `$0` ends up. */
export function expandSnippet(snippet: string, fill: Record<number, string> = {}): { text: string; final: number | undefined } {
  let out = '';
  let final: number | undefined;
  let i = 0;
  const readInt = () => {
    const m = /^\d+/.exec(snippet.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return Number(m[0]);
  };
  /** Text up to `stop` (a closing brace or pipe), with escapes and nested placeholders resolved. */
  const body = (stops: string): string => {
    let s = '';
    while (i < snippet.length && !stops.includes(snippet[i]!)) {
      const c = snippet[i]!;
      if (c === '\\' && i + 1 < snippet.length) {
        s += snippet[i + 1];
        i += 2;
      } else if (c === '$') {
        s += placeholder();
      } else {
        s += c;
        i++;
      }
    }
    return s;
  };
  const placeholder = (): string => {
    i++; // $
    if (snippet[i] === '{') {
      i++;
      const n = readInt();
      if (n === undefined) return '${';
      let value = '';
      if (snippet[i] === ':') {
        i++;
        value = body('}');
      } else if (snippet[i] === '|') {
        i++;
        const options: string[] = [];
        for (;;) {
          options.push(body(',|'));
          if (snippet[i] === ',') i++;
          else break;
        }
        i++; // |
        value = options[0] ?? '';
      }
      i++; // }
      if (n === 0) final = out.length;
      return fill[n] ?? value;
    }
    const n = readInt();
    if (n === undefined) return '$';
    if (n === 0) final = out.length;
    return fill[n] ?? '';
  };
  while (i < snippet.length) {
    const c = snippet[i]!;
    if (c === '\\' && i + 1 < snippet.length && '$}\\'.includes(snippet[i + 1]!)) {
      out += snippet[i + 1];
      i += 2;
    } else if (c === '$') {
      out += placeholder();
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, final };
}

/** The document after accepting `item`, and the cursor afterwards (at `$0`, else after the text). */
export function acceptAsVSCode(text: string, item: CompletionItem, fill: Record<number, string> = {}): { text: string; cursor: number } {
  const edit = item.textEdit as TextEdit | InsertReplaceEdit | undefined;
  if (!edit) throw new Error(`${item.label} has no textEdit`);
  const range = 'range' in edit ? edit.range : edit.insert;
  const start = offsetAt(text, range.start);
  const end = offsetAt(text, range.end);
  let newText = edit.newText;
  if ((item.insertTextMode ?? 2) !== AS_IS) {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const lead = /^[ \t]*/.exec(text.slice(lineStart, start))![0];
    newText = newText.split('\n').join('\n' + lead);
  }
  let final: number | undefined;
  if (item.insertTextFormat === SNIPPET) ({ text: newText, final } = expandSnippet(newText, fill));
  return { text: text.slice(0, start) + newText + text.slice(end), cursor: start + (final ?? newText.length) };
}
