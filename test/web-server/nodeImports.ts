/**
 * Finds, in a bundle's text, every `require` and `import` (static, dynamic, re-export) of a Node
 * built-in: `node:` prefixed or a bare name Node has built in (fs, path, worker_threads, ...). Reads
 * the text, not the build's metadata, so that it holds whatever made the bundle.
 */
import { builtinModules } from 'node:module';

const BUILTIN = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

function isNodeBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || BUILTIN.has(spec) || BUILTIN.has(spec.split('/')[0]!);
}

const PATTERNS = [
  /\brequire\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g,
  /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1/g,
  /\bimport\s+(['"])([^'"\n]+)\1/g,
  /\b(?:import|export)\b[^'"`;]*?\bfrom\s*(['"])([^'"\n]+)\1/g,
];

export interface NodeImport {
  spec: string;
  /** The line of the bundle it is on (1-based) and the text around it. */
  line: number;
  around: string;
}

export function nodeImports(text: string): NodeImport[] {
  const out: NodeImport[] = [];
  for (const re of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const spec = m[2]!;
      if (!isNodeBuiltin(spec)) continue;
      const line = text.slice(0, m.index).split('\n').length;
      out.push({ spec, line, around: text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' ') });
    }
  }
  // Any string "node:..." left at all (an import built at run time would spell it so).
  for (const m of text.matchAll(/(['"`])node:[a-z_/]+\1/g)) {
    const line = text.slice(0, m.index).split('\n').length;
    if (!out.some((o) => o.line === line)) out.push({ spec: m[0].slice(1, -1), line, around: text.slice(Math.max(0, m.index - 40), m.index + 60) });
  }
  return out;
}
