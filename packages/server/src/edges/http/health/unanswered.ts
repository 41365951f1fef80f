import type { Dependency } from '../../../ports/dependency.js';

/** Asks every dependency at once; the names of those that failed or stayed silent for `timeoutMs`. */
export async function unanswered(dependencies: readonly Dependency[], timeoutMs: number): Promise<string[]> {
  const answered = await Promise.all(dependencies.map((dependency) => answersWithin(dependency, timeoutMs)));
  return dependencies.filter((_, index) => !answered[index]).map((dependency) => dependency.name);
}

async function answersWithin(dependency: Dependency, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([dependency.check().then(() => true), silence]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
