import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  buildCatalogue,
  catalogueTree,
  GROUP_KEYS,
  type GroupKey,
  type Labels,
  type Lng,
  type PluginManifest,
} from '../../shared/manifest.ts';
import { REPO_ROOT } from '../config.ts';
import type { ServerCatalogue } from '../http/access.ts';

/*
 * The permission keys the server knows: every plugin manifest's keys (plugins/<id>/manifest.ts, the same files the
 * console is built from) under core's groups. GET /menus, role validation, effective keys and route gates all
 * derive from it. Keys no manifest declares are unknown: refused in role bodies, dropped from effective keys
 * (stored refs stay in the database and count again once their plugin is installed).
 */
export type { ServerCatalogue };

export const PLUGINS_DIR = path.join(REPO_ROOT, 'plugins');
const LANGUAGES: readonly Lng[] = ['zh-CN', 'en-US'];

function isManifest(value: unknown): value is PluginManifest {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.id === 'string' && Array.isArray(m.menus) && Array.isArray(m.actions);
}

/** Imports every `plugins/<id>/manifest.ts` (folder order); a plugin without one declares no key. */
export async function discoverManifests(dir: string = PLUGINS_DIR): Promise<PluginManifest[]> {
  const folders = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const manifests: PluginManifest[] = [];
  for (const id of folders) {
    const file = path.join(dir, id, 'manifest.ts');
    if (!fs.existsSync(file)) continue;
    const loaded: unknown = ((await import(pathToFileURL(file).href)) as { default?: unknown }).default;
    if (!isManifest(loaded) || loaded.id !== id) throw new Error(`${file} must \`export default defineManifest({ id: '${id}', … })\``);
    manifests.push(loaded);
  }
  return manifests;
}

/** Core's group labels: the same strings the console's menu shows (`nav.groups.<key>` in locales/<lng>/core.json). */
function groupLabels(): Record<GroupKey, Labels> {
  const byLng = Object.fromEntries(
    LANGUAGES.map((lng) => {
      const core = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'locales', lng, 'core.json'), 'utf8')) as { nav?: { groups?: Record<string, string> } };
      return [lng, core.nav?.groups ?? {}];
    }),
  ) as Record<Lng, Record<string, string>>;
  return Object.fromEntries(GROUP_KEYS.map((g) => [g, { 'zh-CN': byLng['zh-CN'][g] ?? g, 'en-US': byLng['en-US'][g] ?? g }])) as Record<GroupKey, Labels>;
}

export function serverCatalogue(manifests: readonly PluginManifest[]): ServerCatalogue {
  const catalogue = buildCatalogue(manifests);
  const labels = groupLabels();
  return { ...catalogue, tree: catalogueTree(catalogue, (g) => labels[g]) };
}

/** The product's catalogue (every plugin folder), plus `extra` manifests (tests inject an integrator's). */
export async function loadCatalogue(extra: readonly PluginManifest[] = []): Promise<ServerCatalogue> {
  return serverCatalogue([...(await discoverManifests()), ...extra]);
}
