/**
 * Text as YAML scalars, for the new text an edit writes (quick fixes, completion, the roster's
 * edits, templates): plain when YAML reads it back as the same text, quoted otherwise.
 */

/**
 * Characters a plain or single-quoted YAML scalar cannot hold as themselves: C0 controls (CR and
 * NEL end a line), DEL, C1 controls, the Unicode line and paragraph separators, the byte order mark,
 * and lone surrogates. A double-quoted scalar holds each of them as an escape.
 */
const UNSAFE_IN_PLAIN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a name holds a control character (or anything else a line of YAML cannot show as itself). */
export function hasControl(s: string): boolean {
  return UNSAFE_IN_PLAIN.test(s);
}

/** A double-quoted YAML scalar: JSON's escapes, and `\uXXXX` for what JSON leaves raw but YAML reads as a break or refuses. */
export function doubleQuoted(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A string as a YAML scalar for inserting into a value position: plain when YAML reads it back as
 * the same text in a block and in a flow collection, double-quoted otherwise. Figures stay plain:
 * the model reads a number's text either way.
 */
export function yamlScalar(s: string): string {
  const plainSafe =
    s.length > 0 &&
    s === s.trim() &&
    !hasControl(s) &&
    !/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) &&
    !/: |:$| #|[,[\]{}]/.test(s) &&
    !/^(?:true|false|null|yes|no|on|off|~|[-+]?\.inf|\.nan)$/i.test(s);
  return plainSafe ? s : doubleQuoted(s);
}

/** A name as a scalar inside a flow collection (`[A, B]`, `{unit: A}`), where `,` `[` `]` `{` `}` end a plain scalar. */
export function flowScalar(s: string): string {
  const plain = yamlScalar(s);
  return plain.startsWith('"') || !/[,[\]{}]/.test(plain) ? plain : doubleQuoted(s);
}

/** `s` written in the quoting style of the value it replaces, when that style can hold it. */
export function inStyleOf(old: string, s: string): string {
  if (/^'.*'$/s.test(old) && !hasControl(s)) return `'${s.replace(/'/g, "''")}'`;
  if (/^['"].*['"]$/s.test(old)) return doubleQuoted(s);
  return yamlScalar(s);
}
