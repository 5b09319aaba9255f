import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_RENDER } from '../../shared/first-screen.ts';
import { ADMIN_PASSWORD, startHarness } from './harness.ts';
import { eventually } from './sessions/helpers.ts';

/*
 * The build's render runs in a worker thread (issue 30 §4: loaded into the server's own thread under tsx, its 5 MB
 * kept ≈ 400 MB resident). These use small render modules of their own: where it runs, the caller's GETs still made
 * through the API, and what happens when the module cannot load or its worker dies.
 */

/** A dist folder whose server render is `source`. */
function distWith(source: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-render-worker-'));
  fs.mkdirSync(path.join(dir, SERVER_RENDER.dir));
  fs.writeFileSync(path.join(dir, SERVER_RENDER.dir, SERVER_RENDER.file), source);
  return dir;
}

/** Draws its thread's id and the caller's /branding; `/die` ends its thread mid-render. */
const PROBE_RENDER = `
import { threadId } from 'node:worker_threads';
globalThis.__jumpgateRenderLoaded = true;
export async function renderFirstScreen({ path, lng, get }) {
  if (path === '/die') process.exit(3);
  const branding = await get('/branding');
  return { route: path, lng, html: 'thread ' + threadId, css: '', answers: { '/branding': branding } };
}
`;

async function signedIn(distDir: string, lines: string[] = []) {
  const h = await startHarness({ distDir, logStream: { write: (line) => void lines.push(line) } });
  const token = await h.login('admin', ADMIN_PASSWORD);
  const draw = async (drawPath: string) => (await h.call('GET', '/first-screen', { token, query: { path: drawPath, lng: 'en-US' } })).body;
  return { h, token, draw };
}

describe('GET /first-screen: the render in its own thread', () => {
  it("runs the module in a worker, never in the server's thread; its GETs go through the API as the caller", async () => {
    const { h, draw } = await signedIn(distWith(PROBE_RENDER));
    const body = await draw('/user');
    expect(body.code).toBe(1);
    const screen = body.data as { route: string; lng: string; html: string; answers: Record<string, unknown> };
    expect(screen).toMatchObject({ route: '/user', lng: 'en-US' });
    expect(screen.html).toMatch(/^thread [1-9]\d*$/); // the main thread's id is 0
    expect((globalThis as { __jumpgateRenderLoaded?: boolean }).__jumpgateRenderLoaded).toBeUndefined();
    expect(screen.answers['/branding']).toEqual((await h.call('GET', '/branding')).body);
  });

  it('a worker that dies mid-render answers null for that visit, and the next visit is drawn by a new one', async () => {
    const lines: string[] = [];
    const { draw } = await signedIn(distWith(PROBE_RENDER), lines);
    const first = ((await draw('/user')).data as { html: string }).html;
    expect(await draw('/die')).toEqual({ code: 1, message: 'success', data: null });
    await eventually('the worker reported gone', () => lines.some((line) => line.includes('render worker exited')));
    const next = ((await draw('/user')).data as { html: string }).html;
    expect(next).toMatch(/^thread \d+$/);
    expect(next).not.toBe(first);
  });

  it('a module that cannot load is reported once and draws nothing: the console renders its page itself', async () => {
    const lines: string[] = [];
    const { draw } = await signedIn(distWith('throw new Error("broken render module");'), lines);
    expect(await draw('/user')).toEqual({ code: 1, message: 'success', data: null });
    expect(await draw('/user')).toEqual({ code: 1, message: 'success', data: null });
    expect(lines.filter((line) => line.includes('broken render module'))).toHaveLength(1);
  });

  it('the app closes with its worker: the thread is ended, not left running', async () => {
    const beat = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-render-beat-')), 'beat');
    // A module whose thread writes a beat every 10 ms for as long as it lives.
    const source = `import fs from 'node:fs';\nsetInterval(() => fs.writeFileSync(${JSON.stringify(beat)}, String(process.hrtime.bigint())), 10);\n${PROBE_RENDER}`;
    const { h, draw } = await signedIn(distWith(source));
    expect((await draw('/user')).data).not.toBeNull();
    await eventually('the first beat', () => fs.existsSync(beat));
    await h.close();
    const last = fs.readFileSync(beat, 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.readFileSync(beat, 'utf8')).toBe(last);
  });
});
