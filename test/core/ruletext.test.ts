/**
 * The rule text: the committed JSON is what the build script makes of the rulebook today, it loses
 * no rulebook text, and the typed API over it (sections, class cards, Markdown, glossary) answers
 * as the rulebook reads.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { buildRuleText, RULEBOOK_PATH, RULETEXT_PATH, SHARED_RULEBOOK_PATH, splitCardItems } from '../../scripts/build-ruletext';
import { CLASSES, CLASS_NAMES, STAT_NAMES, STAT_ORDER, WEAPON_TYPES } from '../../server/src/core/rules/data';
import type { RuleText } from '../../server/src/core/rules/text';
import {
  classCard,
  classCardByName,
  classCardMarkdown,
  escapeMarkdown,
  findSectionsMentioning,
  glossary,
  ruleText,
  section,
  sectionMarkdown,
  sectionTitle,
  sections,
  termPattern,
  termSection,
} from '../../server/src/core/rules/text';

const rulebook = fs.readFileSync(RULEBOOK_PATH, 'utf8');
const committed = JSON.parse(fs.readFileSync(RULETEXT_PATH, 'utf8')) as RuleText;

/**
 * Writes the structure back out as rulebook lines. It is the inverse of the build script, written
 * independently of it, so that comparing its output with the rulebook proves no line, word or
 * character was dropped, moved or invented.
 */
function renderRulebook(rt: RuleText): string[] {
  const out: string[] = [rt.title];
  const paras = (t: string): string[] => t.split('\n\n');
  const lore = (chapters: RuleText['lore']): void => {
    for (const c of chapters) out.push(c.title, c.subtitle, ...paras(c.text));
  };
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  const item = (i: { name: string; text?: string }): string => (i.text === undefined ? i.name : `${i.name} — ${i.text}`);
  lore(rt.lore);
  for (const s of rt.sections) {
    out.push(`${s.number}${s.title}`, s.category, s.summary);
    out.push('Rule', ...paras(s.rule), 'In play', ...paras(s.inPlay), 'Example', ...paras(s.example));
    out.push('Designer note', ...paras(s.designerNote), 'FAQ', ...s.faq.map((f) => `• ${f.q} ${f.a}`));
  }
  lore(rt.factionLore);
  for (const c of rt.classCards) {
    out.push(
      c.name,
      [c.class, `${c.points} pts`, plural(c.bases, 'base'), plural(c.orderSlots, 'order slot'), plural(c.abilitySlots, 'ability slot')].join(' · '),
    );
    if (c.description) out.push(...paras(c.description));
    if (c.orders.length) out.push(`Orders: ${c.orders.map(item).join(', ')}`);
    if (c.abilities.length) out.push(`Abilities: ${c.abilities.map(item).join(', ')}`);
  }
  for (const e of rt.changelog) out.push(`v${e.version} — ${e.title}`, e.date, ...e.items.map((i) => `• ${i}`));
  return out;
}

const rulebookLines = rulebook
  .split(/\r?\n/)
  .map((l) => l.trim())
  .filter((l) => l !== '');

describe('rule text (ruletext.json)', () => {
  it('is exactly what scripts/build-ruletext.ts makes of the rulebook now (run `npm run build:ruletext` if not)', () => {
    assert.deepEqual(committed, buildRuleText(rulebook));
  });

  it("comes from the repo's copy of the rulebook, which is the user's rulebook beside the repo wherever that is present", () => {
    // A clone elsewhere has no ../shared: the copy in docs/rules is then the rulebook.
    if (fs.existsSync(SHARED_RULEBOOK_PATH)) {
      assert.ok(
        fs.readFileSync(SHARED_RULEBOOK_PATH, 'utf8') === rulebook,
        `${SHARED_RULEBOOK_PATH} changed: copy it to docs/rules/ and run npm run build:ruletext`,
      );
    }
    assert.equal(committed.source, path.basename(RULEBOOK_PATH));
  });

  it('is what text.ts serves', () => {
    assert.deepEqual(ruleText(), committed);
  });

  it('written back out, reproduces every non-empty rulebook line in order', () => {
    assert.deepEqual(renderRulebook(committed), rulebookLines);
  });

  it('holds every word of the rulebook as often as the rulebook does', () => {
    const words = (s: string): Map<string, number> => {
      const m = new Map<string, number>();
      for (const w of s.match(/[\p{L}\p{N}]+/gu) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
      return m;
    };
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (k !== 'source' && k !== 'difficulty' && k !== 'range') walk(x);
    };
    walk(committed);
    const fromJson = words(strings.join(' '));
    const fromBook = words(rulebookLines.join(' '));
    // Block headings, card stat-line words, section numbers and version marks are structure: the
    // JSON carries them as keys and numbers, not as text.
    const structure = /^(Rule|In|play|Example|Designer|note|FAQ|pts|bases?|order|slots?|ability|Orders|Abilities|\d+\p{L}*|v\p{L}+)$/u;
    const missing = [...fromBook].filter(([w, n]) => (fromJson.get(w) ?? 0) < n && !structure.test(w));
    assert.deepEqual(missing, []);
  });

  it('has sections 1..21 in order, each with every block filled in', () => {
    assert.deepEqual(
      sections().map((s) => s.number),
      Array.from({ length: 21 }, (_, i) => i + 1),
    );
    for (const s of sections()) {
      for (const key of ['title', 'category', 'summary', 'rule', 'inPlay', 'example', 'designerNote'] as const) {
        assert.ok(s[key].length > 10 || key === 'category' || key === 'title', `§${s.number} ${key} is empty`);
      }
      assert.ok(s.faq.length >= 1, `§${s.number} has no FAQ`);
      for (const f of s.faq) {
        assert.match(f.q, /\?$/, `§${s.number}: question "${f.q}"`);
        assert.ok(f.a.length > 1 && !f.a.startsWith(' '), `§${s.number}: answer "${f.a}"`);
      }
    }
  });

  const sectionCases: [number, string, string, RegExp][] = [
    [1, 'Core Statistics', 'Core Rules', /^All unit cards use the following stat order: M \(Movement\)/],
    [2, 'Universal Dice Rules', 'Core Rules', /Natural rolls of 10 are Critical Hits\./],
    [4, 'Dogfighters (Universal Fighter Class Rule)', 'Core Rules', /maximum range of 6"\.$/],
    [10, 'Shield Recharge', 'Actions', /roll 4d10\. For each successful roll of 7\+/],
    [11, 'Combat & Fire Sequence', 'Combat', /^1\. Declare Weapon\/Weapon Systems\. 2\. Declare Targets\./],
    [12, 'Weapons & Weapon Types', 'Combat', /Pulse Laser — Ion, 9", 2, 4\. Damage is rated 1 to 5\.$/],
    [16, 'Leadership & Orders', 'Command', /^Leadership is written Target Number \/ Dice\./],
    [19, 'Terrain, Cover & Line of Sight', 'Battlefield', /^Asteroid Field: blocks movement paths, provides Cover\./],
    [21, 'The Command Board', 'Command', /1 Faction Ability, its CP Generation value, and 6 Command Abilities\./],
  ];
  for (const [n, title, category, rule] of sectionCases) {
    it(`§${n} is "${title}" (${category})`, () => {
      const s = section(n);
      assert.ok(s);
      assert.equal(s.title, title);
      assert.equal(s.category, category);
      assert.match(s.rule, rule);
    });
  }

  const faqCases: [number, string, RegExp][] = [
    [1, 'What does a dash mean on a card?', /^The unit does not possess that characteristic at all\.$/],
    [2, 'Does a modifier let a 2 succeed?', /^Never — 1 and 2 always fail/],
    [12, 'Can a weapon have a 10" range?', /^No — only the standard range bands may be used\.$/],
    [13, 'Who wins a tied boarding roll?', /^The defender\.$/],
    [21, 'Do Command Abilities need a Leadership test?', /^Never\. Only Orders require LD rolls\.$/],
  ];
  for (const [n, q, a] of faqCases) {
    it(`§${n} FAQ answers "${q}"`, () => {
      const item = section(n)?.faq.find((f) => f.q === q);
      assert.ok(item, `no such question in §${n}`);
      assert.match(item.a, a);
    });
  }

  it('keeps both example Command Boards of §21', () => {
    const ex = section(21)!.example;
    assert.match(ex, /^MYR-VALARI COMMAND BOARD — Faction Ability: Veilstride Grace/);
    assert.match(ex, /CONSUMED COMMAND BOARD — The Hunger Within\./);
    assert.match(ex, /Consumed doctrine: CLOSE · BREACH · BOARD · CONSUME\.$/);
  });

  it('accepts 12, "12" and "§12" and answers undefined for what is no section', () => {
    assert.equal(section('12')?.number, 12);
    assert.equal(section('§12')?.number, 12);
    for (const bad of [0, 22, -1, 1.5, NaN, '', 'twelve', '12a']) assert.equal(section(bad), undefined, String(bad));
    assert.equal(sectionMarkdown(99), undefined);
    assert.equal(sectionTitle(12), '§12 Weapons & Weapon Types');
  });
});

describe('class cards', () => {
  it('has all ten, one per class, in the rulebook order of classes', () => {
    assert.deepEqual(
      committed.classCards.map((c) => c.class),
      [...CLASS_NAMES],
    );
  });

  for (const cls of CLASS_NAMES) {
    it(`${cls}: the card "${CLASSES[cls].card}" agrees with the rules pack`, () => {
      const card = classCard(cls);
      assert.ok(card);
      assert.equal(card.name, CLASSES[cls].card);
      assert.equal(card.class, cls);
      assert.equal(card.points, CLASSES[cls].points);
      assert.equal(card.bases, CLASSES[cls].bases);
      // The Radiant Court prints fewer slots than its class allows (RULES.md), never more.
      assert.ok(card.orderSlots <= CLASSES[cls].orders, 'order slots');
      assert.ok(card.abilitySlots <= CLASSES[cls].abilities, 'ability slots');
      assert.ok(card.description.length > 40);
      assert.ok(card.orders.length <= card.orderSlots + 1);
      assert.equal(classCardByName(card.name), card);
      assert.ok(classCardMarkdown(cls)?.startsWith(`**${escapeMarkdown(card.name)}**`));
    });
  }

  it("maps 'Capital Ship' to the Radiant Court, in any case, and unknown classes to undefined", () => {
    assert.equal(classCard('Capital Ship')?.name, 'Radiant Court');
    assert.equal(classCard('capital ship')?.name, 'Radiant Court');
    assert.equal(classCard('Starfighter'), undefined);
    assert.equal(classCardMarkdown('Starfighter'), undefined);
  });

  const itemCases: [string, 'orders' | 'abilities', { name: string; text?: RegExp; difficulty?: number; range?: number }[]][] = [
    [
      'Fighter',
      'abilities',
      [
        { name: 'Squad Leader & Cohesion' },
        {
          name: "Dogfighters (Universal Fighter Class Rule — does not use the Fighter's ability slot)",
          text: /^Fighter weapons have a maximum range of 6"\. .* smaller, each remaining base instead contributes 2 Attacks\.$/,
        },
      ],
    ],
    [
      'Escort',
      'abilities',
      [
        { name: 'Evasive Screen', text: /against that attack\.$/ },
        { name: 'Combined Shields', text: /^each base contributes SH 2 \(4 combined/ },
        { name: 'Squad Leader & Cohesion', text: /contact to it\.$/ },
        { name: 'Objective Control', text: /contributes T 2\.$/ },
      ],
    ],
    [
      'Frigate',
      'abilities',
      [
        { name: 'Forward Observers' },
        { name: 'Combined Shields' },
        { name: 'Squad Leader' },
        { name: 'Cohesion' },
        { name: 'Objective Control', text: /T 4\.$/ },
      ],
    ],
    ['Destroyer', 'orders', [{ name: 'Attack Run', difficulty: 2, range: 12, text: /^LD Difficulty 2, Range 12": target friendly unit gains \+1 BS/ }]],
    ['Battleship', 'orders', [{ name: 'Priority Target', difficulty: 4, range: 12 }]],
    ['Capital Ship', 'orders', [{ name: 'Strategic Fire', difficulty: 4, range: 12 }]],
    ['Carrier', 'orders', [{ name: 'Recover Craft' }]],
    ['Dreadnought', 'orders', [{ name: 'Emergency Power' }, { name: 'Brace Positions' }]],
    ['Dreadnought', 'abilities', [{ name: 'Boarding (CR)' }, { name: 'Ram (T)' }]],
  ];
  for (const [cls, list, expected] of itemCases) {
    it(`${cls} card: ${list} are ${expected.map((e) => e.name).join(', ')}`, () => {
      const items = classCard(cls)![list];
      assert.deepEqual(
        items.map((i) => i.name),
        expected.map((e) => e.name),
      );
      expected.forEach((e, k) => {
        const got = items[k]! as { text?: string; difficulty?: number; range?: number };
        if (e.text) assert.match(got.text ?? '', e.text);
        assert.equal(got.difficulty, e.difficulty);
        assert.equal(got.range, e.range);
      });
    });
  }

  const splitCases: [string, string[]][] = [
    ['A, B', ['A', 'B']],
    ['A — one, two., B — three', ['A', 'B']],
    ['A (x — y), B', ['A (x — y)', 'B']],
    ['A — one, two, B', ['A']],
  ];
  for (const [input, names] of splitCases) {
    it(`splits the card list "${input}" into ${names.join(' | ')}`, () => {
      assert.deepEqual(
        splitCardItems(input).map((i) => i.name),
        names,
      );
    });
  }
});

describe('lore and changelog', () => {
  it('has the six prologue chapters and the two powers, each with title, subtitle and text', () => {
    assert.deepEqual(
      committed.lore.map((c) => c.title),
      ['The Fabled Star', 'The Shards', 'The Void', 'The Unmade', 'The Beacons', 'The Shard War'],
    );
    assert.equal(committed.lore[0]!.subtitle, 'Cosmology · Before Reckoning');
    assert.deepEqual(
      committed.factionLore.map((c) => [c.title, c.subtitle]),
      [
        ['Children of the First Light', 'Heirs of the Broken Star'],
        ['The Unmade', 'Woven from Oblivion'],
      ],
    );
    assert.match(committed.factionLore[0]!.text, /\n\nBeacon Lanes — /);
  });

  it('has three dated changelog entries with their items', () => {
    assert.deepEqual(
      committed.changelog.map((e) => [e.version, e.title, e.date, e.items.length]),
      [
        ['July 30', 'Core Rules Consolidation', '2026-07-30', 6],
        ['July 30', 'Battlefield — Fleet Entry Deployment', '2026-07-30', 4],
        ['July 30', 'Command — Leadership & Orders', '2026-07-30', 4],
      ],
    );
  });
});

describe('build script on other layouts', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a section without its FAQ',
      rulebook.replace(/\nFAQ\n\n• Can a Fighter issue Orders\?[^\n]*\n/, '\n'),
      /section 3 lacks the "FAQ" block|expected the "FAQ" block/,
    ],
    ['blocks out of order', rulebook.replace('Rule\n\nBases per unit', 'Example\n\nBases per unit'), /expected the "Rule" block/],
    ['an FAQ item without a question mark', rulebook.replace('• Who deploys first? The player', '• Who deploys first. The player'), /FAQ item is not/],
    ['a card of an unknown class', rulebook.replace('Dreadnought · 480 pts', 'Starbase · 480 pts'), /unknown class "Starbase"/],
    ['an empty file', '', /empty rulebook/],
  ];
  for (const [what, text, error] of cases) {
    it(`stops and names the problem for ${what}`, () => {
      assert.notEqual(text, rulebook, 'the case must change the rulebook');
      assert.throws(() => buildRuleText(text), error);
    });
  }

  it('reads CRLF line ends the same', () => {
    assert.deepEqual(buildRuleText(rulebook.replace(/\n/g, '\r\n')), committed);
  });
});

describe('sectionMarkdown', () => {
  const md = new MarkdownIt({ html: true });

  /** The inline text of each paragraph and list item, as a Markdown renderer shows it. */
  function shownText(markdown: string): { texts: string[]; html: number } {
    const tokens = md.parse(markdown, {});
    let html = 0;
    const texts: string[] = [];
    for (const t of tokens) {
      if (t.type === 'html_block') html++;
      if (t.type !== 'inline') continue;
      let s = '';
      for (const c of t.children ?? []) {
        if (c.type === 'html_inline') html++;
        if (c.type === 'text' || c.type === 'code_inline') s += c.content;
        if (c.type === 'softbreak') s += '\n';
      }
      texts.push(s);
    }
    return { texts, html };
  }

  for (const s of sections()) {
    it(`§${s.number}: heading, summary and rule render as the rulebook prints them`, () => {
      const out = sectionMarkdown(s.number, { inPlay: true, example: true, designerNote: true, faq: true })!;
      assert.ok(out.startsWith(`**§${s.number} `), out.slice(0, 40));
      const { texts, html } = shownText(out);
      assert.equal(html, 0, 'no HTML may come out of rulebook text');
      assert.equal(texts[0], `§${s.number} ${s.title}`);
      assert.equal(texts[1], s.summary);
      const rest = texts.slice(2).join('\n');
      for (const piece of [s.rule, s.inPlay, s.designerNote, ...s.example.split(/\s*\|\|\|\s*/)]) {
        for (const p of piece.split('\n\n')) assert.ok(rest.includes(p), `§${s.number}: "${p.slice(0, 50)}" not shown`);
      }
      for (const f of s.faq) assert.ok(rest.includes(`${f.q} ${f.a}`), `§${s.number}: FAQ "${f.q}" not shown`);
    });
  }

  it('shows only heading, summary and rule by default', () => {
    const out = sectionMarkdown(12)!;
    assert.match(out, /^\*\*§12 Weapons & Weapon Types\*\*\n\n_Weapon Name — Type, Range, Dmg, Attacks\./);
    assert.doesNotMatch(out, /\*\*(In play|FAQ|Example|Designer note)/);
    assert.doesNotMatch(sectionMarkdown(12, { noSummary: true })!, /_Weapon Name/);
  });

  it('keeps section 11\'s "1. Declare ..." a paragraph, not a list', () => {
    const tokens = md.parse(sectionMarkdown(11)!, {});
    assert.ok(!tokens.some((t) => t.type === 'ordered_list_open'));
  });

  it('escapes any text so that a Markdown renderer shows it as written (property)', () => {
    const chars = fc.constantFrom(...'ab 1.9)-+=#*_`[]()<>!|~&;\\/"\'·—'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, minLength: 1, maxLength: 24 }), (raw) => {
        // Markdown folds leading, trailing and repeated spaces; the rulebook has none of those.
        const text = raw.replace(/ +/g, ' ').trim();
        if (text === '') return;
        const { texts, html } = shownText(escapeMarkdown(text));
        assert.equal(html, 0);
        assert.deepEqual(texts, [text]);
      }),
      { numRuns: 2000, seed: 42 },
    );
  });
});

describe('glossary', () => {
  const cases: [string, number][] = [
    ...STAT_ORDER.flatMap((s): [string, number][] => [
      [s, 1],
      [STAT_NAMES[s], 1],
    ]),
    ...WEAPON_TYPES.map((t): [string, number] => [t, 12]),
    ...CLASS_NAMES.map((c): [string, number] => [c, 3]),
    ['Dogfighters', 4],
    ['Precision Strike', 5],
    ['Launch Bay', 6],
    ['Combined Shields', 10],
    ['Shields Back Online', 10],
    ['Critical Hit', 2],
    ['Cover', 19],
    ['Objective', 20],
    ['Command Board', 21],
    ['doctrine', 21],
    ['Orders', 16],
    ['Initiative', 14],
    ['Squad Leader', 8],
    ['Boarding', 13],
    ['Action Tokens', 15],
    ['range', 12],
    ['embark', 6],
    ['Elite', 21],
    ['Skirmish', 17],
    ['command abilities', 21],
    ['  shields   back online ', 10],
  ];
  for (const [term, n] of cases) {
    it(`"${term}" is defined in §${n}`, () => assert.equal(termSection(term), n));
  }

  it('does not take one- and two-letter words in the wrong case for stats', () => {
    assert.equal(termSection('d'), undefined);
    assert.equal(termSection('hp'), undefined);
    assert.equal(termSection(''), undefined);
    assert.equal(termSection('Warp Drive'), undefined);
  });

  it('gives every term a section that mentions it', () => {
    const words = (t: string): string => t.replace(/([a-z])([A-Z])/g, '$1 $2');
    const wrong = [...glossary()].filter(([term, n]) => {
      const re = termPattern(words(term))!;
      const s = section(n)!;
      const texts = [s.title, s.summary, s.rule, s.inPlay, s.example, s.designerNote, ...s.faq.flatMap((f) => [f.q, f.a])];
      // A rule named after its section ("Objective Control", §20 "Objectives & Control") counts as mentioned.
      const inTitle = words(term)
        .replace(/\s*\(.*\)$/, '')
        .split(/\s+/)
        .every((w) => termPattern(w)!.test(s.title));
      return !texts.some((t) => re.test(t)) && !inTitle;
    });
    assert.deepEqual(wrong, []);
  });
});

describe('findSectionsMentioning', () => {
  const cases: [string, number[]][] = [
    ['Critical Hit', [2, 11, 12, 21]],
    ['Tonnage', [1, 6, 9, 13, 20]],
    ['Launch Bay', [6, 17]],
    ['warp drive', []],
    ['', []],
  ];
  for (const [term, expected] of cases) {
    it(`finds "${term}" in ${expected.length ? expected.map((n) => `§${n}`).join(', ') : 'no section'}`, () => {
      assert.deepEqual(
        findSectionsMentioning(term).map((s) => s.number),
        expected,
      );
    });
  }

  it('matches whole words only, in any case', () => {
    assert.ok(findSectionsMentioning('ram').some((s) => s.number === 13));
    // "Ram" must not match inside "Program" or "Ramming"-less words such as "frame".
    const re = termPattern('ram')!;
    assert.ok(!re.test('the frame'));
    assert.ok(re.test('may Ram a ship'));
    assert.ok(termPattern('Critical Hit')!.test('two Critical Hits'));
    assert.ok(termPattern('Command Ability')!.test('six Command Abilities'));
    assert.ok(termPattern('points')!.test('a 1000 point game'));
    assert.ok(termPattern('Boarding (CR)')!.test('Boarding requires both units to have CR'));
    assert.ok(termPattern('Launch Bay')!.test('Units with Launch Bays'));
    assert.ok(!termPattern('Cross')!.test('Cro'));
  });
});
