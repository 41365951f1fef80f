import { useEffect, useState } from 'preact/hooks';

export interface LoadedModule<T> {
  readonly module: T | undefined;
  readonly error: unknown;
}

/**
 * A module loaded on demand (`load` is a module-level `() => import(...)`), once `wanted`: code
 * only some visitors need stays out of the page until they need it.
 */
export function useModule<T>(load: () => Promise<T>, wanted: boolean): LoadedModule<T> {
  const [state, setState] = useState<LoadedModule<T>>({ module: undefined, error: undefined });
  useEffect(() => {
    if (!wanted || state.module !== undefined) return;
    let current = true;
    load()
      .then((module) => current && setState({ module, error: undefined }))
      .catch((error: unknown) => current && setState({ module: undefined, error }));
    return () => {
      current = false;
    };
  }, [load, wanted, state.module]);
  return state;
}
