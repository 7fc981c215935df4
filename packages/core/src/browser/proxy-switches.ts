// The Chromium switches that put a browser behind its policy proxy. They go last (Chromium keeps the
// last of a repeated switch), a caller's switch that would change proxying is dropped, and
// ignoreDefaultArgs cannot remove them: every connection the browser makes goes through the proxy.
import type { ChromiumArgs } from './chromium-args.js';

/** --no-proxy-server, a PAC script or auto-detection would win over --proxy-server. */
const PROXYING_SWITCH =
  /^--(no-proxy-server|proxy-server|proxy-bypass-list|proxy-pac-url|proxy-auto-detect|force-webrtc-ip-handling-policy)(=|$)/;

export function behindPolicyProxy(chromium: ChromiumArgs, proxyUrl: string): ChromiumArgs {
  const switches = [
    `--proxy-server=${proxyUrl}`,
    // Without it Chromium sends loopback and link-local destinations direct, past any proxy.
    '--proxy-bypass-list=<-loopback>',
    // WebRTC would otherwise send UDP straight from the machine.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
  const ignore = chromium.ignoreDefaultArgs;
  return {
    args: [...chromium.args.filter((arg) => !PROXYING_SWITCH.test(arg)), ...switches],
    ignoreDefaultArgs: Array.isArray(ignore) ? ignore.filter((arg) => !switches.includes(arg)) : ignore,
  };
}
