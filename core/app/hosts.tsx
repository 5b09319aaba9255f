import { ConfirmHost } from '../ui/ConfirmDialog';
import { type NotifyBus, NotificationHost } from '../ui/NotificationHost';

/** Toast and confirm hosts: a lazy chunk, so the first screen does not wait for Toaster/Dialog code. */
export default function Hosts({ bus }: { bus: NotifyBus }) {
  return (
    <>
      <NotificationHost bus={bus} />
      <ConfirmHost />
    </>
  );
}
