import type { FastifyRequest } from 'fastify';

/**
 * A Host header this server accepts: a DNS name or IPv4 address (letters, digits, dot, hyphen,
 * underscore) or a bracketed IPv6 address, with an optional port. RFC 9112 section 3.2 has a server
 * answer 400 to an invalid one; without the check, whatever a client put there came back in
 * the URLs of the answers (image and avatar URLs).
 */
const HOST = /^(?:[A-Za-z0-9._-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Why the request's Host header is refused, or undefined when it is fine (or absent: HTTP/1.0). */
export function hostProblem(request: FastifyRequest): string | undefined {
  const host = request.headers.host;
  if (host === undefined || HOST.test(host)) return undefined;
  return 'The Host header must be a host name or an IP address, with an optional port.';
}

/**
 * The scheme and host the client used, so URLs in answers point back at this server. A Host that is
 * no host never gets here: the server's onRequest hook refuses it with hostProblem.
 */
export function originOf(request: FastifyRequest): string {
  const host = request.headers.host;
  if (host !== undefined) return `${request.protocol}://${host}`;
  // HTTP/1.0 may omit Host: the address the connection came in on.
  const address = request.socket.localAddress ?? '127.0.0.1';
  const port = request.socket.localPort;
  const name = address.includes(':') ? `[${address}]` : address;
  return `${request.protocol}://${name}${port ? `:${port}` : ''}`;
}
