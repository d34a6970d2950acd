/**
 * Tokenises text with the extension's grammars the way VS Code does (vscode-textmate with the
 * Oniguruma WebAssembly build), on top of a real YAML grammar: textmate's (npm tm-grammars, which
 * VS Code shipped up to 1.9x) always, and RedCMD's (what VS Code ships now) when a code-server
 * install from scripts/setup-code-server.sh is in the cache.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { INJECTION, LANGUAGES } from '../../syntaxes/generate';
import { ROOT } from './harness';

export interface YamlGrammar {
  name: string;
  /** scope name -> grammar file */
  files: Record<string, string>;
}

function codeServerYaml(): YamlGrammar | undefined {
  const cache = process.env.FABLED_E2E_CACHE ?? join(homedir(), '.cache', 'fabled-star-e2e');
  const candidates = [join(cache, 'code-server'), join(cache, 'code-server-4.139.1', 'node_modules', 'code-server')];
  for (const base of candidates) {
    const dir = join(base, 'lib', 'vscode', 'extensions', 'yaml', 'syntaxes');
    if (!existsSync(join(dir, 'yaml-1.2.tmLanguage.json'))) continue;
    const files: Record<string, string> = { 'source.yaml': join(dir, 'yaml.tmLanguage.json') };
    for (const v of ['1.0', '1.1', '1.2', '1.3']) files[`source.yaml.${v}`] = join(dir, `yaml-${v}.tmLanguage.json`);
    files['source.yaml.embedded'] = join(dir, 'yaml-embedded.tmLanguage.json');
    return { name: "VS Code's current YAML grammar (RedCMD, from code-server)", files };
  }
  return undefined;
}

export function yamlGrammars(): YamlGrammar[] {
  const textmateYaml: YamlGrammar = {
    name: "textmate's YAML grammar (VS Code up to 1.9x)",
    files: { 'source.yaml': require.resolve('tm-grammars/grammars/yaml.json') },
  };
  const current = codeServerYaml();
  return current ? [textmateYaml, current] : [textmateYaml];
}

let onigReady: Promise<void> | undefined;
function loadOniguruma(): Promise<void> {
  onigReady ??= oniguruma.loadWASM(readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer);
  return onigReady;
}

export interface Token {
  text: string;
  scopes: string[];
}

export type Tokenizer = (text: string) => Token[][];

/** A tokenizer for one of the three languages over the given YAML grammar. */
export async function tokenizer(yaml: YamlGrammar, languageScope: string): Promise<Tokenizer> {
  await loadOniguruma();
  const own: Record<string, string> = { [INJECTION.scope]: join(ROOT, 'syntaxes', INJECTION.file) };
  for (const lang of LANGUAGES) own[lang.scope] = join(ROOT, 'syntaxes', lang.file);
  const files = { ...yaml.files, ...own };
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      const file = files[scope];
      return file ? textmate.parseRawGrammar(readFileSync(file, 'utf8'), file) : null;
    },
    // What the manifest's `injectTo` says: the injection grammar applies to the three languages.
    getInjections: (scope) => (LANGUAGES.some((l) => l.scope === scope) ? [INJECTION.scope] : undefined),
  });
  const grammar = await registry.loadGrammar(languageScope);
  if (!grammar) throw new Error(`grammar ${languageScope} did not load`);
  return (text) => {
    let stack = textmate.INITIAL;
    return text.split('\n').map((line) => {
      const r = grammar.tokenizeLine(line, stack);
      stack = r.ruleStack;
      return r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
    });
  };
}
