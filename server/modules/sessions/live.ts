import type { WebSocket } from 'ws';
import { text } from '../../lib/i18n.ts';

/*
 * The sessions live in this process: the attach flow (attach.ts) registers each session once its relay is connected
 * and removes it when it ends. Everything that acts on a running session goes through here — the monitor, forced
 * disconnect, the access cuts, and what a relay adds (the SSH relay's file manager and stats panel) — so there is
 * one place that knows what is running. In memory, per server process (1.3.9 did the same).
 */

/** Close codes and reasons (contract §5.4). The reason is stored and sent in zh-CN, said in the caller's language at the edges. */
export const CLOSE = {
  tunnelClosed: { code: -1, message: text('远程连接已关闭', 'The remote connection closed') },
  normal: { code: 0, message: text('用户正常退出', 'The user left') },
  notFound: { code: 800, message: text('获取会话失败', 'Session not found') },
  forced: { code: 802, message: text('管理员强制关闭了此会话', 'An administrator closed this session') },
  offline: { code: 805, message: text('会话离线', 'The session is offline') },
  /** The browser stopped answering pings (terminal-session.ts heartbeat). */
  clientGone: { code: 805, message: text('客户端无响应，会话已结束', 'The browser stopped responding; the session ended') },
  /** Typed input waited for the remote program for minutes (terminal-session.ts INPUT_STALL_BEATS). */
  inputStalled: { code: 805, message: text('远程主机长时间未读取输入，会话已结束', 'The remote host stopped reading input; the session ended') },
  /**
   * The recording could not be written (policy `end`, config.ts recordingFailure): sent and stored as
   * `<message>：<why>`, the why from recording.ts failureReason (磁盘已满…).
   */
  recordingFailed: { code: 805, message: text('录像无法写入，会话已结束', 'The recording could not be written; the session ended') },
  /** The recording could not start (policy `end`): the session is refused at attach, `<message>：<why>`. */
  recordingRefused: { code: 805, message: text('录像无法写入，会话未建立', 'The recording could not be written; the session was not opened') },
  // An administrator's change ended these (802 as a forced close; the terminal shows the message).
  denied: { code: 802, message: text('您没有权限访问此资产', 'You may not open this asset') },
  revoked: { code: 802, message: text('您对此资产的访问权限已被收回，会话已关闭', 'Your access to this asset was withdrawn; the session closed') },
  accountDisabled: { code: 802, message: text('账号已被禁用，会话已关闭', 'The account was disabled; the session closed') },
  accountDeleted: { code: 802, message: text('账号已被删除，会话已关闭', 'The account was deleted; the session closed') },
  assetDeleted: { code: 802, message: text('资产已被删除，会话已关闭', 'The asset was deleted; the session closed') },
  /** The server is stopping (SIGTERM, app.close): −1 as the remote side going away, with what happened. */
  serverStopped: { code: -1, message: text('服务停止，会话已结束', 'The server stopped; the session ended') },
} as const;

export type CloseReason = { readonly code: number; readonly message: string };

export interface LiveSession {
  readonly id: string;
  /** users.id of who opened it: nobody else may attach to it or use its files. */
  readonly creator: string;
  readonly assetId: string;
  /** What the session offers besides ending it; a relay gives those its protocol has. */
  readonly capabilities: Capabilities;
  /**
   * Ends the session: the user's terminal gets a Closed frame with the message, the row records code and message.
   * Resolves once the row, the recording and the command index are written (callers may ignore it).
   */
  close(code: number, message: string): Promise<void>;
}

/** An administrator may watch the session's output live (monitor.ts). */
export interface Watch {
  /** A monitor joins: it gets the current screen, then every output. */
  watch(socket: WebSocket, userId: string): void;
  /** These accounts' monitor sockets close with the message (disabled or deleted while watching); returns how many. */
  drop(userIds: ReadonlySet<string>, message: string): number;
}

/**
 * A live session's capabilities, each optional. The core knows `watch` and `exec`; a relay declares more for its own
 * routes by merging into this interface (`declare module '../live.ts'`, as ssh/capabilities.ts does for `files`).
 */
export interface Capabilities {
  watch?: Watch;
  /** Runs a command on the host; resolves with its output (the stats panel). Rejects with the answer to send. */
  exec?: (command: string, timeoutMs: number) => Promise<string>;
}

export interface LiveSessions {
  get(id: string): LiveSession | undefined;
  add(session: LiveSession): void;
  /** Only removes `session` if it is still the one registered under its id. */
  remove(session: LiveSession): void;
  all(): LiveSession[];
  /** Ends every session `test` picks with `reason`; resolves, with how many, once their rows are written. */
  endWhere(test: (session: LiveSession) => boolean, reason: CloseReason): Promise<number>;
  /**
   * The server stops: every session ends with `reason` (each client gets its `0<reason>`, each row the code and message,
   * each recording is flushed), and a session registered from now on ends at once the same way. Resolves once their
   * rows are written, or after `deadlineMs` at the latest: a stop never waits on a stuck disk. Says how many did not
   * finish in time.
   */
  closeAll(reason?: CloseReason, deadlineMs?: number): Promise<{ ended: number; unfinished: number }>;
  /** The stop's reason once closeAll was called (an attach that completes during the stop ends with it). */
  readonly stopping: CloseReason | undefined;
}

/** How long a stop waits for the sessions' rows and recordings (closeAll's default deadline). */
export const STOP_DEADLINE_MS = 5000;

export function createLiveSessions(): LiveSessions {
  const byId = new Map<string, LiveSession>();
  let stopping: CloseReason | undefined;
  return {
    get stopping() {
      return stopping;
    },
    get: (id) => byId.get(id),
    add: (session) => {
      byId.set(session.id, session);
      if (stopping) void session.close(stopping.code, stopping.message);
    },
    remove: (session) => {
      if (byId.get(session.id) === session) byId.delete(session.id);
    },
    all: () => [...byId.values()],
    endWhere: async (test, reason) => {
      const picked = [...byId.values()].filter(test);
      await Promise.all(picked.map((s) => s.close(reason.code, reason.message)));
      return picked.length;
    },
    closeAll: async (reason = CLOSE.serverStopped, deadlineMs = STOP_DEADLINE_MS) => {
      stopping ??= reason;
      const { code, message } = stopping;
      let finished = 0;
      const ending = [...byId.values()].map((s) =>
        s.close(code, message).then(
          () => void finished++,
          () => void finished++, // a session's close logs its own failure
        ),
      );
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadlineMs);
      });
      await Promise.race([Promise.all(ending), late]);
      clearTimeout(timer);
      return { ended: ending.length, unfinished: ending.length - finished };
    },
  };
}
