import mitt, { type Emitter } from 'mitt';
import type { Lng } from '../plugin/types';
import type { SessionUser } from '../session/store';

export interface NotifyPayload {
  intent: 'success' | 'error' | 'warning' | 'info';
  message: string;
  title?: string;
  /** toast (3 s, default) or notification (4.5 s). */
  kind?: 'toast' | 'notification';
}

/** Every cross-cutting event of the console. Adding one is a reviewed change to core. */
export type CoreEvents = {
  notify: NotifyPayload;
  /** The server said the token is missing or expired (HTTP or body 401). */
  'session:expired': { reason: 'http-401' | 'body-401' };
  /** Sign-in, user refresh or logout. */
  'session:changed': { user: SessionUser | null };
  /** Body 403 from the server. */
  'permission:denied': { url: string };
  'locale:changed': { lng: Lng };
};

export type EventBus = Emitter<CoreEvents>;

export function createEventBus(): EventBus {
  return mitt<CoreEvents>();
}
