// Judging a token (its JWT form, and that a token endpoint takes it), shared by the register and login checks.
import type { Exchange } from '../../../../http/exchange.js';
import { bareEnvelope, type Ctx, call, isTokenRefusal, noteDroppedHeader } from '../../client.js';

function decodeJwtHeader(token: string): Record<string, unknown> | undefined {
  const head = token.split('.')[0];
  if (!head) return undefined;
  try {
    return JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function expectRs256(ctx: Ctx, token: string, ex: Exchange, what: string): void {
  const parts = token.split('.');
  ctx.expect(parts.length === 3, `${what}: expected a JWT (three dot-separated parts), got ${parts.length} part(s)`, ex);
  const header = decodeJwtHeader(token);
  ctx.expect(header, `${what}: the JWT header is not base64url JSON`, ex);
  ctx.expect(
    header.alg === 'RS256',
    `${what}: expected JWT header alg "RS256" (5. Authentication), got ${JSON.stringify(header.alg)}`,
    ex,
  );
  ctx.expect((parts[2] ?? '').length > 0, `${what}: the JWT carries no signature`, ex);
}

/** The token works: a token endpoint does not refuse it as missing or bad. */
export async function expectTokenAccepted(ctx: Ctx, token: string, what: string): Promise<void> {
  for (const path of ['/orders', '/cart/count']) {
    const ex = await call(ctx, 'GET', path, { token });
    const body = bareEnvelope(ctx, ex);
    noteDroppedHeader(ctx, ex, body);
    ctx.expect(!isTokenRefusal(ex, body), `${what}: GET ${path} with the token was refused: "${body.message}"`, ex);
  }
}
