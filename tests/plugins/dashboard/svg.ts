// jsdom lays nothing out: the chart library measures SVG text and canvas text to place labels. These stand-ins
// give every text a plausible size, so the charts render their real SVG (with its accessible names) in tests.
const svg = SVGElement.prototype as unknown as Record<string, unknown>;
svg.getComputedTextLength ??= function (this: SVGElement) {
  return (this.textContent?.length ?? 0) * 7;
};
svg.getBBox ??= () => ({ x: 0, y: 0, width: 40, height: 12 });
// biome-ignore lint/suspicious/noExplicitAny: a minimal 2D context, only measureText is read
HTMLCanvasElement.prototype.getContext = (() => ({ font: '', measureText: (text: string) => ({ width: text.length * 7 }) })) as any;
