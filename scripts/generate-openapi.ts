// Writes specs/openapi/<interface>.openapi.json from the endpoint indexes and schemas
// (`npm run specs:openapi`). Deterministic: a rerun on unchanged specs rewrites identical bytes.
// `--vendor <segment> --out <dir>` writes the files for another vendor segment (e.g. letscms) to
// another folder; the committed files use `svc`, as the documents do.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { renderOpenApiFiles } from '../src/specs/openapi.js';
import { SPECS_DIR } from '../src/specs/paths.js';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? '') : undefined;
};
const fail = (message: string) => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

const vendor = option('--vendor');
const out = option('--out');
if (vendor !== undefined && !/^[A-Za-z0-9]+$/.test(vendor)) fail('--vendor needs a segment of letters and digits');
if (out === '') fail('--out needs a folder');
const committed = join(SPECS_DIR, 'openapi');
const outDir = out === undefined ? committed : resolve(out);
if (vendor !== undefined && vendor !== 'svc' && outDir === committed)
  fail('the committed files use the vendor svc; give --out <dir> to write another vendor elsewhere');

mkdirSync(outDir, { recursive: true });
const files = renderOpenApiFiles(SPECS_DIR, vendor);
// A file of an interface that no longer exists would go stale silently: remove it.
for (const f of readdirSync(outDir)) if (f.endsWith('.openapi.json') && !files.has(f)) rmSync(join(outDir, f));
for (const [name, text] of files) {
  writeFileSync(join(outDir, name), text);
  const doc = JSON.parse(text) as { paths: Record<string, Record<string, unknown>> };
  const ops = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  process.stdout.write(
    `${relative(process.cwd(), join(outDir, name))}: ${Object.keys(doc.paths).length} paths, ${ops} operations\n`,
  );
}
