import type { GetCandlesParameters, GetCandlesReturnType } from '@dex/sdk';

export type CandleInterval = GetCandlesParameters['interval'];

/** The route's intervals, as its buttons list them. */
export const CANDLE_INTERVALS: readonly { readonly interval: CandleInterval; readonly label: string }[] = [
  { interval: 'FIVEMIN', label: '5m' },
  { interval: 'HOUR', label: '1h' },
  { interval: 'DAY', label: '1d' },
  { interval: 'WEEK', label: '1w' },
];

export interface ChartBar {
  /** Unix seconds: the chart's time axis. */
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

export interface VolumeBar {
  readonly time: number;
  /** Raw base units: only the bars' relative heights are drawn, never the figure. */
  readonly value: number;
  /** A bucket that closed at or above its open is drawn as up. */
  readonly up: boolean;
}

/**
 * The candles as the chart draws them. Prices become numbers here and only here: a canvas plots
 * floats, and every figure the page prints as text comes from the API's strings, never from these.
 */
export function chartBars(candles: GetCandlesReturnType['candles']): { bars: ChartBar[]; volumes: VolumeBar[] } {
  const bars = candles.map((candle) => ({
    time: candle.startTimestampSeconds,
    open: Number(candle.open),
    high: Number(candle.high),
    low: Number(candle.low),
    close: Number(candle.close),
  }));
  const volumes = candles.map((candle, index) => ({
    time: candle.startTimestampSeconds,
    value: Number(candle.baseVolume),
    up: (bars[index]?.close ?? 0) >= (bars[index]?.open ?? 0),
  }));
  return { bars, volumes };
}
