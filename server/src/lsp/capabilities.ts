/** What the client can do (read once, at initialize) and what the server offers in return. */
import { CodeActionKind, TextDocumentSyncKind, type ClientCapabilities, type ServerCapabilities } from 'vscode-languageserver/node';

export interface ClientFeatures {
  /** Pull diagnostics (textDocument/diagnostic) instead of published ones. */
  pull: boolean;
  /** workspace/diagnostic/refresh. */
  pullRefresh: boolean;
  relatedInfo: boolean;
  /** workspace/configuration: settings per resource. */
  configurationPull: boolean;
  watchRegistration: boolean;
  workspaceFolders: boolean;
  inlayRefresh: boolean;
  lensRefresh: boolean;
  snippets: boolean;
  hierarchicalSymbols: boolean;
  markdownHover: boolean;
  /** Completion documentation as Markdown (else plain text). */
  markdownDocs: boolean;
  /** window/workDoneProgress/create: the server may show progress (the workspace scan). */
  workDoneProgress: boolean;
  /** The client resolves a completion item's documentation (completionItem/resolve) when it shows it. */
  completionResolve: boolean;
}

export function clientFeatures(caps: ClientCapabilities): ClientFeatures {
  const pull = !!caps.textDocument?.diagnostic;
  const hf = caps.textDocument?.hover?.contentFormat;
  const df = caps.textDocument?.completion?.completionItem?.documentationFormat;
  return {
    pull,
    pullRefresh: !!caps.workspace?.diagnostics?.refreshSupport,
    relatedInfo: !!caps.textDocument?.publishDiagnostics?.relatedInformation || pull,
    configurationPull: !!caps.workspace?.configuration,
    watchRegistration: !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration,
    workspaceFolders: !!caps.workspace?.workspaceFolders,
    inlayRefresh: !!caps.workspace?.inlayHint?.refreshSupport,
    lensRefresh: !!caps.workspace?.codeLens?.refreshSupport,
    snippets: !!caps.textDocument?.completion?.completionItem?.snippetSupport,
    hierarchicalSymbols: !!caps.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport,
    // A client that lists formats and leaves Markdown out reads text only (eglot without markdown-mode).
    markdownHover: !hf || hf.length === 0 || hf.includes('markdown'),
    markdownDocs: !df || df.length === 0 || df.includes('markdown'),
    workDoneProgress: caps.window?.workDoneProgress === true,
    completionResolve: !!caps.textDocument?.completion?.completionItem?.resolveSupport?.properties?.includes('documentation'),
  };
}

export function serverCapabilities(client: ClientFeatures): ServerCapabilities {
  return {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    hoverProvider: true,
    completionProvider: { triggerCharacters: [' ', ':', '-', '"'], resolveProvider: true },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite, CodeActionKind.SourceFixAll], resolveProvider: false },
    documentSymbolProvider: { label: 'Fabled Star' },
    foldingRangeProvider: true,
    selectionRangeProvider: true,
    workspaceSymbolProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: { prepareProvider: true },
    inlayHintProvider: { resolveProvider: false },
    codeLensProvider: { resolveProvider: false },
    ...(client.pull ? { diagnosticProvider: { identifier: 'fabled-star', interFileDependencies: true, workspaceDiagnostics: true } } : {}),
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  };
}
