import { fc, test } from '@fast-check/vitest';
import { FormData, Response } from 'undici';
import { describe, expect, it } from 'vitest';
import { encodeMultipart } from '../../src/http/multipart.js';

/** What undici's FormData sends for the same fields, as its multipart parser reads it back. */
async function viaFormData(fields: Record<string, string>): Promise<Array<[string, string]>> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const form = await new Response(fd).formData();
  return [...form.entries()].map(([k, v]) => [k, String(v)]);
}

/** What a server's multipart parser (undici's, here) reads back from the encoded body. */
async function parse(fields: Record<string, string>): Promise<Array<[string, string]>> {
  const { body, contentType } = encodeMultipart(fields);
  const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  return [...form.entries()].map(([k, v]) => [k, String(v)]);
}

describe('encodeMultipart', () => {
  it('encodes text fields that a multipart parser reads back in order', async () => {
    expect(await parse({ email: 'a@example.com', 'cart_data[k1]': '2', name: 'Zoë 🛒' })).toEqual([
      ['email', 'a@example.com'],
      ['cart_data[k1]', '2'],
      ['name', 'Zoë 🛒'],
    ]);
  });

  it('treats line breaks and quotes as FormData does', async () => {
    const fields = { 'a"b\nc': 'x\ny\rz\r\nw', plain: 'v' };
    expect(await parse(fields)).toEqual(await viaFormData(fields));
  });

  it('gives every body its own boundary', () => {
    expect(encodeMultipart({ a: '1' }).contentType).not.toBe(encodeMultipart({ a: '1' }).contentType);
  });

  test.prop(
    [
      fc.dictionary(
        fc.string({ minLength: 1 }).filter((k) => !/[\r\n"]/.test(k)),
        fc.string().filter((v) => !/[\r\n]/.test(v)),
      ),
    ],
    {
      seed: 1,
      numRuns: 100,
    },
  )('round-trips any text fields without line breaks', async (fields) => {
    expect(await parse(fields)).toEqual(Object.entries(fields));
  });
});
