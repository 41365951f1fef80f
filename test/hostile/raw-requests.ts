/** HTTP requests no well-behaved client writes, sent as bytes: each must be refused in the catalogue's shape, or dropped. */
export const RAW_REQUESTS: readonly { name: string; bytes: string }[] = [
  {
    name: 'bad content-length',
    bytes: 'POST /auth/challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
  },
  {
    name: 'two content-lengths',
    bytes:
      'POST /auth/challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
  },
  {
    name: 'content-length and chunked',
    bytes:
      'POST /auth/challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  },
  {
    name: 'bad chunk size',
    bytes:
      'POST /auth/challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  },
  { name: 'header overflow', bytes: `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n` },
  {
    name: 'many headers',
    bytes: `GET /health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3_000 }, (_, i) => `X-H${i}: 1\r\n`).join('')}\r\n`,
  },
  { name: 'header without colon', bytes: 'GET /health HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n' },
  { name: 'space before colon', bytes: 'GET /health HTTP/1.1\r\nHost : x\r\n\r\n' },
  { name: 'bare LF', bytes: 'GET /health HTTP/1.1\nHost: x\n\n' },
  { name: 'unknown method', bytes: 'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n' },
  { name: 'HTTP/2.0 version', bytes: 'GET /health HTTP/2.0\r\nHost: x\r\n\r\n' },
  { name: 'HTTP/0.9', bytes: 'GET /health\r\n\r\n' },
  { name: 'absolute URL', bytes: 'GET http://evil.example/health HTTP/1.1\r\nHost: x\r\n\r\n' },
  { name: 'asterisk target', bytes: 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n' },
  { name: 'NUL in path', bytes: 'GET /heal\u0000th HTTP/1.1\r\nHost: x\r\n\r\n' },
  { name: 'non-ASCII path', bytes: 'GET /dépth/1 HTTP/1.1\r\nHost: x\r\n\r\n' },
  { name: 'bad percent in path', bytes: 'GET /depth/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n' },
  { name: 'long path parameter', bytes: `GET /depth/${'1'.repeat(500)} HTTP/1.1\r\nHost: x\r\n\r\n` },
  { name: 'garbage', bytes: '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003' },
];
