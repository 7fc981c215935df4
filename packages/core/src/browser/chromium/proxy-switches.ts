// The Chromium switches that put a browser behind its policy proxy. A caller's switch that would
// change proxying is dropped (the launch policy refuses them too) and ignoreDefaultArgs cannot remove
// these: every connection the browser makes goes through the proxy.

/** --no-proxy-server, a PAC script or auto-detection would win over --proxy-server. */
const PROXYING_SWITCH =
  /^--(no-proxy-server|proxy-server|proxy-bypass-list|proxy-pac-url|proxy-auto-detect|force-webrtc-ip-handling-policy)(=|$)/;

export function isProxyingSwitch(arg: string): boolean {
  return PROXYING_SWITCH.test(arg);
}

export function policyProxySwitches(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    // Without it Chromium sends loopback and link-local destinations direct, past any proxy.
    '--proxy-bypass-list=<-loopback>',
    // WebRTC would otherwise send UDP straight from the machine.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}
