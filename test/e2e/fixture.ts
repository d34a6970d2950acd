/**
 * Shared setup for the code-server runs: user settings that keep VS Code's own first-run UI out of
 * the way, and the URL that opens the workspace (optionally with an extension in development mode
 * and an extension-tests entry point, through the web workbench's `payload` query parameter, the
 * mechanism @vscode/test-web uses).
 */
import type { CodeServer } from './codeServer';

export const E2E_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // Hovers and quick suggestions appear only when asked, so they never cover what a test looks at.
  'editor.hover.enabled': true,
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  // The extension's per-language defaults turn them on in its files (and win over the line above).
  ...Object.fromEntries(
    ['fabled-unit', 'fabled-faction', 'fabled-fleet'].map((l) => [`[${l}]`, { 'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' } }]),
  ),
  'editor.minimap.enabled': false,
  'files.autoSave': 'off',
};

export interface DevOptions {
  /** Absolute path of an extension folder to load in development mode. */
  extensionDevelopmentPath?: string;
  /** Absolute path of the extension tests' entry module (runs in the extension host). */
  extensionTestsPath?: string;
}

/** The workbench URL for the server's workspace folder. */
export function workbenchUrl(server: CodeServer, dev: DevOptions = {}): string {
  const remote = (path: string): string => `vscode-remote://127.0.0.1:${server.port}${path}`;
  const payload: [string, string][] = [];
  if (dev.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(dev.extensionDevelopmentPath)]);
  if (dev.extensionTestsPath) payload.push(['extensionTestsPath', remote(dev.extensionTestsPath)]);
  const query = new URLSearchParams({ folder: server.folder });
  if (payload.length) query.set('payload', JSON.stringify(payload));
  return `${server.url}/?${query.toString()}`;
}

export function devUrl(server: CodeServer, extensionDevelopmentPath: string): string {
  return workbenchUrl(server, { extensionDevelopmentPath });
}
