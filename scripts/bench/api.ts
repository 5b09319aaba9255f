/** A call to the server's API from a benchmark: the envelope's `data`, or an error naming the call and the server's message. */
export async function api<T = unknown>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-auth-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await res.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 1) throw new Error(`${method} ${url}: ${envelope.message}`);
  return envelope.data;
}
