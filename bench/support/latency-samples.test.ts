import { describe, expect, it } from 'vitest';
import { floorOf, judge, LatencySamples, spreadOf } from './latency-samples.js';

const roundTrip = spreadOf([1, 1, 2, 4]);
const fdatasync = spreadOf([0.5, 0.5, 0.5, 1]);

describe('the floors and targets of bench:latency', () => {
  it('adds an fdatasync to the round trip for saves only, at each percentile', () => {
    expect(floorOf('save resting', roundTrip, fdatasync)).toEqual({ p50: 1.5, p99: 5 });
    expect(floorOf('save crossing', roundTrip, fdatasync)).toEqual({ p50: 1.5, p99: 5 });
    expect(floorOf('cancel', roundTrip, fdatasync)).toEqual({ p50: 1, p99: 4 });
  });

  it('holds a save to three times its floor at p50 and at p99', () => {
    const floor = { p50: 2, p99: 5 };
    expect(judge('save resting', spreadOf([6, 15]), floor)).toEqual({ ratioP50: 3, ratioP99: 3, passed: true });
    expect(judge('save resting', spreadOf([7, 15]), floor).passed).toBe(false);
    expect(judge('save resting', spreadOf([6, 16]), floor).passed).toBe(false);
  });

  it('holds a build or a cancel acknowledgement to three times the round trip at p99 alone', () => {
    const floor = { p50: 1, p99: 4 };
    expect(judge('build', spreadOf([10, 12]), floor)).toEqual({ ratioP50: 10, ratioP99: 3, passed: true });
    expect(judge('cancel/all', spreadOf([1, 13]), floor).passed).toBe(false);
  });

  it('keeps each key kind apart and averages body sizes over both', () => {
    const samples = new LatencySamples();
    samples.record('cancel', 'ed25519', 3, 19, 233);
    samples.record('cancel', 'secp256k1', 2, 19, 234);
    samples.record('cancel', 'ed25519', 1, 20, 234);
    expect(samples.sorted('cancel', 'ed25519')).toEqual([1, 3]);
    expect(samples.sorted('cancel', 'secp256k1')).toEqual([2]);
    expect(samples.count('cancel')).toBe(3);
    expect(samples.sizes('cancel')).toEqual({ request: 19, answer: 234 });
  });
});
