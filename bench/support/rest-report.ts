/** The tables of bench:rest: each route against the bare server, then where the CPU went. */
import { fineMillis, percentile, printTable, verdict, whole } from './report.js';
import type { LoadFigures } from './rest-load.js';

/** Issue 41: public REST at >= 0.8x a bare node:http server with the same body under the same load. */
export const TARGET_RATIO = 0.8;

/** Every run of one side (the service or the bare server) on one route, added up. */
export interface SideTotals {
  readonly answers: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** CPU seconds of the server, of the load generator (this process) and of everything else. */
  readonly serverCpu: number;
  readonly generatorCpu: number;
  readonly othersCpu: number;
  readonly answerBytes: ReadonlySet<number>;
  readonly failures: number;
}

export interface RouteFigures {
  /** The book's price levels per side. */
  readonly levels: number;
  readonly path: string;
  readonly bodyBytes: number;
  readonly service: SideTotals;
  readonly bare: SideTotals;
}

export function totalsOf(runs: readonly LoadFigures[]): SideTotals {
  const latencies = new Float64Array(runs.reduce((sum, run) => sum + run.latencies.length, 0));
  let at = 0;
  for (const run of runs) {
    latencies.set(run.latencies, at);
    at += run.latencies.length;
  }
  latencies.sort();
  const sum = (value: (run: LoadFigures) => number) => runs.reduce((total, run) => total + value(run), 0);
  const answers = sum((run) => run.answers);
  const seconds = sum((run) => run.seconds);
  return {
    answers,
    seconds,
    perSecond: seconds === 0 ? 0 : answers / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    serverCpu: sum((run) => run.cpu.processes.server ?? Number.NaN),
    generatorCpu: sum((run) => run.cpu.client),
    othersCpu: sum((run) => run.cpu.others ?? Number.NaN),
    answerBytes: new Set(runs.flatMap((run) => [...run.answerBytes])),
    failures: sum((run) => run.failures),
  };
}

export function ratioOf(route: RouteFigures): number {
  return route.service.perSecond / route.bare.perSecond;
}

/**
 * The bare server's CPU per answer over the service's: the ratio of requests/s each would serve
 * with a core of its own. On a machine where the load generator shares the cores, its cost per
 * answer counts on both sides of the requests/s ratio and draws it towards 1; this one leaves it out.
 */
export function cpuRatioOf(route: RouteFigures): number {
  return route.bare.serverCpu / route.bare.answers / (route.service.serverCpu / route.service.answers);
}

const ms = (value: number) => fineMillis.format(value);
const bookText = (levels: number) => `${levels} levels a side`;

/** The targets' table; how many were met. */
export function printRoutes(routes: readonly RouteFigures[]): number {
  const rows = routes.map((route) => {
    const ratio = ratioOf(route);
    const side = ({ perSecond, p50, p99 }: SideTotals) => [whole.format(perSecond), ms(p50), ms(p99)];
    return [
      bookText(route.levels),
      `GET ${route.path}`,
      whole.format(route.bodyBytes),
      ...side(route.service),
      ...side(route.bare),
      `${ratio.toFixed(2)}x`,
      verdict(ratio >= TARGET_RATIO),
      `${cpuRatioOf(route).toFixed(2)}x`,
    ];
  });
  printTable(
    [
      'book',
      'route',
      'body B',
      'service req/s',
      'p50 ms',
      'p99 ms',
      'bare req/s',
      'p50 ms',
      'p99 ms',
      'ratio',
      `>= ${TARGET_RATIO}x`,
      'CPU/answer ratio',
    ],
    rows,
    2,
  );
  return routes.filter((route) => ratioOf(route) >= TARGET_RATIO).length;
}

/** CPU per answer (µs) and in cores, per side: whether the load generator kept ahead of the server. */
export function printCpu(routes: readonly RouteFigures[]): void {
  const perAnswer = (cpu: number, totals: SideTotals) => whole.format((cpu * 1e6) / totals.answers);
  const cores = (cpu: number, totals: SideTotals) => (cpu / totals.seconds).toFixed(2);
  const rows = routes.flatMap((route) =>
    (['service', 'bare'] as const).map((name) => {
      const totals = route[name];
      return [
        bookText(route.levels),
        `GET ${route.path}`,
        name,
        [...totals.answerBytes].join(', '),
        perAnswer(totals.serverCpu, totals),
        perAnswer(totals.generatorCpu, totals),
        cores(totals.serverCpu, totals),
        cores(totals.generatorCpu, totals),
        cores(totals.othersCpu, totals),
      ];
    }),
  );
  printTable(
    [
      'book',
      'route',
      'server',
      'answer B',
      'server µs/ans',
      'generator µs/ans',
      'server cores',
      'generator cores',
      'others cores',
    ],
    rows,
    3,
  );
}

/** The load generator is not the bottleneck where it spends less CPU per answer than the server it loads. */
export function generatorBound(routes: readonly RouteFigures[]): string[] {
  return routes.flatMap((route) =>
    (['service', 'bare'] as const)
      .filter((name) => route[name].generatorCpu >= route[name].serverCpu)
      .map((name) => `${bookText(route.levels)} GET ${route.path} (${name})`),
  );
}
