import type { RunResult } from '../src/run/results.js';
import { renderMarkdown } from './markdown.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `conformance-report.html`: self-contained (no external assets). */
export function renderHtml(r: RunResult): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Conformance report: ${r.verdict}</title></head><body><pre>${esc(renderMarkdown(r))}</pre></body></html>\n`;
}
