import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QueuedAllureWriter } from '../../reporters/allure-writer.js';

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'sfc-allure-writer-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('QueuedAllureWriter', () => {
  it('has every queued file on disk, with the content Allure expects, once flush resolves', async () => {
    const dir = join(scratch(), 'allure-results');
    const w = new QueuedAllureWriter(dir);
    const source = join(scratch(), 'evidence.txt');
    writeFileSync(source, 'copied');
    w.writeResult({ uuid: 'r1', name: 'RR-AUTH-01 login' } as never);
    w.writeGroup({ uuid: 'g1', children: ['r1'] } as never);
    w.writeAttachment('a1-attachment.json', Buffer.from('{"status":200}'));
    w.writeAttachmentFromPath('a2-attachment.txt', source);
    w.writeEnvironmentInfo({ seed: '1', vendor: 'reference' });
    w.writeCategoriesDefinitions([{ name: 'MUST failed' }]);
    await w.flush();
    expect(JSON.parse(readFileSync(join(dir, 'r1-result.json'), 'utf8'))).toEqual({ uuid: 'r1', name: 'RR-AUTH-01 login' });
    expect(JSON.parse(readFileSync(join(dir, 'g1-container.json'), 'utf8')).children).toEqual(['r1']);
    expect(readFileSync(join(dir, 'a1-attachment.json'), 'utf8')).toBe('{"status":200}');
    expect(readFileSync(join(dir, 'a2-attachment.txt'), 'utf8')).toBe('copied');
    expect(readFileSync(join(dir, 'environment.properties'), 'utf8')).toBe('seed=1\nvendor=reference');
    expect(JSON.parse(readFileSync(join(dir, 'categories.json'), 'utf8'))).toEqual([{ name: 'MUST failed' }]);
  });

  it('fails the flush, naming the file, when a result cannot be written', async () => {
    const dir = join(scratch(), 'allure-results');
    const w = new QueuedAllureWriter(dir);
    w.writeResult({ uuid: 'ok' } as never);
    w.writeAttachmentFromPath('missing-attachment.txt', join(dir, 'no-such-source'));
    await expect(w.flush()).rejects.toThrow(/1 Allure result file\(s\) could not be written: missing-attachment\.txt/);
    expect(readFileSync(join(dir, 'ok-result.json'), 'utf8')).toBe('{"uuid":"ok"}');
  });
});
