import { parentPort, workerData } from 'node:worker_threads';
import type { DevnetLog } from './devnet-state.js';
import { type LogRecord, type PreparationAnswer, prepareStateFile } from './state-file-preparation.js';

/** Runs prepareStateFile for prepareStateFileOffThread and answers once; its log goes back with the answer. */
if (parentPort === null) throw new Error('state-file-worker.js runs as a worker thread of prepareStateFileOffThread');
const { stateFile, historyBlocks } = workerData as { stateFile: string; historyBlocks: number | undefined };
const lines: LogRecord[] = [];
const log: DevnetLog = {
  info: (fields, message) => lines.push({ level: 'info', fields, message }),
  warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
  error: (fields, message) => lines.push({ level: 'error', fields, message }),
};
let answer: PreparationAnswer;
try {
  answer = { head: prepareStateFile(stateFile, historyBlocks, log), log: lines };
} catch (error) {
  answer = { error, log: lines };
}
parentPort.postMessage(answer);
