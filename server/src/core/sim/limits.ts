/**
 * Upper bounds that keep one simulation request within about a second; beyond them the input is
 * an error. No imports, on purpose: the webview bundles this file to offer the same bounds in its
 * controls without pulling in the simulator.
 */
export const OPTION_LIMITS = {
  rangeMax: 1000,
  roundsMax: 100,
  trialsMax: 1_000_000,
  seedMax: 0xffffffff,
} as const;
