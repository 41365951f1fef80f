import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SystemSuitesFirst from './test/setup/system-suites-first.js';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['test/setup/built-packages.ts'],
    sequence: { sequencer: SystemSuitesFirst },
    pool: 'forks',
    // A worker more than the cores, not vitest's cores - 1 (one worker on two cores): most files spend
    // much of their time waiting on the processes they start (chain nodes, services) and on
    // PostgreSQL, Redis and NATS. No more than that: starting a service from its sources takes a core
    // for seconds, and the tests that bound a start or a drain by time fail when too many do at once.
    // Each file has its own ports, data folders, databases, key prefixes, streams and chain nodes.
    maxWorkers: availableParallelism() + 1,
    // A worker runs its files one after another in one process with one module cache, not a fresh
    // process per file: that cost 600 s of imports in a 1,100 s run. Each file cleans up what it
    // starts and changes no global state it does not restore, which the whole suite passing this
    // way holds to.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
