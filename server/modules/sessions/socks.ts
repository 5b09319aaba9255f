import net from 'node:net';

/*
 * A SOCKS5 client for assets behind a proxy (attributes `socks-proxy-*`, contract §5.1): RFC 1928 CONNECT with the
 * target as a domain name (the proxy resolves it), no authentication or user name/password (RFC 1929). Resolves with
 * the connected socket, which ssh2 then uses as its `sock`.
 */

export interface SocksProxy {
  host: string;
  port: number;
  username?: string;
  password?: string;
}

const REPLIES: Record<number, string> = {
  1: '代理服务器内部错误',
  2: '代理规则不允许此连接',
  3: '网络不可达',
  4: '主机不可达',
  5: '连接被拒绝',
  6: 'TTL 已过期',
  7: '代理不支持此命令',
  8: '代理不支持此地址类型',
};

export const socksFailed = (why: string) => `SOCKS 代理连接失败：${why}`;

/** Reads exactly `n` bytes (the proxy's answers are short and arrive whole in practice, but need not). */
function reader(socket: net.Socket) {
  let buffered = Buffer.alloc(0);
  let want: { n: number; resolve: (b: Buffer) => void } | undefined;
  const pump = () => {
    if (want && buffered.length >= want.n) {
      const { n, resolve } = want;
      want = undefined;
      const out = buffered.subarray(0, n);
      buffered = buffered.subarray(n);
      resolve(out);
    }
  };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    pump();
  };
  socket.on('data', onData);
  return {
    read: (n: number) =>
      new Promise<Buffer>((resolve) => {
        want = { n, resolve };
        pump();
      }),
    /** Stops reading; returns what came after the handshake (none with a well-behaved proxy). */
    done: () => {
      socket.off('data', onData);
      return buffered;
    },
  };
}

export function socksConnect(proxy: SocksProxy, host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.port, proxy.host);
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(socksFailed(why)));
    };
    socket.setTimeout(timeoutMs, () => fail(`超时（${timeoutMs / 1000} 秒）`));
    socket.once('error', (err: NodeJS.ErrnoException) => fail(err.code === 'ECONNREFUSED' ? '代理拒绝连接' : err.message));
    socket.once('close', () => fail('代理关闭了连接'));
    socket.once('connect', async () => {
      const r = reader(socket);
      const withAuth = proxy.username !== undefined && proxy.username !== '';
      socket.write(Buffer.from(withAuth ? [5, 2, 0, 2] : [5, 1, 0]));
      const [version, method] = await r.read(2);
      if (version !== 5) return fail('不是 SOCKS5 代理');
      if (method === 2) {
        const user = Buffer.from(proxy.username ?? '');
        const pass = Buffer.from(proxy.password ?? '');
        if (user.length > 255 || pass.length > 255) return fail('代理用户名或密码过长');
        socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
        const [, status] = await r.read(2);
        if (status !== 0) return fail('代理认证失败');
      } else if (method !== 0) return fail(withAuth ? '代理不接受用户名密码认证' : '代理要求认证');
      const name = Buffer.from(host);
      if (name.length > 255) return fail('主机名过长');
      socket.write(Buffer.concat([Buffer.from([5, 1, 0, 3, name.length]), name, Buffer.from([port >> 8, port & 0xff])]));
      const [, reply, , type] = await r.read(4);
      if (reply !== 0) return fail(REPLIES[reply as number] ?? `错误码 ${reply}`);
      const addressLength = type === 1 ? 4 : type === 4 ? 16 : (await r.read(1))[0];
      await r.read((addressLength as number) + 2);
      const rest = r.done();
      if (rest.length > 0) socket.unshift(rest);
      socket.removeAllListeners('close');
      socket.removeAllListeners('error');
      socket.removeAllListeners('timeout');
      socket.setTimeout(0);
      resolve(socket);
    });
  });
}
