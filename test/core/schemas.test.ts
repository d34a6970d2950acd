/**
 * The JSON Schemas in schemas/: they are what scripts/build-schemas.ts generates now, they are
 * valid draft-07, and they agree with the validator: every file the validator passes without an
 * error validates against the schema of its kind, and the schema-level mistakes in
 * test/core/schema-fixtures/invalid are caught by both.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import YAML from 'yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from 'yaml-language-server/lib/umd/languageservice/yamlLanguageService';
import type { LanguageService } from 'yaml-language-server/lib/umd/languageservice/yamlLanguageService';
import { buildSchemas, SCHEMAS_DIR, SCHEMA_FILES } from '../../scripts/build-schemas';
import { CLASSES, CLASS_NAMES, DOCTRINES, KNOWN_ORDERS, RANGE_BANDS, STAT_ORDER, WEAPON_TYPES } from '../../server/src/core/rules/data';
import type { StatName, UnitClass } from '../../server/src/core/rules/data';
import { CODES } from '../../server/src/core/model/codes';
import { checkDocument } from '../../server/src/core/check/index';
import { kindOfUri } from '../../server/src/core/model/parse';
import type { DocKind, Problem } from '../../server/src/core/model/types';
import { Workspace } from '../../server/src/core/workspace';

const ROOT = path.resolve(__dirname, '../..');
const SCHEMA_FIXTURES = path.join(__dirname, 'schema-fixtures');

function readSchema(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, file), 'utf8')) as Record<string, unknown>;
}

/** Ajv in strict mode, so a misspelt keyword or a keyword on the wrong type fails the build. */
function makeAjv(): Ajv {
  // strictRequired is off: the file schemas name top-level keys in `required` inside anyOf/if
  // branches whose properties are declared by the parent, which Ajv's check does not follow.
  const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
  // yaml-language-server's annotations, which Ajv does not know.
  ajv.addKeyword('markdownDescription');
  ajv.addKeyword('markdownEnumDescriptions');
  ajv.addKeyword('patternErrorMessage');
  ajv.addKeyword('errorMessage');
  return ajv;
}

const ajv = makeAjv();
const validators: Record<DocKind, ValidateFunction> = {
  unit: ajv.compile(readSchema(SCHEMA_FILES.unit)),
  faction: ajv.compile(readSchema(SCHEMA_FILES.faction)),
  fleet: ajv.compile(readSchema(SCHEMA_FILES.fleet)),
  collection: ajv.compile(readSchema(SCHEMA_FILES.collection)),
};

function schemaErrors(kind: DocKind, data: unknown): string[] {
  const v = validators[kind];
  return v(data) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

/** YAML as yaml-language-server reads it (the `yaml` package), with merge keys as the validator's parser applies them. */
function loadYaml(text: string): { data?: unknown; error?: string } {
  const doc = YAML.parseDocument(text, { merge: true });
  if (doc.errors.length) return { error: doc.errors[0]!.message };
  return { data: doc.toJS({ maxAliasCount: 1000 }) };
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

const uriOf = (file: string): string => `file://${file}`;

/** Checks files together, as one workspace (so fleets find their cards); problems by file. */
function checkFiles(files: readonly string[], extra: readonly string[] = []): Map<string, Problem[]> {
  const ws = new Workspace();
  for (const f of [...files, ...extra]) ws.set(uriOf(f), fs.readFileSync(f, 'utf8'));
  const out = new Map<string, Problem[]>();
  for (const f of files) {
    const doc = ws.get(uriOf(f));
    if (doc) out.set(f, checkDocument(doc, ws));
  }
  return out;
}

/**
 * The YAML files to hold the schemas to, grouped into the workspaces they are checked in:
 * examples/ as a whole (its fleets use cards from its other folders), and each folder of the
 * fixture trees on its own.
 */
function workspaces(): { name: string; files: string[] }[] {
  const fabled = (files: string[]): string[] => files.filter((f) => kindOfUri(f) !== undefined);
  const groups = [{ name: 'examples', files: fabled(walk(path.join(ROOT, 'examples'))) }];
  for (const tree of [path.join(__dirname, 'fixtures'), path.join(SCHEMA_FIXTURES, 'valid')]) {
    if (!fs.existsSync(tree)) continue;
    const top = fabled(
      fs
        .readdirSync(tree)
        .map((f) => path.join(tree, f))
        .filter((f) => fs.statSync(f).isFile()),
    );
    if (top.length) groups.push({ name: path.relative(ROOT, tree), files: top });
    for (const d of fs.readdirSync(tree, { withFileTypes: true })) {
      if (d.isDirectory()) groups.push({ name: path.relative(ROOT, path.join(tree, d.name)), files: fabled(walk(path.join(tree, d.name))) });
    }
  }
  return groups.filter((g) => g.files.length > 0);
}

const isError = (p: Problem): boolean => p.severity === 'error';

describe('JSON Schemas', () => {
  const fresh = buildSchemas();

  it('schemas/ holds exactly the generated schemas (run `npm run build:schemas` if not)', () => {
    assert.deepEqual(Object.keys(fresh).sort(), Object.values(SCHEMA_FILES).sort());
    for (const [file, schema] of Object.entries(fresh)) assert.deepEqual(readSchema(file), schema, file);
  });

  for (const file of Object.values(SCHEMA_FILES)) {
    it(`${file} is draft-07 and compiles in Ajv's strict mode`, () => {
      const schema = readSchema(file);
      assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
      assert.equal(makeAjv().validateSchema(schema), true);
    });
  }

  it("offers the rules pack's classes, weapon types and doctrines, with rule text for hovers", () => {
    const unit = JSON.stringify(readSchema(SCHEMA_FILES.unit));
    for (const c of CLASS_NAMES) assert.ok(unit.includes(`"${c}"`), c);
    for (const t of WEAPON_TYPES) assert.ok(unit.includes(`"${t}"`), t);
    for (const o of KNOWN_ORDERS) assert.ok(unit.includes(`"${o.name}"`), o.name);
    assert.match(unit, /\*\*§12 Weapons & Weapon Types\*\*/);
    assert.match(unit, /\*\*§1 Core Statistics\*\*/);
    assert.match(unit, /Radiant Court/);
    const faction = JSON.stringify(readSchema(SCHEMA_FILES.faction));
    for (const d of Object.keys(DOCTRINES)) assert.ok(faction.includes(`"${d}"`), d);
    assert.match(faction, /\*\*§21 The Command Board\*\*/);
    assert.match(JSON.stringify(readSchema(SCHEMA_FILES.fleet)), /\*\*§17 Deployment & Battlefield Setup\*\*/);
  });

  describe('agree with the validator on every example and fixture', () => {
    const groups = workspaces();

    it('finds files to check, including the schema fixtures', () => {
      const all = groups.flatMap((g) => g.files);
      assert.ok(
        all.some((f) => f.startsWith(path.join(SCHEMA_FIXTURES, 'valid'))),
        'schema-fixtures/valid',
      );
      assert.ok(all.length >= 5);
    });

    for (const group of groups) {
      it(`${group.name}: each file without validator errors validates against its schema`, () => {
        const problems = checkFiles(group.files);
        let checked = 0;
        for (const file of group.files) {
          const ps = problems.get(file) ?? [];
          if (ps.some(isError)) continue;
          const rel = path.relative(ROOT, file);
          const { data, error } = loadYaml(fs.readFileSync(file, 'utf8'));
          if (error !== undefined) {
            // The validator reads a bare "-" as the dash it means, with a warning that other YAML tools reject it.
            assert.ok(
              ps.some((p) => p.code === 'FS-BARE-DASH'),
              `${rel}: the validator passes it but YAML cannot read it: ${error}`,
            );
            continue;
          }
          assert.deepEqual(schemaErrors(kindOfUri(file)!, data), [], `${rel} passes the validator but not the schema`);
          checked++;
        }
        // A group of only broken files is fine; the schema fixtures are there to be checked.
        if (group.name.includes('schema-fixtures')) assert.equal(checked, group.files.length);
      });
    }
  });

  describe('catch the schema-level mistakes the validator catches', () => {
    const dir = path.join(SCHEMA_FIXTURES, 'invalid');
    const cards = walk(path.join(SCHEMA_FIXTURES, 'valid')).filter((f) => kindOfUri(f) !== undefined);
    const files = walk(dir).filter((f) => kindOfUri(f) !== undefined);

    it('has invalid fixtures, each naming a known error code', () => {
      assert.ok(files.length >= 10);
      for (const f of files) {
        const code = /^# expect: (\S+)/m.exec(fs.readFileSync(f, 'utf8'))?.[1];
        assert.ok(code && code in CODES, `${path.basename(f)} names no code`);
        assert.equal(CODES[code as keyof typeof CODES].severity, 'error', `${path.basename(f)}: ${code} is not an error`);
      }
    });

    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const expected = /^# expect: (\S+)/m.exec(text)?.[1] ?? '(none)';
      it(`${path.basename(file)}: the schema rejects it and the validator reports ${expected}`, () => {
        const { data, error } = loadYaml(text);
        assert.equal(error, undefined);
        assert.notDeepEqual(schemaErrors(kindOfUri(file)!, data), [], 'the schema accepts it');
        // Checked beside the valid cards, so that a fleet's only problem is the one it shows.
        const problems = checkFiles([file], cards).get(file) ?? [];
        const codes = problems.filter(isError).map((p) => p.code);
        assert.ok(codes.includes(expected), `the validator reports ${codes.join(', ') || 'no error'}`);
      });
    }
  });

  describe('agree with the validator on token spellings', () => {
    /** A Destroyer whose stats are all valid, written in mapping form, with one token replaced. */
    function cardWith(stat: StatName, token: unknown, form: 'mapping' | 'line'): string {
      const base: Record<StatName, unknown> = { M: '9/6', BS: '5+', D: '7+', SH: 4, AC: '6+', HP: 5, LD: '6/3', CR: '7/2', T: 3 };
      base[stat] = token;
      const stats = form === 'mapping' ? base : STAT_ORDER.map((s) => String(base[s])).join(' · ');
      return YAML.stringify({
        faction: 'T',
        units: [{ name: 'Probe', class: 'Destroyer', points: 145, stats, weapons: ['A — Energy, 12", 1, 1', 'B — Ion, 6", 1, 1'] }],
      });
    }
    const tokens: [StatName, unknown, boolean][] = [
      ['M', 9, true],
      ['M', '12/12', true],
      ['M', '9"/6"', true],
      ['M', 15, false],
      ['M', '9/6/3', false],
      ['M', '—', false],
      ['BS', '3+', true],
      ['BS', '10+', true],
      ['BS', '2+', false],
      ['BS', '11+', false],
      ['BS', '5', false],
      ['D', '-', true],
      ['D', '–', true],
      ['SH', 0, true],
      ['SH', 20, true],
      ['SH', 21, false],
      ['SH', '+4', true],
      ['SH', -1, false],
      ['HP', 1, true],
      ['HP', 0, false],
      ['HP', '—', false],
      ['LD', '3/10', true],
      ['LD', '10/1', true],
      ['LD', '2/3', false],
      ['LD', '6/11', false],
      ['CR', '—', true],
      ['T', '-', true],
      ['T', 0, false],
    ];
    for (const [stat, token, valid] of tokens) {
      for (const form of ['mapping', 'line'] as const) {
        it(`${stat} ${JSON.stringify(token)} (${form} form) is ${valid ? 'accepted' : 'rejected'} by both`, () => {
          const text = cardWith(stat, token, form);
          const ws = new Workspace();
          const doc = ws.set('file:///probe.unit.yaml', text)!;
          const errors = checkDocument(doc, ws).filter(isError);
          assert.equal(errors.length === 0, valid, `validator: ${errors.map((e) => e.code).join(', ')}`);
          assert.equal(schemaErrors('unit', YAML.parse(text)).length === 0, valid, 'schema');
        });
      }
    }
  });

  it('never rejects a generated card the validator passes (property)', () => {
    const odd = <T>(good: readonly T[], bad: readonly T[]): fc.Arbitrary<T> =>
      fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
    const statPools: Record<StatName, [unknown[], unknown[]]> = {
      M: [
        [9, '9/6', '12/12', 3, '6 / 3', '09/6'],
        [15, '9/6/3', '-', 'fast', '9//6'],
      ],
      BS: [
        ['5+', '3+', '10+', '4 +'],
        ['2+', '11+', '5', '-', 'five'],
      ],
      D: [
        ['7+', '-', '—', '–', '3+'],
        ['2+', '7'],
      ],
      SH: [
        [0, 4, 20, '-', '+4', '12'],
        [21, -1, '4+'],
      ],
      AC: [
        ['6+', '-', '10+'],
        ['1+', '6'],
      ],
      HP: [
        [1, 5, 12, '3'],
        [0, '-', 'x'],
      ],
      LD: [
        ['6/3', '3/10', '10/1', '-', '6 / 3'],
        ['2/3', '6/11', '6', '6/0'],
      ],
      CR: [
        ['7/2', '-', '—'],
        ['7', '1/1'],
      ],
      T: [
        [3, 1, '-', 12],
        [0, -2, '3+'],
      ],
    };
    const stat = (s: StatName): fc.Arbitrary<unknown> => odd(statPools[s][0], statPools[s][1]);
    const statsArb = fc.oneof(
      fc.record(Object.fromEntries(STAT_ORDER.map((s) => [s, stat(s)])) as Record<StatName, fc.Arbitrary<unknown>>),
      fc.tuple(...STAT_ORDER.map(stat), fc.constantFrom(' ', ' · ', ',', '  ')).map((t) => t.slice(0, 9).map(String).join(String(t[9]))),
    );
    const range = odd<unknown>([...RANGE_BANDS, '12"', '6"', '18 in', '9”', '24.0', "3''"], ['10"', 31, '12 ft', 0]);
    const type = odd(['Energy', 'ion', 'E', 'p', 'BLAST', 'Auto'], ['Plasma', 'X', '']);
    const weapon = fc.oneof(
      fc.record({
        name: odd(['Lance', 'Gun 2'], ['']),
        type,
        range,
        damage: odd<unknown>([1, 3, 5, '2'], [0, 6, 'x']),
        attacks: odd<unknown>([1, 4, '3'], [0, -1]),
      }),
      fc
        .tuple(
          odd(['Lance', 'Twin-Gun'], ['']),
          odd([' — ', ' - ', ' – '], ['—', ' ~ ']),
          type,
          range,
          odd<unknown>([1, 5], [6, 'Dmg 2']),
          odd<unknown>([1, 4], [0, '4 Attacks']),
        )
        .map(([n, d, t, r, dmg, a]) => `${n}${d}${t}, ${String(r)}, ${String(dmg)}, ${String(a)}`),
    );
    const order = fc.oneof(
      fc.constantFrom(...KNOWN_ORDERS.map((o) => o.name), 'Homebrew Order'),
      fc.record(
        { name: fc.constantFrom('Charge', 'Full Burn'), difficulty: odd<unknown>([1, 2, '3'], [0, -1, 'hard']), range: range },
        { requiredKeys: ['name'] },
      ),
    );
    const ability = fc.oneof(
      odd(
        ['Hit & Run', 'Launch Bay Tier 1', 'Launch Bay Tier 2', 'Objective Control', 'Mystery'],
        ['Launch Bay Tier 0', 'Launch Bay', 'Dogfighters', 'Ram (T)'],
      ),
      fc.record({ name: odd(['Shroud', 'Launch Bay Tier 1'], ['Launch Bay Tier 0']), text: fc.constantFrom('Does a thing within 6".', 'Moves 10" more.') }),
    );
    const card = fc.constantFrom(...CLASS_NAMES).chain((cls: UnitClass) =>
      fc.record(
        {
          name: fc.constantFrom('Probe A', 'Probe B'),
          class: odd([cls, cls.toLowerCase(), cls.toUpperCase()], ['Starfighter', '']),
          points: odd<unknown>([CLASSES[cls].points, 999, String(CLASSES[cls].points)], [0, -5, 'lots', 12.5]),
          bases: odd<unknown>([CLASSES[cls].bases, String(CLASSES[cls].bases)], [CLASSES[cls].bases + 1]),
          base: odd<unknown>(['60mm', '40 mm', 25, '100MM'], ['huge', '0mm']),
          stats: statsArb,
          weapons: fc.array(weapon, { minLength: 1, maxLength: CLASSES[cls].weapons + 1 }),
          orders: fc.array(order, { maxLength: CLASSES[cls].orders + 1 }),
          abilities: fc.array(ability, { maxLength: 2 }),
        },
        { requiredKeys: ['name', 'class', 'points', 'stats'] },
      ),
    );
    const file = fc.oneof(
      fc.array(card, { minLength: 1, maxLength: 2 }).map((units) => ({ faction: 'P', units })),
      card.map((c) => ({ faction: 'P', ...c })),
    );
    let passed = 0;
    let failed = 0;
    fc.assert(
      fc.property(file, (data) => {
        const text = YAML.stringify(data);
        const ws = new Workspace();
        const doc = ws.set('file:///generated.unit.yaml', text)!;
        const errors = checkDocument(doc, ws).filter(isError);
        if (errors.length > 0) {
          failed++;
          return;
        }
        passed++;
        assert.deepEqual(schemaErrors('unit', YAML.parse(text)), [], text);
      }),
      { numRuns: 1000, seed: 7 },
    );
    // The property only says something if both outcomes were generated often.
    assert.ok(passed >= 50, `only ${passed} generated cards passed the validator`);
    assert.ok(failed >= 50, `only ${failed} generated cards failed the validator`);
  });

  /** Runs a generated-document property: whenever the validator passes a document, the schema must too. */
  function agreeOnGenerated(kind: DocKind, docs: fc.Arbitrary<unknown>, extra: readonly string[] = []): { passed: number; failed: number } {
    let passed = 0;
    let failed = 0;
    fc.assert(
      fc.property(docs, (data) => {
        const text = YAML.stringify(data);
        const ws = new Workspace();
        for (const f of extra) ws.set(uriOf(f), fs.readFileSync(f, 'utf8'));
        const doc = ws.set(`file:///generated.${kind}.yaml`, text)!;
        if (checkDocument(doc, ws).some(isError)) {
          failed++;
          return;
        }
        passed++;
        assert.deepEqual(schemaErrors(kind, YAML.parse(text)), [], text);
      }),
      { numRuns: 600, seed: 11 },
    );
    return { passed, failed };
  }
  const sometimes = <T>(good: readonly T[], bad: readonly T[]): fc.Arbitrary<T> =>
    fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });

  it('never rejects a generated Command Board the validator passes (property)', () => {
    const ability = fc.record(
      {
        name: fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'G'),
        cost: sometimes<unknown>([1, 2, '2'], [0, 3, 5, 'x']),
        timing: sometimes(['Before Move', 'Any time'], ['']),
        effect: sometimes(['+3" to that Move.', 'Reroll one die.'], ['']),
      },
      { requiredKeys: ['name', 'cost', 'timing'] },
    );
    // The CP figures follow the doctrine most of the time, so that many boards pass the validator.
    const board = fc.constantFrom(...(Object.keys(DOCTRINES) as (keyof typeof DOCTRINES)[])).chain((d) =>
      fc.record(
        {
          faction: fc.constant('Gen'),
          doctrine: sometimes([d, d.toLowerCase(), d.toUpperCase()], ['Heavy', '']),
          cp: sometimes<unknown>([DOCTRINES[d], String(DOCTRINES[d])], [DOCTRINES[d] + 1, 5, -1, 'x']),
          cpSources: fc.oneof(
            { weight: 6, arbitrary: fc.constant([]) },
            {
              weight: 1,
              arbitrary: fc.array(fc.record({ name: fc.constantFrom('Burst', 'Officer'), cp: sometimes<unknown>([1, 2, '1'], [-1, 'x']) }), {
                minLength: 1,
                maxLength: 3,
              }),
            },
          ),
          factionAbility: fc.oneof(
            { weight: 12, arbitrary: fc.record({ name: fc.constant('Grace'), text: fc.constant('Reroll one failed Dodge roll.') }) },
            { weight: 1, arbitrary: fc.constantFrom<unknown>([], 'Grace', { name: 'Grace' }) },
          ),
          commandAbilities: fc
            .array(ability, { minLength: 6, maxLength: 6 })
            .chain((six) =>
              fc.oneof(
                { weight: 12, arbitrary: fc.constant(six) },
                { weight: 1, arbitrary: fc.constant(six.slice(1)) },
                { weight: 1, arbitrary: fc.constant([...six, six[0]!]) },
              ),
            )
            .map((list) => list.map((a, i) => ({ ...a, name: `${a.name}${i}` }))),
        },
        { requiredKeys: ['faction', 'doctrine', 'factionAbility', 'commandAbilities'] },
      ),
    );
    const { passed, failed } = agreeOnGenerated('faction', board);
    assert.ok(passed >= 30 && failed >= 30, `passed ${passed}, failed ${failed}`);
  });

  it('never rejects a generated fleet the validator passes (property)', () => {
    const cards = walk(path.join(SCHEMA_FIXTURES, 'valid')).filter((f) => f.endsWith('.unit.yaml'));
    const name = sometimes(['Test Dreadnought', 'Test Cruiser', 'Test Carrier', 'Test Destroyer'], ['Nobody', '']);
    const entry = fc.oneof(
      name,
      fc.record(
        {
          unit: name,
          count: sometimes<unknown>([1, 2, '1'], [0, -1, 'x']),
          embark: fc.oneof(
            sometimes(['Test Fighter Wing'], ['Test Bomber Wing']),
            fc.array(sometimes<unknown>(['Test Fighter Wing', { unit: 'Test Fighter Wing' }], ['Test Cruiser']), { maxLength: 2 }),
          ),
        },
        { requiredKeys: ['unit'] },
      ),
    );
    const fleet = fc.record(
      {
        name: fc.constant('Gen Fleet'),
        faction: sometimes(['Schema Test'], ['Other']),
        points: sometimes<unknown>([2000, 5000, '3000', 1000], [0, -5, 'lots']),
        objectives: sometimes<unknown>([3, 6, 10, '8'], [-1, 'x']),
        units: fc.oneof(
          { weight: 12, arbitrary: fc.array(entry, { minLength: 1, maxLength: 4 }) },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(null, { unit: 'Test Cruiser' }) },
        ),
      },
      { requiredKeys: ['name', 'faction', 'points', 'units'] },
    );
    const { passed, failed } = agreeOnGenerated('fleet', fleet, cards);
    assert.ok(passed >= 30 && failed >= 30, `passed ${passed}, failed ${failed}`);
  });

  describe('in yaml-language-server (what editors without this extension show)', () => {
    let ls: LanguageService;
    before(() => {
      ls = getLanguageService({
        schemaRequestService: (uri: string) => Promise.reject(new Error(`no schema fetch in tests: ${uri}`)),
        workspaceContext: { resolveRelativePath: (relative: string, resource: string) => new URL(relative, resource).toString() },
      });
      ls.configure({
        validate: true,
        hover: true,
        completion: true,
        yamlVersion: '1.2',
        schemas: (Object.entries(SCHEMA_FILES) as [DocKind, string][]).map(([kind, file]) => ({
          uri: `file:///schemas/${file}`,
          fileMatch: [`*.${kind}.yaml`],
          schema: readSchema(file),
        })),
      });
    });
    const docOf = (file: string, text = fs.readFileSync(file, 'utf8')): TextDocument => TextDocument.create(uriOf(file), 'yaml', 1, text);

    it('reports nothing on the schema fixtures the validator passes', async () => {
      for (const file of walk(path.join(SCHEMA_FIXTURES, 'valid'))) {
        const diagnostics = await ls.doValidation(docOf(file), false);
        assert.deepEqual(
          diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`),
          [],
          path.basename(file),
        );
      }
    });

    const cards = walk(path.join(SCHEMA_FIXTURES, 'valid'));
    for (const file of walk(path.join(SCHEMA_FIXTURES, 'invalid'))) {
      it(`${path.basename(file)}: reports the mistake on the validator's line`, async () => {
        const text = fs.readFileSync(file, 'utf8');
        const code = /^# expect: (\S+)/m.exec(text)![1];
        const doc = docOf(file, text);
        const lines = (checkFiles([file], cards).get(file) ?? []).filter((p) => p.code === code).map((p) => doc.positionAt(p.span.start).line);
        const diagnostics = await ls.doValidation(doc, false);
        assert.ok(diagnostics.length > 0, 'no diagnostic');
        // A list's problem sits on its key for the validator and on its first item for the schema.
        const near = diagnostics.filter((d) => lines.some((l) => d.range.start.line === l || d.range.start.line === l + 1));
        assert.ok(
          near.length > 0,
          `validator lines ${lines.map((l) => l + 1).join(', ')}; yaml-language-server: ${diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`).join('; ')}`,
        );
      });
    }

    const hoverCases: [string, string, string, RegExp][] = [
      ['cards.unit.yaml', 'class: Fighter', 'class', /\*\*§3 Unit Classes\*\*/],
      ['cards.unit.yaml', 'type: piercing', 'type', /\*\*§12 Weapons & Weapon Types\*\*[\s\S]*Piercing: reduce target AC by 1/],
      ['cards.unit.yaml', 'stats: "9/6 · 4+', 'stats', /\*\*§1 Core Statistics\*\*[\s\S]*Stat limits: Movement max 12\/12/],
      ['cards.unit.yaml', 'orders:\n      - Attack Run', 'orders', /\*\*§16 Leadership & Orders\*\*/],
      ['board.faction.yaml', 'doctrine: standard', 'doctrine', /Light 2 CP, Standard 3 CP, Elite 4 CP/],
      ['fleet.fleet.yaml', 'points: 5000', 'points', /500 Skirmish[\s\S]*\*\*§17 Deployment & Battlefield Setup\*\*/],
      ['fleet.fleet.yaml', 'embark: Test Fighter', 'embark', /\*\*§6 Launch Bays\*\*/],
    ];
    for (const [name, anchor, key, expected] of hoverCases) {
      it(`hovering "${key}" in ${name} shows the rule text`, async () => {
        const file = path.join(SCHEMA_FIXTURES, 'valid', name);
        const text = fs.readFileSync(file, 'utf8');
        const at = text.indexOf(anchor.replace(/\\n/g, '\n'));
        assert.ok(at >= 0, `anchor ${anchor}`);
        const doc = docOf(file, text);
        const hover = await ls.doHover(doc, doc.positionAt(at + 1));
        const contents = hover?.contents as { value?: string } | undefined;
        assert.match(contents?.value ?? '', expected);
      });
    }

    const completionCases: [string, string, string[]][] = [
      ['probe.unit.yaml', 'faction: X\nunits:\n  - name: A\n    class: |', [...CLASS_NAMES]],
      ['probe.unit.yaml', 'faction: X\nunits:\n  - name: A\n    weapons:\n      - name: W\n        type: |', [...WEAPON_TYPES]],
      ['probe.faction.yaml', 'faction: X\ndoctrine: |', Object.keys(DOCTRINES)],
    ];
    for (const [name, source, expected] of completionCases) {
      it(`completes ${expected.slice(0, 3).join(', ')}, ... in ${name}`, async () => {
        const text = source.replace('|', '');
        const doc = TextDocument.create(`file:///w/${expected[0]}-${name}`, 'yaml', 1, text);
        const list = await ls.doComplete(doc, doc.positionAt(source.indexOf('|')), false);
        const labels = list.items.map((i) => i.label);
        for (const e of expected) assert.ok(labels.includes(e), `${e} not offered: ${labels.join(', ')}`);
      });
    }
  });
});
