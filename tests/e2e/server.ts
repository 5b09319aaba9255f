import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real Jumpgate server on a free loopback port with a fresh data folder, for one e2e test file. */
export interface RunningServer {
  baseURL: string;
  adminPassword: string;
  dataDir: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/branding`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not start within 30 s:\n${log()}`);
}

export async function startServer(adminPassword = 'E2e-Admin-Pass-1', env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'jumpgate-e2e-'));
  let output = '';
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['server/main.ts', '--addr', `127.0.0.1:${port}`, '--data', dataDir], {
    env: { ...process.env, ...env, JUMPGATE_ADMIN_PASSWORD: adminPassword },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForServer(baseURL, child, () => output);
  return {
    baseURL,
    adminPassword,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An account's token from the API's login route (the login page is not under test). */
export async function apiToken(request: APIRequestContext, server: RunningServer, username: string, password: string): Promise<string> {
  const res = await request.post(`${server.baseURL}/login`, { data: { username, password } });
  const body = (await res.json()) as { code: number; message: string; data: { token: string } };
  expect(body.code, `login ${username}: ${body.message}`).toBe(1);
  return body.data.token;
}

/** One envelope call with a token; fails the test on anything but code 1. */
export async function apiCall<T>(
  request: APIRequestContext,
  server: RunningServer,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(`${server.baseURL}${path}`, { method, data, headers: { 'X-Auth-Token': token } });
  const body = (await res.json()) as { code: number; message: string; data: T };
  expect(body.code, `${method} ${path}: ${body.message}`).toBe(1);
  return body.data;
}

/**
 * Logs in through the API and opens the console with that session (the login page is not under test here). The session
 * is stored by an init script before any console code runs: writing it into a live page raced with the console's own
 * in-memory session, which could write its empty state back before a reload. Seeded once per tab, so a later 401 or
 * logout in this tab is not undone by a reload.
 */
export async function signedIn(browser: Browser, request: APIRequestContext, server: RunningServer, username: string, password: string, path: string): Promise<Page> {
  const res = await request.post(`${server.baseURL}/login`, { data: { username, password } });
  const body = (await res.json()) as { code: number; message: string; data: { token: string; info: unknown } };
  expect(body.code, body.message).toBe(1);
  const context = await browser.newContext();
  await context.addInitScript(({ token, info }) => {
    if (sessionStorage.getItem('e2e-seeded')) return;
    sessionStorage.setItem('e2e-seeded', '1');
    localStorage.setItem('X-Auth-Token', token);
    localStorage.setItem('user', JSON.stringify(info));
  }, body.data);
  const page = await context.newPage();
  await page.goto(`${server.baseURL}/#${path}`);
  return page;
}
