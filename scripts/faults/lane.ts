/**
 * One lane of the fault matrix, a process that ./lanes.ts starts: it keeps one suite session (vitest,
 * its worker thread and the suite's modules loaded) and answers the parent's run requests one at a
 * time, each against a fresh reference inside this process (new database) with the request's fault on.
 * A suite process per fault spent about as much CPU starting up as its checks took.
 */
import { join } from 'node:path';
import { resolveSettings } from '../../src/config/load.js';
import { referenceData } from '../../src/config/options.js';
import type { Settings } from '../../src/config/settings.js';
import { SuiteSession } from '../../src/run/orchestrate.js';
import type { RunResult } from '../../src/run/results.js';
import type { LaneReply, LaneRequest, RunOutcome } from './lanes.js';
import { startReferenceInProcess } from './reference.js';

let session: SuiteSession | undefined;

function settingsFor(ref: Awaited<ReturnType<typeof startReferenceInProcess>>, req: LaneRequest): Settings {
  return resolveSettings(
    {
      flags: {
        'base-url': ref.origin,
        'network-api-root': ref.networkApiRoot,
        'shop-api-root': ref.shopApiRoot,
        interfaces: req.interfaces.join(','),
        seed: String(req.seed),
        ...(req.runs ? { runs: String(req.runs) } : {}),
        'report-dir': join(ref.dir, 'report'),
      },
      env: referenceData(),
      dotenv: {},
    },
    'run',
  );
}

/** What the matrix keeps of a run: the failed requirements, their levels, and what crashed. */
function outcomeOf(result: RunResult, ms: number): RunOutcome {
  const failed = result.requirements.filter((q) => q.status === 'failed');
  return {
    verdict: result.verdict,
    failed: failed.map((q) => q.id),
    levels: Object.fromEntries(failed.map((q) => [q.id, q.level])),
    // A check that erred judged nothing, and an area that could not run judged none of its checks.
    suiteErrors:
      result.requirements.flatMap((q) => q.checks).filter((c) => c.outcome === 'error').length + result.suiteErrors.length,
    requests: result.requests,
    ms,
  };
}

async function run(req: LaneRequest): Promise<RunOutcome> {
  const started = Date.now();
  const ref = await startReferenceInProcess(req.fault, { singleSession: req.singleSession });
  try {
    const settings = settingsFor(ref, req);
    session ??= await SuiteSession.open(settings);
    return outcomeOf(await session.run(settings), Date.now() - started);
  } finally {
    await ref.stop();
  }
}

const send = (reply: LaneReply) => process.send?.(reply);

// Requests come one at a time (the parent waits for each reply), so a run never overlaps another.
process.on('message', (req: LaneRequest) => {
  run(req).then(
    (outcome) => send({ n: req.n, outcome }),
    (e: unknown) => send({ n: req.n, error: (e as Error)?.stack ?? String(e) }),
  );
});
// The parent went away (finished, or killed): close the session so that its worker thread ends too.
process.on('disconnect', () => {
  void (session?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
send({ n: 0, ready: true });
