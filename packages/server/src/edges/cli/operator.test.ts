import { describe, expect, it } from 'vitest';
import { withFreshStore } from '../../test-support/operator-cli.js';

describe('operator CLI', () => {
  const cli = withFreshStore();

  it('prints usage for no command, help, unknown commands and unknown flags', async () => {
    expect((await cli.run()).code).toBe(2);
    expect((await cli.run('--help')).out).toContain('book open|close|halt|resume');
    expect((await cli.run('book', 'delete', '1')).err).toMatch(/unknown command/);
    expect((await cli.run('token', 'list', '--colour')).code).toBe(2);
  });
});
