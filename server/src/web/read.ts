/**
 * In place of ../node/read.ts in the browser version (esbuild.mjs `webSwaps`): nothing is read from
 * a disk there; the cap is the desktop's, for what the LSP layer says of a pasted roster's size.
 */
import { LIMITS } from '../core/service';

export const MAX_READ_BYTES = 3 * LIMITS.fileChars;
