import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import mitt from 'mitt';
import { describe, expect, it } from 'vitest';
import { NotificationHost, type NotifyEvent } from '../../../core/ui';
import { renderUi } from './render';

type Events = { notify: NotifyEvent; other: string };

// Fluent toasts time out through a CSS animation (`animation-duration: <timeout>ms`, dismissed on `animationend`);
// jsdom runs no animations, so the tests read the duration and end the animation by hand.
function timerOf(text: string): HTMLElement {
  const toast = screen.getByText(text).closest('.fui-Toast');
  const timer = toast?.parentElement?.querySelector<HTMLElement>('[data-timer-status]');
  if (!timer) throw new Error(`no timer for ${text}`);
  return timer;
}

// React listens to the vendor-prefixed name when the environment has no AnimationEvent (jsdom): fire both.
function endAnimation(el: HTMLElement) {
  fireEvent.animationEnd(el);
  fireEvent(el, new Event('webkitAnimationEnd', { bubbles: true }));
}

describe('NotificationHost', () => {
  it('shows a toast for a notify event, lasting 3 s', async () => {
    const bus = mitt<Events>();
    renderUi(<NotificationHost bus={bus} />);
    act(() => bus.emit('notify', { intent: 'success', message: '操作成功' }));
    expect(await screen.findByText('操作成功')).toBeInTheDocument();
    const timer = timerOf('操作成功');
    expect(timer.style.animationDuration).toBe('3000ms');
    endAnimation(timer);
    await waitFor(() => expect(screen.queryByText('操作成功')).not.toBeInTheDocument());
  });

  it('shows a titled notification lasting 4.5 s, and stops listening when unmounted', async () => {
    const bus = mitt<Events>();
    const view = renderUi(<NotificationHost bus={bus} />);
    act(() => bus.emit('notify', { intent: 'error', kind: 'notification', title: '连接失败', message: '主机不可达' }));
    expect(await screen.findByText('连接失败')).toBeInTheDocument();
    expect(screen.getByText('主机不可达')).toBeInTheDocument();
    expect(timerOf('连接失败').style.animationDuration).toBe('4500ms');
    view.unmount();
    expect(bus.all.get('notify') ?? []).toHaveLength(0);
  });
});
