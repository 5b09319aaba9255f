import { execFile } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { SessionDeps } from '../deps.ts';
import { ConnectError, gatewayError, type Target, ReachError, reach } from '../reach.ts';
import { CertificateError, readServerCertificate } from './certificate.ts';
import { type Display, markerOf, startDisplay } from './display.ts';
import { type FreeRdp, type RdpFlags, RdpArgumentError, pipeOnce, startFreeRdp } from './freerdp.ts';
import { certificateChanged, certificateFailure, connectFailure, endReason, RDP_FAILED, REASON } from './reasons.ts';
import type { DesktopSlots } from './supervise.ts';

/*
 * One RDP desktop: a slot of the cap, the server certificate checked against the pin (certificate.ts), the session's
 * Xvnc (display.ts), xfreerdp in it (freerdp.ts), until FreeRDP's window appears in the display (it creates it once
 * connected and logged in: `xwininfo` finds its WM_CLASS, the session's marker). What the relay then serves is the
 * Xvnc's Unix socket (`socketPath`, security type None) — exactly as a VNC asset.
 */

const CONNECT_TIMEOUT_MS = 30_000;
const REACH_TIMEOUT_MS = 10_000;
const XWININFO = '/usr/bin/xwininfo';

export interface DesktopRequest {
  deps: Pick<SessionDeps, 'gateways'>;
  sessionId: string;
  target: Target;
  username: string;
  password: string;
  /** The asset's pinned fingerprint (`SHA256:…`), null on first use. */
  pinned: string | null;
  attributes: ReadonlyMap<string, string>;
  flags: RdpFlags;
  width: number;
  height: number;
  slots: DesktopSlots;
  /** Where session folders go (short: a Unix socket lives there). */
  baseDir?: string;
  /** Called once the first login succeeded with nothing pinned: the caller pins it (assets.host_key). */
  pin?(fingerprint: string): Promise<void>;
  connectTimeoutMs?: number;
}

export interface Desktop {
  readonly socketPath: string;
  readonly display: Display;
  readonly freerdp: FreeRdp;
  /** The certificate this session was checked against, and its name. */
  readonly fingerprint: string;
  readonly certificateName: string;
  /** Resolves with the row's message when FreeRDP or the display ends by itself. */
  readonly ended: Promise<string>;
  /** Ends FreeRDP and the display, frees the slot. Idempotent. */
  stop(): Promise<void>;
}

/** A reach() failure in the RDP relay's words (gateway ones as every relay's: 803/804). */
function reachFailure(err: ReachError): ConnectError {
  if (err.via === 'gateway') return gatewayError(err.message);
  const m = err.message;
  const reason = /连接被拒绝|ECONNREFUSED/.test(m)
    ? REASON.refused
    : /超时|ETIMEDOUT/.test(m)
      ? REASON.timeout
      : /不可达|UNREACH/.test(m)
        ? REASON.unreachable
        : /无法解析|ENOTFOUND/.test(m)
          ? REASON.dns
          : REASON.unknown;
  return new ConnectError(806, `${RDP_FAILED}：${reason}（${err.via === 'proxy' ? 'SOCKS 代理：' : ''}${m}）`);
}

const reachOrFail = (req: DesktopRequest): Promise<Duplex> =>
  reach(req.deps, req.target, REACH_TIMEOUT_MS).catch((err: unknown) => Promise.reject(err instanceof ReachError ? reachFailure(err) : err));

/** Whether FreeRDP's window (WM_CLASS = the marker) is on the display. */
function windowShown(display: Display, marker: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(XWININFO, ['-root', '-children', '-display', `:${display.display}`], { env: { XAUTHORITY: display.xauthority, PATH: '/usr/bin:/bin' }, timeout: 2000 }, (err, stdout) =>
      resolve(!err && stdout.includes(`"${marker}"`)),
    );
  });
}

export async function openRdpDesktop(req: DesktopRequest): Promise<Desktop> {
  const release = req.slots.acquire();
  let display: Display | undefined;
  let freerdp: FreeRdp | undefined;
  let pipe: { close(): void } | undefined;
  const cleanup = async () => {
    pipe?.close();
    await freerdp?.stop();
    await display?.stop();
    release();
  };
  try {
    if (req.attributes.get('security') === 'rdp') throw new ConnectError(806, `${RDP_FAILED}：${REASON.rdpOnly}`);
    // 1. The certificate, before anything is started or sent.
    const certificate = await readServerCertificate(await reachOrFail(req)).catch((err: unknown) =>
      Promise.reject(err instanceof CertificateError ? certificateFailure(err) : err),
    );
    if (req.pinned !== null && certificate.fingerprint !== req.pinned) throw certificateChanged(req.pinned, certificate.fingerprint, certificate.name);
    const fingerprint = req.pinned ?? certificate.fingerprint;

    // 2. The display, and FreeRDP in it (dialing the host itself, or the loopback pipe to a gateway's or proxy's socket).
    display = await startDisplay({ sessionId: req.sessionId, width: req.width, height: req.height, baseDir: req.baseDir });
    let dial = { host: req.target.host, port: req.target.port };
    if (req.target.socks || req.target.accessGatewayId) {
      const p = await pipeOnce(() => reachOrFail(req), () => freerdp?.pid);
      pipe = p;
      dial = { host: '127.0.0.1', port: p.port };
    }
    try {
      freerdp = startFreeRdp(req.sessionId, display, { ...dial, username: req.username, fingerprint, attributes: req.attributes }, req.password, req.flags);
    } catch (err) {
      if (err instanceof RdpArgumentError) throw new ConnectError(806, `${RDP_FAILED}：${REASON.started}（${err.message}）`);
      throw err;
    }

    // 3. Connected when its window appears; failed when it exits first.
    const marker = markerOf(req.sessionId);
    const running = freerdp;
    const deadline = Date.now() + (req.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    let exit: Awaited<FreeRdp['exited']> | undefined;
    void running.exited.then((e) => {
      exit = e;
    });
    for (;;) {
      if (exit) throw connectFailure(exit);
      if (await windowShown(display, marker)) break;
      if (exit) throw connectFailure(exit);
      if (Date.now() > deadline) throw new ConnectError(806, `${RDP_FAILED}：${REASON.timeout}（FreeRDP ${(req.connectTimeoutMs ?? CONNECT_TIMEOUT_MS) / 1000} s）`);
      await new Promise((r) => setTimeout(r, 200));
    }
    if (req.pinned === null) await req.pin?.(certificate.fingerprint);

    const shown = display;
    let stopped: Promise<void> | undefined;
    const ended = Promise.race([
      running.exited.then(endReason),
      shown.exited.then(() => `${RDP_FAILED}：${REASON.started}（Xvnc exited）`),
    ]);
    return {
      socketPath: shown.socketPath,
      display: shown,
      freerdp: running,
      fingerprint,
      certificateName: certificate.name,
      ended,
      stop() {
        stopped ??= cleanup();
        return stopped;
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
