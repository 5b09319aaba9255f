/** What the login log shows of a user agent: a browser or client name and its version ('' when it has none). */
export interface Agent {
  name: string;
  version: string;
}

/** Up to two version components, without a trailing `.0` (Chrome 120.0.6099.109 → 120, Safari 17.2, curl 8.5). */
function shortVersion(version: string): string {
  const [major = '', minor] = version.split('.');
  return minor === undefined || minor === '0' ? major : `${major}.${minor}`;
}

// The order matters: Edge and Opera also say Chrome and Safari, Chrome also says Safari.
const BROWSERS: readonly [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /\b(?:OPR|Opera)\/([\d.]+)/],
  ['Samsung Internet', /\bSamsungBrowser\/([\d.]+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /\b(?:Chrome|CriOS|HeadlessChrome)\/([\d.]+)/],
  ['Safari', /\bVersion\/([\d.]+).*\bSafari\//],
  ['Internet Explorer', /\b(?:MSIE |Trident\/.*\brv:)([\d.]+)/],
];

/**
 * The browser (or client) behind a login's user agent: the common browsers by name, `curl`, wget and other
 * `name/version` clients by their first token, `terminal` (logins through the built-in SSH server) as is.
 * Null when there is nothing to show.
 */
export function parseUserAgent(ua: string | null | undefined): Agent | null {
  const text = (ua ?? '').trim();
  if (text === '') return null;
  if (text === 'terminal') return { name: 'terminal', version: '' };
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(text);
    if (match?.[1]) return { name, version: shortVersion(match[1]) };
  }
  // A client that is not a browser names itself first (curl/8.5.0, python-requests/2.31.0, Go-http-client/1.1).
  const first = text.split(/\s+/)[0] ?? text;
  const client = /^([^/]+)\/([\d.]+)/.exec(first);
  if (client?.[1] && client[2] && client[1] !== 'Mozilla') return { name: client[1], version: shortVersion(client[2]) };
  return { name: first, version: '' };
}
