import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Without vitest globals RTL does not register its own cleanup; Fluent's tabster also needs the DOM torn down per test.
afterEach(() => cleanup());

// Fluent's first dialog/menu render is slow in jsdom, and the machines running the suite are shared (2 cores): every
// console test, the guide's walkthrough included, waits up to 5 s for what it looks for.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: `offsetParent` is always null and <body> measures 0×0, so Fluent's focus manager (tabster)
// sees every element as invisible. A dialog then finds nothing to focus and focuses its surface, and on a busy run
// tabster's modal bookkeeping can leave that surface aria-hidden (role queries never find it). Pretend attached
// elements are laid out, for every console test.
Object.defineProperty(window.HTMLElement.prototype, 'offsetParent', {
  configurable: true,
  get(this: HTMLElement) {
    return this.isConnected ? this.parentElement : null;
  },
});
document.body.getBoundingClientRect = () => new DOMRect(0, 0, 1024, 768);

// jsdom has no ResizeObserver; Fluent's MessageBar and positioning need one.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// jsdom has no matchMedia; xterm.js asks it for the device pixel ratio when a terminal opens.
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
