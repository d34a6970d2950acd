/**
 * The browser version's entry point (package.json `browser`: dist/web/client.js), for VS Code for
 * the web (vscode.dev, github.dev): the desktop's extension, built with ./platform.ts in place of
 * ../platform.ts, so that the server runs in a web worker and reads the workspace the client sends.
 */
export { activate, deactivate } from '../extension';
