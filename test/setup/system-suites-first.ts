import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Whether a test file is a system suite: one in a `test/` folder, which starts services, chains or browsers. */
export function isSystemSuite(path: string): boolean {
  return /(^|\/)test\//.test(path);
}

/**
 * The system suites first, each group in the order it came: what a run that knows no file's time
 * yet starts with.
 */
export function systemSuitesFirst<T>(files: readonly T[], pathOf: (file: T) => string): T[] {
  const system = files.filter((file) => isSystemSuite(pathOf(file)));
  return [...system, ...files.filter((file) => !isSystemSuite(pathOf(file)))];
}

/**
 * Vitest's order (the longest file of the last run first) once it has run every file; in a clean
 * clone, where it knows no file's time, the system suites first (up to minutes each), then the rest,
 * larger files first. A long file started last keeps the run going on one core while the others
 * wait: ordered by size alone, a clean clone started the 108 s forge suite at 660 s of a 768 s run.
 */
export default class SystemSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const { root } = this.ctx.config;
    const path = (file: TestSpecification) => relative(root, file.moduleId);
    const timed = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined;
    return sorted.every(timed) ? sorted : systemSuitesFirst(sorted, path);
  }
}
