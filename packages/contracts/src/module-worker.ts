import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `name` that sits beside the module `from` (its
 * import.meta.url). From dist/ the module is plain JavaScript. When `from` runs as TypeScript
 * source (vitest, tsx) the module is its .ts file: a worker does not inherit the parent's loader
 * hooks on Node 20 and ignores `--import` in its execArgv, so a small bootstrap registers tsx in
 * the worker first.
 */
export function moduleWorker(from: string, name: string, options: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL(`./${name}.ts`, from).href);
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return import(${entry}); });`, {
    ...options,
    eval: true,
  });
}
