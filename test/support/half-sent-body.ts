// A request whose body never arrives whole: its head and the first bytes of the body written on a raw
// socket, the rest never sent, and the server's answer read off the socket (the body deadline tests).
import { connect } from 'node:net';

export interface HalfSent {
  answer: Promise<{ status: number; body: any }>;
  close(): void;
}

export function sendHalfBody(serverUrl: string, path: string, headers: Record<string, string>, start: string): HalfSent {
  const { port } = new URL(serverUrl);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  const head = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${start}`);
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      const [top, body = ''] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(top!)?.[1];
      if (length === undefined || Buffer.byteLength(body) < Number(length)) return;
      socket.destroy();
      resolve({ status: Number(top!.split(' ')[1]), body: JSON.parse(body) });
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without an answer: ${received}`)));
  });
  return { answer, close: () => socket.destroy() };
}
