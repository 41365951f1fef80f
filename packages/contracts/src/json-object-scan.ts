import { closeSync, createReadStream, openSync, readSync } from 'node:fs';

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const CHUNK_BYTES = 1 << 20;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Tells whether bytes fed in order form one whole JSON object: `{`, brackets outside strings each
 * closed by its kind, the closing `}`, nothing but whitespace after it. It checks the shape a
 * writer leaves when cut short, not the full grammar: a file anvil was writing when it died stops
 * inside the object. It reads bytes, never a string, so a state file larger than the longest
 * string V8 can hold (about 512 MB) is judged like any other, and in chunks, so the caller can
 * yield between them.
 */
export class JsonObjectScan {
  /** The closing bracket each open one expects, innermost last. */
  private readonly open: number[] = [];
  private started = false;
  private closed = false;
  private broken = false;
  private inString = false;
  private escaped = false;

  feed(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length && !this.broken; at++) {
      const byte = bytes[at] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (isWhitespace(byte)) {
        // between tokens
      } else if (this.closed || (!this.started && byte !== OPEN_OBJECT)) {
        this.broken = true;
      } else {
        this.structural(byte);
      }
    }
  }

  /** Whether everything fed so far is one whole object. */
  get whole(): boolean {
    return this.closed && !this.broken;
  }

  private structural(byte: number): void {
    this.started = true;
    if (byte === QUOTE) this.inString = true;
    else if (byte === OPEN_OBJECT) this.open.push(CLOSE_OBJECT);
    else if (byte === OPEN_ARRAY) this.open.push(CLOSE_ARRAY);
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (this.open.pop() !== byte) this.broken = true;
      else if (this.open.length === 0) this.closed = true;
    }
  }
}

/** Whether `file` holds one whole JSON object; false when it cannot be read. Blocks while it reads. */
export function holdsWholeObject(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const scan = new JsonObjectScan();
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) scan.feed(chunk.subarray(0, read));
    return scan.whole;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** `holdsWholeObject` read as a stream: the event loop goes on between chunks. */
export async function holdsWholeObjectAsync(file: string): Promise<boolean> {
  const scan = new JsonObjectScan();
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) scan.feed(chunk as Buffer);
  } catch {
    return false;
  }
  return scan.whole;
}
