/**
 * Properties of the core (model, validator, features) over arbitrary text and arbitrary edits.
 * `npm test` runs each with a fixed seed and a bounded count; `npm run fuzz` runs them longer with
 * fresh seeds. Each property throws (with fast-check's counterexample and seed) when it fails.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { load } from '@stoplight/yaml-ast-parser';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument, CODES } from '../../server/src/core/check';
import { parseDocument, parseWhole } from '../../server/src/core/model/parse';
import { ChunkCache } from '../../server/src/core/model/chunks';
import { findExcess, LIMITS } from '../../server/src/core/model/limits';
import { hover, termHoverAt } from '../../server/src/core/features/hover';
import { complete } from '../../server/src/core/features/completion';
import { codeActions } from '../../server/src/core/features/codeActions';
import { documentSymbols, workspaceSymbols } from '../../server/src/core/features/symbols';
import { definition, prepareRename, references, rename } from '../../server/src/core/features/navigation';
import { inlayHints } from '../../server/src/core/features/inlayHints';
import { codeLenses } from '../../server/src/core/features/codeLens';
import { cursorContext } from '../../server/src/core/features/context';
import { resolveSettings } from '../../protocol';
import type { FabledDocument, Problem } from '../../server/src/core/model/types';
import { anyDocument, applyEdit, cardFile, edit, nesting, SAMPLES, URIS } from './arbitraries';

export interface Budget {
  seed?: number;
  numRuns: number;
}

export interface Property {
  name: string;
  /** Runs per budget unit (properties that do more per run get fewer). */
  weight: number;
  run(budget: Budget): void;
}

/** The problems a user sees, without object identity: what two parses must agree on. */
export function view(problems: Problem[]): string[] {
  return problems.map((p) => `${p.span.start}-${p.span.end} ${p.severity} ${p.code} ${p.message}`);
}

function checkProblems(text: string, problems: Problem[]): void {
  for (const p of problems) {
    assert.ok(p.code in CODES, `unknown code ${p.code}`);
    assert.equal(p.severity, CODES[p.code as keyof typeof CODES].severity, `${p.code} has the wrong severity`);
    assert.ok(p.message.trim().length > 0, `${p.code} has no message`);
    assert.ok(Number.isInteger(p.span.start) && Number.isInteger(p.span.end), `${p.code} span is not whole offsets`);
    assert.ok(
      p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= text.length,
      `${p.code} span ${p.span.start}-${p.span.end} is outside 0-${text.length}`,
    );
  }
}

/** A workspace with the examples loaded, so that references resolve and suggestions have candidates. */
function examplesWorkspace(): Workspace {
  const ws = new Workspace();
  SAMPLES.forEach((s, i) => {
    if (s.file.includes(`${'examples'}`)) ws.set(`file:///examples/${i}.${s.kind}.yaml`, s.text);
  });
  return ws;
}

const SETTINGS = resolveSettings({ referenceTarget: 'Lumen Destroyer' });

/** Offsets a request may carry: inside, at the ends, and outside the text. */
function offsets(text: string, at: number[]): number[] {
  return [0, text.length, text.length + 1, 1e9, ...at.map((f) => Math.floor(f * (text.length + 1)))];
}

/** Every feature at the given offsets; none may throw. */
export function exerciseFeatures(doc: FabledDocument, ws: Workspace, at: number[]): void {
  const text = doc.text;
  const problems = checkDocument(doc, ws);
  for (const off of offsets(text, at)) {
    hover(doc, ws, off, SETTINGS);
    termHoverAt(text, off);
    complete(doc, ws, text, off);
    cursorContext(text, Math.max(0, Math.min(off, text.length)));
    definition(doc, ws, off);
    references(doc, ws, off, true);
    prepareRename(doc, ws, off);
    rename(doc, ws, off, 'Renamed Card', (u) => ws.get(u)?.text);
    codeActions(doc, { start: Math.max(0, off - 5), end: off }, problems);
    inlayHints(doc, ws, { start: Math.max(0, off - 200), end: off + 200 }, SETTINGS);
  }
  codeActions(doc, { start: 0, end: text.length }, problems);
  inlayHints(doc, ws, { start: 0, end: text.length }, SETTINGS);
  codeLenses(doc, ws, SETTINGS);
  documentSymbols(doc, ws);
  workspaceSymbols(ws, text.slice(0, 3));
}

export const CORE_PROPERTIES: Property[] = [
  {
    name: 'any text, as any kind of file, is parsed and checked without throwing, and every problem is well formed',
    weight: 4,
    run: ({ seed, numRuns }) =>
      fc.assert(
        fc.property(anyDocument, ({ kind, text }) => {
          const ws = new Workspace();
          const doc = ws.set(URIS[kind], text);
          assert.ok(doc, 'a file of our kind always gives a document');
          assert.equal(doc.text, text);
          checkProblems(text, checkDocument(doc, ws));
        }),
        { seed, numRuns },
      ),
  },
  {
    name: 'every feature answers at any offset, including outside the document, without throwing',
    weight: 1,
    run: ({ seed, numRuns }) => {
      const ws = examplesWorkspace();
      fc.assert(
        fc.property(anyDocument, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }), ({ kind, text }, at) => {
          const doc = ws.set(URIS[kind], text)!;
          exerciseFeatures(doc, ws, at);
        }),
        { seed, numRuns },
      );
    },
  },
  {
    name: 'a document edited step by step (warm caches) gives the diagnostics of the same text opened fresh',
    weight: 2,
    run: ({ seed, numRuns }) => {
      const examples = examplesWorkspace();
      const texts = [...examples.uris()].map((u) => examples.get(u)!.text);
      fc.assert(
        fc.property(anyDocument, fc.array(edit, { minLength: 1, maxLength: 8 }), ({ kind, text }, edits) => {
          // The edited document lives among the example files, like a real workspace.
          const warm = examplesWorkspace();
          warm.set(URIS[kind], text);
          let current = text;
          for (const e of edits) {
            current = applyEdit(current, e).text;
            const doc = warm.set(URIS[kind], current)!;
            checkDocument(doc, warm);
          }
          const fresh = new Workspace();
          texts.forEach((t, i) => fresh.set(examples.uris()[i]!, t));
          const freshDoc = fresh.set(URIS[kind], current)!;
          assert.deepEqual(view(checkDocument(warm.get(URIS[kind])!, warm)), view(checkDocument(freshDoc, fresh)));
        }),
        { seed, numRuns },
      );
    },
  },
  {
    // Generated files only: with random edits the two differ where the text before `units:` is
    // broken (an unclosed quote, an indented first key), which the splitter does not look at.
    name: 'a card file parsed card by card gives what a whole parse gives, with cards pasted twice',
    weight: 2,
    run: ({ seed, numRuns }) =>
      fc.assert(
        fc.property(cardFile, (t) => {
          const split = parseDocument(URIS.unit, t, 'unit', new ChunkCache())!;
          const whole = parseWhole(URIS.unit, t, 'unit');
          assert.deepEqual(view(checkDocument(split)), view(checkDocument(whole)));
          assert.deepEqual(
            split.kind === 'unit' && split.units.map((c) => `${c.name.value}@${c.span.start}`),
            whole.kind === 'unit' && whole.units.map((c) => `${c.name.value}@${c.span.start}`),
          );
        }),
        { seed, numRuns },
      ),
  },
  {
    name: 'nesting the guard lets through never exhausts the parser stack, and 40 levels are always let through',
    weight: 2,
    run: ({ seed, numRuns }) =>
      fc.assert(
        fc.property(nesting, ({ depth, text }) => {
          const excess = findExcess(text);
          if (depth <= 40) assert.equal(excess, undefined, `${depth} levels were refused`);
          if (depth > LIMITS.depth + 1) assert.ok(excess, `${depth} levels were let through`);
          if (!excess) {
            try {
              load(text, { ignoreDuplicateKeys: true });
            } catch (e) {
              assert.fail(`the parser threw on ${depth} levels the guard let through: ${String(e)}`);
            }
          }
        }),
        { seed, numRuns },
      ),
  },
];
