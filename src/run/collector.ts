import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckResult, CheckResultMeta } from './results.js';

export interface SuiteError {
  file: string;
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
 * A vitest reporter that turns each finished test into a CheckResult (from `task.meta.sfc`) and
 * each file that could not run into a suite error. It judges nothing: the verdict is run/verdict.ts.
 */
export class ResultCollector implements Reporter {
  readonly checks: CheckResult[] = [];
  readonly suiteErrors: SuiteError[] = [];

  constructor(private readonly onProgress?: (e: ProgressEvent) => void) {}

  onTestModuleEnd(module: TestModule): void {
    const counts = { passed: 0, failed: 0, skipped: 0, errors: 0 };
    let first: CheckResultMeta | undefined;
    for (const test of module.children.allTests()) {
      const result = this.toResult(test);
      if (!result) continue;
      first ??= result;
      this.checks.push(result);
      if (result.outcome === 'error') counts.errors++;
      else counts[result.outcome]++;
    }
    for (const e of module.errors()) this.suiteErrors.push({ file: module.moduleId, message: e.message ?? String(e) });
    if (first) this.onProgress?.({ area: first.area, interface: first.interface, ...counts });
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandled) this.suiteErrors.push({ file: '(unhandled)', message: e.message ?? String(e) });
  }

  private toResult(test: TestCase): CheckResult | undefined {
    const meta = test.meta().sfc;
    const result = test.result();
    const durationMs = Math.round(test.diagnostic()?.duration ?? 0);
    if (!meta) {
      // A test that never reached the check body: its file failed before it ran.
      if (result.state === 'failed')
        this.suiteErrors.push({
          file: test.module.moduleId,
          message: `${test.fullName}: ${result.errors[0]?.message ?? 'failed'}`,
        });
      return undefined;
    }
    const out: CheckResult = { ...meta, durationMs };
    // A test can fail after the check body returned (vitest timeout): the check never finished.
    if (result.state === 'failed' && meta.outcome === 'passed') {
      out.outcome = 'error';
      out.reason = `suite error (not the target's fault): ${result.errors[0]?.message ?? 'the test failed'}`;
    }
    return out;
  }
}
