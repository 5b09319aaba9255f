import { ApiError, confirm, socketUrl, useApi, usePageTitle, useTranslation } from '@/core';
import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  Toolbar,
  ToolbarButton,
  ToolbarDivider,
  ToolbarRadioButton,
  ToolbarRadioGroup,
  ToolbarToggleButton,
} from '@fluentui/react-components';
import { ChevronDownRegular } from '@fluentui/react-icons/svg/chevron-down';
import { ClipboardRegular } from '@fluentui/react-icons/svg/clipboard';
import { FullScreenMaximizeRegular } from '@fluentui/react-icons/svg/full-screen-maximize';
import { PlugDisconnectedRegular } from '@fluentui/react-icons/svg/plug-disconnected';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { allowed, type DesktopProtocol, type DesktopSession, desktopApi, isDesktopProtocol, sizeOf } from '../api';
import { SocketChannel } from './channel';
import { ClipboardPanel } from './ClipboardPanel';
import { COMBOS, type ComboName, pressCombo } from './keys';
import { useFrameStyles } from './styles';
import { useViewerFactory } from './useViewer';
import type { CreateViewer, DesktopViewer, ScaleMode } from './viewer';

export type DesktopStatus = 'creating' | 'connecting' | 'connected' | 'closed' | 'failed';

/** The combinations under 组合键 (Ctrl+Alt+Del and Win have buttons of their own). */
const MORE_COMBOS: readonly ComboName[] = ['winR', 'winE', 'winL', 'altTab', 'altF4', 'ctrlEsc', 'ctrlAltBackspace', 'printScreen'];

/** The message of a protocol the desktop page does not open. */
function Unsupported({ protocol }: { protocol: string }) {
  const { t } = useTranslation('desktop');
  const styles = useFrameStyles();
  return (
    <div className={styles.message}>
      <MessageBar intent="error">
        <MessageBarBody>{t('desktop.unsupported', { protocol: protocol.toUpperCase() })}</MessageBarBody>
      </MessageBar>
    </div>
  );
}

/**
 * `/access?assetId=&assetName=&protocol=` (issue 31): a VNC or RDP desktop in a window of its own. Creates the session
 * (`POST /sessions?mode=guacd`), opens `/sessions/:id/<protocol>?width=&height=` (the viewer's area at open, in CSS
 * pixels) as noVNC's channel, and offers keys, the clipboard as the strategy allows, scaling, full screen and
 * disconnect. The protocol the server answers wins over the link's; one the page does not know is said, not opened.
 * The remote desktop keeps the size it opened at (a resized window scales it, or scrolls at 1:1).
 */
export function DesktopPage() {
  const { t } = useTranslation('desktop');
  const styles = useFrameStyles();
  const [params] = useSearchParams();
  const assetId = params.get('assetId') ?? '';
  const assetName = params.get('assetName') || assetId;
  const protocol = params.get('protocol') || 'vnc';
  usePageTitle(assetName || null);
  const viewerFactory = useViewerFactory();
  // Reconnect = a new session: the view is mounted again.
  const [generation, setGeneration] = useState(0);

  if (!assetId) {
    return (
      <div className={styles.message}>
        <MessageBar intent="error">
          <MessageBarBody>{t('desktop.missingParams')}</MessageBarBody>
        </MessageBar>
      </div>
    );
  }
  if (!isDesktopProtocol(protocol)) return <Unsupported protocol={protocol} />;
  return (
    <DesktopView
      key={generation}
      assetId={assetId}
      assetName={assetName}
      protocol={protocol}
      {...viewerFactory}
      onReconnect={() => setGeneration((g) => g + 1)}
    />
  );
}

interface DesktopViewProps {
  assetId: string;
  assetName: string;
  /** The link's word; the server's answer wins. */
  protocol: DesktopProtocol;
  create: CreateViewer | null;
  failed: string;
  onReconnect: () => void;
}

/** One session of the page: created on mount, ended on unmount. */
function DesktopView({ assetId, assetName, protocol: linked, create, failed: loadFailed, onReconnect }: DesktopViewProps) {
  const { t } = useTranslation('desktop');
  const styles = useFrameStyles();
  const api = useApi();
  const [session, setSession] = useState<(DesktopSession & { protocol: DesktopProtocol }) | null>(null);
  // A protocol the server answered that this page does not open.
  const [unsupported, setUnsupported] = useState('');
  const [status, setStatus] = useState<DesktopStatus>('creating');
  const [reason, setReason] = useState('');
  const [viewer, setViewer] = useState<DesktopViewer | null>(null);
  const [scale, setScale] = useState<ScaleMode>('fit');
  const [clipboardOpen, setClipboardOpen] = useState(false);
  const [remoteText, setRemoteText] = useState('');
  const [fullscreen, setFullscreen] = useState(false);
  const screen = useRef<HTMLDivElement>(null);
  const page = useRef<HTMLDivElement>(null);
  const scaleNow = useRef(scale);
  scaleNow.current = scale;

  // 1. The session.
  useEffect(() => {
    let gone = false;
    desktopApi(api)
      .create(assetId)
      .then(
        (created) => {
          if (gone) return;
          const protocol = created.protocol || linked;
          if (!isDesktopProtocol(protocol)) {
            setUnsupported(protocol);
            return;
          }
          setSession({ ...created, protocol });
          setStatus('connecting');
        },
        (error: unknown) => {
          if (gone) return;
          setReason(error instanceof ApiError || error instanceof Error ? error.message : String(error));
          setStatus('failed');
        },
      );
    return () => {
      gone = true;
    };
  }, [api, assetId, linked]);

  // 2. The socket and the viewer, once both the session and noVNC are here.
  useEffect(() => {
    const box = screen.current;
    if (!session || !create || !box) return;
    const desktops = desktopApi(api);
    let said = '';
    // The size the remote desktop opens at: the viewer's area now (RDP uses it; VNC's desktop has its own).
    const socket = new WebSocket(socketUrl(api, desktops.socketPath(session.id, session.protocol), { ...sizeOf(box) }));
    const channel = new SocketChannel(socket, {
      connected: () => {
        setStatus('connected');
        desktops.connect(session.id).catch(() => undefined); // the client toasts a refusal
      },
      closed: (why) => {
        said = why;
        setReason(why || t('desktop.closedReason'));
        setStatus('closed');
      },
    });
    const made = create(box, channel, { viewOnly: false, scale: scaleNow.current }, {
      clipboard: (text) => {
        if (allowed(session.copy)) setRemoteText(text);
      },
      disconnect: () => {
        setReason((before) => said || before || t('desktop.closedReason'));
        setStatus((before) => (before === 'failed' ? before : 'closed'));
      },
    });
    setViewer(made);
    return () => {
      setViewer(null);
      made.disconnect();
      channel.close();
    };
  }, [api, create, session, t]);

  useEffect(() => {
    viewer?.setScale(scale);
  }, [viewer, scale]);

  useEffect(() => {
    const changed = () => setFullscreen(document.fullscreenElement != null);
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, []);

  const send = (name: ComboName) => {
    if (!viewer) return;
    pressCombo(viewer, COMBOS[name]);
    viewer.focus();
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void page.current?.requestFullscreen?.();
  };

  const disconnect = async () => {
    const sure = await confirm({ title: t('toolbar.disconnectTitle'), message: t('toolbar.disconnectMessage'), confirmText: t('toolbar.disconnect'), danger: true });
    if (sure) viewer?.disconnect();
  };

  if (unsupported) return <Unsupported protocol={unsupported} />;

  const live = status === 'connected' && viewer !== null;
  const canCopy = allowed(session?.copy);
  const canPaste = allowed(session?.paste);

  return (
    <div ref={page as RefObject<HTMLDivElement>} className={styles.page}>
      <div className={styles.bar}>
        <Text className={styles.title}>{assetName}</Text>
        <Text role="status" aria-live="polite">
          {t(`status.${status}`)}
        </Text>
        <div className={styles.grow} />
        <Toolbar aria-label={t('toolbar.label')} size="small">
          <ToolbarButton disabled={!live} onClick={() => send('ctrlAltDel')}>
            {t('toolbar.ctrlAltDel')}
          </ToolbarButton>
          <ToolbarButton disabled={!live} onClick={() => send('win')}>
            {t('toolbar.win')}
          </ToolbarButton>
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <ToolbarButton disabled={!live} icon={<ChevronDownRegular />}>
                {t('toolbar.moreKeys')}
              </ToolbarButton>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {MORE_COMBOS.map((name) => (
                  <MenuItem key={name} onClick={() => send(name)}>
                    {t(`keys.${name}`)}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
          <ToolbarDivider />
          <ToolbarToggleButton
            name="panels"
            value="clipboard"
            icon={<ClipboardRegular />}
            aria-pressed={clipboardOpen}
            onClick={() => setClipboardOpen((open) => !open)}
          >
            {t('toolbar.clipboard')}
          </ToolbarToggleButton>
          <ToolbarDivider />
          <ToolbarRadioGroup aria-label={t('toolbar.scale')}>
            <ToolbarRadioButton name="scale" value="fit" aria-pressed={scale === 'fit'} appearance={scale === 'fit' ? 'primary' : 'subtle'} onClick={() => setScale('fit')}>
              {t('toolbar.fit')}
            </ToolbarRadioButton>
            <ToolbarRadioButton
              name="scale"
              value="native"
              aria-pressed={scale === 'native'}
              appearance={scale === 'native' ? 'primary' : 'subtle'}
              onClick={() => setScale('native')}
            >
              {t('toolbar.native')}
            </ToolbarRadioButton>
          </ToolbarRadioGroup>
          <ToolbarButton icon={<FullScreenMaximizeRegular />} onClick={toggleFullscreen}>
            {fullscreen ? t('toolbar.exitFullscreen') : t('toolbar.fullscreen')}
          </ToolbarButton>
          <ToolbarDivider />
          <ToolbarButton icon={<PlugDisconnectedRegular />} disabled={status !== 'connected' && status !== 'connecting'} onClick={() => void disconnect()}>
            {t('toolbar.disconnect')}
          </ToolbarButton>
        </Toolbar>
      </div>
      <div className={styles.body}>
        <div className={styles.screen}>
          {status === 'failed' || loadFailed ? (
            <div className={styles.message}>
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>
                  <MessageBarTitle>{loadFailed ? t('desktop.loadFailed') : t('desktop.createFailed')}</MessageBarTitle>
                  {loadFailed || reason}
                </MessageBarBody>
                <MessageBarActions>
                  <Button onClick={onReconnect}>{t('desktop.reconnect')}</Button>
                </MessageBarActions>
              </MessageBar>
            </div>
          ) : null}
          {status === 'closed' ? (
            <MessageBar intent="warning" layout="multiline" className={styles.notice}>
              <MessageBarBody>
                <MessageBarTitle>{t('desktop.closedTitle')}</MessageBarTitle>
                {reason}
              </MessageBarBody>
              <MessageBarActions>
                <Button appearance="primary" onClick={onReconnect}>
                  {t('desktop.reconnect')}
                </Button>
              </MessageBarActions>
            </MessageBar>
          ) : null}
          {status === 'creating' || (status === 'connecting' && !create && !loadFailed) ? <Spinner className={styles.message} label={t(`status.${status}`)} /> : null}
          <div ref={screen as RefObject<HTMLDivElement>} role="application" aria-label={t('desktop.label', { name: assetName })} className={styles.fill} />
        </div>
        {clipboardOpen ? (
          <ClipboardPanel canCopy={canCopy} canPaste={canPaste} remoteText={remoteText} onSend={(text) => viewer?.paste(text)} onClose={() => setClipboardOpen(false)} />
        ) : null}
      </div>
    </div>
  );
}
