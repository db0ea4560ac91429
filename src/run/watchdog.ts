import type { Settings } from '../config/settings.js';
import { isGoneError, TargetClient } from '../http/client.js';
import { targetUrlOf } from './target-urls.js';

const EVERY_MS = 2000;
const GONE_AFTER = 2;

export interface Watchdog {
  /**
   * Probes once more, now: why the target is gone, or undefined. A run whose checks all failed
   * fast against a vanished target ends before the next periodic probe; this tells that run apart
   * from a non-conformant one.
   */
  goneNow(): Promise<string | undefined>;
  stop(): Promise<void>;
}

/**
 * Probes the target while the run goes on. When one of the selected targets refuses connections
 * (or its host vanishes) twice in a row, it is gone altogether: `onGone` aborts the run instead of
 * letting every remaining check fail against it. A slow, hanging or broken endpoint is not
 * "gone": its own checks time out or fail, and the run goes on. Each distinct URL is probed (the
 * interfaces may live on different hosts).
 */
export function startWatchdog(
  settings: Settings,
  onGone: (why: string) => void,
  every: { ms: number } = { ms: EVERY_MS },
): Watchdog {
  const client = new TargetClient({ timeoutMs: Math.min(settings.timeoutMs, 3000), maxRetries: 0, maxBodyBytes: 1024 });
  const urls = [...new Set(settings.interfaces.map((i) => targetUrlOf(settings, i)))];
  const misses = new Map<string, number>();
  let fired = false;
  let busy = false;
  const refused = async (url: string): Promise<string | undefined> => {
    const ex = await client.send({ method: 'GET', url });
    // Only a refusal counts. A timeout is one endpoint hanging, and so is the client's "not sent:
    // timed out earlier" that follows it; its "not sent" after repeated refusals is a refusal.
    const gone = ex.error !== undefined && (isGoneError(ex.error) || (ex.notSent === true && /refused the last/.test(ex.error)));
    return gone ? ex.error : undefined;
  };
  const probe = async (url: string) => {
    const error = await refused(url);
    const n = error ? (misses.get(url) ?? 0) + 1 : 0;
    misses.set(url, n);
    if (n >= GONE_AFTER && !fired) {
      fired = true;
      onGone(`the target went away during the run: ${url}: ${error}`);
    }
  };
  const timer = setInterval(async () => {
    if (busy || fired) return;
    busy = true;
    try {
      await Promise.all(urls.map(probe));
    } finally {
      client.exchanges.length = 0; // the watchdog keeps no evidence
      busy = false;
    }
  }, every.ms);
  timer.unref();
  return {
    async goneNow() {
      for (const url of urls) {
        let error: string | undefined;
        for (let i = 0; i < GONE_AFTER; i++) {
          error = await refused(url);
          if (!error) break;
        }
        client.exchanges.length = 0;
        if (error) return `the target went away during the run: ${url}: ${error}`;
      }
      return undefined;
    },
    async stop() {
      clearInterval(timer);
      await client.close();
    },
  };
}
