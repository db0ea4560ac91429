import { randomBytes } from 'node:crypto';

/** Field names are escaped and line breaks normalized as the HTML standard's form encoding does (and undici's FormData). */
const escapeName = (name: string) => normalizeLinefeeds(name).replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
const normalizeLinefeeds = (value: string) => value.replace(/\r?\n|\r/g, '\r\n');

/**
 * A multipart/form-data body of text fields, encoded into one buffer: the same bytes undici's
 * FormData produces, without its web-stream body (about 6 % of a worker's CPU in a profiled run).
 */
export function encodeMultipart(fields: Record<string, string>): { body: Buffer; contentType: string } {
  const boundary = `----formdata-sfc-${randomBytes(12).toString('hex')}`;
  let text = '';
  for (const [name, value] of Object.entries(fields))
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${normalizeLinefeeds(value)}\r\n`;
  text += `--${boundary}--\r\n`;
  return { body: Buffer.from(text, 'utf8'), contentType: `multipart/form-data; boundary=${boundary}` };
}
