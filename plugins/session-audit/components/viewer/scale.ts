/** A width and a height in CSS pixels. */
export interface Extent {
  width: number;
  height: number;
}

/**
 * The largest scale at which `content` fits inside `box` on both axes (the smaller of the two ratios); 0 when either
 * has no area (a hidden window, a terminal not laid out yet): nothing to fit.
 */
export function fitScale(content: Extent, box: Extent): number {
  if (!(content.width > 0 && content.height > 0 && box.width > 0 && box.height > 0)) return 0;
  return Math.min(box.width / content.width, box.height / content.height);
}

/** The zoom levels the buttons step through, as a browser's: 1 is the terminal's own font size. */
export const ZOOM_LEVELS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4] as const;
export const MIN_ZOOM = ZOOM_LEVELS[0];
export const MAX_ZOOM = ZOOM_LEVELS[ZOOM_LEVELS.length - 1] as number;

/** Keeps a scale within the zoom range. */
export const clampZoom = (scale: number): number => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));

/**
 * The next zoom level above (`direction` 1) or below (-1) `scale`: from a fitted scale between two levels, the nearest
 * level on that side; at either end of the range, that end.
 */
export function zoomStep(scale: number, direction: 1 | -1): number {
  const epsilon = 0.005;
  if (direction === 1) return ZOOM_LEVELS.find((level) => level > scale + epsilon) ?? MAX_ZOOM;
  return [...ZOOM_LEVELS].reverse().find((level) => level < scale - epsilon) ?? MIN_ZOOM;
}
