// Preloaded into the reference by `npm run bench` (node --import): the arrival times of the first and
// last request and their count, written as JSON to SFC_REQUEST_CLOCK when the process ends, so the
// benchmark can tell the suite's start-up from the time it spends sending requests. SIGUSR2 writes
// the clock and starts it over (the bench's warm-up run is not counted).
import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';

const out = process.env.SFC_REQUEST_CLOCK;
if (out) {
  const clock = { first: 0, last: 0, count: 0 };
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (event, ...args) {
    if (event === 'request') {
      const now = Date.now();
      if (!clock.count) clock.first = now;
      clock.last = now;
      clock.count++;
    }
    return emit.call(this, event, ...args);
  };
  const write = () => writeFileSync(out, JSON.stringify(clock));
  process.on('exit', write);
  // The benchmark reads the clock while the reference still runs: on SIGUSR2 it is written, then reset.
  process.on('SIGUSR2', () => {
    write();
    Object.assign(clock, { first: 0, last: 0, count: 0 });
  });
}
