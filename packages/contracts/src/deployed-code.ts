import type { Hex } from 'viem';

/** What this build compiled: the runtime code, and where its constructor writes the immutables. */
export interface CompiledCode {
  readonly deployedBytecode: Hex;
  /** [byte offset, length] of each immutable in the runtime code. */
  readonly immutableRanges: readonly (readonly [number, number])[];
}

/**
 * Whether `onChain` is exactly this build's runtime code, the bytes of its immutables aside (a
 * constructor writes them, so they differ by deployment). The trailing metadata hash names the
 * compiler and sources, so code of another build or another contract never matches.
 */
export function isDeployedCode(onChain: Hex | undefined, compiled: CompiledCode): boolean {
  if (onChain === undefined) return false;
  const ours = compiled.deployedBytecode.toLowerCase();
  const theirs = onChain.toLowerCase();
  if (ours.length !== theirs.length) return false;
  const masked = (code: string): string => {
    let text = code;
    for (const [start, length] of compiled.immutableRanges) {
      const from = 2 + 2 * start;
      text = text.slice(0, from) + '0'.repeat(2 * length) + text.slice(from + 2 * length);
    }
    return text;
  };
  return masked(ours) === masked(theirs);
}
