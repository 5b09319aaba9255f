import type { WebSocket } from 'ws';
import { closedFrame } from '../../http/routes.ts';
import { FLAGS } from '../../policy/strategies.ts';
import { sessionAccess } from './access.ts';
import { liveSessionsOf, MSG_LIVE_CAP } from './caps.ts';
import type { SessionDeps } from './deps.ts';
import { CLOSE } from './live.ts';
import { failureCode, failureReason, type Recorder, type Recording, RecordingStartError } from './recording.ts';
import { ConnectError, isDesktop, type Opened, type Relay } from './relay.ts';
import { DesktopSession } from './desktop-session.ts';
import { rfbRecordingHeader } from './vnc/rfb-recording.ts';
import { recordingPath } from './shared.ts';
import { targetOf } from './reach.ts';
import { TerminalSession } from './terminal-session.ts';

/*
 * The one attach flow, for every relay (contract §5.1): `GET <relay's attach path>` checks the session (the caller's
 * own, of the relay's protocol, never attached), the per-account cap, and asks the access rule again (a session made
 * while granted is no key once the grant is gone, audit H2 C2); the relay connects; the core starts the recording,
 * writes the row, registers the live session, asks the rule once more and sends `1`. Failures before that:
 * `0<reason>`, the row `disconnected`. Every way out that does not hand the connection to the live session ends it.
 */

export const MSG_SESSION_NOT_FOUND = CLOSE.notFound.message;

/**
 * The sessions being attached right now (id → creator): a second attach while the first is still connecting is
 * refused, and they count towards their creator's live sessions (caps.ts).
 */
const attaching = new Map<string, string>();

/** The live sessions of `userId`, those being attached included (caps.ts: POST /sessions asks it too). */
export const liveCountOf = (deps: Pick<SessionDeps, 'live'>, userId: string): number => liveSessionsOf(deps, attaching, userId);

export async function attach(
  deps: SessionDeps,
  relay: Relay,
  recorder: Recorder,
  args: { sessionId: string; userId: string; socket: WebSocket; cols: number; rows: number; pixels?: { width: number; height: number } },
): Promise<void> {
  const { db, clock } = deps;
  const { sessionId, socket, cols, rows } = args;
  const row = await db.selectFrom('sessions').select(['creator', 'status', 'protocol', 'assetId']).where('id', '=', sessionId).executeTakeFirst();
  // Anyone else, another state, another protocol, a second attach: one answer that does not reveal the session exists.
  if (!row || row.creator !== args.userId || row.status !== 'no_connect' || row.protocol !== relay.protocol || attaching.has(sessionId) || deps.live.get(sessionId)) {
    socket.send(closedFrame(MSG_SESSION_NOT_FOUND));
    socket.close(1000);
    return;
  }
  // The per-account cap (caps.ts), counted and taken with no wait in between: parallel attaches cannot all pass.
  if (liveCountOf(deps, args.userId) >= deps.config.sessionLiveMax) {
    socket.send(closedFrame(MSG_LIVE_CAP));
    socket.close(1000);
    await db.updateTable('sessions').set({ status: 'disconnected', disconnectedTime: clock.now(), code: -1, message: MSG_LIVE_CAP }).where('id', '=', sessionId).execute();
    return;
  }
  attaching.set(sessionId, args.userId);
  let userLeft = false;
  const onEarlyClose = () => {
    userLeft = true;
  };
  socket.on('close', onEarlyClose);
  // Until the terminal takes over, frames are not read (the client waits for `1` before sending anything).
  // `detail` (the row's message, admins only) may name the asset's address; the user's frame never does.
  const end = async (code: number, message: string, detail = message) => {
    if (socket.readyState === socket.OPEN) {
      socket.send(closedFrame(message));
      socket.close(1000);
    }
    await db.updateTable('sessions').set({ status: 'disconnected', disconnectedTime: clock.now(), code, message: detail }).where('id', '=', sessionId).execute();
  };
  /** A connect failure: the user reads the relay's fixed reason, the row and the log keep the detail. */
  const failed = (code: number, detail: string) => {
    deps.log.warn({ sessionId, assetId: row.assetId, code, reason: detail }, 'terminal session could not connect');
    return end(code, relay.userReason ? relay.userReason(code, detail) : detail, detail);
  };
  let opened: Opened | undefined;
  let handedOver = false;

  try {
    const access = await sessionAccess(db, args.userId, row.assetId, clock.now());
    if (!access) return await end(CLOSE.denied.code, CLOSE.denied.message);
    try {
      opened = await relay.open({
        deps,
        sessionId,
        userId: args.userId,
        assetId: row.assetId,
        cols,
        rows,
        pixels: args.pixels,
        target: () => targetOf(deps, row.assetId),
        userLeft: () => userLeft,
      });
    } catch (err) {
      // A relay that saw the user leave stops with code 0: as a leave, not a failure.
      if (err instanceof ConnectError) {
        if (!userLeft || err.code !== CLOSE.normal.code) return await failed(err.code, err.message);
        const left = deps.live.stopping ?? err; // the socket closed by the server's stop is not the user leaving
        return await end(left.code, left.message);
      }
      throw err;
    }
    if (userLeft) {
      const left = deps.live.stopping ?? CLOSE.normal;
      return await end(left.code, left.message);
    }
    const { link } = opened;
    const desktop = isDesktop(link) ? link : undefined;
    // The connection may end while the row is written below, before the session listens for it.
    let linkEnded = false;
    (isDesktop(link) ? link.connection.socket : link.stream).once('close', () => {
      linkEnded = true;
    });
    // A recording that cannot start (its header cannot be written: a full disk…): under the `end` policy the session is
    // refused, under `continue` it goes on unrecorded and its row says why and when (config.ts recordingFailure).
    let recording: Recording | undefined;
    let unrecorded: { recordingFailure: string; recordingFailedAt: number } | undefined;
    try {
      recording = await recorder.start(
        sessionId,
        relay.recordingFile,
        desktop ? { raw: rfbRecordingHeader(desktop.connection.init, new Date(clock.now())) } : { width: cols, height: rows, timestamp: Math.floor(clock.now() / 1000) },
      );
    } catch (err) {
      const code = err instanceof RecordingStartError ? err.code : failureCode(err);
      const policy = deps.config.recordingFailure;
      deps.log.warn({ err, sessionId, file: recordingPath(deps.config, sessionId, relay.recordingFile), code, policy }, 'recording could not start');
      if (policy === 'end') return await end(CLOSE.recordingRefused.code, `${CLOSE.recordingRefused.message}：${failureReason(code)}`);
      unrecorded = { recordingFailure: code, recordingFailedAt: clock.now() };
    }
    const flags = Object.fromEntries(FLAGS.map((f) => [f, access.flags[f]]));
    // A desktop's row has its framebuffer's size (pixels), a terminal's its columns and rows.
    const [width, height] = desktop ? [desktop.connection.init.width, desktop.connection.init.height] : [cols, rows];
    try {
      // The flags are the current decision's (the strategy may have changed since POST /sessions).
      const file = recording ? recordingPath(deps.config, sessionId, relay.recordingFile) : '';
      await db
        .updateTable('sessions')
        .set({ status: 'connecting', username: opened.username, connectionId: sessionId, width, height, recording: file, ...flags, strategyId: access.strategyId, ...unrecorded })
        .where('id', '=', sessionId)
        .execute();
    } catch (err) {
      await recording?.end();
      throw err;
    }
    socket.off('close', onEarlyClose);
    const base = { id: sessionId, creator: args.userId, assetId: row.assetId, socket, recording };
    const session = isDesktop(link)
      ? new DesktopSession(deps, { ...base, link, clipboard: { copy: access.flags.copy === 1, paste: access.flags.paste === 1 } })
      : new TerminalSession(deps, { ...base, link, size: { cols, rows }, capabilities: opened.capabilities });
    handedOver = true;
    deps.live.add(session);
    if (userLeft || socket.readyState !== socket.OPEN) return await session.close(CLOSE.normal.code, CLOSE.normal.message);
    if (linkEnded) return await session.close(CLOSE.tunnelClosed.code, CLOSE.tunnelClosed.message);
    // Asked once more now that the session is registered: a grant removed while the relay connected either sees this
    // session in its cut, or is seen here.
    if (!(await sessionAccess(db, args.userId, row.assetId, clock.now()))) return await session.close(CLOSE.denied.code, CLOSE.denied.message);
    socket.send('1');
    // A desktop's RFB starts after `1`: the bastion plays the RFB server to the browser (desktop-session.ts).
    if (session instanceof DesktopSession) session.start();
  } finally {
    attaching.delete(sessionId);
    if (!handedOver) opened?.link.end();
  }
}
