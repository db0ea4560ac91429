import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../src/run/results.js';
import { writeAllureResults } from './allure.js';
import { renderBadge } from './badge.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';

/** Writes every report of the run into `dir`; returns the paths written. */
export async function writeReports(result: RunResult, dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['conformance-report.json', renderJson(result)],
    ['conformance-report.md', renderMarkdown(result)],
    ['conformance-report.html', renderHtml(result)],
    ['junit.xml', renderJunit(result)],
    ...result.interfaces.map((s): [string, string] => [`badge-${s.interface}.svg`, renderBadge(s)]),
  ];
  const written = files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
  written.push(await writeAllureResults(result, dir));
  return written;
}
