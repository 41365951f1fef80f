/** The table of bench:ws: a service run's figures beside the bare `ws` baselines', and the targets. */
import type { BareBroadcastFigures, PacedFrame } from './bare-broadcast.js';
import type { CpuUse } from './cpu.js';
import { millis, percentile, printTable, verdict, whole } from './report.js';
import type { FollowerCheck } from './ws-followers.js';

/** Issues 5 and 17 (messages/s), and issue 41 (against the bare broadcast at the service's pace). */
const TARGETS = { messagesPerSecond: 50_000, p99Ms: 50, ofBaseline: 0.8, cpuOfBaseline: 1.5 } as const;
const MIB = 1024 * 1024;

export interface MemoryFigures {
  rss: number;
  heapUsed: number;
}

/** What a service run measured. */
export interface ServiceFigures extends FollowerCheck {
  readonly saved: number;
  readonly ordersSeconds: number;
  /** From the first save to the last diff received. */
  readonly seconds: number;
  readonly delivered: number;
  /** From the engine turn that made each change (the diff's timestamp) to its receipt, ms. */
  readonly latencies: Float64Array;
  /** One follower's diffs: when each change was made after the start, and its frame's size. */
  readonly schedule: readonly PacedFrame[];
  readonly meanBytes: number;
  readonly memory: { idle: MemoryFigures; connected: MemoryFigures; peak: MemoryFigures; end: MemoryFigures };
  /** CPU seconds from the first save until every replica caught up. */
  readonly cpu: CpuUse<string>;
}

/** The bare server's runs: the service's diffs replayed at its pace, and frames sent as fast as the sockets drain. */
export interface Baselines {
  readonly paced: BareBroadcastFigures;
  readonly drain: BareBroadcastFigures;
}

/** The service's own processes (server, or gateways and engines), without the order sender. */
export function serviceCpu(cpu: CpuUse<string>): number {
  return Object.entries(cpu.processes).reduce((sum, [name, seconds]) => (name === 'sender' ? sum : sum + (seconds ?? 0)), 0);
}

const seconds = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(1));

function cpuBreakdown(cpu: CpuUse<string>): string {
  const named = Object.entries(cpu.processes).map(([name, value]) => `${name} ${seconds(value)}`);
  return [...named, `clients ${seconds(cpu.client)}`, `others ${seconds(cpu.others)}`, `of ${cpu.wall.toFixed(1)} s`].join(', ');
}

const mib = (bytes: number) => `${whole.format(bytes / MIB)} MiB`;
const micros = (cpuSeconds: number | undefined, messages: number) =>
  cpuSeconds === undefined ? Number.NaN : (cpuSeconds / messages) * 1e6;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}x`;
const latencyText = (sorted: Float64Array, q: number) =>
  millis.format(q === 1 ? (sorted[sorted.length - 1] ?? Number.NaN) : percentile(sorted, q));

type Row = readonly [measure: string, service: string, bare: string, ratio: string, target: string, result: string];

function rateRows(service: ServiceFigures, paced: BareBroadcastFigures, frames: number, clients: number): Row[] {
  const rate = service.delivered / service.seconds;
  const bareRate = paced.delivered / paced.seconds;
  return [
    [
      'frames per client (per second)',
      `${whole.format(service.delivered / clients)} (${whole.format(service.delivered / clients / service.seconds)}/s)`,
      `${whole.format(frames)} (${whole.format(paced.delivered / clients / paced.seconds)}/s)`,
      '',
      '',
      '',
    ],
    ['frame size, mean bytes', whole.format(service.meanBytes), whole.format(service.meanBytes), '', '', ''],
    ['messages delivered', whole.format(service.delivered), whole.format(paced.delivered), '', '', ''],
    [
      'messages delivered per second',
      whole.format(rate),
      whole.format(bareRate),
      ratio(rate, bareRate),
      `>= ${TARGETS.ofBaseline}x`,
      verdict(rate >= TARGETS.ofBaseline * bareRate),
    ],
    [
      'messages delivered per second (issues 5, 17)',
      whole.format(rate),
      '',
      '',
      `>= ${whole.format(TARGETS.messagesPerSecond)}`,
      verdict(rate >= TARGETS.messagesPerSecond),
    ],
  ];
}

function latencyRows(service: ServiceFigures, paced: BareBroadcastFigures): Row[] {
  const p99 = percentile(service.latencies, 0.99);
  const bareP99 = percentile(paced.latencies, 0.99);
  return [
    ['latency p50 ms', latencyText(service.latencies, 0.5), latencyText(paced.latencies, 0.5), '', '', ''],
    [
      'latency p99 ms',
      millis.format(p99),
      millis.format(bareP99),
      ratio(p99, bareP99),
      `< ${TARGETS.p99Ms}`,
      verdict(p99 < TARGETS.p99Ms),
    ],
    ['latency max ms', latencyText(service.latencies, 1), latencyText(paced.latencies, 1), '', '', ''],
  ];
}

/** `intakeCpu`: CPU seconds the service spent on the same orders with no follower, when measured. */
function cpuRows(service: ServiceFigures, paced: BareBroadcastFigures, intakeCpu: number | undefined): Row[] {
  const server = micros(serviceCpu(service.cpu), service.delivered);
  const bare = micros(paced.cpu.processes.server, paced.delivered);
  const fanOut = intakeCpu === undefined ? Number.NaN : micros(serviceCpu(service.cpu) - intakeCpu, service.delivered);
  const withinTarget = (value: number) => verdict(value <= TARGETS.cpuOfBaseline * bare);
  return [
    [
      'CPU s in the window, by process',
      cpuBreakdown(service.cpu),
      `server ${seconds(paced.cpu.processes.server)}, clients ${seconds(paced.cpu.client)} of ${paced.cpu.wall.toFixed(1)} s`,
      '',
      '',
      '',
    ],
    [
      'service CPU per message delivered, µs',
      whole.format(server),
      whole.format(bare),
      ratio(server, bare),
      `<= ${TARGETS.cpuOfBaseline}x`,
      withinTarget(server),
    ],
    [
      '  of it fan-out (no-follower run subtracted), µs',
      ...(Number.isNaN(fanOut)
        ? (['n/a', whole.format(bare), '', '', ''] as const)
        : ([
            whole.format(fanOut),
            whole.format(bare),
            ratio(fanOut, bare),
            `<= ${TARGETS.cpuOfBaseline}x`,
            withinTarget(fanOut),
          ] as const)),
    ],
    [
      'clients CPU per message delivered, µs',
      whole.format(micros(service.cpu.client, service.delivered)),
      whole.format(micros(paced.cpu.client, paced.delivered)),
      '',
      '',
      '',
    ],
  ];
}

/** The bare server at full speed: how far the service's rate is from what these clients can take. */
function capacityRows(service: ServiceFigures, drain: BareBroadcastFigures): Row[] {
  const rate = service.delivered / service.seconds;
  const drainRate = drain.delivered / drain.seconds;
  return [
    ['bare ws at full speed: messages per second', '', whole.format(drainRate), ratio(rate, drainRate), '', ''],
    [
      'bare ws at full speed: latency p50 / p99 ms, server CPU µs per message',
      '',
      `${latencyText(drain.latencies, 0.5)} / ${latencyText(drain.latencies, 0.99)}, ${whole.format(micros(drain.cpu.processes.server, drain.delivered))}`,
      '',
      '',
      '',
    ],
  ];
}

function serviceRows(service: ServiceFigures, counts: { clients: number; replicas: number }): Row[] {
  const { memory } = service;
  const mibs = (pick: (figures: MemoryFigures) => number) =>
    [memory.idle, memory.connected, memory.peak, memory.end].map((figures) => mib(pick(figures)));
  return [
    ['server RSS: idle / clients connected / peak / end', mibs((figures) => figures.rss).join(' / '), '', '', '', ''],
    [
      'server heap used: idle / clients connected / peak',
      mibs((figures) => figures.heapUsed)
        .slice(0, 3)
        .join(' / '),
      '',
      '',
      '',
      '',
    ],
    [
      'clients that received every diff, in seq order',
      `${whole.format(service.reached)} / ${whole.format(counts.clients)}`,
      '',
      '',
      'all',
      verdict(service.reached === counts.clients),
    ],
    [
      'client replicas equal to GET /depth at the end',
      `${whole.format(service.equal)} / ${whole.format(counts.replicas)}`,
      '',
      '',
      'all',
      verdict(service.equal === counts.replicas),
    ],
  ];
}

export function printFigures(
  counts: { clients: number; replicas: number },
  title: string,
  service: ServiceFigures,
  baselines: Baselines,
  intakeCpu: number | undefined,
): void {
  const { paced, drain } = baselines;
  const saved = `${whole.format(service.saved)} in ${service.ordersSeconds.toFixed(1)} s (${whole.format(service.saved / service.ordersSeconds)}/s)`;
  console.log('');
  console.log(title);
  printTable(
    ['measure', 'service', 'bare ws, same pace', 'ratio', 'target', 'result'],
    [
      ['orders saved', saved, '', '', '', ''],
      ...rateRows(service, paced, service.schedule.length, counts.clients),
      ...latencyRows(service, paced),
      ...cpuRows(service, paced, intakeCpu),
      ...capacityRows(service, drain),
      ...serviceRows(service, counts),
    ],
  );
  console.log('');
  console.log(
    `service: the window runs from the first save to the last diff received (${service.seconds.toFixed(2)} s); a diff folds ` +
      "every change of one commit group of the book; latency from the engine turn that made the change (the diff's timestamp) " +
      'to its receipt, commit included; millisecond resolution (both ends read Date.now())',
  );
  console.log(
    `bare ws, same pace: a bare ws server in its own process sends the ${whole.format(service.schedule.length)} diffs one ` +
      'follower received again, each as a frame of its size at the time its change was made (relative to the first save), ' +
      `to the same ${whole.format(counts.clients)} clients, the service stopped; latency from that time to receipt; ` +
      'its clients parse each frame as JSON',
  );
  console.log(
    'service CPU: every thread of its processes (intake, signature checks, matching, storage, fan-out); fan-out: ' +
      "less the CPU the service spent on the same orders with no follower (in a run of its own). Full speed: the bare server's " +
      `${whole.format(drain.delivered / counts.clients)} frames of the mean size, each once the sockets took the previous one ` +
      `(${drain.seconds.toFixed(2)} s); its ratio is the service's rate against it`,
  );
}
