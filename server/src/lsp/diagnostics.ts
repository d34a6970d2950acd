/**
 * Problems per document (cached per workspace version) as LSP diagnostics: published (push
 * clients, on the scheduler's signal) or answered (pull clients, textDocument/diagnostic and
 * workspace/diagnostic).
 */
import {
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Diagnostic,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FabledDocument, Problem } from '../core/service';
import { FleetSummaryChangedNotification } from '../../../protocol';
import { toDiagnostic, toDiagnostics } from './convert';
import type { ServerState } from './state';

/** Lets queued changes (and cancellations) arrive before work starts. */
export function nextTurn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

function cancelled(): ResponseError<{ retriggerRequest: boolean }> {
  return new ResponseError(LSPErrorCodes.ServerCancelled, 'Superseded by a newer change', { retriggerRequest: true });
}

export class Diagnostics {
  /**
   * What was last published for each closed workspace file: a card edit re-checks every closed file
   * of its faction, and sending each its unchanged diagnostics again floods the client (20,000
   * messages a keystroke in a big workspace).
   */
  private readonly closedSent = new Map<string, string>();
  /** The reference field the notes were last computed against (see `fieldMoved`). */
  private fieldId: string | undefined;
  /**
   * The last diagnostics message sent: it settles once written, and the connection writes one
   * message at a time, in order, so every message before it is written too (see `written`).
   */
  private lastSent: Promise<void> = Promise.resolve();

  /**
   * @param requestRefresh asks a pulling client to pull again, once per burst (the scheduler's
   *   debounce): notes that follow for many documents at once ask once.
   */
  constructor(
    private readonly state: ServerState,
    private readonly requestRefresh: () => void = () => undefined,
  ) {}

  /** Turns the points-estimate notes on or off; true when that changed anything. */
  setEstimateNotes(on: boolean): boolean {
    if (on === this.state.service.estimateNotes) return false;
    this.state.service.estimateNotes = on;
    return true;
  }

  /** Whether the points-estimate notes are on. */
  get estimateNotesOn(): boolean {
    return this.state.service.estimateNotes;
  }

  /**
   * Whether the points estimate's reference field changed since the last call (a card at its
   * class's standard points was edited): every card's note may then change, not only this file's.
   */
  fieldMoved(): boolean {
    if (!this.state.service.estimateNotes) return false;
    let id: string | undefined;
    try {
      id = this.state.service.field().id;
    } catch {
      return false;
    }
    const moved = this.fieldId !== undefined && id !== this.fieldId;
    this.fieldId = id;
    return moved;
  }

  problemsOf(uri: string): { doc: FabledDocument; problems: Problem[] } | undefined {
    const doc = this.state.ensure(uri);
    if (!doc) return undefined;
    // The service's cache: valid while the workspace version (and its field's prices) are unchanged; rosters and battles read it too.
    const d = this.state.service.diagnose(doc);
    if (d.failure !== undefined) this.state.logError(`Validation of ${uri} failed`, d.failure);
    return { doc, problems: d.problems };
  }

  /** One problem as a diagnostic in `td`, with related locations when the client shows them. */
  toDiagnostic(p: Problem, td: TextDocument): Diagnostic {
    return toDiagnostic(p, td, this.state.client.relatedInfo ? (u) => this.state.textDoc(u) : undefined);
  }

  /**
   * A document's diagnostics. `checksFirst`: on a document's first sight its checks alone when
   * its notes are still to be worked out (`pending`: they follow; see `notesFollow`).
   */
  diagnosticsOf(uri: string, checksFirst = false): { diagnostics: Diagnostic[]; version: number | undefined; pending: boolean } | undefined {
    const td = this.state.textDoc(uri);
    if (!td) return undefined;
    let problems: Problem[];
    let pending = false;
    if (checksFirst && !this.notesShown.has(uri)) {
      const doc = this.state.ensure(uri);
      if (!doc) return undefined;
      const r = this.state.service.diagnoseChecks(doc);
      if (r.diagnosis.failure !== undefined) this.state.logError(`Validation of ${uri} failed`, r.diagnosis.failure);
      problems = r.diagnosis.problems;
      pending = !r.complete;
    } else {
      const r = this.problemsOf(uri);
      if (!r) return undefined;
      problems = r.problems;
    }
    if (checksFirst && !pending) this.notesShown.add(uri);
    const related = this.state.client.relatedInfo ? (u: string) => this.state.textDoc(u) : undefined;
    return { diagnostics: toDiagnostics(problems, td, related), version: this.state.documents.get(uri)?.version, pending };
  }

  /**
   * The open documents whose whole diagnostics (notes included) have been shown once. A document
   * seen for the first time gets its checks' diagnostics first and its points-estimate notes a
   * moment later: the notes of a big card file cost more than its checks the first time (the
   * estimate's volleys), and an error should not wait for them. Later edits show both at once (the
   * notes then come from memos), so they never blink.
   */
  private readonly notesShown = new Set<string>();
  /** The documents whose notes are on their way (`notesFollow`). */
  private readonly following = new Set<string>();

  /**
   * The notes of a document shown first with its checks alone: once that message is written, its
   * whole diagnostics, pushed (or, to a pulling client, a refresh that has it pull them). Nothing
   * when the document changed since: the change brings its own.
   */
  private notesFollow(uri: string, version: number | undefined): void {
    if (this.following.has(uri)) return;
    this.following.add(uri);
    void this.written().then(() =>
      setImmediate(() => {
        this.following.delete(uri);
        if (!this.state.documents.get(uri) || this.state.documents.get(uri)?.version !== version) return;
        if (this.state.client.pull) {
          const doc = this.state.ensure(uri);
          if (doc) this.state.service.diagnose(doc);
          this.notesShown.add(uri);
          this.requestRefresh();
        } else {
          this.notesShown.add(uri);
          this.publish(uri, false);
        }
      }),
    );
  }

  /** Push mode: computes and sends a document's diagnostics; a failure is logged, never thrown. */
  publish(uri: string, checksFirst = true): void {
    try {
      this.publishUnguarded(uri, checksFirst);
    } catch (e) {
      this.state.logError(`Diagnostics for ${uri} failed`, e);
    }
  }

  /** A document left the workspace: its diagnostics go too (push mode; not sent again when the client has none for it). */
  clear(uri: string): void {
    const had = this.closedSent.get(uri);
    this.closedSent.delete(uri);
    this.notesShown.delete(uri);
    this.state.service.forget(uri);
    if (!this.state.client.pull && had !== '[]') this.lastSent = this.state.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /**
   * Settles once the diagnostics sent so far are written to the client. A burst of files gone (a
   * storm of file events) waits for it between slices: the client reads each message at its pace,
   * and the answer to a hover asked meanwhile is written after every message sent before it.
   */
  written(): Promise<void> {
    return this.lastSent.catch(() => undefined);
  }

  private publishUnguarded(uri: string, checksFirst: boolean): void {
    const { documents, connection } = this.state;
    const version = documents.get(uri)?.version;
    // Closed workspace files are published once, whole (a scan sends each one message).
    const r = this.diagnosticsOf(uri, checksFirst && version !== undefined);
    if (!r) return;
    // Never publish for a version that is no longer the document's.
    if (documents.get(uri)?.version !== version) return;
    if (version === undefined) {
      const sent = JSON.stringify(r.diagnostics);
      if (this.closedSent.get(uri) === sent) return this.fleetChanged(uri);
      this.closedSent.set(uri, sent);
    } else this.closedSent.delete(uri);
    this.lastSent = connection.sendDiagnostics({ uri, version: r.version, diagnostics: r.diagnostics });
    this.fleetChanged(uri);
    if (r.pending) this.notesFollow(uri, version);
  }

  /** What each fleet's summary and roster were last said to depend on: its text and the cards' version. */
  private readonly fleetInputs = new Map<string, { text: string; cards: number }>();

  /**
   * Tells the client a fleet's summary may have changed (its status bar and Fleet view ask again),
   * unless nothing it depends on changed since the last time: neither the fleet's text nor any
   * card (a re-validation that finds the same, another fleet's edit). A big roster costs its
   * answer every time it is asked.
   */
  private fleetChanged(uri: string): void {
    const doc = this.state.ws.get(uri);
    if (doc?.kind !== 'fleet') return;
    const last = this.fleetInputs.get(uri);
    const cards = this.state.ws.cardsVersion;
    if (last && last.text === doc.text && last.cards === cards) return;
    this.fleetInputs.set(uri, { text: doc.text, cards });
    void this.state.connection.sendNotification(FleetSummaryChangedNotification.type, { uri });
  }

  /** textDocument/diagnostic. */
  async pull(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const { state } = this;
    const uri = params.textDocument.uri;
    await nextTurn();
    if (token.isCancellationRequested) throw cancelled();
    const td = state.textDoc(uri);
    if (!td || !state.kindOf(uri)) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    state.ensureAllOpen();
    state.ensure(uri);
    const resultId = `${state.ws.version}`;
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    // Checks first only where the client can be told to pull again for the notes.
    const r = this.diagnosticsOf(uri, state.client.pullRefresh);
    if (token.isCancellationRequested) throw cancelled();
    this.fleetChanged(uri);
    this.heldByClient(uri, r?.diagnostics ?? []);
    if (r?.pending) this.notesFollow(uri, state.documents.get(uri)?.version);
    // Checks alone carry their own result id, so that the pull after the refresh gets the whole.
    return { kind: DocumentDiagnosticReportKind.Full, resultId: r?.pending ? `${resultId}:checks` : resultId, items: r?.diagnostics ?? [] };
  }

  /** The documents whose last pulled report held problems (see `pullWorkspace`). */
  private readonly holding = new Set<string>();

  /** Notes what the client now holds for a document (`items`: a full report; undefined: unchanged). */
  private heldByClient(uri: string, items: readonly Diagnostic[] | undefined): void {
    if (items === undefined) return;
    if (items.length > 0) this.holding.add(uri);
    else this.holding.delete(uri);
  }

  /** workspace/diagnostic: every workspace file that is not open (open ones are pulled one by one). */
  async pullWorkspace(params: WorkspaceDiagnosticParams, token: CancellationToken): Promise<WorkspaceDiagnosticReport> {
    const { state } = this;
    await nextTurn();
    const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const resultId = `${state.ws.version}`;
    for (const uri of state.ws.uris()) {
      if (token.isCancellationRequested) throw cancelled();
      if (state.documents.get(uri)) continue;
      if (previous.get(uri) === resultId) {
        items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, version: null, resultId });
        continue;
      }
      const r = this.diagnosticsOf(uri);
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId, items: r?.diagnostics ?? [] });
    }
    for (const i of items) this.heldByClient(i.uri, i.kind === DocumentDiagnosticReportKind.Full ? i.items : undefined);
    // A file the client may still show problems for that is gone (deleted, moved out of the
    // workspace) and not open: an empty report, or its last problems stay. The client names only
    // some of them: a document it pulled one by one while open is no longer among its result ids.
    for (const uri of new Set([...previous.keys(), ...this.holding])) {
      if (state.ws.get(uri) || state.documents.get(uri)) continue;
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId, items: [] });
      this.holding.delete(uri);
    }
    return { items };
  }
}
