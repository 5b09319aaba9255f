import { expect, onTestFinished } from 'vitest';
import { type FakeSockets, type FakeWebSocket, installFakeWebSocket } from '@/core/testing';
import { waitFor } from '@testing-library/react';


/** POST /sessions as our server answers it: every flag allowed. */
export const ALL_FLAGS = {
  upload: '1',
  download: '1',
  delete: '1',
  rename: '1',
  edit: '1',
  createDir: '1',
  storageId: '',
  fileSystem: '1',
  copy: '1',
  paste: '1',
};

/** A fake POST /sessions handing out s1, s2… with `flags`. */
export function sessionMaker(flags: Partial<typeof ALL_FLAGS> = {}) {
  let n = 0;
  return () => ({ ...ALL_FLAGS, ...flags, id: `s${++n}` });
}

/** Fake WebSockets for this test, restored when it ends. */
export function fakeSockets(): FakeSockets {
  const sockets = installFakeWebSocket();
  onTestFinished(() => sockets.restore());
  return sockets;
}

/** Waits for socket number `index` (0-based), opens it, and has the server say the shell is up. */
export async function connectSocket(sockets: FakeSockets, index = 0): Promise<FakeWebSocket> {
  // xterm's chunk loads first: on a loaded machine that takes more than waitFor's default second.
  await waitFor(() => expect(sockets.all.length).toBeGreaterThan(index), { timeout: 10_000 });
  const socket = sockets.all[index] as FakeWebSocket;
  socket.serverOpens();
  socket.serverSends('1');
  return socket;
}

/** The text xterm shows (its DOM renderer's rows). */
export function screenText(container: HTMLElement): string {
  return Array.from(container.querySelectorAll('.xterm-rows > div'))
    .map((row) => row.textContent ?? '')
    .join('\n');
}
