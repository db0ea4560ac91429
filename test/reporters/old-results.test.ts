import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setAsideOldResults } from '../../reporters/old-results.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const reportDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sfc-old-results-'));
  dirs.push(d);
  return d;
};

describe('an earlier run’s Allure results', () => {
  it('are out of the results directory at once, and deleted only when the returned function runs', async () => {
    const reports = reportDir();
    const results = join(reports, 'allure-results');
    mkdirSync(results);
    for (let i = 0; i < 50; i++) writeFileSync(join(results, `${i}-result.json`), '{}');
    const discard = setAsideOldResults(results, 'run1');
    expect(existsSync(results)).toBe(false);
    expect(readdirSync(join(reports, 'allure-results.old-run1'))).toHaveLength(50);
    // This run writes its own results meanwhile; they stay.
    mkdirSync(results);
    writeFileSync(join(results, 'new-result.json'), '{"new":true}');
    writeFileSync(join(reports, 'conformance-report.json'), '{}');
    await discard();
    expect(readdirSync(reports).sort()).toEqual(['allure-results', 'conformance-report.json']);
    expect(readFileSync(join(results, 'new-result.json'), 'utf8')).toBe('{"new":true}');
  });

  it('the deletion also takes what a killed run left aside, and nothing else of the directory', async () => {
    const reports = reportDir();
    mkdirSync(join(reports, 'allure-results.old-killed'));
    writeFileSync(join(reports, 'allure-results.old-killed', 'x-result.json'), '{}');
    mkdirSync(join(reports, 'allure-report'));
    writeFileSync(join(reports, 'allure-results.txt'), 'not a results directory');
    const discard = setAsideOldResults(join(reports, 'allure-results'), 'run2');
    await discard();
    expect(readdirSync(reports).sort()).toEqual(['allure-report', 'allure-results.txt']);
  });

  it('is a no-op for a report directory that does not exist yet', async () => {
    const missing = join(reportDir(), 'not-yet', 'allure-results');
    const discard = setAsideOldResults(missing, 'run3');
    await expect(discard()).resolves.toBeUndefined();
    expect(existsSync(join(missing, '..'))).toBe(false);
  });
});
