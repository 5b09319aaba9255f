import type { CreateViewer, ScaleMode } from './viewer';

/**
 * noVNC's `RFB` behind the {@link CreateViewer} interface. The import is dynamic: noVNC becomes a chunk of its own that
 * only the desktop pages fetch, never the entry or the login screen.
 */
export async function loadViewer(): Promise<CreateViewer> {
  const { default: RFB } = await import('@novnc/novnc');
  return (target, channel, options, events) => {
    const rfb = new RFB(target, channel);
    const scale = (mode: ScaleMode) => {
      rfb.scaleViewport = mode === 'fit';
      rfb.clipViewport = false;
    };
    rfb.viewOnly = options.viewOnly;
    rfb.resizeSession = false;
    rfb.background = 'transparent';
    scale(options.scale);
    rfb.addEventListener('connect', () => events.connect?.());
    rfb.addEventListener('disconnect', () => events.disconnect?.());
    rfb.addEventListener('clipboard', (event) => events.clipboard?.(String((event as CustomEvent<{ text: string }>).detail.text)));
    rfb.addEventListener('desktopname', (event) => events.name?.(String((event as CustomEvent<{ name: string }>).detail.name)));
    return {
      sendKey: (keysym, code, down) => rfb.sendKey(keysym, code, down),
      paste: (text) => rfb.clipboardPasteFrom(text),
      setScale: scale,
      focus: () => rfb.focus({ preventScroll: true }),
      disconnect: () => rfb.disconnect(),
    };
  };
}
