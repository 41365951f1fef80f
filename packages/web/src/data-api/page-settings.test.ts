import { describe, expect, it } from 'vitest';
import { parsePageSettings } from './page-settings.js';

describe('page settings', () => {
  it('reads the data API path and key the service put in the meta tag', () => {
    const content = JSON.stringify({ dataApi: { path: '/data', apiKey: 'k' } });
    expect(parsePageSettings(content)).toEqual({ dataApi: { path: '/data', apiKey: 'k' } });
  });

  it('reads a data API served at the root of the origin', () => {
    expect(parsePageSettings('{"dataApi":{"path":"","apiKey":"k"}}')).toEqual({ dataApi: { path: '', apiKey: 'k' } });
  });

  it('reads whether the page must ask for the terms before trading, beside or without a data API', () => {
    expect(parsePageSettings('{"terms":true}')).toEqual({ terms: true });
    expect(parsePageSettings('{"terms":true,"dataApi":{"path":"","apiKey":"k"}}')).toEqual({
      terms: true,
      dataApi: { path: '', apiKey: 'k' },
    });
    expect(parsePageSettings('{"terms":"yes"}')).toEqual({});
  });

  it('reads no data API from a missing, empty, malformed or incomplete tag', () => {
    for (const content of [
      null,
      undefined,
      '',
      '{',
      '[]',
      '{"dataApi":null}',
      '{"dataApi":{"path":"/data"}}',
      '{"dataApi":{"path":1,"apiKey":"k"}}',
    ]) {
      expect(parsePageSettings(content), String(content)).toEqual({});
    }
  });
});
