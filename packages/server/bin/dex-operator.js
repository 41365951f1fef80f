#!/usr/bin/env node
// npm links this file when the workspace installs, before the build makes dist/: it runs the built CLI.
import('../dist/composition/operator-main.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/composition/operator-main.js')) {
    process.stderr.write('dex-operator is not built yet: run `npm run build` in the repository first\n');
    process.exit(2);
  }
  throw error;
});
