import { useCallback, useState } from 'react';

/** What 1.3.9's ProTable keeps in `localStorage['cs-<table>']`: one entry per column key. */
export type ColumnsState = Record<string, { show?: boolean; order?: number; fixed?: string }>;

export function columnSettingsKey(tableKey: string): string {
  return `cs-${tableKey}`;
}

export function readColumnsState(tableKey: string): ColumnsState {
  try {
    const raw = globalThis.localStorage?.getItem(columnSettingsKey(tableKey));
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as ColumnsState) : {};
  } catch {
    return {};
  }
}

function writeColumnsState(tableKey: string, state: ColumnsState) {
  try {
    globalThis.localStorage?.setItem(columnSettingsKey(tableKey), JSON.stringify(state));
  } catch {
    // storage full or denied: the choice lasts until reload
  }
}

/** Column visibility persisted per table, read once and written back on every change. */
export function useColumnsState(tableKey: string): [ColumnsState, (next: ColumnsState) => void] {
  const [state, setState] = useState<ColumnsState>(() => readColumnsState(tableKey));
  const update = useCallback(
    (next: ColumnsState) => {
      setState(next);
      writeColumnsState(tableKey, next);
    },
    [tableKey],
  );
  return [state, update];
}
