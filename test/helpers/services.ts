/** Whether the optional scale-out services answer on this machine (tests skip visibly if not). */
import net from 'node:net';

function answers(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const redisAvailable = () => answers(6379);
export const postgresAvailable = () => answers(5432);
