import { buildIfChanged } from '../../scripts/build-if-changed.mjs';

/**
 * Vitest's global setup: builds the packages when a source changed since their last build, before
 * any file runs. The suites start the service, its roles and the command-line tools from the built
 * modules (`builtEntry`), as `npm start` does, so a run of one file after an edit tests the edit.
 * Under `npm test` the build has just run and this finds nothing to do.
 */
export default function setup(): void {
  buildIfChanged();
}
