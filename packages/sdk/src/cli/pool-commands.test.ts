import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../test-support/server.js';
import { answerRecordingFetch, serveTraderCli } from '../test-support/trader-cli.js';

const served = serveTraderCli();

describe('pools and farms', () => {
  it('refuse to run without the data API key, naming the variable', async () => {
    for (const command of ['pools', 'farms']) {
      const { code, err } = await served.cli.run([command], { env: { DEX_API_KEY: '' } });
      expect(code).toBe(2);
      expect(err).toContain('set DEX_API_KEY');
    }
  });

  it('read the data API under /data with the key in x-api-key, never printing it', async () => {
    const { key } = await issueApiKey(served.api.server, 100);
    const recorder = answerRecordingFetch();
    const { code, out } = await served.cli.run(['pools', '--known'], { env: { DEX_API_KEY: key }, fetch: recorder.fetch });
    expect(code).toBe(0);
    expect(recorder.answers.map((answer) => new URL(answer.url).pathname)).toEqual(['/data/pools/known']);
    expect(out).not.toContain(key);
    expect(out).toBe('0 pools');
  });

  it('prints the API’s own JSON with --json', async () => {
    const { key } = await issueApiKey(served.api.server, 100);
    const { code, out } = await served.cli.run(['farms', '--json'], { env: { DEX_API_KEY: key } });
    expect(code).toBe(0);
    expect(Array.isArray(JSON.parse(out))).toBe(true);
  });

  it('say which key was refused', async () => {
    const { code, err } = await served.cli.run(['pools'], { env: { DEX_API_KEY: '00000000-0000-4000-8000-000000000000' } });
    expect(code).toBe(1);
    expect(err).toMatch(/401|key/i);
  });
});
