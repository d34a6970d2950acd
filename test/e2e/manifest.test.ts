/**
 * The extension manifest against the code it describes: every setting is one somebody reads, with
 * the default the code uses; every contributed file exists; every command is registered; activation
 * stays lazy. A mistake here shows up in VS Code only as a silently missing feature.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, SETTINGS_SECTION } from '../../protocol';
import { ENGAGEMENT_DEFAULTS, RANGE_BANDS } from '../../server/src/core/rules/data';
import { RERUN_LIMITS } from '../../client/webview/engagement/messages';

const ROOT = join(__dirname, '..', '..');
interface Property {
  type: string | string[];
  default: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
  markdownDescription?: string;
}
interface Walkthrough {
  id: string;
  steps: { id: string; title: string; description: string; media: { image: string; altText: string }; completionEvents: string[] }[];
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string> & { package: string };
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  activationEvents: string[];
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string; icon: { light: string; dark: string } }[];
    grammars: { language?: string; scopeName: string; path: string; injectTo?: string[] }[];
    commands: { command: string; title: string; category: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views?: Record<string, { id: string; name: string }[]>;
    configuration: { properties: Record<string, Property> };
  };
};
const props = pkg.contributes.configuration.properties;

/** `{a: {b: 1}}` -> `[['a.b', 1]]`. */
function flatten(obj: object, prefix = ''): [string, unknown][] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? flatten(v as object, `${prefix}${k}.`) : [[`${prefix}${k}`, v]],
  );
}

/** Settings the client reads itself (client/src/config.ts and vscode-languageclient's trace). */
const CLIENT_SETTINGS: [string, unknown, { min: number; max: number } | undefined][] = [
  ['simulation.trials', ENGAGEMENT_DEFAULTS.trials, RERUN_LIMITS.trials],
  ['simulation.seed', ENGAGEMENT_DEFAULTS.seed, RERUN_LIMITS.seed],
  ['simulation.rounds', ENGAGEMENT_DEFAULTS.rounds, RERUN_LIMITS.rounds],
  // null: no distance given, as the CLI without --range (every weapon fires in the volley).
  ['simulation.range', null, { min: 0, max: Math.max(...RANGE_BANDS) }],
  ['trace.server', 'off', undefined],
  ['cards.paper', 'a4', undefined],
];

describe('the extension manifest', () => {
  describe('settings the server reads (protocol/ Settings)', () => {
    for (const [key, value] of flatten(DEFAULT_SETTINGS)) {
      it(`contributes ${SETTINGS_SECTION}.${key} with the server's default ${JSON.stringify(value)}`, () => {
        const p = props[`${SETTINGS_SECTION}.${key}`];
        assert.ok(p, `package.json lacks ${SETTINGS_SECTION}.${key}`);
        assert.deepEqual(p.default, value);
        assert.equal(p.type === 'integer' ? 'number' : p.type, typeof value);
      });
    }
  });

  describe('settings the client reads', () => {
    for (const [key, value, bounds] of CLIENT_SETTINGS) {
      it(`contributes ${SETTINGS_SECTION}.${key} with the default ${JSON.stringify(value)}`, () => {
        const p = props[`${SETTINGS_SECTION}.${key}`];
        assert.ok(p, `package.json lacks ${SETTINGS_SECTION}.${key}`);
        assert.deepEqual(p.default, value);
        if (bounds) assert.deepEqual([p.minimum, p.maximum], [bounds.min, bounds.max]);
      });
    }
  });

  it('contributes no setting that nobody reads, and documents each one', () => {
    const read = new Set([...flatten(DEFAULT_SETTINGS).map(([k]) => `${SETTINGS_SECTION}.${k}`), ...CLIENT_SETTINGS.map(([k]) => `${SETTINGS_SECTION}.${k}`)]);
    for (const [name, p] of Object.entries(props)) {
      assert.ok(read.has(name), `${name} is contributed but neither the server nor the client reads it`);
      assert.ok((p.description ?? p.markdownDescription ?? '').length > 20, `${name} has no description`);
    }
  });

  it('registers every contributed command in the client, with the "Fabled Star" category', () => {
    const source = readFileSync(join(ROOT, 'client', 'src', 'extension.ts'), 'utf8');
    for (const c of pkg.contributes.commands) {
      assert.equal(c.category, 'Fabled Star');
      assert.ok(new RegExp(`registerCommand\\(\\s*'${c.command.replace(/\./g, '\\.')}'`).test(source), `${c.command} is not registered`);
    }
    const ids = new Set(pkg.contributes.commands.map((c) => c.command));
    for (const [menu, items] of Object.entries(pkg.contributes.menus)) {
      for (const item of items) assert.ok(ids.has(item.command), `${menu} names unknown command ${item.command}`);
    }
  });

  it('activates only on its languages, its commands and its view', () => {
    const languages = pkg.contributes.languages.map((l) => `onLanguage:${l.id}`);
    const commands = pkg.contributes.commands.map((c) => `onCommand:${c.command}`);
    const views = Object.values(pkg.contributes.views ?? {}).flatMap((list) => list.map((v) => `onView:${v.id}`));
    assert.deepEqual(
      [...pkg.activationEvents].sort(),
      [
        ...languages,
        ...commands,
        ...views,
        'onWebviewPanel:fabledStar.engagement',
        'onWebviewPanel:fabledStar.battle',
        'onWebviewPanel:fabledStar.vsField',
      ].sort(),
    );
  });

  it("walks a new player through four steps, each with a button that runs one of the extension's commands and a screenshot it ships", () => {
    const walk = (pkg.contributes as unknown as { walkthroughs?: Walkthrough[] }).walkthroughs ?? [];
    assert.equal(walk.length, 1);
    const steps = walk[0]!.steps;
    assert.deepEqual(
      steps.map((s) => s.title),
      ['Create a fleet', 'Fix its problems', 'Fight the example fleet', 'Price a card'],
    );
    const ours = new Set(pkg.contributes.commands.map((c) => c.command));
    const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8');
    for (const step of steps) {
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      assert.ok(links.length > 0, `${step.title}: no button`);
      for (const l of links) assert.ok(ours.has(l) || l === 'workbench.actions.view.problems', `${step.title}: ${l} is no command of ours`);
      for (const e of step.completionEvents) {
        const cmd = e.replace(/^onCommand:/, '');
        assert.ok(links.includes(cmd), `${step.title}: completed by ${e}, which its buttons do not run`);
      }
      assert.ok(step.media.image && existsSync(join(ROOT, step.media.image)), `${step.title}: ${step.media.image}`);
      assert.ok(ignore.includes(`!${step.media.image}`), `${step.media.image} is not shipped (.vscodeignore)`);
      assert.ok(step.media.altText.length > 20, step.title);
    }
  });

  it("packages the player's page as the extension's README, with its screenshots shipped, and keeps the developers' README in the repository", () => {
    assert.match(pkg.scripts.package, /vsce package .*--readme-path README\.vscode\.md/);
    const page = readFileSync(join(ROOT, 'README.vscode.md'), 'utf8');
    assert.doesNotMatch(page, /npm (install|test|start|run)/, "no developer commands on the player's page");
    assert.match(page, /## First steps/);
    const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8');
    for (const [, img] of page.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) {
      assert.ok(existsSync(join(ROOT, img!)), img);
      assert.ok(ignore.includes(`!${img}`), `${img} is not shipped (.vscodeignore)`);
    }
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.match(readme.split('\n## ')[0]!, /npm install && npm start[^\n]*\nnpm test /, "the repository's README keeps its two commands at the top");
  });

  it('declares the four file kinds of FORMATS.md', () => {
    const byId = Object.fromEntries(pkg.contributes.languages.map((l) => [l.id, l.extensions]));
    assert.deepEqual(Object.keys(byId).sort(), ['fabled-collection', 'fabled-faction', 'fabled-fleet', 'fabled-unit']);
    assert.ok(byId['fabled-collection']!.includes('.collection.yaml'));
    assert.ok(byId['fabled-unit']!.includes('.unit.yaml'));
    assert.ok(byId['fabled-faction']!.includes('.faction.yaml'));
    assert.ok(byId['fabled-fleet']!.includes('.fleet.yaml'));
  });

  it('gives each language a grammar, an icon and the language configuration, and no static snippets', () => {
    // Templates come from the language server, offered only where they fit; VS Code
    // offers a contributed snippet everywhere, values included.
    assert.equal((pkg.contributes as { snippets?: unknown }).snippets, undefined);
    for (const l of pkg.contributes.languages) {
      assert.ok(
        pkg.contributes.grammars.some((g) => g.language === l.id),
        `${l.id} has no grammar`,
      );
      const injection = pkg.contributes.grammars.find((g) => g.injectTo);
      assert.ok(injection?.injectTo?.includes(`source.${l.id}`), `the injection grammar skips ${l.id}`);
    }
  });

  it('sets each language up for typing YAML with suggestions: 2 spaces, suggestions in values too', () => {
    const defaults = (pkg.contributes as { configurationDefaults?: Record<string, Record<string, unknown>> }).configurationDefaults ?? {};
    for (const l of pkg.contributes.languages) {
      const d = defaults[`[${l.id}]`];
      assert.ok(d, `no configurationDefaults for ${l.id}`);
      assert.equal(d['editor.tabSize'], 2);
      assert.equal(d['editor.insertSpaces'], true);
      // The grammar scopes values as strings: without this, nothing is suggested while typing a value.
      assert.equal((d['editor.quickSuggestions'] as Record<string, string>).strings, 'on');
      // A template's tab stops would otherwise silence suggestions for card names and values.
      assert.equal(d['editor.suggest.snippetsPreventQuickSuggestions'], false);
    }
  });

  describe('files the manifest points at', () => {
    const files = new Set<string>([
      ...pkg.contributes.languages.flatMap((l) => [l.configuration, l.icon.light, l.icon.dark]),
      ...pkg.contributes.grammars.map((g) => g.path),
    ]);
    for (const f of files) {
      it(`${f} exists`, () => assert.ok(existsSync(join(ROOT, f)), `${f} is missing`));
    }
    it('each language grammar has the scope name the manifest gives and embeds source.yaml', () => {
      for (const g of pkg.contributes.grammars.filter((x) => x.language)) {
        const grammar = JSON.parse(readFileSync(join(ROOT, g.path), 'utf8')) as { scopeName: string };
        assert.equal(grammar.scopeName, g.scopeName);
        assert.ok(JSON.stringify(grammar).includes('source.yaml'), `${g.path} does not include source.yaml`);
      }
    });
  });

  it('targets the VS Code API that @types/vscode describes', () => {
    assert.equal(pkg.engines.vscode, '^1.91.0');
    assert.match(pkg.devDependencies['@types/vscode'] ?? '', /^\^?1\.91(\.\d+)?$/);
  });
});

describe('the e2e suites', () => {
  it('run every test file under test/e2e: in code-server (npm run test:e2e) or, needing no browser, in the unit suite', () => {
    const listed = (file: string) => (JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { spec: string[] }).spec;
    const run = new Set([...listed('test/e2e/.mocharc.json'), ...listed('.mocharc.json')]);
    const files = readdirSync(join(ROOT, 'test', 'e2e'))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `test/e2e/${f}`);
    assert.deepEqual(
      files.filter((f) => !run.has(f)),
      [],
      'test files no suite runs',
    );
  });
});
