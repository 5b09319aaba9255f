import { socketUrl, useApi, usePageTitle, useTranslation } from '@/core';
import { MessageBar, MessageBarBody, MessageBarTitle, Spinner, Text } from '@fluentui/react-components';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { desktopApi, isDesktopProtocol } from '../api';
import { SocketChannel } from './channel';
import { useFrameStyles } from './styles';
import { useViewerFactory } from './useViewer';

type MonitorStatus = 'connecting' | 'connected' | 'closed';

/**
 * `/guacd-monitor?sessionId=&protocol=` (在线会话 → 监控 of a desktop session): the user's screen, view only, from
 * `/sessions/:id/<protocol>-monitor`; says why it ended (the user left, an admin cut the session…). The protocol is the
 * session row's (`GET /sessions/:id`, granted by the monitor key that opens this page; the socket waits for the answer),
 * else the `protocol` parameter the online list adds, else VNC (the links of before RDP). One the page does not know
 * is said, not opened.
 */
export function DesktopMonitor() {
  const { t } = useTranslation('desktop');
  const styles = useFrameStyles();
  const api = useApi();
  const [params] = useSearchParams();
  const sessionId = params.get('sessionId') ?? '';
  const linked = params.get('protocol');
  usePageTitle(t('monitor.title'));
  const { create, failed } = useViewerFactory();
  const [status, setStatus] = useState<MonitorStatus>('connecting');
  const [reason, setReason] = useState('');
  // null: the session row is being read.
  const [protocol, setProtocol] = useState<string | null>(null);
  const screen = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!sessionId) return undefined;
    let gone = false;
    setProtocol(null);
    void desktopApi(api)
      .protocolOf(sessionId)
      .then((read) => {
        if (!gone) setProtocol(read || linked || 'vnc');
      });
    return () => {
      gone = true;
    };
  }, [api, sessionId, linked]);

  useEffect(() => {
    const box = screen.current;
    if (!sessionId || !create || !box || !isDesktopProtocol(protocol)) return;
    const socket = new WebSocket(socketUrl(api, desktopApi(api).monitorPath(sessionId, protocol)));
    const channel = new SocketChannel(socket, {
      connected: () => setStatus('connected'),
      closed: (why) => {
        setReason(why || t('desktop.closedReason'));
        setStatus('closed');
      },
    });
    const viewer = create(box, channel, { viewOnly: true, scale: 'fit' }, {
      disconnect: () => {
        setReason((before) => before || channel.reason || t('desktop.closedReason'));
        setStatus('closed');
      },
    });
    return () => {
      viewer.disconnect();
      channel.close();
    };
  }, [api, create, sessionId, protocol, t]);

  if (!sessionId) {
    return (
      <div className={styles.message}>
        <MessageBar intent="error">
          <MessageBarBody>{t('monitor.missing')}</MessageBarBody>
        </MessageBar>
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <div className={styles.bar}>
        <Text className={styles.title}>{t('monitor.title')}</Text>
        <Text role="status" aria-live="polite">
          {status === 'connected' ? t('monitor.watching') : t(`status.${status}`)}
        </Text>
      </div>
      <div className={styles.body}>
        <div className={styles.screen}>
          {protocol !== null && !isDesktopProtocol(protocol) ? (
            <div className={styles.message}>
              <MessageBar intent="error">
                <MessageBarBody>{t('desktop.unsupported', { protocol: protocol.toUpperCase() })}</MessageBarBody>
              </MessageBar>
            </div>
          ) : null}
          {failed ? (
            <div className={styles.message}>
              <MessageBar intent="error">
                <MessageBarBody>
                  <MessageBarTitle>{t('desktop.loadFailed')}</MessageBarTitle>
                  {failed}
                </MessageBarBody>
              </MessageBar>
            </div>
          ) : null}
          {status === 'closed' ? (
            <MessageBar intent="warning" layout="multiline" className={styles.notice}>
              <MessageBarBody>
                <MessageBarTitle>{t('monitor.ended')}</MessageBarTitle>
                {reason}
              </MessageBarBody>
            </MessageBar>
          ) : null}
          {status === 'connecting' && !failed && (protocol === null || isDesktopProtocol(protocol)) ? <Spinner className={styles.message} label={t('status.connecting')} /> : null}
          <div ref={screen as RefObject<HTMLDivElement>} role="img" aria-label={t('monitor.label', { id: sessionId })} className={styles.fill} />
        </div>
      </div>
    </div>
  );
}
