import type { QueryKey } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { ApiClient } from '../api/client';
import { useApi, useOptionalCore } from '../app/context';
import { useQueryClient } from '../query/hooks';

/** Which record a list's form dialog is open on: none, a new one, or the record with this id. */
export interface RecordDialog<Id = string> {
  open: boolean;
  /** The edited record's id; `undefined` for a new one. */
  id: Id | undefined;
  editing: boolean;
  openNew: () => void;
  openEdit: (id: Id) => void;
  close: () => void;
}

/** The open/new/edit state of a list screen's form dialog. */
export function useRecordDialog<Id = string>(): RecordDialog<Id> {
  const [state, setState] = useState<{ id?: Id } | null>(null);
  const openNew = useCallback(() => setState({}), []);
  const openEdit = useCallback((id: Id) => setState({ id }), []);
  const close = useCallback(() => setState(null), []);
  return { open: state !== null, id: state?.id, editing: state?.id !== undefined, openNew, openEdit, close };
}

export interface TableActions {
  /** Toasts a success message and reloads the table (every page): what follows a saved form or a done action. */
  done: (message: string) => Promise<void>;
  /**
   * Runs a list action (delete, status change…): on success `done(message)`; on failure a reload without a message,
   * since the API client has already toasted the server's message. Resolves whether it succeeded.
   */
  run: (call: () => Promise<unknown>, message: string) => Promise<boolean>;
  /** Reloads the table without a message. */
  reload: () => Promise<void>;
  /**
   * Changes rows where they are shown, without a reload (every cached page of the table): `update` returns the new
   * row, or the same one to leave it. E.g. a record's status after a check that returned it.
   */
  updateRows: <Row>(update: (row: Row) => Row) => void;
}

function isPage(value: unknown): value is { total: number; items: unknown[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);
}

/** The follow-ups of a list screen's actions, for the table whose base query key is `queryKey`. */
export function useTableActions(queryKey: QueryKey): TableActions {
  // Outside the console (a leaf test) there is no bus: no toast, the rest works.
  const bus = useOptionalCore()?.bus;
  const client = useQueryClient();
  const key = JSON.stringify(queryKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key's content, not its identity, matters
  return useMemo(() => {
    const reload = () => client.invalidateQueries({ queryKey });
    const done = async (message: string) => {
      bus?.emit('notify', { intent: 'success', message });
      await reload();
    };
    const run = async (call: () => Promise<unknown>, message: string) => {
      try {
        await call();
      } catch {
        // The list may be what is stale (a record deleted elsewhere, a timed-out call that did go through): show
        // the server's state again, or the ghost row fails the same way at every try. Not awaited: the failure is
        // told at once (the API client toasted it), the rows follow.
        void reload();
        return false;
      }
      await done(message);
      return true;
    };
    const updateRows = <Row>(update: (row: Row) => Row) => {
      client.setQueriesData({ queryKey }, (old: unknown) =>
        isPage(old) ? { ...old, items: old.items.map((row) => update(row as Row)) } : old,
      );
    };
    return { done, run, reload, updateRows };
  }, [bus, client, key]);
}

/** A plugin's endpoint functions bound to the console's API client (`make` is a module-level `(api) => ({…})`). */
export function useEndpoints<T>(make: (api: ApiClient) => T): T {
  const api = useApi();
  return useMemo(() => make(api), [api, make]);
}
