import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildServer } from '#src/server.js';

/** Test helpers for the network-plan module (document 2 variant A). */

export const ROOT = { username: 'netroot', password: 'Root-pass-2024' };
export const MEMBER_PASSWORD = 'Member-pass-2024';

export interface Call {
  status: number;
  json: Record<string, unknown>;
}

export interface Net {
  app: FastifyInstance;
  /** The server's database, for assertions on what was stored. */
  db: Database.Database;
  vendor: string;
  prefix: string;
  call(method: 'GET' | 'POST', path: string, options?: CallOptions): Promise<Call>;
  login(username: string, password: string): Promise<string>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  form?: Record<string, string>;
  multipart?: Record<string, string>;
  raw?: { payload: string; contentType: string };
  headers?: Record<string, string>;
}

const BOUNDARY = '----sfcnetworkboundary';

export function multipartBody(fields: Record<string, string>): string {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

export async function startNet(options: { db?: string; vendor?: string } = {}): Promise<Net> {
  const vendor = options.vendor ?? 'svc';
  const { app, ctx } = await buildServer({ db: options.db ?? ':memory:', vendor });
  const prefix = `/network/wp-json/${vendor}/v1`;
  const call: Net['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token !== undefined) headers[`${vendor}_token`] = o.token;
    let payload: string | undefined;
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(o.body);
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(o.form).toString();
    } else if (o.multipart) {
      headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`;
      payload = multipartBody(o.multipart);
    } else if (o.raw) {
      headers['content-type'] = o.raw.contentType;
      payload = o.raw.payload;
    }
    const res = await app.inject({ method, url: `${prefix}${path}`, headers, ...(payload === undefined ? {} : { payload }) });
    let json: Record<string, unknown>;
    try {
      json = res.json() as Record<string, unknown>;
    } catch {
      throw new Error(`${method} ${path}: not JSON (${res.statusCode}): ${res.body.slice(0, 200)}`);
    }
    return { status: res.statusCode, json };
  };
  const login: Net['login'] = async (username, password) => {
    const res = await call('POST', '/auth/login', { body: { username, password } });
    expect(res.json.status, JSON.stringify(res.json)).toBe(true);
    return res.json[`${vendor}_token`] as string;
  };
  return { app, db: ctx.db, vendor, prefix, call, login };
}

/** The document's envelope on every answer: status boolean, errors array or object, message string. */
export function expectEnvelope(res: Call): void {
  expect(res.status).toBeLessThan(500);
  expect(typeof res.json.status).toBe('boolean');
  expect(typeof res.json.message).toBe('string');
  expect(res.json.errors !== null && typeof res.json.errors === 'object').toBe(true);
}

/** A validation or rule failure: HTTP 200, status false, errors keyed by `field` when given. */
export function expectFailure(res: Call, field?: string): void {
  expectEnvelope(res);
  expect(res.status).toBe(200);
  expect(res.json.status).toBe(false);
  if (field) expect(Object.keys(res.json.errors as object), JSON.stringify(res.json)).toContain(field);
}

export function expectOk(res: Call): void {
  expectEnvelope(res);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  expect(res.json.status, JSON.stringify(res.json)).toBe(true);
}

/** Every listed key present and a string (the document: scalars are strings unless typed). */
export function expectStrings(record: unknown, keys: string[]): void {
  expect(record).toBeTypeOf('object');
  const r = record as Record<string, unknown>;
  for (const k of keys) expect(typeof r[k], `${k} in ${JSON.stringify(r)}`).toBe('string');
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const MONEY = /^-?\d+\.\d{2}$/;
export const POINTS = /^-?\d+\.\d{3}$/;

export const USER_KEYS = [
  'ID',
  'user_login',
  'user_nicename',
  'user_email',
  'user_url',
  'user_registered',
  'user_activation_key',
  'user_status',
  'display_name',
];
export const NET_USER_KEYS = [
  'id',
  'user_id',
  'user_name',
  'user_key',
  'parent_key',
  'sponsor_key',
  'position',
  'qualified_points',
  'own_points',
  'left_points',
  'right_points',
  'creation_date',
  'payment_status',
  'payment_date',
  'network_row',
];
export const UNI_USER_KEYS = [
  'id',
  'user_id',
  'user_name',
  'user_key',
  'parent_key',
  'sponsor_key',
  'payment_status',
  'level',
  'status',
  'created_at',
  'paid_at',
  'network_row',
];

let counter = 0;
/** A registration body with unique letters-and-digits names. */
export function newMember(extra: Record<string, unknown> = {}, netUser: Record<string, unknown> = {}) {
  counter += 1;
  const username = `member${counter}x${Date.now().toString(36)}`;
  return {
    first_name: 'Test',
    last_name: 'Member',
    username,
    password: 'Test-pass-2024',
    email: `${username}@example.test`,
    net_user: { phone: '9876543210', address: '7 Test Road', ...netUser },
    ...extra,
  };
}
