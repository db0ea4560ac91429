import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { evidenceOf } from './evidence.js';
import type { CheckResult } from './results.js';

export interface SuiteError {
  /** Where it happened: the area (`<interface>/<name>`), or the suite file when it failed as a whole. */
  file: string;
  /** The area it belongs to; absent when the suite file failed, which touches every interface of the run. */
  area?: string;
  message: string;
}

export interface ProgressEvent {
  area: string;
  interface: string;
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
}

/**
 * A vitest reporter that turns each finished test into a CheckResult (from `task.meta.sfc`), area
 * by area as their describe blocks end (src/checks/area.ts marks them with `sfcArea`), and what
 * could not run into suite errors. It judges nothing: the verdict is run/verdict.ts.
 */
export class ResultCollector implements Reporter {
  readonly checks: CheckResult[] = [];
  readonly suiteErrors: SuiteError[] = [];

  /** `secrets`: the run's secret target data (passwords), scrubbed from the evidence with the tokens. */
  constructor(
    private readonly onProgress?: (e: ProgressEvent) => void,
    private readonly secrets: string[] = [],
  ) {}

  onTestSuiteResult(suite: TestSuite): void {
    const area = suite.meta().sfcArea;
    if (!area) return;
    const counts = { passed: 0, failed: 0, skipped: 0, errors: 0 };
    for (const test of suite.children.allTests()) {
      const result = this.toResult(test, area);
      if (!result) continue;
      this.checks.push(result);
      if (result.outcome === 'error') counts.errors++;
      else counts[result.outcome]++;
    }
    for (const e of suite.errors()) this.suiteErrors.push({ file: area, area, message: e.message ?? String(e) });
    const [iface = '', name = ''] = area.split('/');
    this.onProgress?.({ area: name, interface: iface, ...counts });
  }

  /** The suite file's own errors: it could not load (an area module that does not import, say). */
  onTestModuleEnd(module: TestModule): void {
    for (const e of module.errors()) this.suiteErrors.push({ file: module.moduleId, message: e.message ?? String(e) });
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandled) this.suiteErrors.push({ file: '(unhandled)', message: e.message ?? String(e) });
  }

  private toResult(test: TestCase, area: string): CheckResult | undefined {
    const meta = test.meta().sfc;
    const result = test.result();
    const durationMs = Math.round(test.diagnostic()?.duration ?? 0);
    if (!meta) {
      // A test that never reached the check body: its area failed before it ran.
      if (result.state === 'failed')
        this.suiteErrors.push({ file: area, area, message: `${test.fullName}: ${result.errors[0]?.message ?? 'failed'}` });
      return undefined;
    }
    const out: CheckResult = { ...meta, durationMs };
    const sent = test.meta().sfcExchanges;
    if (sent) out.evidence = evidenceOf(sent.exchanges, this.secrets, sent.details);
    // A test can fail after the check body returned (vitest timeout): the check never finished.
    if (result.state === 'failed' && meta.outcome === 'passed') {
      out.outcome = 'error';
      out.reason = `suite error (not the target's fault): ${result.errors[0]?.message ?? 'the test failed'}`;
    }
    return out;
  }
}
