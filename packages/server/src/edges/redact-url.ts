/** Query parameters that carry credentials, lower-cased: their values are dropped whatever they look like. */
const SECRET_PARAMETERS = new Set(['token', 'access_token', 'api_key', 'apikey', 'x-api-key', 'jwt', 'authorization']);

/** A JWT in compact form: its header is base64url JSON, so it starts with `eyJ` (`{"`). */
const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
/** A data API key: a version 4 UUID, any letter case (api-key.ts). */
const API_KEY = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/gi;
/** A percent-escape of an unreserved character (RFC 3986: the same URL written another way). */
const ESCAPED_UNRESERVED = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[dDeE]|5[fF]|7[eE])/g;

/** Text with every JWT replaced; what no log line may contain, wherever it stands. */
export function redactJwts(text: string): string {
  return text.replace(JWT, '[redacted]');
}

/** A query parameter name as a URL parser reads it: percent-decoded, '+' as space, any case. */
function parameterName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The values of credential-bearing query parameters replaced. */
function redactSecretParameters(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const hashStart = url.indexOf('#', queryStart);
  const end = hashStart < 0 ? url.length : hashStart;
  const query = url
    .slice(queryStart + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return SECRET_PARAMETERS.has(parameterName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart + 1)}${query}${url.slice(end)}`;
}

/**
 * A URL safe to log: the values of credential-bearing parameters replaced, and anything that looks
 * like a JWT or an API key replaced wherever it stands (a path segment, another parameter's name or
 * value, after a `#`), also when written with percent-escapes.
 */
export function redactUrl(url: string): string {
  const plain = url.replace(ESCAPED_UNRESERVED, (escaped) => String.fromCharCode(Number.parseInt(escaped.slice(1), 16)));
  return redactJwts(redactSecretParameters(plain)).replace(API_KEY, '[redacted]');
}
