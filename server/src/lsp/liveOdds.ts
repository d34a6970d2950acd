/**
 * The live odds lens's runs (the words: core/features/liveOdds.ts). When a fleet's code
 * lenses are asked for and `fabledStar.liveOdds.opponent` names an opponent, the lens shows what it
 * knows of this version of the fleet (and of the opponent and the cards) and, when that is nothing
 * yet, starts the battles: through a simulations' queue of their own (./pool.ts, `apart`), in a
 * background process at the lowest priority (../node/sim-host.ts), its
 * figure so far arriving as partial results, each followed by a code lens refresh (throttled), so
 * that the lens sharpens as the battles run. The next edit of the fleet cancels the run (and so
 * does closing it); this thread reads the fleets only once typing pauses (the diagnostics' delay),
 * so diagnostics never wait for it, and a fleet that cannot fight says why then, without waiting
 * for the queue.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import type { Settings } from '../core/api';
import { FabledService, type BattleResult, type FleetDocument, type Lens } from '../core/service';
import { MAX_READ_BYTES, readCappedSync } from '../node/read';
import type { SimulationQueue } from './pool';
import type { ServerState } from './state';

type Workspace = FabledService['workspace'];
type Checks = FabledService['checks'];
type LiveOddsState = Parameters<typeof FabledService.liveOddsTitle>[1];
type PreparedBattle = Parameters<typeof FabledService.battleTrials>[0];

/** Lens refreshes while battles run: at most one per this many ms (the last always goes). */
const REFRESH_MS = 250;
/** Work per slice on the worker between two progress posts (as the battle request's). */
const SLICE_OPS = 1_000_000;
/**
 * What the lens says while its background process is quiet (../node/sim-host.ts `STALL_MS`): it
 * waits for a core that other work holds, or it stopped answering and another took its place.
 */
export const STALL_NOTES = { waiting: 'waiting for a free core', restarted: 'restarted: the simulation had stalled' } as const;

interface Opponent {
  uri: string;
  name: string;
  doc: FleetDocument;
  /** The cards it fights with: the workspace's, or the bundled examples' for an example fleet. */
  ws: Workspace;
}

interface Run {
  uri: string;
  key: string;
  vs: { uri: string; name: string };
  state: LiveOddsState;
  source: CancellationTokenSource;
  /** Until the battles start: they wait for typing to pause, as diagnostics do. */
  timer?: ReturnType<typeof setTimeout>;
}

export class LiveOdds {
  private readonly runs = new Map<string, Run>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastRefresh = -Infinity;
  /** The runs whose figure changed since the last refresh. */
  private readonly changed = new Set<Run>();

  constructor(
    private readonly state: ServerState,
    private readonly queue: () => SimulationQueue,
    private readonly refresh: () => void,
    /** The checks of a workspace fleet, as the diagnostics have them (cached). */
    private readonly checks: Checks,
  ) {
    // The next edit cancels the run: its figure is for a fleet that is no more.
    state.documents.onDidChangeContent((e) => this.stop(e.document.uri));
    state.documents.onDidClose((e) => this.stop(e.document.uri));
  }

  /** The lens for this fleet, or undefined when the setting is empty. */
  lens(doc: FleetDocument, settings: Settings): Lens | undefined {
    const setting = settings.liveOdds.opponent;
    if (!setting) {
      this.stop(doc.uri);
      return undefined;
    }
    const opp = this.opponent(setting);
    if ('why' in opp) {
      const failed = { kind: 'failed', why: opp.why } as const;
      return FabledService.liveOddsLens(doc, undefined, FabledService.liveOddsTitle(setting, failed), FabledService.liveOddsDetail(setting, failed));
    }
    const trials = settings.liveOdds.trials;
    const ws = this.state.ws;
    const key = [doc.text, opp.uri, opp.doc.text, ws.cardsVersion, opp.ws === ws ? '' : opp.ws.cardsVersion, trials].join('\u0000');
    let run = this.runs.get(doc.uri);
    if (!run || run.key !== key) {
      this.stop(doc.uri);
      run = this.start(doc, opp, key, trials, settings.diagnostics.delayMs);
    }
    return FabledService.liveOddsLens(doc, run.vs, FabledService.liveOddsTitle(opp.name, run.state), FabledService.liveOddsDetail(opp.name, run.state));
  }

  /** Cancels the fleet's run and forgets its figure. */
  stop(uri: string): void {
    const run = this.runs.get(uri);
    if (!run) return;
    this.runs.delete(uri);
    clearTimeout(run.timer);
    run.source.cancel();
    run.source.dispose();
  }

  /** The last setting's candidate files (`candidates`), and the folders they were made from. */
  private lastCandidates: { setting: string; folders: readonly unknown[]; uris: string[] } | undefined;

  /**
   * The files a setting naming a file may mean: the path itself, or the path in each workspace
   * folder. Kept while the setting and the folders stay: the lenses are asked for at every
   * keystroke, before its diagnostics, and making these URLs each time was a measurable part of
   * the lens's cost there.
   */
  private candidates(setting: string): string[] {
    const folders = this.state.folders;
    const last = this.lastCandidates;
    if (last && last.setting === setting && last.folders === folders) return last.uris;
    const uris = path.isAbsolute(setting)
      ? [pathToFileURL(setting).toString()]
      : folders
          .map((f) => f.uri)
          .filter((u) => u.startsWith('file:'))
          .map((f) => pathToFileURL(path.join(fileURLToPath(f), setting)).toString());
    this.lastCandidates = { setting, folders, uris };
    return uris;
  }

  /** The opponent the setting names: a fleet file, or a fleet by name (the workspace's, then a bundled example's). */
  private opponent(setting: string): Opponent | { why: string } {
    const ws = this.state.ws;
    if (FabledService.namesFile(setting)) {
      for (const uri of this.candidates(setting)) {
        const open = this.state.documents.get(uri) ? this.state.ensure(uri) : ws.get(uri);
        if (open?.kind === 'fleet') return { uri, name: open.name.value || path.basename(setting), doc: open, ws };
      }
      // A file outside the workspace folders: read it (capped, as every file is), never indexed.
      const file = path.isAbsolute(setting) ? setting : undefined;
      if (!file) return { why: `no fleet file ${setting} in the workspace folders (fabledStar.liveOdds.opponent)` };
      const read = readCappedSync(file, { maxBytes: MAX_READ_BYTES });
      if (!read.ok) return { why: `cannot read ${setting}: ${read.reason === 'too-large' ? 'too large' : read.message}` };
      // Parsed on its own (never indexed); its cards are the workspace's.
      const found = this.state.service.opponent({ uri: pathToFileURL(file).toString(), text: read.text });
      if ('why' in found) return { why: `${setting} is not a fleet list` };
      return { uri: found.uri, name: found.doc.name.value || path.basename(file), doc: found.doc, ws };
    }
    // A fleet by name: the workspace's, then a bundled example's (which fights with the bundled cards).
    return this.state.service.opponent({ name: setting, what: 'fabledStar.liveOdds.opponent: a fleet file' });
  }

  /**
   * Starts the battles once `delayMs` passed without an edit (the diagnostics' typing pause): the
   * fleet's diagnostics go first, and a burst of keystrokes starts nothing it would cancel.
   */
  private start(doc: FleetDocument, opp: Opponent, key: string, trials: number, delayMs: number): Run {
    const source = new CancellationTokenSource();
    const run: Run = { uri: doc.uri, key, vs: { uri: opp.uri, name: opp.name }, state: { kind: 'waiting' }, source };
    this.runs.set(doc.uri, run);
    const current = () => this.runs.get(doc.uri) === run && !source.token.isCancellationRequested;
    run.timer = setTimeout(() => {
      run.timer = undefined;
      if (!current()) return;
      // Read after the typing pause, with the checks the diagnostics keep. A fleet that cannot
      // fight says why now: queued, its reason waited behind the run it replaced until that run's
      // process (at the lowest priority, so starved on a busy machine) answered the stop, and the
      // lens read "(simulating)" all that while.
      let prepared: ReturnType<FabledService['prepareFleets']>;
      try {
        prepared = this.state.service.prepareFleets(
          [
            { doc, ws: this.state.ws },
            { doc: opp.doc, ws: opp.ws },
          ],
          { trials, seed: FabledService.battleDefaults.seed },
          this.checks,
        );
      } catch (e) {
        // Never out of a timer (it would end the server): the lens says what went wrong, as a failed run does.
        run.state = { kind: 'failed', why: e instanceof Error ? e.message : String(e) };
        this.scheduleRefresh(run, true);
        return;
      }
      if ('refused' in prepared) {
        // The lens is narrow: the first reason only.
        const first = prepared.refused.errors.slice(0, 1);
        run.state = {
          kind: 'failed',
          why:
            prepared.refused.side === 0
              ? FabledService.cannotFight('this fleet', first, '', 'cannot fight yet')
              : FabledService.cannotFight('the opponent', first),
        };
        this.scheduleRefresh(run, true);
        return;
      }
      this.play(doc, prepared.battle, run, trials, current);
    }, delayMs);
    return run;
  }

  /**
   * The battles in the background process, their figure so far and at the end in `run.state`. A
   * process that went quiet is said beside the figure (`STALL_NOTES`) until it speaks again; one
   * restarted plays the battles again from the first (the same dice), and the figure shown stays
   * until the new run has played more battles than it.
   */
  private play(doc: FleetDocument, battle: PreparedBattle, run: Run, trials: number, current: () => boolean): void {
    let requested = trials;
    let done = 0;
    this.queue()
      .run<BattleResult>(
        `liveOdds ${doc.uri}`,
        // Until the figure is sure to the lens's precision (`battle --precision`), the setting's trials the most.
        () => ({ kind: 'battle', battle, precision: FabledService.battlePrecisionDefaults.lens, sliceOps: SLICE_OPS }),
        run.source.token,
        (m) => {
          if (!current()) return;
          const st = run.state;
          // Heard again: a wait for a core is over; a restarted run's note stays until its figure replaces the one shown.
          if ((st.kind === 'waiting' && st.note) || (st.kind === 'partial' && st.note === STALL_NOTES.waiting)) {
            delete st.note;
            this.scheduleRefresh(run);
          }
          if ('progress' in m) {
            requested = m.progress.requested;
            done = m.progress.trials;
          } else {
            const shown = run.state.kind === 'partial' ? run.state.trials : 0;
            const s = m.partial.sides[0].pointsVictory;
            const now = Math.max(done, m.partial.trials);
            if (now >= shown) run.state = { kind: 'partial', p: s.p, se: s.se, draw: m.partial.draw.p, trials: now, requested };
            this.scheduleRefresh(run);
          }
        },
        {
          onStall: (why) => {
            if (!current() || (run.state.kind !== 'waiting' && run.state.kind !== 'partial')) return;
            if (why === 'restarted') done = 0;
            run.state = { ...run.state, note: STALL_NOTES[why] };
            this.scheduleRefresh(run, true);
          },
        },
      )
      .then(
        (r) => {
          if (!current()) return;
          const s = r.sides[0].pointsVictory;
          run.state = {
            ...{ kind: 'final', p: s.p, se: s.se, draw: r.draw.p, trials: r.trials, requested: r.requestedTrials ?? r.trials },
            ...(r.stopped && r.precision !== undefined ? { stopped: r.stopped, precision: r.precision } : {}),
          };
          this.scheduleRefresh(run, true);
        },
        (e: unknown) => {
          if (!current()) return;
          run.state = { kind: 'failed', why: e instanceof Error ? e.message.replace(/^The simulation failed: /, '') : String(e) };
          this.scheduleRefresh(run, true);
        },
      );
  }

  /**
   * Asks the editor for the lenses again, at most every REFRESH_MS (`now`: the final figure, without
   * waiting for the throttle), and only when a run whose figure changed is still current then: after
   * an edit the editor asks for that fleet's lenses itself, and a refresh beside that edit's
   * diagnostics would only make it compute them twice.
   */
  private scheduleRefresh(run: Run, now = false): void {
    this.changed.add(run);
    if (this.timer) return;
    const wait = now ? 0 : Math.max(0, this.lastRefresh + REFRESH_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const live = [...this.changed].some((r) => this.runs.get(r.uri) === r);
      this.changed.clear();
      if (!live) return;
      this.lastRefresh = performance.now();
      this.refresh();
    }, wait);
  }
}
