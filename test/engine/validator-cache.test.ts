import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaRegistry } from '../../src/schemas/registry.js';
import { REPO_ROOT, SPECS_DIR } from '../../src/specs/paths.js';

// The run's registry reads compiled validators from a cache (src/schemas/validator-cache.ts). They
// must judge every value exactly as validators compiled in the run would, problems and all.

const scratch = mkdtempSync(join(tmpdir(), 'sfc-validators-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface FixtureFile {
  schema: string;
  valid: unknown[];
  invalid: { why: string; value: unknown }[];
}

function fixtures(): FixtureFile[] {
  const root = join(REPO_ROOT, 'fixtures', 'specs');
  return readdirSync(root).flatMap((iface) =>
    readdirSync(join(root, iface))
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(root, iface, f), 'utf8')) as FixtureFile),
  );
}

const ODD_VALUES: unknown[] = [null, {}, [], '', 'x', 0, -1.5, true, { status: 'true', data: [] }, [{}]];

describe('validator cache', () => {
  const dir = join(scratch, 'cache');
  const compiled = new SchemaRegistry(SPECS_DIR, { metaValidate: false });
  const built = new SchemaRegistry(SPECS_DIR, { metaValidate: false, cacheDir: dir });
  const cached = new SchemaRegistry(SPECS_DIR, { metaValidate: false, cacheDir: dir });

  it('is written by the first registry and read by the next', () => {
    expect(compiled.validatorsFrom).toBe('compiled');
    expect(built.validatorsFrom).toBe('new cache');
    expect(cached.validatorsFrom).toBe('cache');
    expect(readdirSync(dir).filter((f) => f.endsWith('.js'))).toHaveLength(1);
  });

  it('judges every fixture sample as compiled validators do, problems included', () => {
    let compared = 0;
    let problems = 0;
    for (const fx of fixtures()) {
      for (const value of [...fx.valid, ...fx.invalid.map((b) => b.value), ...ODD_VALUES]) {
        const want = compiled.check(fx.schema, value);
        expect(cached.check(fx.schema, value), `${fx.schema}: ${JSON.stringify(value)}`).toEqual(want);
        compared++;
        problems += want.length;
      }
    }
    // 1,118 values and 1,705 problems when written: the comparison covers failing values, not only passing ones.
    expect(compared).toBeGreaterThan(1000);
    expect(problems).toBeGreaterThan(1500);
  });

  it('judges odd values against every schema and $defs entry as compiled validators do', () => {
    for (const id of compiled.ids) {
      const defs = Object.keys((compiled.raw(id).$defs as Record<string, unknown> | undefined) ?? {});
      for (const ref of [id, ...defs.map((d) => `${id}#/$defs/${d}`)])
        for (const value of ODD_VALUES)
          expect(cached.check(ref, value), `${ref}: ${JSON.stringify(value)}`).toEqual(compiled.check(ref, value));
    }
  });

  it('compiles a pointer the cache does not hold on demand, and reads raw schemas without ajv', () => {
    const ref = 'rest-v1-shop/schemas/formats.schema.json#/$defs/envelope/properties/status';
    expect(cached.check(ref, 'x')).toEqual(compiled.check(ref, 'x'));
    expect(cached.check(ref, 'x').length).toBeGreaterThan(0);
    expect(cached.raw('rest-v1-shop/schemas/formats.schema.json#/$defs/envelope')).toEqual(
      compiled.raw('rest-v1-shop/schemas/formats.schema.json#/$defs/envelope'),
    );
    expect(() => cached.raw('rest-v1-shop/schemas/none.schema.json')).toThrow(/unknown schema/);
  });

  it('is rebuilt when a schema changes, and the old file goes', () => {
    const specs = join(scratch, 'specs');
    cpSync(SPECS_DIR, specs, { recursive: true });
    const changedDir = join(scratch, 'changed');
    const first = new SchemaRegistry(specs, { metaValidate: false, cacheDir: changedDir });
    expect(first.validatorsFrom).toBe('new cache');
    const file = join(specs, 'rest-route', 'schemas', 'formats.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { $defs: Record<string, unknown> };
    const def = Object.keys(schema.$defs)[0] as string;
    schema.$defs[def] = { const: 'changed' };
    writeFileSync(file, JSON.stringify(schema));
    const again = new SchemaRegistry(specs, { metaValidate: false, cacheDir: changedDir });
    expect(again.validatorsFrom).toBe('new cache');
    expect(again.check(`rest-route/schemas/formats.schema.json#/$defs/${def}`, 'changed')).toEqual([]);
    expect(readdirSync(changedDir)).toHaveLength(1);
  });

  it('a damaged cache file is compiled again, not trusted', () => {
    const damagedDir = join(scratch, 'damaged');
    new SchemaRegistry(SPECS_DIR, { metaValidate: false, cacheDir: damagedDir });
    const [name] = readdirSync(damagedDir);
    writeFileSync(join(damagedDir, name as string), 'exports.sfcRefs = {"x": "v0"};');
    const reg = new SchemaRegistry(SPECS_DIR, { metaValidate: false, cacheDir: damagedDir });
    expect(reg.validatorsFrom).toBe('new cache');
    expect(reg.check('rest-v1-shop/schemas/formats.schema.json#/$defs/envelope', {})).toEqual(
      compiled.check('rest-v1-shop/schemas/formats.schema.json#/$defs/envelope', {}),
    );
  });

  it('a cache folder that cannot be made costs compile time only', () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a folder');
    const reg = new SchemaRegistry(SPECS_DIR, { metaValidate: false, cacheDir: join(file, 'cache') });
    expect(reg.validatorsFrom).toBe('new cache');
    expect(reg.check('rest-v1-shop/schemas/formats.schema.json#/$defs/envelope', {})).toEqual(
      compiled.check('rest-v1-shop/schemas/formats.schema.json#/$defs/envelope', {}),
    );
  });
});
