/** Builds the published packages with `tsc -b` when a source changed since the last build; returns whether it had to. */
export function buildIfChanged(): boolean;
/** Records a build that started at `started` and passed: sources not edited since count as built. */
export function markBuilt(started: Date): void;
