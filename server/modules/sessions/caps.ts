import type { SessionDeps } from './deps.ts';
import { both, text } from '../../lib/i18n.ts';

/*
 * Per-account caps on sessions (issue 28 rule 6): one account cannot hold the server's connections to hosts, PTYs and
 * recordings hostage, nor fill the sessions table, however many requests it sends.
 *  - live sessions: at most `config.sessionLiveMax` (JUMPGATE_SESSION_LIVE_MAX, default 10) running or being attached
 *    at once — checked at `POST /sessions` and again at the attach (sessions opened earlier wait unattached);
 *  - `POST /sessions`: at most `config.sessionCreatePerMinute` (JUMPGATE_SESSION_CREATE_PER_MINUTE, default 30) per
 *    account in any 60 s (a sliding window; refused calls do not count).
 * Every account, the super admin included: the caps protect the server, not a permission. In memory, per process.
 */

export const WINDOW_MS = 60_000;

/** The attach's refusal (a closed frame, said per socket: no number in it). */
export const MSG_LIVE_CAP = text('在线会话数已达上限，请先关闭不用的会话', 'You have the most sessions open that are allowed; close one first');

export const liveCapRefusal = (max: number) =>
  both(`在线会话数已达上限（最多 ${max} 个），请先关闭不用的会话`, `You have the most sessions open that are allowed (${max}); close one first`);
export const rateRefusal = (perMinute: number) =>
  both(`创建会话过于频繁：每分钟最多 ${perMinute} 个，请稍后再试`, `Too many new sessions: at most ${perMinute} a minute; try again shortly`);

/** A sliding one-minute window of `POST /sessions` per account. */
export class CreationWindow {
  private readonly times = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  /** Counts a call at `now` and says true, or says false (and counts nothing) when the account is at its limit. */
  take(userId: string, now: number): boolean {
    const since = now - WINDOW_MS;
    const kept = (this.times.get(userId) ?? []).filter((t) => t > since);
    if (kept.length >= this.perMinute) {
      this.times.set(userId, kept);
      return false;
    }
    kept.push(now);
    this.times.set(userId, kept);
    // Bounded: accounts whose calls are all older than the window go (at most one entry per active account remains).
    if (this.times.size > 10_000) for (const [id, ts] of this.times) if (!ts.some((t) => t > since)) this.times.delete(id);
    return true;
  }
}

/** The account's sessions that hold a connection: live (deps.live) plus those being attached now (`attaching`). */
export function liveSessionsOf(deps: Pick<SessionDeps, 'live'>, attaching: ReadonlyMap<string, string>, userId: string): number {
  let n = 0;
  for (const s of deps.live.all()) if (s.creator === userId) n++;
  for (const [sessionId, by] of attaching) if (by === userId && !deps.live.get(sessionId)) n++;
  return n;
}
