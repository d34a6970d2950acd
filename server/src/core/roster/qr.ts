/**
 * A QR code as inline SVG, for the printed roster and the card sheet (their Content-Security-Policy
 * allows no `data:` image). The `qrcode` library encodes the text (mode, version, error correction,
 * masking); only the drawing of its module matrix as one SVG path is done here, as the library's
 * own SVG renderer is reached only through a callback API and prints no class or label.
 */
import { create } from 'qrcode';

/** The QR code of `text` as an `<svg class="qr">` on one line, or undefined when the text is too long for any QR version. */
/** `label` is HTML already (escaped by the caller). */
export function qrSvg(text: string, label: string, extraClass = ''): string | undefined {
  let modules: { size: number; data: ArrayLike<number> };
  try {
    // Level M: a sheet survives a fold or a smudge; the one line fits well within version 40's bytes.
    modules = create(text, { errorCorrectionLevel: 'M' }).modules;
  } catch {
    return undefined;
  }
  const n = modules.size;
  const quiet = 4;
  let d = '';
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.data[y * n + x]) {
        x++;
        continue;
      }
      // A run of dark modules in a row is one rectangle.
      let run = 1;
      while (x + run < n && modules.data[y * n + x + run]) run++;
      d += `M${x + quiet} ${y + quiet}h${run}v1h-${run}z`;
      x += run;
    }
  }
  const side = n + 2 * quiet;
  const cls = `qr${extraClass ? ` ${extraClass}` : ''}`;
  return (
    `<svg class="${cls}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges" role="img" aria-label="${label}">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
  );
}
