// The reference of bench:terminal's browser part: the same xterm.js (DOM renderer, our terminal's options) parsing
// the bytes a `cat` would bring, written locally with the flow control our /term page uses (pause above 1 MiB pending).
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';

const CHUNK = 64 * 1024;
const HIGH = 1024 * 1024;
const LOW = 256 * 1024;

declare global {
  interface Window {
    /** Fetches `url`, then writes it into a terminal of `width`×`height` px; resolves with the ms from first write to last parsed. */
    benchLocal(url: string, width: number, height: number): Promise<number>;
  }
}

window.benchLocal = async (url, width, height) => {
  const data = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const box = document.getElementById('t') as HTMLElement;
  box.replaceChildren();
  box.style.width = `${width}px`;
  box.style.height = `${height}px`;
  const term = new Terminal({ fontSize: 15, fontFamily: 'Menlo, Monaco, Consolas, "Courier New", monospace', scrollback: 5000, theme: { background: '#1b1b1b' } });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.open(box);
  fit.fit();
  const started = performance.now();
  await new Promise<void>((resolve) => {
    let offset = 0;
    let pending = 0;
    const pump = () => {
      while (offset < data.length && pending < HIGH) {
        const chunk = data.subarray(offset, offset + CHUNK);
        offset += chunk.length;
        pending += chunk.length;
        const last = offset >= data.length;
        term.write(chunk, () => {
          pending -= chunk.length;
          if (last) resolve();
          else if (pending < LOW) pump();
        });
      }
    };
    pump();
  });
  const ms = performance.now() - started;
  term.dispose();
  return ms;
};
