/**
 * Desktop sessions, key → pixel (issue 31): what the VNC relay adds to the time between a key and the pixels it
 * changes. A real Xvnc with an xterm in it; an RFB client (scripts/bench/rfb-client.ts: noVNC's wire without a
 * browser, Raw pixels) types a key and waits for the update that draws it, once through Jumpgate's
 * `/sessions/:id/vnc` (the bastion logs in to the target, offers the client None, parses, filters and records) and
 * once through a bare WebSocket ↔ TCP proxy to the same Xvnc (what noVNC straight to the target costs), in
 * alternating rounds in the same run. Reports p50 / p95 of both and the difference. Then the recording's growth per
 * minute while the relayed session's screen is idle and while `top` redraws it twice a second (the client then asks
 * for noVNC's encodings — the relay keeps Hextile, RRE, CopyRect, Raw — and for updates ten times a second).
 *
 * Then RDP (unless --no-rdp): a real xrdp whose session is an Xvnc with an xterm; key → pixel through Jumpgate's
 * `/sessions/:id/rdp` (FreeRDP in the session's own Xvnc) against VNC straight to the Xvnc behind xrdp, alternating, and
 * the memory and CPU of the session's Xvnc and xfreerdp.
 *
 * Run: npm run bench:desktop [-- --keys 400 --rounds 8 --record-seconds 30 --no-rdp]
 *   Needs Xvnc (tigervnc-standalone-server, tigervnc-tools), xterm, and for RDP xrdp and freerdp2-x11.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { startXrdp } from '../tests/server/sessions/rdp/xrdp.ts';
import { startXvnc } from '../tests/server/sessions/vnc/xvnc.ts';
import { api } from './bench/api.ts';
import { flag } from './bench/args.ts';
import { type RfbClient, rfbConnect } from './bench/rfb-client.ts';
import { percentile, startBenchServer } from './bench/server.ts';

const PASSWORD = 'bench-password-1';
const VNC_PASSWORD = 'bench-vnc';
const XK_X = 0x78;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A WebSocket ↔ TCP proxy with nothing else: the floor a browser straight to the target pays. */
function bareProxy(port: number): Promise<{ url: string; close(): void }> {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws: WebSocket) => {
    const tcp = net.connect(port, '127.0.0.1');
    tcp.setNoDelay(true);
    tcp.on('data', (d) => ws.send(d));
    ws.on('message', (d: Buffer) => tcp.write(d));
    tcp.on('close', () => ws.close());
    ws.on('close', () => tcp.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port: p } = server.address() as net.AddressInfo;
      resolve({ url: `ws://127.0.0.1:${p}/`, close: () => server.close() });
    }),
  );
}

/** Waits until the screen has been quiet for `ms` (no update to a pending request). */
async function quiet(c: RfbClient, pending: { p: Promise<number> | undefined }, ms: number): Promise<void> {
  for (;;) {
    pending.p ??= c.next();
    const settled = await Promise.race([pending.p.then(() => true), sleep(ms).then(() => false)]);
    if (!settled) return;
    pending.p = undefined;
    c.request(true);
  }
}

/** Resident memory (MB) and CPU seconds of the processes whose command line holds `marker`. */
function processesWith(marker: string): { rssMb: number; cpuSeconds: number; count: number } {
  let rssMb = 0;
  let ticks = 0;
  let count = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      rssMb += Number(rss?.[1] ?? 0) / 1024;
      ticks += Number(stat[11] ?? 0) + Number(stat[12] ?? 0);
      count++;
    } catch {
      // gone meanwhile
    }
  }
  return { rssMb, cpuSeconds: ticks / 100, count };
}

/** `keys` key → pixel times (ms) on `c`: a key (`x`: a new character each time), then the first FramebufferUpdate with rectangles after it. */
async function measure(c: RfbClient, keys: number): Promise<number[]> {
  const times: number[] = [];
  const pending: { p: Promise<number> | undefined } = { p: undefined };
  c.request(true);
  for (let i = 0; i < keys; i++) {
    await quiet(c, pending, 40);
    const t0 = performance.now();
    c.key(XK_X);
    for (;;) {
      pending.p ??= c.next();
      const rects = await pending.p;
      pending.p = undefined;
      c.request(true);
      if (rects > 0) break;
    }
    times.push(performance.now() - t0);
  }
  return times;
}

/** RDP through the bastion against VNC straight to the desktop xrdp shows: key → pixel, and the session's processes. */
async function rdp(base: string, token: string, keys: number, rounds: number): Promise<[string, string][]> {
  const xrdp = await startXrdp();
  const proxy = await bareProxy(xrdp.vnc.port);
  try {
    const { id: assetId } = await api<{ id: string }>(base, token, 'POST', '/assets', {
      name: 'rdp-desktop',
      protocol: 'rdp',
      ip: xrdp.host,
      port: xrdp.port,
      accountType: 'custom',
      username: 'bench',
      password: xrdp.password,
    });
    const { id: sessionId } = await api<{ id: string }>(base, token, 'POST', `/sessions?assetId=${assetId}&mode=guacd`);
    const relay = await rfbConnect(`${base.replace(/^http/, 'ws')}/sessions/${sessionId}/rdp?width=1024&height=768&X-Auth-Token=${token}`, { control: true });
    const direct = await rfbConnect(proxy.url, { control: false, password: xrdp.password });
    for (const c of [relay, direct]) {
      c.pointer(100, 100); // over xrdp's xterm: keys go there
      c.request(false);
      await c.next();
    }
    await sleep(1000);
    const per = Math.ceil(keys / rounds);
    const times = { relay: [] as number[], direct: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      times.direct.push(...(await measure(direct, per)));
      times.relay.push(...(await measure(relay, per)));
    }
    const cpuBefore = processesWith(`jumpgate-${sessionId}`);
    await sleep(10_000);
    const idle = processesWith(`jumpgate-${sessionId}`);
    relay.close();
    direct.close();
    const d = [...times.direct].sort((x, y) => x - y);
    const j = [...times.relay].sort((x, y) => x - y);
    const ms = (x: number) => x.toFixed(2);
    return [
      [`RDP: key → pixel, VNC straight to the desktop behind xrdp: p50 / p95 (ms, ${d.length} keys)`, `${ms(percentile(d, 50))} / ${ms(percentile(d, 95))}`],
      [`RDP: key → pixel, through Jumpgate (FreeRDP in the session's Xvnc): p50 / p95 (ms, ${j.length} keys)`, `${ms(percentile(j, 50))} / ${ms(percentile(j, 95))}`],
      ['RDP / direct VNC, p50 (goal ≤ 2)', (percentile(j, 50) / percentile(d, 50)).toFixed(3)],
      [`RDP session's processes (${idle.count}: Xvnc, xfreerdp): resident memory`, `${idle.rssMb.toFixed(0)} MB`],
      ['RDP session idle CPU over 10 s (% of a core)', ((idle.cpuSeconds - cpuBefore.cpuSeconds) * 10).toFixed(1)],
    ];
  } finally {
    proxy.close();
    await xrdp.stop();
  }
}

async function main(): Promise<void> {
  const keys = Number(flag('keys', '400'));
  const rounds = Number(flag('rounds', '8'));
  const recordSeconds = Number(flag('record-seconds', '30'));
  const xvnc = await startXvnc({ password: VNC_PASSWORD });
  let xterm: ChildProcess | undefined;
  let busy: ChildProcess | undefined;
  const server = await startBenchServer(PASSWORD);
  const proxy = await bareProxy(xvnc.port);
  try {
    // An xterm over the whole screen (no window manager: the key goes to the window under the pointer) running `cat` in
    // raw mode: every key echoes one character (or erases it) at once.
    xterm = spawn('xterm', ['-geometry', '170x56+0+0', '-e', 'sh', '-c', 'stty raw -echo; exec cat'], { env: { ...process.env, DISPLAY: `:${xvnc.display}` }, stdio: 'ignore' });
    await sleep(1500);
    const { token } = await api<{ token: string }>(server.base, '', 'POST', '/login', { username: 'admin', password: PASSWORD });
    const { id: assetId } = await api<{ id: string }>(server.base, token, 'POST', '/assets', {
      name: 'desktop',
      protocol: 'vnc',
      ip: xvnc.host,
      port: xvnc.port,
      accountType: 'custom',
      username: '',
      password: VNC_PASSWORD,
    });
    const { id: sessionId } = await api<{ id: string }>(server.base, token, 'POST', `/sessions?assetId=${assetId}&mode=guacd`);
    const relay = await rfbConnect(`${server.base.replace(/^http/, 'ws')}/sessions/${sessionId}/vnc?X-Auth-Token=${token}`, { control: true });
    const direct = await rfbConnect(proxy.url, { control: false, password: VNC_PASSWORD });
    for (const c of [relay, direct]) {
      c.request(false);
      await c.next();
    }
    const per = Math.ceil(keys / rounds);
    const times = { relay: [] as number[], direct: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      times.direct.push(...(await measure(direct, per)));
      times.relay.push(...(await measure(relay, per)));
    }
    direct.close();
    // The recording's growth: the relayed client keeps one update request outstanding, as noVNC does.
    const recording = path.join(server.dataDir, 'recording', sessionId, 'recording.rfb');
    const follow = { on: true };
    relay.asNoVnc();
    const following = (async () => {
      // Ten update requests a second, as a browser that keeps up asks for them.
      while (follow.on) {
        relay.request(true);
        await sleep(100);
      }
    })();
    const growth = async (): Promise<number> => {
      await sleep(2000); // the recorder's batch written
      const before = fs.statSync(recording).size;
      await sleep(recordSeconds * 1000);
      return ((fs.statSync(recording).size - before) * 60) / recordSeconds;
    };
    const idle = await growth();
    busy = spawn('xterm', ['-geometry', '170x56+0+0', '-e', 'top', '-d', '0.5'], { env: { ...process.env, DISPLAY: `:${xvnc.display}` }, stdio: 'ignore' });
    const redrawing = await growth();
    follow.on = false;
    await following;
    relay.close();
    await sleep(500);
    const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
    const d = sorted(times.direct);
    const j = sorted(times.relay);
    const ms = (x: number) => x.toFixed(2);
    const mb = (x: number) => `${(x / 1e6).toFixed(2)} MB`;
    const rows: [string, string][] = [
      [`key → pixel, bare WebSocket proxy to Xvnc: p50 / p95 (ms, ${d.length} keys)`, `${ms(percentile(d, 50))} / ${ms(percentile(d, 95))}`],
      [`key → pixel, through Jumpgate's VNC relay: p50 / p95 (ms, ${j.length} keys)`, `${ms(percentile(j, 50))} / ${ms(percentile(j, 95))}`],
      ['added by the relay, p50 (ms; goal ≤ +5)', ms(percentile(j, 50) - percentile(d, 50))],
      ['relay / bare, p50', (percentile(j, 50) / percentile(d, 50)).toFixed(3)],
      [`recording per minute, idle screen (1024x768, ${recordSeconds} s)`, mb(idle)],
      [`recording per minute, \`top\` redrawing twice a second (${recordSeconds} s)`, mb(redrawing)],
      ['recording of the relayed session in all', mb(fs.statSync(recording).size)],
    ];
    if (!process.argv.includes('--no-rdp')) rows.push(...(await rdp(server.base, token, keys, rounds)));
    const width = Math.max(...rows.map((r) => r[0].length));
    for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  } finally {
    xterm?.kill();
    busy?.kill();
    proxy.close();
    await server.stop();
    await xvnc.stop();
  }
}

await main();
