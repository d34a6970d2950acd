/** Plain-text tables for the readable reports: columns padded to their widest cell, some right-aligned. */
export function textTable(rows: string[][], rightAlign: boolean[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (rightAlign[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}
