import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Label, Stage, Status, type TestResult } from 'allure-js-commons';
import { ReporterRuntime } from 'allure-js-commons/sdk/reporter';
import type { CheckOutcome, CheckResult, RequirementResult, RunResult } from '../src/run/results.js';
import { QueuedAllureWriter } from './allure-writer.js';
import { setAsideOldResults } from './old-results.js';

/** Allure severity from the requirement level. */
const SEVERITY: Record<RequirementResult['level'], string> = {
  MUST: 'critical',
  SHOULD: 'normal',
  MAY: 'minor',
  ADVISORY: 'trivial',
};

const STATUS: Record<CheckOutcome, Status> = {
  passed: Status.PASSED,
  failed: Status.FAILED,
  skipped: Status.SKIPPED,
  error: Status.BROKEN,
};

/** Failure categories of the Allure report: the category is the first word(s) of the failure message. */
export const ALLURE_CATEGORIES: { name: string; messageRegex: string; matchedStatuses: Status[] }[] = [
  { name: 'Schema violation', messageRegex: '^schema violation: .*', matchedStatuses: [Status.FAILED] },
  { name: 'Server error', messageRegex: '^server error: .*', matchedStatuses: [Status.FAILED] },
  { name: 'Authentication', messageRegex: '^authentication: .*', matchedStatuses: [Status.FAILED] },
  { name: 'Validation', messageRegex: '^validation: .*', matchedStatuses: [Status.FAILED] },
  { name: 'Business rule', messageRegex: '^business rule: .*', matchedStatuses: [Status.FAILED] },
  { name: 'Advisory', messageRegex: '^advisory: .*', matchedStatuses: [Status.FAILED] },
  { name: 'Suite error (not the target)', messageRegex: '.*', matchedStatuses: [Status.BROKEN] },
];

/**
 * Writes `<dir>/allure-results`: one result per check, from the run's results alone (labels for
 * document, endpoint, requirement, severity, interface and area; each exchange attached with its
 * `curl` line; the run's environment; the failure categories). An earlier run's results are moved
 * aside first and deleted once these are on disk. Returns the results directory.
 */
export async function writeAllureResults(run: RunResult, dir: string): Promise<string> {
  const resultsDir = join(dir, 'allure-results');
  const discardOld = setAsideOldResults(resultsDir, run.runId);
  const writer = new QueuedAllureWriter(resultsDir);
  const runtime = new ReporterRuntime({
    writer,
    environmentInfo: environmentOf(run),
    categories: ALLURE_CATEGORIES,
  });
  runtime.writeEnvironmentInfo();
  runtime.writeCategoriesDefinitions();
  const host = hostname();
  for (const req of run.requirements) for (const check of req.checks) writeCheck(runtime, req, check, host);
  await writer.flush();
  await discardOld();
  return resultsDir;
}

function environmentOf(run: RunResult): Record<string, string> {
  const env: Record<string, string> = {
    'storefront-conformance': run.tool.version,
    node: process.version,
    seed: String(run.seed),
    run: run.runId,
    vendor: run.targets.vendor,
    interfaces: run.settings.interfaces.join(', '),
  };
  if (run.targets.baseUrl) env.base_url = run.targets.baseUrl;
  if (run.targets.networkApiRoot) env.network_api_root = run.targets.networkApiRoot;
  if (run.targets.shopApiRoot) env.shop_api_root = run.targets.shopApiRoot;
  return env;
}

function writeCheck(runtime: ReporterRuntime, req: RequirementResult, check: CheckResult, host: string): void {
  const fullName = `${check.interface}/${check.area}: ${check.requirement} ${check.title}`;
  const start = Date.parse(check.startedAt);
  const uuid = runtime.startTest({
    name: `${check.requirement} ${check.title}`,
    fullName,
    // Allure follows a test across runs by this id: interface, area, requirement and title.
    historyId: createHash('md5').update(fullName).digest('hex'),
    testCaseId: createHash('md5').update(fullName).digest('hex'),
    labels: labelsOf(req, check, host),
    description: descriptionOf(req, check),
    start,
  });
  runtime.updateTest(uuid, (r: TestResult) => {
    r.status = STATUS[check.outcome];
    r.stage = Stage.FINISHED;
    const message = messageOf(check);
    if (message) r.statusDetails = { message };
  });
  for (const [i, ex] of (check.evidence?.exchanges ?? []).entries()) {
    const name = `${i + 1}. ${ex.request.method} ${ex.request.url.replace(/^https?:\/\/[^/]+/, '')} → ${ex.response?.status ?? ex.error ?? ''}`;
    const body = JSON.stringify(
      { request: ex.request, response: ex.response, error: ex.error, durationMs: ex.durationMs },
      null,
      2,
    );
    runtime.writeAttachment(uuid, undefined, name, Buffer.from(body), {
      contentType: 'application/json',
      fileExtension: '.json',
    });
    runtime.writeAttachment(uuid, undefined, `${i + 1}. replay (curl)`, Buffer.from(ex.curl), {
      contentType: 'text/plain',
      fileExtension: '.txt',
    });
  }
  runtime.stopTest(uuid, { stop: start + check.durationMs });
  runtime.writeTest(uuid);
}

function labelsOf(req: RequirementResult, check: CheckResult, host: string): Label[] {
  return [
    { name: 'epic', value: `${check.interface} (${check.source.document})` },
    { name: 'feature', value: req.endpoints?.[0] ?? check.area },
    { name: 'story', value: check.requirement },
    // The report's tree: interface, then area, then level (instead of a test file's package).
    { name: 'parentSuite', value: check.interface },
    { name: 'suite', value: check.area },
    { name: 'subSuite', value: check.level },
    { name: 'severity', value: SEVERITY[check.level] },
    { name: 'tag', value: check.interface },
    { name: 'tag', value: check.level },
    { name: 'tag', value: check.area },
    { name: 'requirement', value: check.requirement },
    // The timeline shows the areas that ran at once, one row each.
    { name: 'host', value: host },
    { name: 'thread', value: `${check.interface}/${check.area}` },
  ];
}

function descriptionOf(req: RequirementResult, check: CheckResult): string {
  const s = check.source;
  const lines = [
    `**${check.level}** ${req.statement}`,
    '',
    `Source: ${s.document}, section "${s.section}"${s.detail ? `, ${s.detail}` : ''}.`,
  ];
  if (check.notes.length > 0) lines.push('', 'Notes:', ...check.notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

/** The failure message starts with the category, which Allure's categories match. */
function messageOf(check: CheckResult): string | undefined {
  if (check.outcome === 'failed') {
    const replay = check.evidence?.exchanges[0]?.curl;
    return `${check.category ?? 'business rule'}: ${check.requirement}: ${check.reason ?? ''}${replay ? `\n  replay: ${replay}` : ''}`;
  }
  return check.reason;
}
