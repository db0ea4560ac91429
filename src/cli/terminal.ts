import type { BaselineDiff } from '../run/baseline.js';
import type { ProgressEvent } from '../run/collector.js';
import type { RunResult } from '../run/results.js';

/** Terminal output: progress while running, a summary table at the end; no colour off a TTY or under CI. */
export class Terminal {
  private readonly colour = Boolean(process.stderr.isTTY) && !process.env.CI && !process.env.NO_COLOR;

  private paint(code: number, s: string): string {
    return this.colour ? `\u001b[${code}m${s}\u001b[0m` : s;
  }

  info(line: string): void {
    process.stderr.write(`${line}\n`);
  }

  error(line: string): void {
    process.stderr.write(`${this.paint(31, 'error:')} ${line}\n`);
  }

  progress(p: ProgressEvent): void {
    const bad = p.failed + p.errors > 0;
    const parts = [`${p.passed} passed`, `${p.failed} failed`, `${p.skipped} skipped`];
    if (p.errors) parts.push(`${p.errors} suite errors`);
    this.info(`  ${bad ? this.paint(31, '✗') : this.paint(32, '✓')} ${p.interface} ${p.area}: ${parts.join(', ')}`);
  }

  summary(r: RunResult): void {
    const rows = r.interfaces.map((s) => [
      s.interface,
      s.verdict,
      String(s.counts.passed),
      String(s.counts.failed),
      String(s.counts.skipped),
      String(s.counts.untested),
      String(s.checks.passed + s.checks.failed + s.checks.skipped + s.checks.errors),
    ]);
    const head = ['interface', 'verdict', 'passed', 'failed', 'skipped', 'untested', 'checks'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
    this.info('');
    this.info(line(head));
    for (const row of rows) this.info(line(row));
    this.info('');
    for (const s of r.interfaces)
      if (s.unexercisedMust.length)
        this.info(
          `${s.interface}: MUST not exercised: ${s.unexercisedMust.slice(0, 10).join(', ')}${s.unexercisedMust.length > 10 ? ', …' : ''}`,
        );
    if (r.aborted) this.error(`run aborted: ${r.aborted}; what did not run is untested, not passed`);
    for (const e of r.suiteErrors.slice(0, 5)) this.error(`suite error in ${e.file}: ${e.message.split('\n')[0]}`);
    const failed = r.requirements.filter((q) => q.status === 'failed' && !q.waiver);
    for (const q of failed.slice(0, 15))
      this.info(`${this.paint(31, 'FAIL')} ${q.id} ${q.level}: ${(q.reason ?? '').split('\n')[0]}`);
    if (failed.length > 15) this.info(`... and ${failed.length - 15} more failed requirements (see the report)`);
    const verdict = r.verdict === 'conformant' ? this.paint(32, r.verdict) : this.paint(31, r.verdict);
    this.info(`verdict: ${verdict} in ${(r.durationMs / 1000).toFixed(1)} s, ${r.requests} requests`);
  }

  baseline(d: BaselineDiff): void {
    this.info(
      `against the baseline: ${d.newlyFailing.length} newly failing MUST, ${d.newlyUnexercised.length} newly not exercised, ${d.fixed.length} fixed, ${d.stillFailing.length} still failing (known)`,
    );
    if (d.newlyFailing.length) this.info(`  newly failing: ${d.newlyFailing.join(', ')}`);
    if (d.newlyUnexercised.length) this.info(`  newly not exercised: ${d.newlyUnexercised.join(', ')}`);
    if (d.fixed.length) this.info(`  fixed: ${d.fixed.join(', ')}`);
  }
}
