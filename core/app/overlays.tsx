import { ConfirmHost } from '../ui/ConfirmDialog';
import { type NotifyBus, NotificationHost } from '../ui/NotificationHost';

/** The overlays (toasts, notifications, confirm dialogs): a lazy chunk, so the first screen does not wait for Toaster/Dialog code. */
export default function Overlays({ bus }: { bus: NotifyBus }) {
  return (
    <>
      <NotificationHost bus={bus} />
      <ConfirmHost />
    </>
  );
}
