import { parsePattern } from '../../../lib/pattern.ts';
import type { TelnetStream } from './stream.ts';

export { parsePattern };

/*
 * The bastion logs in for the user (contract §3.4 telnet attributes): it types the asset's user name at the login
 * prompt and its password at the password prompt, then watches for the shell (success) or a refusal (failure). What the
 * host sent meanwhile is held back and given to the user's terminal once it is over (the prompts and the user name
 * show; the password never does: telnetd does not echo it, and any copy of it in the held output is cut out). The
 * typed bytes go to the host directly, never through the terminal's input: they are not recorded, indexed or watched.
 * Bounded: after LOGIN_TIMEOUT_MS or LOGIN_MAX_BYTES of output the automation gives up and leaves the user at the
 * prompt, as with no user name on the asset.
 */

export const LOGIN_TIMEOUT_MS = 10_000;
export const LOGIN_MAX_BYTES = 64 * 1024;
/** What a pattern is matched against: the tail of the output since the last thing typed. */
const WINDOW = 4096;

export interface LoginPatterns {
  username: RegExp;
  password: RegExp;
  /** Undefined: success is the output after the password that is neither a refusal nor a new prompt, once it pauses. */
  success: RegExp | undefined;
  failure: RegExp;
}

export const DEFAULT_PATTERNS: LoginPatterns = {
  username: /(login|username|user name):\s*$/i,
  password: /password:\s*$/i,
  success: undefined,
  failure: /login incorrect|incorrect password|authentication failed|access denied|login failed|bad password|permission denied/i,
};

/** The patterns of an asset's attributes; `invalid` names those that were set but could not be read (defaults used). */
export function patternsOf(attributes: ReadonlyMap<string, string>): { patterns: LoginPatterns; invalid: string[] } {
  const invalid: string[] = [];
  const read = (name: string): RegExp | undefined => {
    const value = attributes.get(name);
    const pattern = parsePattern(value);
    if (value?.trim() && !pattern) invalid.push(name);
    return pattern;
  };
  const patterns: LoginPatterns = {
    username: read('username-regex') ?? DEFAULT_PATTERNS.username,
    password: read('password-regex') ?? DEFAULT_PATTERNS.password,
    success: read('login-success-regex') ?? DEFAULT_PATTERNS.success,
    failure: read('login-failure-regex') ?? DEFAULT_PATTERNS.failure,
  };
  return { patterns, invalid };
}

export type LoginOutcome = 'in' | 'failed' | 'gave-up' | 'closed' | 'left';

/** After the password, with no success pattern: this long without output and no refusal means logged in. */
const QUIET_MS = 1000;

export interface Account {
  username: string;
  password: string | undefined;
}

/**
 * Runs the login on `stream` (which must not be read by anyone else yet). Resolves with the outcome and the output to
 * show the user (the password cut out); the stream's output goes to its reader again afterwards.
 */
export function autoLogin(stream: TelnetStream, account: Account, patterns: LoginPatterns, userLeft: () => boolean): Promise<{ outcome: LoginOutcome; shown: Buffer }> {
  return new Promise((resolve) => {
    const held: Buffer[] = [];
    let bytes = 0;
    let text = '';
    let step: 'user' | 'password' | 'after' = 'user';
    let quiet: NodeJS.Timeout | undefined;
    let done = false;
    /** Bytes held before the password was typed: only what came after it may echo it. */
    let beforePassword = -1;

    const finish = (outcome: LoginOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(quiet);
      clearInterval(leaving);
      stream.off('close', onClose);
      stream.setIntercept(undefined);
      const all = Buffer.concat(held);
      const shown = beforePassword < 0 ? all : Buffer.concat([all.subarray(0, beforePassword), scrub(all.subarray(beforePassword), account.password)]);
      resolve({ outcome, shown });
    };
    const timer = setTimeout(() => finish('gave-up'), LOGIN_TIMEOUT_MS);
    const leaving = setInterval(() => {
      if (userLeft()) finish('left');
    }, 250);
    const onClose = () => finish('closed');
    stream.once('close', onClose);

    const type = (value: string, next: typeof step) => {
      stream.send(`${value}\r`);
      step = next;
      text = '';
    };

    const look = () => {
      if (step === 'after') {
        if (patterns.failure.test(text)) return finish('failed');
        // Asked again for the user name: the host refused the login without saying so in words we know.
        if (patterns.username.test(text)) return finish('failed');
        if (patterns.success) {
          if (patterns.success.test(text)) finish('in');
          return;
        }
        clearTimeout(quiet);
        quiet = setTimeout(() => finish('in'), QUIET_MS);
        return;
      }
      if (patterns.password.test(text)) {
        // No password to give (a key-only account): the user types it.
        if (account.password === undefined || account.password === '') return finish('gave-up');
        beforePassword = bytes;
        return type(account.password, 'after');
      }
      if (step === 'user' && patterns.username.test(text)) type(account.username, 'password');
    };

    stream.setIntercept((data) => {
      if (done) return;
      held.push(data);
      bytes += data.length;
      text = (text + data.toString('utf8')).slice(-WINDOW);
      look();
      if (!done && bytes >= LOGIN_MAX_BYTES) finish('gave-up');
    });
  });
}

/** `data` without any copy of the password (a host that echoes it; only the output after it was typed is looked at). */
function scrub(data: Buffer, password: string | undefined): Buffer {
  if (!password) return data;
  const secret = Buffer.from(password, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = data.indexOf(secret); at >= 0; at = data.indexOf(secret, from)) {
    parts.push(data.subarray(from, at));
    from = at + secret.length;
  }
  if (from === 0) return data;
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
}
