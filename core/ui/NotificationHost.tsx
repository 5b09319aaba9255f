import {
  Toast,
  ToastBody,
  Toaster,
  ToastTitle,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { useEffect } from 'react';

/** Payload of the bus event `notify` (see docs/CONVENTIONS.md). */
export interface NotifyEvent {
  intent: 'success' | 'error' | 'warning' | 'info';
  message: string;
  title?: string;
  /** `toast` (default): short message at the top, 3 s. `notification`: titled card at the top right, 4.5 s. */
  kind?: 'toast' | 'notification';
}

/** The part of core's mitt bus the host needs. */
export interface NotifyBus {
  on(type: 'notify', handler: (event: NotifyEvent) => void): void;
  off(type: 'notify', handler: (event: NotifyEvent) => void): void;
}

export const TOAST_TIMEOUT = 3000;
export const NOTIFICATION_TIMEOUT = 4500;

export interface NotificationHostProps {
  bus: NotifyBus;
}

/**
 * Shows every `notify` event of the bus as a Fluent toast. Mount exactly once at the root, inside FluentProvider:
 * `<NotificationHost bus={bus} />`.
 */
export function NotificationHost({ bus }: NotificationHostProps) {
  const toasterId = useId('jg-toaster');
  const { dispatchToast } = useToastController(toasterId);

  useEffect(() => {
    const handler = (e: NotifyEvent) => {
      const notification = e.kind === 'notification';
      dispatchToast(
        <Toast>
          <ToastTitle>{e.title ?? e.message}</ToastTitle>
          {e.title ? <ToastBody>{e.message}</ToastBody> : null}
        </Toast>,
        {
          intent: e.intent,
          timeout: notification ? NOTIFICATION_TIMEOUT : TOAST_TIMEOUT,
          position: notification ? 'top-end' : 'top',
          pauseOnHover: true,
        },
      );
    };
    bus.on('notify', handler);
    return () => bus.off('notify', handler);
  }, [bus, dispatchToast]);

  return <Toaster toasterId={toasterId} limit={8} />;
}
