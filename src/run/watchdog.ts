import type { Settings } from '../config/settings.js';
import { TargetClient } from '../http/client.js';
import { targetUrlOf } from './target-urls.js';

const EVERY_MS = 2000;
const GONE_AFTER = 2;

/**
 * Probes the target while the run goes on. When it refuses connections (or its host vanishes)
 * twice in a row, the target is gone altogether: `onGone` aborts the run instead of letting every
 * remaining check wait. A slow or hanging endpoint is not "gone": its own checks time out.
 */
export function startWatchdog(settings: Settings, onGone: (why: string) => void): { stop(): Promise<void> } {
  const client = new TargetClient({ timeoutMs: Math.min(settings.timeoutMs, 3000), maxRetries: 0, maxBodyBytes: 1024 });
  const url = targetUrlOf(settings, settings.interfaces[0] ?? 'rest-route');
  let misses = 0;
  let fired = false;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy || fired) return;
    busy = true;
    const ex = await client.send({ method: 'GET', url });
    client.exchanges.length = 0;
    busy = false;
    const gone = ex.error !== undefined && /connection refused|host name not found|not sent/.test(ex.error);
    misses = gone ? misses + 1 : 0;
    if (misses >= GONE_AFTER && !fired) {
      fired = true;
      onGone(`the target went away during the run: ${url}: ${ex.error}`);
    }
  }, EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await client.close();
    },
  };
}
