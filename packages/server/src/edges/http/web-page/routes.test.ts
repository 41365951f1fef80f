import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, tempDataDir } from '../../../test-support/harness.js';
import { BUILT_INDEX as INDEX, BUILT_SCRIPT as SCRIPT, writeBuiltPage } from '../../../test-support/web-page.js';

let harness: Harness | undefined;
const folders: (() => void)[] = [];

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const remove of folders.splice(0)) remove();
});

function builtPage(): string {
  const folder = tempDataDir();
  folders.push(folder.remove);
  return writeBuiltPage(folder.dir);
}

async function get(url: string) {
  if (harness === undefined) throw new Error('no harness');
  return harness.app.inject({ method: 'GET', url });
}

describe('the market web page', () => {
  it('serves its HTML at / with a content security policy and no caching', async () => {
    harness = await startHarness({ WEB_ROOT: builtPage() });
    const page = await get('/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(INDEX);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('serves its hashed scripts for good, and answers HEAD as GET', async () => {
    harness = await startHarness({ WEB_ROOT: builtPage() });
    const script = await get('/assets/index-abc123.js?v=1');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toContain('immutable');
    expect(script.body).toBe(SCRIPT);
    const head = await harness.app.inject({ method: 'HEAD', url: '/assets/index-abc123.js' });
    expect(head.statusCode).toBe(200);
  });

  it('answers the catalogue 404 for any asset the build did not make, source maps and paths out of the folder included', async () => {
    harness = await startHarness({ WEB_ROOT: builtPage() });
    for (const url of [
      '/assets/missing.js',
      '/assets/index-abc123.js.map',
      '/assets/../index.html',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
    }
  });

  it('tells the page the data API path and the key the operator gave it, in a meta tag, and nothing without one', async () => {
    const key = '0b6f3c2e-8d1a-4e5f-9a7b-123456789abc';
    harness = await startHarness({ WEB_ROOT: builtPage(), WEB_DATA_API_KEY: key });
    const meta = /<meta name="dex-page-settings" content="([^"]*)" \/>/.exec((await get('/')).body)?.[1] ?? '';
    expect(JSON.parse(meta.replaceAll('&quot;', '"'))).toEqual({ dataApi: { path: '/data', apiKey: key } });
    await harness.close();
    harness = await startHarness({ WEB_ROOT: builtPage() });
    expect((await get('/')).body).not.toContain('dex-page-settings');
  });

  it('keeps the API on its paths beside the page', async () => {
    harness = await startHarness({ WEB_ROOT: builtPage() });
    expect((await get('/books')).json()).toHaveProperty('orderbooks');
    expect((await get('/health')).statusCode).toBe(200);
  });

  it('serves no page when WEB_ROOT is empty or holds no build, and says why in the log', async () => {
    harness = await startHarness({ WEB_ROOT: '' });
    expect((await get('/')).statusCode).toBe(404);
    await harness.close();
    const empty = tempDataDir();
    folders.push(empty.remove);
    harness = await startHarness({ WEB_ROOT: empty.dir });
    const answer = await get('/');
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(harness.logs()).toContain('no web page built there');
  });
});
