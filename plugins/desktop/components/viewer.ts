import type { RawChannel } from './channel';
import type { KeySink } from './keys';

/** How the desktop fits the window: scaled to it, or pixel for pixel with scroll bars. */
export type ScaleMode = 'fit' | 'native';

/**
 * What the pages need of a VNC viewer. The real one is noVNC's `RFB` (./novnc.ts, loaded on demand); tests use a fake,
 * since jsdom has no canvas.
 */
export interface DesktopViewer extends KeySink {
  /** Puts local text on the remote clipboard (an RFB ClientCutText). */
  paste(text: string): void;
  setScale(mode: ScaleMode): void;
  focus(): void;
  /** Ends the viewer (and closes its channel). */
  disconnect(): void;
}

export interface ViewerEvents {
  /** The RFB handshake is done: the desktop shows. */
  connect?: () => void;
  /** The viewer is gone (its channel closed, or noVNC failed). */
  disconnect?: () => void;
  /** The remote clipboard changed (ServerCutText). */
  clipboard?: (text: string) => void;
  /** The desktop's name (from its ServerInit). */
  name?: (name: string) => void;
}

export interface ViewerOptions {
  viewOnly: boolean;
  scale: ScaleMode;
}

export type CreateViewer = (target: HTMLElement, channel: RawChannel, options: ViewerOptions, events: ViewerEvents) => DesktopViewer;
