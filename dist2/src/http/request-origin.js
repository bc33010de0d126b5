/** A Host header's value: a DNS name, an IPv4 address or a bracketed IPv6 address, and an optional port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/;
const DEFAULT_PORT = { http: 80, https: 443 };
/**
 * The origin a request was made to, `http://host[:port]`, from its Host header and whether its
 * connection is TLS, written as a URL parser writes it (lower-case host, no default port), so
 * one service name is one string whatever spelling of it a client sends. Undefined when the
 * request has no Host header or one that is not a host and port.
 *
 * This is the embedded provider's issuer when `auth.publicUrl` is not configured: a client that
 * discovers the provider at the URL it uses gets that URL as the issuer (RFC 8414 §3.3), and its
 * tokens carry it. `X-Forwarded-Host` and `X-Forwarded-Proto` are not read: behind a proxy that
 * changes either, `auth.publicUrl` names the service (docs/configuration.md).
 */
export function requestOrigin(request) {
    // Fastify answers '' for a request without Host (HTTP/1.0), which is no host.
    const match = HOST.exec(request.host.toLowerCase());
    const protocol = request.protocol;
    if (match === null || protocol === undefined)
        return undefined;
    const port = match[2] === undefined ? undefined : Number(match[2]);
    if (port !== undefined && port > 65_535)
        return undefined;
    const authority = port === undefined || port === DEFAULT_PORT[protocol] ? match[1] : `${match[1]}:${port}`;
    return `${protocol}://${authority}`;
}
//# sourceMappingURL=request-origin.js.map