/** Builds the published packages with `tsc -b` when a source changed since the last build; returns whether it had to. */
export function buildIfChanged(): boolean;
