// The server's floors and faces, checked by dependency-cruiser beside the console's rules (./importRules.ts). The
// picture and the why are in docs/SERVER.md "Layers"; tests/meta/server-boundaries.test.ts proves each rule fires.
import type { IForbiddenRuleType } from 'dependency-cruiser';

/** The floors, lowest first: a file may import its own floor and those below, never one above. */
export const SERVER_FLOORS = [
  { name: 'lib', path: '^server/(lib/|config\\.ts$)' },
  { name: 'db', path: '^server/db/' },
  { name: 'http', path: '^server/http/' },
  { name: 'permissions', path: '^server/permissions/' },
  { name: 'policy', path: '^server/policy/' },
  { name: 'modules', path: '^server/modules/' },
  { name: 'composition', path: '^server/(app|main|seed)\\.ts$' },
] as const;

const floorRules: IForbiddenRuleType[] = SERVER_FLOORS.slice(0, -1).map((floor, i) => ({
  name: `server-${floor.name}-imports-up`,
  comment: `server/${floor.name} imports only its own floor and those below it (${SERVER_FLOORS.slice(0, i).map((f) => f.name).join(', ') || 'none'}): the floors above build on it, not the other way round.`,
  severity: 'error',
  from: { path: floor.path },
  to: { path: SERVER_FLOORS.slice(i + 1).map((f) => `(${f.path})`).join('|') },
}));

export const SERVER_RULES: IForbiddenRuleType[] = [
  ...floorRules,
  {
    name: 'server-module-imports-another-modules-internals',
    comment: "A module reaches another only through its face, the other module's index.ts (its routes and the functions others may call).",
    severity: 'error',
    from: { path: '^server/modules/([^/]+)/' },
    to: { path: '^server/modules/[^/]+/', pathNot: ['^server/modules/$1/', '^server/modules/[^/]+/index\\.ts$'] },
  },
  {
    name: 'server-module-calls-sessions',
    comment: 'Modules never call into sessions: they announce their changes (http/events.ts) and the sessions module reacts.',
    severity: 'error',
    from: { path: '^server/modules/', pathNot: ['^server/modules/sessions/', '^server/modules/index\\.ts$'] },
    to: { path: '^server/modules/sessions/' },
  },
  {
    name: 'server-imports-the-console',
    comment: 'The server imports nothing of the console (core/, plugins/, domain/; it loads the manifests by path at start): what both halves use lives in shared/.',
    severity: 'error',
    from: { path: '^server/' },
    to: { path: '^(core|plugins|domain)/' },
  },
  {
    name: 'shared-imports-a-half',
    comment: 'shared/ is what the console and the server both use: it imports neither of them.',
    severity: 'error',
    from: { path: '^shared/' },
    to: { path: '^(core|plugins|domain|server)/' },
  },
];
