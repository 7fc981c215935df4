// Connections to addresses the navigation policy has checked, and only to those: a second DNS answer
// (rebinding) never gets a say.
import { connect, type LookupFunction, type Socket } from 'node:net';
import { formatIp, type IpAddress } from './ip-address.js';

/** A lookup that answers the checked addresses; for http.request and net.connect options. */
export function pinnedLookup(addresses: IpAddress[]): LookupFunction {
  const answers = addresses.map((ip) => ({ address: formatIp(ip), family: ip.family }));
  return (_host, options, callback) => {
    const usable = answers.filter((answer) => !options.family || answer.family === options.family);
    if (options.all) callback(null, usable);
    else if (usable[0]) callback(null, usable[0].address, usable[0].family);
    else callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '', 0);
  };
}

/** A TCP connection to host:port over its checked addresses, trying each in turn. */
export function connectPinned(host: string, addresses: IpAddress[], port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, lookup: pinnedLookup(addresses), autoSelectFamily: true });
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.setNoDelay(true);
      resolve(socket);
    });
  });
}
