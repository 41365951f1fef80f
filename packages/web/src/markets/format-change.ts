import { signOf } from '../decimal.js';

export type ChangeDirection = 'up' | 'down' | 'flat';

export interface FormattedChange {
  /** The API's percent with an explicit sign: "+1.25%", "-0.3984%"; "—" when there is none. */
  readonly text: string;
  readonly direction: ChangeDirection;
}

/** A 24 h change as the API gives it ("-0.3984", percent), signed and classified for colour. */
export function formatChange(percent: string | null): FormattedChange {
  if (percent === null) return { text: '—', direction: 'flat' };
  let sign: -1 | 0 | 1;
  try {
    sign = signOf(percent);
  } catch {
    // Not a plain decimal: show it as it came rather than hide it.
    return { text: `${percent}%`, direction: 'flat' };
  }
  if (sign > 0) return { text: `+${percent}%`, direction: 'up' };
  return { text: `${percent}%`, direction: sign < 0 ? 'down' : 'flat' };
}
