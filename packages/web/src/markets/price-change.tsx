import { formatChange } from './format-change.js';

const ARROWS = { up: '▲', down: '▼', flat: '' } as const;

/** A 24 h change, coloured and with an arrow, so the direction does not rest on colour alone. */
export function PriceChange({ percent }: { readonly percent: string | null }) {
  const { text, direction } = formatChange(percent);
  return (
    <span class={`change change-${direction}`}>
      {ARROWS[direction] === '' ? null : <span aria-hidden="true">{ARROWS[direction]} </span>}
      {text}
    </span>
  );
}
