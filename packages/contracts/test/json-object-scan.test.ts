import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc, { type JsonValue } from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { goodStateFile, keepGoodState } from '../src/devnet-state.js';
import { JsonObjectScan, scanFile, scanFileAsync } from '../src/json-object-scan.js';

const dir = mkdtempSync(join(tmpdir(), 'json-object-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function whole(text: string, cuts: readonly number[] = []): boolean {
  const bytes = Buffer.from(text, 'utf8');
  const scan = new JsonObjectScan();
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    scan.feed(bytes.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  scan.feed(bytes.subarray(from));
  return scan.whole;
}

/** Whether `file` reads as one whole object, read blocking and as a stream (which must agree). */
async function fileWhole(file: string): Promise<boolean> {
  const blocking = new JsonObjectScan();
  const streamed = new JsonObjectScan();
  const answers = [scanFile(file, blocking) && blocking.whole, (await scanFileAsync(file, streamed)) && streamed.whole];
  expect(answers[0]).toBe(answers[1]);
  return answers[0] as boolean;
}

const objects = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 });

describe('JsonObjectScan', () => {
  it('judges a whole object whole, with whitespace around it', () => {
    expect(whole('{}')).toBe(true);
    expect(whole(' \n{"a": [1, {"b": null}], "c": "x"}\n ')).toBe(true);
  });

  it('does not count brackets and escaped quotes inside strings', () => {
    expect(whole('{"a": "}]\\"{["}')).toBe(true);
    expect(whole('{"a": "\\\\"}')).toBe(true);
    expect(whole('{"a": "}"')).toBe(false);
  });

  it('refuses what is not one object: empty, an array, a scalar, text after the object, unbalanced brackets', () => {
    for (const text of ['', '   ', '[]', '"{}"', '{} {}', '{}x', '{]', '{"a": 1}}', '{"a": [1}'])
      expect(whole(text), text).toBe(false);
  });

  it('never judges a strict prefix of an object whole, however it is cut', () => {
    fc.assert(
      fc.property(objects, fc.nat(), (value, at) => {
        const text = JSON.stringify(value);
        return !whole(text.slice(0, at % text.length));
      }),
    );
  });

  it('gives the same answer whatever the chunks it is fed in', () => {
    fc.assert(
      fc.property(objects, fc.array(fc.nat({ max: 400 }), { maxLength: 8 }), fc.boolean(), (value, cuts, cutShort) => {
        const full = JSON.stringify(value, null, 1);
        const text = cutShort ? full.slice(0, -1) : full;
        return whole(text, cuts) === !cutShort;
      }),
    );
  });

  it('reads files in chunks, blocking or not, and says false for a missing one', async () => {
    const value = { blocks: Array.from({ length: 40_000 }, (_, n) => ({ n, data: `"}{${n}` })) };
    const file = join(dir, 'big.json');
    writeFileSync(file, JSON.stringify(value));
    expect(await fileWhole(file)).toBe(true);
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, readFileSync(file).subarray(0, -2));
    expect(await fileWhole(cut)).toBe(false);
    expect(await fileWhole(join(dir, 'none.json'))).toBe(false);
  });
});

/** The scalars at depth 1 and 2 of `value`, as the scan reports them: raw text, strings unquoted. */
function scalarsOf(value: Record<string, JsonValue>): string[] {
  const raw = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const scalar = (item: unknown) => raw(typeof item === 'string' ? JSON.stringify(item).slice(1, -1) : JSON.stringify(item));
  const key = (name: string) => raw(JSON.stringify(name).slice(1, -1));
  const found: string[] = [];
  for (const [name, item] of Object.entries(value)) {
    if (item === null || typeof item !== 'object') found.push(`${key(name)}=${scalar(item)}`);
    else
      for (const [inner, leaf] of Object.entries(item))
        if (leaf === null || typeof leaf !== 'object')
          found.push(`${key(name)}.${Array.isArray(item) ? Number(inner) : key(inner)}=${scalar(leaf)}`);
  }
  return found;
}

describe('JsonObjectScan watching paths', () => {
  it('reports the scalars at the watched paths, whatever the chunks, and nothing deeper', () => {
    fc.assert(
      fc.property(objects, fc.array(fc.nat({ max: 400 }), { maxLength: 8 }), (value, cuts) => {
        const found: string[] = [];
        const scan = new JsonObjectScan({
          patterns: [['*'], ['*', '*']],
          scalar: (path, text) => found.push(`${path.join('.')}=${text}`),
        });
        const bytes = Buffer.from(JSON.stringify(value, null, 1), 'utf8');
        let from = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          scan.feed(bytes.subarray(from, Math.max(from, cut)));
          from = Math.max(from, cut);
        }
        scan.feed(bytes.subarray(from));
        expect(scan.whole).toBe(true);
        expect(found).toEqual(scalarsOf(value));
      }),
    );
  });

  it('reads only the keys along a pattern: a named key, any index of an array', () => {
    const found: string[] = [];
    const scan = new JsonObjectScan({
      patterns: [['a', '*', 'n']],
      scalar: (path, text) => found.push(`${path.join('.')}=${text}`),
    });
    scan.feed(Buffer.from('{"b": {"n": 1}, "a": [{"n": "0x1", "m": 2}, {"x": {"n": 3}}, {"n": true}], "n": 4}'));
    expect(found).toEqual(['a.0.n=0x1', 'a.2.n=true']);
  });
});

describe('keepGoodState', () => {
  it('copies a whole state file aside as the last good snapshot, and leaves the snapshot alone for a cut one', async () => {
    const stateFile = join(dir, 'chain.json');
    writeFileSync(stateFile, '{"accounts": {"0x1": {"nonce": 1}}}');
    expect(await keepGoodState(stateFile)).toBe(true);
    expect(readFileSync(goodStateFile(stateFile), 'utf8')).toBe('{"accounts": {"0x1": {"nonce": 1}}}');
    writeFileSync(stateFile, '{"accounts": {"0x1": {"nonce": 2}');
    expect(await keepGoodState(stateFile)).toBe(false);
    expect(readFileSync(goodStateFile(stateFile), 'utf8')).toBe('{"accounts": {"0x1": {"nonce": 1}}}');
    rmSync(stateFile);
    expect(await keepGoodState(stateFile)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
