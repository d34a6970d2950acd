/**
 * The core's one face to its edges (the language server, the CLI, the Node and browser hosts):
 * after vscode-markdown-languageservice's `src/index.ts` (`createLanguageService`), the edges make
 * a service with `createFabledService` and ask it, and name the shapes at the end of this module;
 * nothing else (a lint rule in eslint.config.mjs, and test/lint/edge-names.test.ts counts the names).
 *
 * A service owns its state: the diagnostics it keeps, the points estimate's fits, prices and memos,
 * and the runner its simulations play on. Its requests are grouped in ./requests/ (the editor's,
 * the rosters', the simulator's), each a short named function that finds what the request is about
 * and calls the pure feature; what needs no workspace (document kinds, the rules text, renderers,
 * the tables a command's options are declared with) is `FabledService` itself, static.
 *
 * Where a new thing goes: a request, a method of its group in ./requests/; a type an edge needs, a
 * line at the end; never a re-export of a feature for an edge to call.
 */
import type { FabledDocument, FleetDocument, Problem } from './model/types';
import type { Workspace } from './workspace';
import { checkDocument } from './check/index';
import { pointsEstimateProblems } from './features/pointsEstimate';
import { suppress } from './model/directives';
import { estimatesOf, newEstimates, workspaceField, type Estimates, type ReferenceField } from './balance/index';
import type { BattleResult } from './sim/types';
import { validateBattleOptions } from './sim/fleet-battle';
import { clip } from './model/limits';
import { exampleFleets, exampleWorkspace, isExampleUri } from './examples/index';
import { fleetNamed, noFleetNamed } from './features/liveOdds';
import { Workspace as WorkspaceClass } from './workspace';
import type { ChangedFleet } from './sim/compare';
import type { SimMessage, SimRunner, SimToken } from './sim/runner';
import type { ServiceParts } from './requests/parts';
import { editorRequests, type EditorRequests } from './requests/editor';
import { rosterRequests, type RosterRequests } from './requests/rosters';
import { staticRequests } from './requests/static';
import { exampleFallback } from './examples/index';
import { trackWorkspaceField } from './balance/index';
import { simRequests, type SimRequests } from './requests/sims';
import { cannotFight, prepareBattle, Refused, type BattleSide, type PreparedBattle } from './requests/prepare';

// The fleet battle and the duel set up (./requests/prepare.ts), for the edges and the benchmarks.
export { cannotFight, prepareBattle, prepareSimulation, prepareVsField, Refused, simulationRefusal, type PreparedBattle } from './requests/prepare';

// ---------------------------------------------------------------------------------------------
// Diagnostics: the checks and the points-estimate notes of a document, cached.

/** A document's problems: the checks' and the estimate's notes (cards only), and both together as shown. */
export interface Diagnosis {
  checks: Problem[];
  notes: Problem[];
  /** The checks and the notes less what the file's suppression comments hide, plus those comments' own problems. */
  problems: Problem[];
  /** The checks threw (a bug, never bad input): `problems` are the model's own; the edge logs it. */
  failure?: unknown;
}

/** A document's checks and, when `estimateNotes`, its points-estimate notes (a card's FS-POINTS-ESTIMATE); never throws. */
export function diagnose(doc: FabledDocument, ws: Workspace, estimateNotes = true): Diagnosis {
  try {
    return withNotes(doc, ws, checkDocument(doc, ws), estimateNotes);
  } catch (failure) {
    return { checks: doc.problems, notes: [], problems: doc.problems, failure };
  }
}

/** The diagnosis of a document whose checks are `checks`: its notes added when asked (cards only). */
function withNotes(doc: FabledDocument, ws: Workspace, checks: Problem[], estimateNotes: boolean): Diagnosis {
  const notes = estimateNotes && doc.kind !== 'fleet' ? pointsEstimateProblems(doc, ws, checks) : [];
  // What is shown goes through the file's suppression comments; `checks` stay whole (a battle
  // refuses a fleet with an error even when its line hides it).
  return { checks, notes, problems: suppress(doc.text, notes.length ? [...checks, ...notes] : checks) };
}

/**
 * What is shown of a document while its notes are still to come: the checks through the file's
 * suppression comments, less the comments that seem to hide nothing (one naming the notes' code
 * hides something once the notes arrive).
 */
function checksAlone(doc: FabledDocument, checks: Problem[]): Diagnosis {
  return { checks, notes: [], problems: suppress(doc.text, checks).filter((p) => p.code !== 'FS-DISABLE-UNUSED') };
}

interface Kept {
  ws: Workspace;
  version: number;
  prices: number;
  diagnosis: Diagnosis;
  /** Only the checks are worked out (`diagnosis.notes` are still to come). */
  partial: boolean;
}

/**
 * `diagnose` cached per document while the workspace's version stays (the language server's one
 * cache: diagnostics, rosters and battles read it instead of running the checks again). The checks
 * can be had alone first (`diagnoseChecks`): a card file's notes cost more than its checks on
 * first sight (the estimate's volleys), and the notes then follow, from the same checks.
 */
export class Diagnoser {
  private readonly cache = new Map<string, Kept>();
  private notes = true;

  constructor(private readonly size = 5000) {}

  /** Whether cards get points-estimate notes; changing it empties the cache. */
  get estimateNotes(): boolean {
    return this.notes;
  }
  set estimateNotes(on: boolean) {
    if (on !== this.notes) this.cache.clear();
    this.notes = on;
  }

  /** What is kept for `doc` and still holds for `ws` as it is now (its notes may be out of date). */
  private kept(doc: FabledDocument, ws: Workspace): Kept | undefined {
    const c = this.cache.get(doc.uri);
    return c && c.ws === ws && c.version === ws.version ? c : undefined;
  }

  private keep(doc: FabledDocument, ws: Workspace, diagnosis: Diagnosis, partial: boolean): void {
    this.cache.delete(doc.uri);
    this.cache.set(doc.uri, { ws, version: ws.version, prices: estimatesOf(ws).version, diagnosis, partial });
    if (this.cache.size > this.size) this.cache.delete(this.cache.keys().next().value!);
  }

  diagnose(doc: FabledDocument, ws: Workspace): Diagnosis {
    const c = this.kept(doc, ws);
    // A battle price arriving for the workspace's field moves the estimate notes with the workspace unchanged.
    if (c && !c.partial && c.prices === estimatesOf(ws).version) return c.diagnosis;
    let d: Diagnosis;
    if (c && c.diagnosis.failure === undefined) {
      // The checks hold: only the notes are worked out.
      try {
        d = withNotes(doc, ws, c.diagnosis.checks, this.notes);
      } catch (failure) {
        d = { ...c.diagnosis, failure };
      }
    } else d = diagnose(doc, ws, this.notes);
    const { failure, ...diagnosis } = d;
    this.keep(doc, ws, diagnosis, false);
    // The failure is told once, when it happens; the cache keeps the problems.
    return failure !== undefined ? { ...diagnosis, failure } : diagnosis;
  }

  /**
   * The whole diagnosis when it is kept or has no notes to wait for (a fleet, the notes off);
   * otherwise the checks alone, `complete: false`, and `diagnose` then adds the notes to them.
   */
  diagnoseChecks(doc: FabledDocument, ws: Workspace): { diagnosis: Diagnosis; complete: boolean } {
    if (!this.notes || doc.kind === 'fleet') return { diagnosis: this.diagnose(doc, ws), complete: true };
    const c = this.kept(doc, ws);
    if (c && !c.partial && c.prices === estimatesOf(ws).version) return { diagnosis: c.diagnosis, complete: true };
    if (c) return { diagnosis: c.partial ? c.diagnosis : checksAlone(doc, c.diagnosis.checks), complete: false };
    const d = diagnose(doc, ws, false);
    const { failure, ...checked } = d;
    if (failure !== undefined) {
      // The checks threw: there are no notes to add; kept whole, told once.
      this.keep(doc, ws, checked, false);
      return { diagnosis: d, complete: true };
    }
    const partial = checksAlone(doc, checked.checks);
    this.keep(doc, ws, partial, true);
    return { diagnosis: partial, complete: false };
  }

  /** The checks of a document (what a roster or a battle reads), cached as `diagnose`; never waits for notes. */
  readonly checks = (doc: FabledDocument, ws: Workspace): Problem[] => {
    const c = this.kept(doc, ws);
    return c ? c.diagnosis.checks : this.diagnoseChecks(doc, ws).diagnosis.checks;
  };

  /** Forgets one document, or every one. */
  clear(uri?: string): void {
    if (uri === undefined) this.cache.clear();
    else this.cache.delete(uri);
  }
}

/** How the checks of a document are had: run afresh (the CLI), or from a Diagnoser's cache (the server). */
export type Checks = (doc: FabledDocument, ws: Workspace) => Problem[];

// ---------------------------------------------------------------------------------------------
// The roster and the card sheet (./requests/rosters.ts): built from the cached problems.

export { roster } from './requests/rosters';

// ---------------------------------------------------------------------------------------------
// The service instance: one per workspace, owning its state (after vscode-markdown-languageservice's
// `createLanguageService`). The diagnostics cache, the points estimate's fits and prices, and the
// battle prices measured live in the instance, not in the core's modules.

/** What a service is made from: its workspace, how it has simulations run, and where it tells a failure. */
export interface FabledServiceOptions {
  /** The workspace the service answers about (absent: a new, empty one). */
  workspace?: Workspace;
  /** Runs the service's battles, duels and prices (absent: the service prepares them and the caller runs them). */
  runner?: SimRunner;
  /** Tells a failure the service survived (a check that threw: a bug, never bad input). */
  log?: (message: string, error?: unknown) => void;
  /** A document as the editor has it now (an open file not yet in the workspace); default: the workspace's. */
  document?: (uri: string) => FabledDocument | undefined;
  /** At most this many documents' diagnoses kept. */
  diagnosesKept?: number;
  /**
   * A points-estimate state whose volley and approach memos this service's estimate uses too: they
   * are keyed by content, so this changes no figure (the warm-up's own workspace fills the server's).
   */
  shareMemosWith?: Estimates | undefined;
  /** The workspace falls back on the bundled example cards for a faction it has no card of (the server's and the CLI's). */
  examplesFallback?: boolean;
  /** The workspace finds its reference field's candidates as it reads each file (the server's, before its first scan). */
  trackField?: boolean;
}

/**
 * Who an opponent is: a fleet list by URI (the workspace's, an open document, or a bundled
 * example's), a fleet list's text read by the edge (a file outside the workspace, another version
 * of a fleet: parsed on its own, never indexed, it fights with the workspace's cards), or a fleet
 * by name (the workspace's, then a bundled example's). `what` says, in a "no fleet named" sentence,
 * what else the user could give (the setting or flag it came from).
 */
export type OpponentSpec = { uri: string } | { uri: string; text: string } | { name: string; what?: string; examplesOnly?: boolean };

/** An opponent found: its side of a battle, its URI and its name as the lens and the view show it. */
export interface Opponent extends BattleSide {
  uri: string;
  name: string;
}

/** A fleet battle asked for: two fleets, the options as given (checked here) and a what-if's other version of the first fleet. */
export interface BattleRequestSpec {
  fleet: OpponentSpec;
  vs: OpponentSpec;
  options?: unknown;
  /** The other version of `fleet` (BattleParams.compareWith), named by `label` in a refusal. */
  compareWith?: { spec: OpponentSpec; label?: string };
}

/** A battle ready for a runner: its sides, the prepared battle, and the what-if's other version. */
export interface PreparedBattleRequest {
  sides: [BattleSide, BattleSide];
  battle: PreparedBattle;
  changed?: ChangedFleet;
}

/** The two sides of a battle request, as its refusals name them. */
const SIDE_WORDS = ['fleet', "opponent's fleet"] as const;

/**
 * One workspace's service: its state (below) and its requests, grouped by what they serve
 * (./requests/: the editor's, the rosters', the simulator's), each bound to the instance's workspace;
 * what needs no workspace is the `FabledService` value below.
 */
export interface FabledService extends EditorRequests, RosterRequests, SimRequests {
  readonly workspace: Workspace;
  /** The points estimate's state: its fits, the field prices measured against it, the battle prices measured. */
  readonly estimates: Estimates;
  /** Whether cards get points-estimate notes (changing it empties the diagnoses kept). */
  estimateNotes: boolean;
  /** A document's problems, cached while the workspace (and its field's prices) stay as they are. */
  diagnose(doc: FabledDocument): Diagnosis;
  /**
   * A document's checks first: its whole diagnosis when that is kept or has nothing to wait for,
   * else the checks alone (`complete: false`), to be followed by `diagnose`'s.
   */
  diagnoseChecks(doc: FabledDocument): { diagnosis: Diagnosis; complete: boolean };
  /** The checks of a document of any workspace: the cached ones for the service's own, else afresh. */
  readonly checks: Checks;
  /** Forgets one document's diagnosis, or every one. */
  forget(uri?: string): void;
  /** The battle prices of a field's members, measured against it: its notes, hovers and lenses move (and the diagnoses kept are stale). */
  setFieldPrices(field: ReferenceField, prices: ReadonlyMap<string, number>): void;
  /**
   * The workspace's reference field (the points estimate's), kept with the workspace and brought up
   * to date from the documents that changed: what is read after every edit (the editor's notes and
   * hovers, the background pricing). Described as "from this workspace"; `referenceField()` is the
   * same field built afresh and described as "from the cards given" (the CLI's report).
   */
  field(): ReferenceField;
  /** An opponent (or a side of a battle) as `spec` names it, or why there is none. */
  opponent(spec: OpponentSpec): Opponent | { why: string };
  /** A battle checked and ready to play; throws `Refused` with the sentence a user reads when it cannot be played. */
  prepareBattle(request: BattleRequestSpec): PreparedBattleRequest;
  /** A battle played on the service's runner (the prepared battle, with the what-if's other version). */
  battle(request: BattleRequestSpec, progress?: (m: SimMessage) => void, token?: SimToken): Promise<BattleResult>;
}

/**
 * What a service answers without a workspace (./requests/static.ts: document kinds, codes, the
 * rules text, the roster's formats and edits), read where there is no instance yet.
 */
export const FabledService = staticRequests;

export function createFabledService(options: FabledServiceOptions): FabledService {
  const ws = options.workspace ?? new WorkspaceClass();
  if (options.examplesFallback) exampleFallback(ws);
  const diagnoser = new Diagnoser(options.diagnosesKept);
  const estimates = estimatesOf(ws, () => newEstimates(options.shareMemosWith));
  if (options.trackField) trackWorkspaceField(ws);
  const documentAt = options.document ?? ((uri: string) => ws.get(uri));
  const checks: Checks = (doc, dws) => (dws === ws ? diagnoser.checks(doc, dws) : diagnose(doc, dws, false).checks);

  const opponent = (spec: OpponentSpec): Opponent | { why: string } => {
    if ('name' in spec) {
      const own = spec.examplesOnly ? undefined : fleetNamed(spec.name, ws.fleets());
      if (own) return { uri: own.uri, name: own.name.value ?? spec.name, doc: own, ws };
      const example = fleetNamed(spec.name, exampleFleets());
      if (example) return { uri: example.uri, name: example.name.value ?? spec.name, doc: example, ws: exampleWorkspace() };
      const names = (fs: Iterable<FleetDocument>) => [...fs].map((f) => f.name.value ?? '').filter(Boolean);
      return { why: noFleetNamed(spec.name, names(exampleFleets()), spec.examplesOnly ? [] : names(ws.fleets()), spec.what) };
    }
    if ('text' in spec) {
      // Parsed on its own (never indexed); its cards are the workspace's.
      const doc = new WorkspaceClass().set(spec.uri, spec.text, 'fleet');
      if (doc?.kind !== 'fleet') return { why: `${spec.uri} is not a fleet list` };
      return { uri: doc.uri, name: doc.name.value ?? '', doc, ws };
    }
    // A bundled example fleet fights with the bundled example cards.
    const example = isExampleUri(spec.uri);
    const doc = example ? exampleWorkspace().get(spec.uri) : documentAt(spec.uri);
    if (doc?.kind !== 'fleet') return { why: `no fleet list at ${spec.uri}` };
    return { uri: doc.uri, name: doc.name.value ?? '', doc, ws: example ? exampleWorkspace() : ws };
  };

  const prepare = (request: BattleRequestSpec): PreparedBattleRequest => {
    const v = validateBattleOptions(request.options ?? {});
    if (!v.options) throw new Refused(v.errors.join(' '));
    const sides = [request.fleet, request.vs].map((spec, i): BattleSide => {
      const o = opponent(spec);
      if ('why' in o) throw new Refused(`No ${SIDE_WORDS[i]} list at ${clip(('uri' in spec && spec.uri) || '(no uri)', 200)}`);
      return { doc: o.doc, ws: o.ws };
    }) as [BattleSide, BattleSide];
    const prepared = prepareBattle(sides, v.options, checks);
    if ('refused' in prepared) {
      const { side, doc, errors } = prepared.refused;
      throw new Refused(cannotFight(`The ${SIDE_WORDS[side]} "${clip(doc.name.value ?? '', 200)}"`, errors));
    }
    const w = request.compareWith;
    if (!w) return { sides, battle: prepared.battle };
    const label = clip(w.label ?? 'the version to compare with', 200);
    const o = opponent(w.spec);
    if ('why' in o) throw new Refused(`No fleet list to compare with (${label}).`);
    // The version to compare with is checked afresh (it is not the document the workspace holds under its URI).
    const other = prepareBattle([{ doc: o.doc, ws: o.ws }, sides[1]], {}, (d, dws) =>
      dws === ws && d.uri !== o.doc.uri ? diagnoser.checks(d, dws) : diagnose(d, dws, false).checks,
    );
    if ('refused' in other) throw new Refused(cannotFight(`${label[0]!.toUpperCase()}${label.slice(1)}`, other.refused.errors));
    return { sides, battle: prepared.battle, changed: { fleet: other.battle.fleets[0], limit: other.battle.limits?.[0] } };
  };

  const parts: ServiceParts = { ws, checks, estimates, documentAt, log: options.log ?? (() => {}), runner: options.runner };
  return {
    ...editorRequests(parts),
    ...rosterRequests(parts),
    ...simRequests(parts),
    workspace: ws,
    estimates,
    get estimateNotes() {
      return diagnoser.estimateNotes;
    },
    set estimateNotes(on: boolean) {
      diagnoser.estimateNotes = on;
    },
    diagnose: (doc) => {
      const d = diagnoser.diagnose(doc, ws);
      if (d.failure !== undefined) options.log?.(`Checking ${doc.uri} failed`, d.failure);
      return d;
    },
    diagnoseChecks: (doc) => {
      const r = diagnoser.diagnoseChecks(doc, ws);
      if (r.diagnosis.failure !== undefined) options.log?.(`Checking ${doc.uri} failed`, r.diagnosis.failure);
      return r;
    },
    checks,
    forget: (uri) => diagnoser.clear(uri),
    setFieldPrices: (field, prices) => estimates.setFieldPrices(field, prices),
    field: () => workspaceField(ws),
    opponent,
    prepareBattle: prepare,
    battle: async (request, progress, token) => {
      const runner = options.runner;
      if (!runner) throw new Error('This service has no simulation runner.');
      const { battle, changed } = prepare(request);
      const task = { kind: 'battle', battle, sliceOps: BATTLE_SLICE_OPS, ...(changed ? { changed } : {}) } as const;
      return (await runner.run(task, 'request', progress, token)) as BattleResult;
    },
  };
}

/** Work per slice of a battle on a runner's thread, between two progress reports (about 20-30 ms). */
export const BATTLE_SLICE_OPS = 1_000_000;

// ---------------------------------------------------------------------------------------------
// The shapes the edges name, the simulation runner's port, and the few tables and features tests
// and benchmarks read beside a service.

export type { FabledDocument, FleetDocument, Problem, Span } from './model/types';
export type { CompletionList } from './features/completion';
export type { DocSymbol } from './features/symbols';
export type { Fold } from './features/structure';
export type { CodeActionData } from './features/codeActions';
export type { Hint } from './features/inlayHints';
export type { Lens } from './features/codeLens';
export type { Roster } from './roster/model';
export type { ImportResult } from './roster/import';
export type { BattleResult, SimulationResult } from './sim/types';
export type { VsFieldResult } from './sim/vs-field';
export type { SimRunner, SimTask, SimOutput, SimMessage, SimPriority, SimToken } from './sim/runner';
export { ChunksDropped, SimCancelled } from './sim/runner';
export { battlesInChunks, inProcessRunner } from './sim/run-here';
export { LIMITS } from './model/limits';

export { Workspace } from './workspace';
export { CODES } from './check/index';
export { codeHref } from './model/codes';
export { exampleFleets, exampleWorkspace } from './examples/index';
export { codeActions } from './features/codeActions';
export { foldingRanges, selectionSpans } from './features/structure';
export { BATTLE_DEFAULTS } from './rules/data';
export { validateBattleOptions } from './sim/fleet-battle';
export { vsField } from './sim/vs-field';
export { formatPercent, formatPercentError } from './rules/words';
