// Adds new requirement ids to specs/requirements/ids.lock.json. An id already locked keeps its
// meaning: if its level or statement changed, this refuses (give the new meaning a new id), unless
// --reword is given for a change of wording that keeps the meaning (say so in the commit).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRequirementFiles } from '../src/specs/catalog.js';
import { meaningDigest } from '../src/specs/id-lock.js';
import { SPECS_DIR } from '../src/specs/paths.js';

const file = join(SPECS_DIR, 'requirements', 'ids.lock.json');
const lock: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
const reword = process.argv.includes('--reword');
let added = 0;
const changed: string[] = [];
for (const f of loadRequirementFiles()) {
  for (const r of f.requirements) {
    const digest = meaningDigest(r);
    if (lock[r.id] === undefined) {
      lock[r.id] = digest;
      added++;
    } else if (lock[r.id] !== digest) {
      if (reword) lock[r.id] = digest;
      changed.push(r.id);
    }
  }
}
if (changed.length > 0 && !reword) {
  process.stderr.write(
    `these ids changed level or statement: ${changed.join(', ')}\nGive a new meaning a new id; for a rewording only, run again with --reword.\n`,
  );
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(lock).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(file, `${JSON.stringify(sorted, null, 1)}\n`);
process.stdout.write(`${added} ids added, ${changed.length} reworded, ${Object.keys(sorted).length} locked\n`);
