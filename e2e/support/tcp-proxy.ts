import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of PostgreSQL that can black-hole it: new connections are accepted and
 * never answered, open ones stop carrying bytes, as a network partition does. `restore()` heals it.
 * `latencyMs` delays every chunk each way, in order, as a distant database would.
 */
export async function blackHoleableProxy(
  port: number,
  target: { host: string; port: number },
  { latencyMs = 0 }: { latencyMs?: number } = {},
) {
  let holed = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const swallowed = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (holed) {
      client.on('error', () => {});
      client.pause();
      swallowed.add(client);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const write = (to: net.Socket, chunk: Buffer) => {
      if (!holed && !to.destroyed) to.write(chunk);
    };
    // Timers of one duration fire in the order they were set, so the stream keeps its order.
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => (latencyMs ? setTimeout(write, latencyMs, to, chunk) : write(to, chunk)));
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of pair) socket.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    holeIn: () => {
      holed = true;
    },
    /** Heals the network; connections that were open during the hole are dropped, as they would time out. */
    restore: () => {
      holed = false;
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    close: () => {
      for (const socket of [...swallowed, ...[...pairs].flat()]) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
