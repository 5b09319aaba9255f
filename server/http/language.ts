import type { FastifyRequest } from 'fastify';
import { asLng, fromAcceptLanguage, type Lng } from '../lib/i18n.ts';

/**
 * The language a request is answered in (lib/i18n.ts): the query's `lng` (WebSockets and downloads, which cannot
 * set headers), else `Accept-Language` (the console's API client sends its current language), else zh-CN.
 */
export function languageOf(req: Pick<FastifyRequest, 'query' | 'headers'>): Lng {
  const query = req.query as Record<string, unknown> | undefined;
  return asLng(query?.lng) ?? fromAcceptLanguage(req.headers['accept-language']);
}
