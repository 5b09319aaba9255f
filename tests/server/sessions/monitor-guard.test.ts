import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE } from '../../../server/modules/sessions/live.ts';
import { MSG_MONITOR_LOGGED_OUT, MSG_MONITOR_NO_KEY } from '../../../server/modules/sessions/monitor-guard.ts';
import { startSshd, type TestSshd } from '../sshd.ts';
import { TermClient, terminalWorld } from './helpers.ts';

/*
 * Issue 28 rule 6: a monitor socket closes when its watcher loses the key (a role edit, a role taken away) or logs out,
 * not only on a disable or a delete. The watched session goes on.
 */

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(() => sshd?.stop());

const KEYS = ['online-session', 'online-session-monitor'] as const;

/** Waits a moment and says whether the monitor is still open (no `0` frame). */
async function stillOpen(m: TermClient): Promise<boolean> {
  await new Promise((r) => setTimeout(r, 300));
  return m.closedWith === undefined && m.ws.readyState === m.ws.OPEN;
}

describe('monitor sockets follow their watcher', () => {
  it('close when a role edit drops the monitor key, or the role is taken from the account', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    const roleA = await w.h.createRole(KEYS, 'watchers-a');
    const roleB = await w.h.createRole(KEYS, 'watchers-b');
    const a = await w.h.createUser({ username: 'watcher-a', type: 'admin', roles: [roleA] });
    const b = await w.h.createUser({ username: 'watcher-b', type: 'admin', roles: [roleB] });
    const ma = await w.monitor(id, await w.h.accessToken(a));
    const mb = await w.monitor(id, await w.h.accessToken(b));
    await ma.until('the screen', () => ma.frames.some((f) => f[0] === '2'));
    await mb.until('the screen', () => mb.frames.some((f) => f[0] === '2'));

    // A write that changes neither watcher's rights (another account logs in): both stay.
    await w.h.createUser({ username: 'bystander', type: 'user' });
    await w.h.login('bystander', 'Passw0rd!');
    expect(await stillOpen(ma)).toBe(true);
    expect(await stillOpen(mb)).toBe(true);

    // The role keeps the menu but loses the monitor key (what a role edit writes).
    await w.h.db.deleteFrom('rolesMenusRef').where('roleId', '=', roleA).where('menuId', '=', 'online-session-monitor').execute();
    await ma.closed;
    expect(ma.closedWith).toBe(MSG_MONITOR_NO_KEY);
    expect(await stillOpen(mb)).toBe(true);

    // The account loses its role (what a user edit writes).
    await w.h.db.deleteFrom('usersRolesRef').where('userId', '=', b).execute();
    await mb.closed;
    expect(mb.closedWith).toBe(MSG_MONITOR_NO_KEY);

    // The watched session goes on.
    expect(w.live.get(id)).toBeDefined();
    const from = term.output.length;
    term.type('echo still-$((2+3))\r');
    await term.waitOutput('still-5', from);
    await term.close();
  });

  it('closes when its watcher logs out (the login token ends), said in the socket language', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    const role = await w.h.createRole(KEYS, 'watchers');
    await w.h.createUser({ username: 'watcher', type: 'admin', roles: [role] });
    const token = await w.h.login('watcher', 'Passw0rd!');
    const zh = await w.monitor(id, token);
    const en = await TermClient.open(`${w.base}/sessions/${id}/ssh-monitor?X-Auth-Token=${encodeURIComponent(token)}&lng=en-US`);
    await zh.until('the screen', () => zh.frames.some((f) => f[0] === '2'));
    await en.until('the screen', () => en.frames.some((f) => f[0] === '2'));
    expect(await w.as(token).ok('POST', '/account/logout')).toBeNull();
    await Promise.all([zh.closed, en.closed]);
    expect(zh.closedWith).toBe(MSG_MONITOR_LOGGED_OUT);
    expect(en.closedWith).toBe('Your login ended; the monitor closed');
    expect(w.live.get(id)).toBeDefined();

    // Disabled: the account's words, whichever sees it first (the route's cut or this guard).
    const other = await w.h.createUser({ username: 'watcher-2', type: 'admin', roles: [role] });
    const m2 = await w.monitor(id, await w.h.accessToken(other));
    await m2.until('the screen', () => m2.frames.some((f) => f[0] === '2'));
    await w.api.ok('PATCH', `/users/${other}/status?status=disabled`);
    await m2.closed;
    expect(m2.closedWith).toBe(CLOSE.accountDisabled.message);
    await term.close();
  });
});
