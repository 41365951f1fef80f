/**
 * A V8 CPU profile (`node --cpu-prof`) summed by function: each node's samples times the mean
 * sampling interval is its self time; nodes of the same function (name, file, line) are added up,
 * whatever called them. Idle, program and garbage-collector time keep their names.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
}

export interface SelfTime {
  /** `name file:line`, the file relative to the working directory. */
  readonly where: string;
  readonly ms: number;
}

/** Node names a profile `CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile`; the main thread is 0. */
const MAIN_THREAD_PROFILE = /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/;

/** The newest profile of a process's main thread in a folder (workers write their own), or undefined. */
export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => MAIN_THREAD_PROFILE.test(name))
    .map((name) => join(dir, name));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

function whereOf({ callFrame }: ProfileNode): string {
  const name = callFrame.functionName === '' ? '(anonymous)' : callFrame.functionName;
  if (callFrame.url === '') return name;
  const file = callFrame.url.startsWith('file://') ? relative(process.cwd(), new URL(callFrame.url).pathname) : callFrame.url;
  return `${name} ${file}:${callFrame.lineNumber + 1}`;
}

/** Self time by function, largest first, and the profile's whole span in ms. */
export function selfTimes(file: string): { total: number; byFunction: SelfTime[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const total = (profile.endTime - profile.startTime) / 1000;
  const perSample = profile.samples.length === 0 ? 0 : total / profile.samples.length;
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const byWhere = new Map<string, number>();
  for (const node of profile.nodes) {
    const count = hits.get(node.id);
    if (count === undefined) continue;
    const where = whereOf(node);
    byWhere.set(where, (byWhere.get(where) ?? 0) + count * perSample);
  }
  const byFunction = [...byWhere].map(([where, ms]) => ({ where, ms })).sort((a, b) => b.ms - a.ms);
  return { total, byFunction };
}
