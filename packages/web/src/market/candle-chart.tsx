import { getCandles } from '@dex/sdk';
import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { client } from '../client.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { usePolling } from '../polling.js';
import { CANDLE_INTERVALS, type CandleInterval, chartBars } from './candle-data.js';

/** Candles change at most once per trade; a slow poll is enough for a chart. */
const CANDLES_INTERVAL_MS = 10_000;
const CHART_HEIGHT = 280;
const UP = '#1a9e5c';
const DOWN = '#d2433f';

interface Drawn {
  readonly chart: IChartApi;
  readonly prices: ISeriesApi<'Candlestick'>;
  readonly volumes: ISeriesApi<'Histogram'>;
}

/**
 * The chart library is loaded on its own, after the page is up: the ladder and the tape never
 * wait for it, and the page's main script stays small. Its TradingView logo is kept on the chart,
 * as its licence asks.
 */
async function drawChart(container: HTMLElement): Promise<Drawn> {
  const { createChart, CandlestickSeries, HistogramSeries } = await import('lightweight-charts');
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const chart = createChart(container, {
    autoSize: true,
    height: CHART_HEIGHT,
    layout: {
      attributionLogo: true,
      background: { color: 'transparent' },
      textColor: dark ? '#d7dce3' : '#1f2630',
    },
    grid: { vertLines: { visible: false }, horzLines: { color: dark ? '#2a313c' : '#e8ebef' } },
    timeScale: { timeVisible: true, secondsVisible: false },
  });
  const prices = chart.addSeries(CandlestickSeries, {
    upColor: UP,
    downColor: DOWN,
    borderVisible: false,
    wickUpColor: UP,
    wickDownColor: DOWN,
  });
  // Volume under the prices, on a scale of its own whose labels would mean nothing (raw units).
  const volumes = chart.addSeries(HistogramSeries, { priceScaleId: '', lastValueVisible: false, priceLineVisible: false });
  volumes.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  return { chart, prices, volumes };
}

/** Candles with volume for one book, at the interval the reader picks. */
export function CandleChart({ orderbookId }: { readonly orderbookId: string }) {
  const [interval, setInterval] = useState<CandleInterval>('FIVEMIN');
  const fetchCandles = useCallback(() => getCandles(client, { orderbookId, interval }), [orderbookId, interval]);
  const candles = usePolling(fetchCandles, CANDLES_INTERVAL_MS);
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | undefined>(undefined);
  const [chartError, setChartError] = useState<unknown>(undefined);
  // Candles that arrive before the library has loaded are drawn once it has.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    let removed = false;
    drawChart(element).then(
      (made) => {
        if (removed) made.chart.remove();
        else {
          drawn.current = made;
          setReady(true);
        }
      },
      (error: unknown) => setChartError(error),
    );
    return () => {
      removed = true;
      drawn.current?.chart.remove();
      drawn.current = undefined;
    };
  }, []);

  useEffect(() => {
    const chart = drawn.current;
    if (!ready || chart === undefined || candles.data === undefined) return;
    const { bars, volumes } = chartBars(candles.data.candles);
    chart.prices.setData(bars.map((bar) => ({ ...bar, time: bar.time as UTCTimestamp })));
    chart.volumes.setData(
      volumes.map((bar) => ({ time: bar.time as UTCTimestamp, value: bar.value, color: bar.up ? `${UP}66` : `${DOWN}66` })),
    );
  }, [ready, candles.data]);

  return (
    <div class="candle-chart" data-testid="candles" data-count={candles.data?.candles.length ?? ''}>
      <fieldset class="interval-picker">
        <legend class="visually-hidden">Candle interval</legend>
        {CANDLE_INTERVALS.map((choice) => (
          <button
            key={choice.interval}
            type="button"
            aria-pressed={choice.interval === interval}
            onClick={() => setInterval(choice.interval)}
          >
            {choice.label}
          </button>
        ))}
      </fieldset>
      <ErrorNotice error={candles.error} context="Loading the candles" staleSince={candles.updatedAt} />
      <ErrorNotice error={chartError} context="Drawing the chart" />
      {candles.data?.candles.length === 0 ? <p class="muted">No trades in this window yet.</p> : null}
      <div ref={container} class="candle-canvas" style={{ height: `${CHART_HEIGHT}px` }} />
      <p class="attribution muted">
        Charts: TradingView Lightweight Charts™, Copyright (c) 2025 TradingView, Inc.,{' '}
        <a href="https://www.tradingview.com/" rel="noopener noreferrer" target="_blank">
          tradingview.com
        </a>
      </p>
    </div>
  );
}
