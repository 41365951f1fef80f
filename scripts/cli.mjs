#!/usr/bin/env node
// `npm run cli -- ...`: the operator CLI as built, rebuilt first only if a source changed.
import { buildIfChanged } from './build-if-changed.mjs';

buildIfChanged();
await import('../packages/server/dist/composition/operator-main.js');
