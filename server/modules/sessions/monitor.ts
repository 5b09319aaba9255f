import type { WebSocket } from 'ws';
import { closedFrame } from '../../http/routes.ts';

/*
 * The live monitor's copy of a session (contract §5.2, read-only). A watcher who arrives mid-session must not see a
 * blank terminal, but parsing every byte through a headless terminal to know "the screen" would cost the relay its
 * throughput (terminal-limits: @xterm/headless parses ≈22 MB/s, below the PTY's ≈34). So the session keeps the last
 * RING_CHARS of output, cut at a line start (a newline never sits inside the escape sequences a shell prints), and a
 * new watcher gets a terminal reset followed by that tail: replaying it redraws the screen as it was, colours
 * included. A full-screen program entered before the tail begins shows its later redraws only.
 */

export const RING_CHARS = 128 * 1024;
/** Reset to initial state: the watcher's terminal starts clean before the replay. */
const RESET = '\x1bc';
/** A watcher this far behind is dropped: it never slows the user's relay. */
export const WATCHER_MAX_BUFFERED = 8 * 1024 * 1024;
export const MSG_WATCHER_TOO_SLOW = '监控连接过慢，已断开';

/**
 * The watched terminal's size, told to watchers as the terminal's own resize frame is spelled (`3` + base64 of
 * `{"cols":…,"rows":…}`): first when a watcher joins (before the screen, which was drawn for that size), then at every
 * resize, so a monitor shows the user's columns and rows instead of wrapping them. 1.3.9's monitor ignores the frame.
 */
export const sizeFrame = (cols: number, rows: number): string => `3${Buffer.from(JSON.stringify({ cols, rows })).toString('base64')}`;

export class ScreenRing {
  /** Chunks from `head` on are kept; whole chunks fall off the front, so a push costs O(1) (no copying). */
  private chunks: string[] = [];
  private head = 0;
  private size = 0;

  push(data: string): void {
    this.chunks.push(data);
    this.size += data.length;
    while (this.chunks.length - this.head > 1 && this.size - (this.chunks[this.head] as string).length >= RING_CHARS) {
      this.size -= (this.chunks[this.head] as string).length;
      this.chunks[this.head] = '';
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /** What a new watcher is sent first: a reset, then the tail from its first line start. */
  screen(): string {
    let all = this.chunks.slice(this.head).join('');
    if (all.length > RING_CHARS) {
      all = all.slice(all.length - RING_CHARS);
      const nl = all.indexOf('\n');
      if (nl >= 0) all = all.slice(nl + 1);
    } else if (this.head > 0) {
      // Older output was dropped: start at a line start (never inside an escape sequence).
      const nl = all.indexOf('\n');
      if (nl >= 0) all = all.slice(nl + 1);
    }
    return RESET + all;
  }
}

export class Watchers {
  private readonly sockets = new Set<WebSocket>();
  /** Who watches through each socket: an account disabled or deleted stops watching (cuts.ts). */
  private readonly watcherOf = new Map<WebSocket, string>();

  get count(): number {
    return this.sockets.size;
  }

  add(socket: WebSocket, screen: string, userId: string, size: { cols: number; rows: number }): void {
    this.sockets.add(socket);
    this.watcherOf.set(socket, userId);
    socket.send(sizeFrame(size.cols, size.rows));
    socket.send(`2${screen}`);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.watcherOf.delete(socket);
    });
    socket.on('message', () => {}); // a monitor is read-only: what it sends is ignored
  }

  /** One output flush to every watcher, already framed (`2…`). */
  send(frame: string): void {
    for (const socket of this.sockets) {
      if (socket.readyState !== socket.OPEN) continue;
      if (socket.bufferedAmount > WATCHER_MAX_BUFFERED) {
        this.sockets.delete(socket);
        socket.send(closedFrame(MSG_WATCHER_TOO_SLOW));
        socket.close(1000);
        continue;
      }
      socket.send(frame);
    }
  }

  /** These accounts stop watching, with the reason; resolves how many sockets were closed. */
  drop(userIds: ReadonlySet<string>, message: string): number {
    let dropped = 0;
    for (const socket of this.sockets) {
      if (!userIds.has(this.watcherOf.get(socket) ?? '')) continue;
      this.sockets.delete(socket);
      if (socket.readyState === socket.OPEN) {
        socket.send(closedFrame(message));
        socket.close(1000);
      }
      dropped += 1;
    }
    return dropped;
  }

  /** The session ended: every watcher gets the reason. */
  close(message: string): void {
    for (const socket of this.sockets) {
      if (socket.readyState === socket.OPEN) {
        socket.send(closedFrame(message));
        socket.close(1000);
      }
    }
    this.sockets.clear();
  }
}
