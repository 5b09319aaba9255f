import type { Harness } from '../harness.ts';

export { adminWith, identityHarness as assetHarness, type Paged } from '../identity/helpers.ts';

/** An SSH asset body as the 1.3.9 console posts it (flat: fields + attributes). */
export const sshAsset = (over: Record<string, unknown> = {}) => ({
  name: 'web-1',
  protocol: 'ssh',
  ip: '10.0.0.1',
  port: 22,
  accountType: 'custom',
  username: 'root',
  password: 'ssh-Secret-Pass-1',
  tags: 'prod,web',
  description: 'front web server',
  accessGatewayId: '',
  credentialId: '',
  'ssh-mode': 'native',
  'socks-proxy-enable': false,
  'font-size': 14,
  ...over,
});

const B = 'jgAssetBoundary';

/** A multipart body with one file part `field` (default `file`), as the console's upload sends it. */
export function csvUpload(text: string | Buffer, field = 'file') {
  const head = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${field}"; filename="assets.csv"\r\nContent-Type: text/csv\r\n\r\n`);
  const body = Buffer.concat([head, typeof text === 'string' ? Buffer.from(text) : text, Buffer.from(`\r\n--${B}--\r\n`)]);
  return { raw: body, contentType: `multipart/form-data; boundary=${B}` };
}

/** The stored row of an asset by name (secrets sealed). */
export const storedAsset = (h: Harness, name: string) => h.db.selectFrom('assets').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
