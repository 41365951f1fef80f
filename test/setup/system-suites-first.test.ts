import { describe, expect, it } from 'vitest';
import { isSystemSuite, systemSuitesFirst } from './system-suites-first.js';

describe('the order of a run that knows no file time', () => {
  it('takes the suites of test/ folders for system suites, at the root and in a package', () => {
    expect(isSystemSuite('test/docs/runnable-docs.test.ts')).toBe(true);
    expect(isSystemSuite('packages/server/test/faults/engine-kill.test.ts')).toBe(true);
    expect(isSystemSuite('packages/server/src/domain/errors.test.ts')).toBe(false);
    expect(isSystemSuite('packages/server/src/test-support/harness.test.ts')).toBe(false);
  });

  it('starts the system suites first and keeps the order within each group', () => {
    const files = ['packages/a/src/big.test.ts', 'test/x.test.ts', 'packages/a/src/small.test.ts', 'packages/b/test/y.test.ts'];
    expect(systemSuitesFirst(files, (file) => file)).toEqual([
      'test/x.test.ts',
      'packages/b/test/y.test.ts',
      'packages/a/src/big.test.ts',
      'packages/a/src/small.test.ts',
    ]);
  });
});
