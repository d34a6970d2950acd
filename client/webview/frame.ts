/**
 * The HTML frame every view's page shares, built by the extension host (which passes the webview's
 * CSP source, a fresh nonce and the URIs of the view's bundled script and style sheet). A view gives
 * only its title and its body: a static skeleton whose figures and names the script fills in later
 * with `textContent`, so no page ever interpolates text from the user's files.
 *
 * The Content-Security-Policy allows only the extension's own script (by nonce) and styles (by
 * origin or nonce), images from the extension or data: URIs (Chart.js draws on canvas, nothing
 * else loads), and nothing from the network. No inline event handlers, no eval: Chart.js 4 needs
 * neither, which the webview tests confirm by listening for CSP violations.
 */

/** Escapes a value the host gives for use inside a double-quoted HTML attribute. */
export function attr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A number input with its label and the bounds the host will accept; `hint` says what empty means. */
export function numberField(id: string, label: string, limits: { min: number; max: number }, hint?: string): string {
  const hintId = `${id}-hint`;
  return `<div class="field">
        <label for="${id}">${label}</label>
        <input id="${id}" name="${id}" type="number" inputmode="numeric" step="1" min="${limits.min}" max="${limits.max}"${
          hint ? ` placeholder="${hint}" aria-describedby="${hintId}"` : ''
        }>${hint ? `<span id="${hintId}" class="hint">empty: ${hint}</span>` : ''}
      </div>`;
}

/** A view's page: the frame (CSP, style sheet, script by nonce) around the view's `body`, inside `<main id="app">`. */
export function renderPage(cspSource: string, nonce: string, scriptUri: string, styleUri: string, view: { title: string; body: string }): string {
  const csp = [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="${attr(styleUri)}" nonce="${attr(nonce)}">
  <title>${view.title}</title>
</head>
<body>
  <main id="app" aria-busy="false">
${view.body}
  </main>
  <script nonce="${attr(nonce)}" src="${attr(scriptUri)}"></script>
</body>
</html>
`;
}
