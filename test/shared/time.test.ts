import { describe, expect, it } from 'vitest';
import { type Clock, isoNow } from '../../server/shared/time.js';

const at = (ms: number): Clock => ({ now: () => new Date(ms) });

describe('isoNow', () => {
  it('gives each instant its own text, whichever clock asks and in whatever order (the last one is reused only for the same millisecond)', () => {
    const t = Date.UTC(2026, 10, 29, 21, 58, 0, 123);
    for (const ms of [t, t, t + 1, t, t - 86_400_000, t + 1, t + 1]) expect(isoNow(at(ms))).toBe(new Date(ms).toISOString());
  });

  it('refuses an invalid instant every time, as Date does', () => {
    expect(() => isoNow(at(Number.NaN))).toThrow(RangeError);
    expect(() => isoNow(at(Number.NaN))).toThrow(RangeError);
    expect(isoNow(at(0))).toBe('1970-01-01T00:00:00.000Z');
  });
});
