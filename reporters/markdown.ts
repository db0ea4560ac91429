import type { RequirementResult, RunResult } from '../src/run/results.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const icon: Record<string, string> = { passed: 'passed', failed: '**FAILED**', skipped: 'skipped', untested: 'untested' };

/** `conformance-report.md`: verdicts, counts, every failure with its evidence and replay line. */
export function renderMarkdown(r: RunResult): string {
  const out: string[] = [];
  out.push(`# Conformance report: ${r.verdict.toUpperCase()}`, '');
  out.push(`${r.tool.name} ${r.tool.version}, specs ${r.specDigest.slice(0, 19)}…, run \`${r.runId}\`, seed \`${r.seed}\``);
  out.push(`Started ${r.startedAt}, took ${(r.durationMs / 1000).toFixed(1)} s, ${r.requests} requests.`, '');
  if (r.aborted) out.push(`**The run was aborted**: ${cell(r.aborted)}. What did not run is untested, not passed.`, '');
  out.push('| target | URL |', '|---|---|');
  for (const [k, v] of Object.entries(r.targets)) out.push(`| ${k} | ${cell(String(v))} |`);
  out.push(
    '',
    '## Interfaces',
    '',
    '| interface | verdict | passed | failed | skipped | untested | failed MUST | failed SHOULD | checks |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const s of r.interfaces) {
    out.push(
      `| ${s.interface} | ${s.verdict} | ${s.counts.passed} | ${s.counts.failed} | ${s.counts.skipped} | ${s.counts.untested} | ${s.failedByLevel.MUST} | ${s.failedByLevel.SHOULD} | ${s.checks.passed + s.checks.failed + s.checks.skipped + s.checks.errors} |`,
    );
  }
  for (const s of r.interfaces) {
    if (s.unexercisedMust.length > 0)
      out.push('', `**${s.interface}**: MUST requirements not exercised: ${s.unexercisedMust.join(', ')}.`);
  }
  const failed = r.requirements.filter((q) => q.status === 'failed');
  if (failed.length > 0) {
    out.push('', '## Failures', '');
    for (const q of failed) out.push(...failure(q));
  }
  if (r.suiteErrors.length > 0) {
    out.push('', "## Suite errors (not the target's fault)", '');
    for (const e of r.suiteErrors) out.push(`- \`${e.file}\`: ${cell(e.message.split('\n')[0] ?? '')}`);
  }
  const chosen = r.ambiguities.filter((a) => a.chosen);
  if (r.ambiguities.length > 0) {
    out.push('', '## Ambiguities of the documents: what the target chose', '', '| id | subject | chosen |', '|---|---|---|');
    for (const a of r.ambiguities) out.push(`| ${a.id} | ${cell(a.subject)} | ${a.chosen ?? '(not probed)'} |`);
    out.push('', `${chosen.length} of ${r.ambiguities.length} ambiguities were probed.`);
  }
  out.push('', '## Requirements', '', '| id | level | interface | status | statement | source |', '|---|---|---|---|---|---|');
  for (const q of r.requirements) {
    const status = q.waiver ? `waived (${q.waiver.expires})` : icon[q.status];
    out.push(
      `| ${q.id} | ${q.level} | ${q.interface} | ${status} | ${cell(q.statement)} | ${cell(`${q.source.document} § ${q.source.section}`)} |`,
    );
  }
  if (r.notShown.length > 0) {
    out.push('', '## Not shown by the documents (no one can certify these yet)', '');
    for (const n of r.notShown) out.push(`- ${n.id} (${n.interface}): ${cell(n.subject)}: ${cell(n.reason)}`);
  }
  return `${out.join('\n')}\n`;
}

function failure(q: RequirementResult): string[] {
  const lines = [
    `### ${q.id} (${q.level}, ${q.interface}): ${cell(q.statement)}`,
    '',
    `Source: ${q.source.document}, section "${q.source.section}"${q.source.detail ? `, ${q.source.detail}` : ''}.`,
  ];
  if (q.waiver) lines.push(`Waived until ${q.waiver.expires}: ${q.waiver.reason}`);
  for (const c of q.checks.filter((x) => x.outcome === 'failed')) {
    lines.push('', `- **${cell(c.title)}**: ${c.reason ?? ''}`);
    for (const ex of c.evidence?.exchanges ?? []) {
      lines.push('', '  ```', `  ${ex.curl}`, '  ```');
      if (ex.response) lines.push(`  → HTTP ${ex.response.status}: \`${cell(ex.response.body.slice(0, 400))}\``);
      else if (ex.error) lines.push(`  → ${ex.error}`);
    }
  }
  lines.push('');
  return lines;
}
