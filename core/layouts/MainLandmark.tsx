import { createContext, type ReactNode, useContext } from 'react';

const InMain = createContext(false);

/** A layout's `<main>`: what renders inside knows it is in the page's main landmark already (one per page). */
export function MainLandmark({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <main className={className}>
      <InMain.Provider value={true}>{children}</InMain.Provider>
    </main>
  );
}

/** True inside a layout's `<main>`: a page shown both there and on its own (403/404) adds one only on its own. */
export function useInMainLandmark(): boolean {
  return useContext(InMain);
}
