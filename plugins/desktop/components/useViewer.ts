import { useEffect, useRef, useState } from 'react';
import type { CreateViewer } from './viewer';
import { loadViewer } from './novnc';

/** noVNC, fetched once per page (its own chunk). `failed` holds why it could not load. */
export function useViewerFactory(): { create: CreateViewer | null; failed: string } {
  const [state, setState] = useState<{ create: CreateViewer | null; failed: string }>({ create: null, failed: '' });
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    loadViewer().then(
      (create) => setState({ create, failed: '' }),
      (error: unknown) => setState({ create: null, failed: error instanceof Error ? error.message : String(error) }),
    );
  }, []);
  return state;
}
