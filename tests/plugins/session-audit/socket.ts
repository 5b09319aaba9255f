/**
 * A minimal WebSocket test double (the monitor page's only socket): records the instances and what they were sent;
 * the test plays the server with `receive(text)` and `serverClose()`.
 */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readyState = FakeSocket.OPEN;
  sent: string[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closedByClient = false;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  send(data: string) {
    this.sent.push(data);
  }

  close() {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.closedByClient = true;
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.(new CloseEvent('close'));
  }

  receive(text: string) {
    this.onmessage?.(new MessageEvent('message', { data: text }));
  }

  serverClose() {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.(new CloseEvent('close'));
  }
}
