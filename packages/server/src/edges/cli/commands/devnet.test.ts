import { describe, expect, it } from 'vitest';
import { withFreshStore } from '../../../test-support/operator-cli.js';

describe('operator CLI', () => {
  const cli = withFreshStore();

  it('seeds the devnet once', async () => {
    expect((await cli.run('devnet', 'seed')).code).toBe(0);
    expect(await cli.store.books.list()).toHaveLength(4);
    expect((await cli.run('devnet', 'seed')).code).toBe(1);
  });
});
