/*
 * A typed, in-process bus: how one module reacts to another's change without importing it (docs/SERVER.md "Layers").
 * The module that changes something says so; the module that cares listens. Listeners run in the order they were added
 * and are awaited, so a route that announces a change answers after the reactions have run.
 */

type Listener<P> = (payload: P) => Promise<void> | void;

export interface Bus<E extends object> {
  /** Listens for `name`; the returned function stops listening. */
  on<K extends keyof E>(name: K, listener: Listener<E[K]>): () => void;
  /**
   * Announces a change that is already stored: every listener runs; one that fails is reported through `onError` and
   * the others still run (the change stands, and the reaction's own checks catch up later).
   */
  emit<K extends keyof E>(name: K, payload: E[K]): Promise<void>;
  /**
   * Asks before a change (e.g. "is this still used?"): listeners run in turn and the first that throws stops it, its
   * error going to the caller (a refusal the route answers with).
   */
  ask<K extends keyof E>(name: K, payload: E[K]): Promise<void>;
}

export function createBus<E extends object>(onError: (name: string, err: unknown) => void): Bus<E> {
  const listeners = new Map<keyof E, Listener<never>[]>();
  const of = <K extends keyof E>(name: K) => (listeners.get(name) ?? []) as Listener<E[K]>[];
  return {
    on(name, listener) {
      listeners.set(name, [...of(name), listener]);
      return () => listeners.set(name, of(name).filter((l) => l !== listener));
    },
    async emit(name, payload) {
      for (const listener of of(name)) {
        try {
          await listener(payload);
        } catch (err) {
          onError(String(name), err);
        }
      }
    },
    async ask(name, payload) {
      for (const listener of of(name)) await listener(payload);
    },
  };
}
