import { describe, expect, it } from 'vitest';
import { clampZoom, fitScale, MAX_ZOOM, MIN_ZOOM, zoomStep } from '../../../plugins/session-audit/components/viewer/scale';

describe('session-audit: viewer scale', () => {
  it('fits both the width and the height: the smaller ratio wins', () => {
    // A 200×50 terminal at 15 px (1806 × 850) in a 1024 × 738 window: the width decides.
    expect(fitScale({ width: 1806, height: 850 }, { width: 1024, height: 738 })).toBeCloseTo(1024 / 1806, 6);
    // An 80×24 terminal (722 × 408) in 1280 × 600: the height decides, and it grows.
    expect(fitScale({ width: 722, height: 408 }, { width: 1280, height: 600 })).toBeCloseTo(600 / 408, 6);
    // Both fit exactly: 1.
    expect(fitScale({ width: 400, height: 300 }, { width: 400, height: 300 })).toBe(1);
    const s = fitScale({ width: 1806, height: 850 }, { width: 944, height: 560 });
    expect(1806 * s).toBeLessThanOrEqual(944 + 1e-9);
    expect(850 * s).toBeLessThanOrEqual(560 + 1e-9);
  });

  it('has nothing to fit when either side has no area', () => {
    expect(fitScale({ width: 0, height: 100 }, { width: 800, height: 600 })).toBe(0);
    expect(fitScale({ width: 100, height: 100 }, { width: 800, height: 0 })).toBe(0);
    expect(fitScale({ width: Number.NaN, height: 100 }, { width: 800, height: 600 })).toBe(0);
  });

  it('zooms by levels from wherever the fit left it, within the range', () => {
    expect(zoomStep(1, 1)).toBe(1.1);
    expect(zoomStep(1, -1)).toBe(0.9);
    expect(zoomStep(0.567, 1)).toBe(0.67);
    expect(zoomStep(0.567, -1)).toBe(0.5);
    expect(zoomStep(0.668, 1)).toBe(0.75); // a hair above a level is that level
    expect(zoomStep(MAX_ZOOM, 1)).toBe(MAX_ZOOM);
    expect(zoomStep(MIN_ZOOM, -1)).toBe(MIN_ZOOM);
    expect(zoomStep(9, -1)).toBe(4);
    expect(zoomStep(4, -1)).toBe(3);
    expect(clampZoom(10)).toBe(MAX_ZOOM);
    expect(clampZoom(0.01)).toBe(MIN_ZOOM);
  });
});
