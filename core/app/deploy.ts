// A chunk that fails to load is either the network (retry helps) or a deploy that replaced the build the page was
// loaded from: its hashed chunks are gone from the server, and only a reload of the page brings the new ones.

/** The entry script of a document, whose file name carries the build's hash (`/static/index-<hash>.js`). */
function entryOf(doc: Document): string | null {
  return doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/**
 * True when the server now serves another build than the running one: the page's HTML, fetched again, names
 * another entry script. Any failure to tell (offline, no entry script) answers false: then it is the network.
 */
export async function newVersionDeployed(): Promise<boolean> {
  const running = entryOf(document);
  if (running === null) return false;
  try {
    const response = await fetch(window.location.pathname, { cache: 'no-store', headers: { accept: 'text/html' } });
    if (!response.ok) return false;
    const served = entryOf(new DOMParser().parseFromString(await response.text(), 'text/html'));
    return served !== null && served !== running;
  } catch {
    return false;
  }
}

/** Errors the browser and Vite raise when a lazily imported module or its preloaded files cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload/i.test(
    error.message,
  );
}
