/**
 * What every view's script needs from its page: the VS Code API (acquired once, typed by the
 * messages the view posts), the elements of the view's id table, found once at start, and the
 * theme's colours.
 */

/** The part of VS Code's webview API a view uses: posting to its host, and the state kept over a reload. */
export interface VsCodeApi<ViewMessage> {
  postMessage(message: ViewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi<unknown>;

/** The view's VS Code API; VS Code gives it once per page, so a view calls this once. */
export function vscodeApi<ViewMessage>(): VsCodeApi<ViewMessage> {
  return acquireVsCodeApi();
}

/** The element with this id; a missing one is an error naming it (the page and the script disagree). */
export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`view: missing #${id}`);
  return found as T;
}

/**
 * Every element an id table names, under the table's keys. `Typed` says which of them are more than
 * an HTMLElement (a form, an input, a canvas).
 */
export function elements<Ids extends Record<string, string>, Typed extends { [K in keyof Ids]?: HTMLElement } = object>(
  ids: Ids,
): { [K in keyof Ids]: K extends keyof Typed ? NonNullable<Typed[K]> : HTMLElement } {
  return Object.fromEntries(Object.entries(ids).map(([key, id]) => [key, element(id)])) as {
    [K in keyof Ids]: K extends keyof Typed ? NonNullable<Typed[K]> : HTMLElement;
  };
}

/** A CSS variable of the page (VS Code sets the theme's colours as `--vscode-*`), or `fallback` when it is unset. */
export function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

/** Chart options every view's charts share: drawn at once (no animation), filling their box. */
export const STILL_CHART = { animation: false, maintainAspectRatio: false } as const;
