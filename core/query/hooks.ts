import {
  type QueryClient,
  QueryClientContext,
  useMutation as useTanstackMutation,
  useQuery as useTanstackQuery,
  type useQueryClient as useTanstackQueryClient,
} from '@tanstack/react-query';
import { useContext } from 'react';
import { type CoreServices, useOptionalCore } from '../app/context';
import { createQueryClient } from './createQueryClient';

// TanStack Query is not in the entry (login screen budget): it travels with the chunks that use these hooks.
// The client is per console (per services), created on first use.
const clients = new WeakMap<CoreServices, QueryClient>();

export function queryClientFor(services: CoreServices): QueryClient {
  let client = clients.get(services);
  if (!client) {
    client = createQueryClient({ retry: services.queryRetry });
    clients.set(services, client);
    services.onQueryClient(client);
  }
  return client;
}

/** A surrounding <QueryClientProvider> wins (tests, nested scopes); else the console's own client. */
function useClient(explicit: QueryClient | undefined): QueryClient {
  const provided = useContext(QueryClientContext);
  const services = useOptionalCore();
  const client = explicit ?? provided ?? (services ? queryClientFor(services) : undefined);
  if (!client) throw new Error('useQuery/useMutation need the console (CoreProvider) or a QueryClientProvider');
  return client;
}

export const useQuery = ((options: Parameters<typeof useTanstackQuery>[0], client?: QueryClient) =>
  useTanstackQuery(options, useClient(client))) as typeof useTanstackQuery;

export const useMutation = ((options: Parameters<typeof useTanstackMutation>[0], client?: QueryClient) =>
  useTanstackMutation(options, useClient(client))) as typeof useTanstackMutation;

export const useQueryClient: typeof useTanstackQueryClient = (client) => useClient(client);
