import { closeSync, createReadStream, openSync, readSync } from 'node:fs';

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COLON = 0x3a; // :
const COMMA = 0x2c; // ,
const CHUNK_BYTES = 1 << 20;
/** The path so far begins some watched pattern: its members' keys are read. */
const PREFIX = 1;
/** The path so far is a watched pattern: its scalar value is reported. */
const WHOLE = 2;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Where a value sits: the object keys and array indices from the top; null for a key the scan did not read. */
export type JsonPath = readonly (string | number | null)[];

/**
 * Scalars a scan reports as it goes: those at a path that matches one of `patterns` (keys, with
 * '*' for any key or index). Strings come without their quotes (escapes as written), other
 * scalars as written.
 */
export interface ScalarWatch {
  readonly patterns: readonly (readonly string[])[];
  scalar(path: JsonPath, text: string): void;
}

/**
 * Tells whether bytes fed in order form one whole JSON object: `{`, brackets outside strings each
 * closed by its kind, the closing `}`, nothing but whitespace after it. It checks the shape a
 * writer leaves when cut short, not the full grammar: a file anvil was writing when it died stops
 * inside the object. It reads bytes, never a string, so a state file larger than the longest
 * string V8 can hold (about 512 MB) is judged like any other, and in chunks, so the caller can
 * yield between them. With a watch, it also reports the scalars at the watched paths: it reads
 * only the keys along them, so the rest (a contract's storage) costs no more than the shape check.
 */
export class JsonObjectScan {
  /** The closing bracket each open one expects, innermost last. */
  private readonly open: number[] = [];
  /** Per open bracket: the key (object) or index (array) of the member being read. */
  private readonly path: (string | number | null)[] = [];
  /** Per open bracket: how the path up to its member matches the watched patterns (PREFIX, WHOLE). */
  private readonly matches: number[] = [];
  private started = false;
  private closed = false;
  private broken = false;
  private inString = false;
  private escaped = false;
  /** In a scalar other than a string (a number, true, false, null). */
  private inBare = false;
  /** The next string of the innermost object is a key. */
  private expectKey = false;
  /** The text of the watched key or scalar being read, in pieces across chunks; null when none is. */
  private pieces: string[] | null = null;
  private readingKey = false;
  private textStart = 0;

  constructor(private readonly watch?: ScalarWatch) {}

  feed(bytes: Uint8Array): void {
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < chunk.length && !this.broken; at++) {
      const byte = chunk[at] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          this.endText(chunk, at);
        }
        continue;
      }
      if (this.inBare) {
        if (!isWhitespace(byte) && byte !== COMMA && byte !== CLOSE_OBJECT && byte !== CLOSE_ARRAY) continue;
        this.inBare = false;
        this.endText(chunk, at);
      }
      if (isWhitespace(byte)) {
        // between tokens
      } else if (this.closed || (!this.started && byte !== OPEN_OBJECT)) {
        this.broken = true;
      } else {
        this.structural(byte, at);
      }
    }
    if (this.pieces !== null) {
      this.pieces.push(chunk.toString('latin1', this.textStart));
      this.textStart = 0;
    }
  }

  /** Whether everything fed so far is one whole object. */
  get whole(): boolean {
    return this.closed && !this.broken;
  }

  private structural(byte: number, at: number): void {
    this.started = true;
    const level = this.open.length - 1;
    if (byte === QUOTE) {
      this.inString = true;
      if (this.expectKey) this.startText(at + 1, level === 0 || (this.matches[level - 1] as number) & PREFIX, true);
      else this.startText(at + 1, (this.matches[level] as number) & WHOLE, false);
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      const array = byte === OPEN_ARRAY;
      this.open.push(array ? CLOSE_ARRAY : CLOSE_OBJECT);
      this.path.push(array ? 0 : null);
      this.matches.push(0);
      if (array) this.match(level + 1);
      this.expectKey = !array;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (this.open.pop() !== byte) this.broken = true;
      else if (this.open.length === 0) this.closed = true;
      this.path.pop();
      this.matches.pop();
      this.expectKey = false;
    } else if (byte === COLON) {
      this.expectKey = false;
    } else if (byte === COMMA) {
      this.nextMember(level);
    } else {
      this.inBare = true;
      this.startText(at, (this.matches[level] as number) & WHOLE, false);
    }
  }

  private nextMember(level: number): void {
    const member = this.path[level];
    if (typeof member === 'number') {
      this.path[level] = member + 1;
      this.match(level);
    } else {
      this.path[level] = null;
      this.matches[level] = 0;
      this.expectKey = true;
    }
  }

  private startText(at: number, watched: number | boolean, key: boolean): void {
    if (this.watch === undefined || !watched) return;
    this.pieces = [];
    this.readingKey = key;
    this.textStart = at;
  }

  private endText(chunk: Buffer, at: number): void {
    if (this.pieces === null) return;
    this.pieces.push(chunk.toString('latin1', this.textStart, at));
    const text = this.pieces.join('');
    this.pieces = null;
    const level = this.open.length - 1;
    if (this.readingKey) {
      this.path[level] = text;
      this.match(level);
    } else {
      this.watch?.scalar(this.path, text);
    }
  }

  /** Works out how the path up to `level` matches the watched patterns, once its last step is known. */
  private match(level: number): void {
    let found = 0;
    if (this.watch !== undefined && (level === 0 || (this.matches[level - 1] as number) & PREFIX)) {
      for (const pattern of this.watch.patterns) {
        if (pattern.length <= level || !this.follows(pattern, level)) continue;
        found |= pattern.length > level + 1 ? PREFIX : WHOLE;
      }
    }
    this.matches[level] = found;
  }

  private follows(pattern: readonly string[], level: number): boolean {
    for (let step = 0; step <= level; step++) {
      const want = pattern[step];
      if (want !== '*' && want !== this.path[step]) return false;
    }
    return true;
  }
}

/** Feeds `file` to `scan` in chunks; false when it cannot be read. Blocks while it reads. */
export function scanFile(file: string, scan: JsonObjectScan): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) scan.feed(chunk.subarray(0, read));
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** `scanFile` read as a stream: the event loop goes on between chunks. */
export async function scanFileAsync(file: string, scan: JsonObjectScan): Promise<boolean> {
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) scan.feed(chunk as Buffer);
  } catch {
    return false;
  }
  return true;
}
