import type { InterfaceSummary } from '../src/run/results.js';

const COLOURS = { conformant: '#1a7f37', 'non-conformant': '#cf222e', incomplete: '#9a6700' } as const;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
/** Rough width of Verdana 11px text, as shields-style badges size themselves. */
const width = (s: string) => Math.round(s.length * 6.6 + 12);

/** `badge-<interface>.svg`: the interface's verdict and requirement counts. */
export function renderBadge(s: InterfaceSummary): string {
  const label = s.interface;
  const value = `${s.verdict} ${s.counts.passed}/${s.counts.passed + s.counts.failed + s.counts.skipped}`;
  const lw = width(label);
  const vw = width(value);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + vw}" height="20" role="img" aria-label="${esc(label)}: ${esc(value)}">
<title>${esc(label)}: ${esc(value)} (passed/exercised requirements)</title>
<rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${COLOURS[s.verdict]}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${esc(label)}</text><text x="${lw + vw / 2}" y="14">${esc(value)}</text></g></svg>
`;
}
