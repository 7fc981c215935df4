// Which MessagePort a port's messages arrive at: the page watch (dom/activity-watch.ts) counts a message
// the act posted until it arrives, and a page usually makes its channels at load, before the first act
// installs the watch. This init script (carried by the shadow-root hook's script) pairs each channel's ports.

export const CHANNEL_PARTNERS_KEY = '__deckhandChannelPartners';

export const CHANNEL_HOOK_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, '${CHANNEL_PARTNERS_KEY}') || typeof MessageChannel !== 'function') return;
  const partners = new WeakMap();
  Object.defineProperty(window, '${CHANNEL_PARTNERS_KEY}', { value: partners, enumerable: false });
  window.MessageChannel = new Proxy(MessageChannel, {
    construct(target, args, newTarget) {
      const channel = Reflect.construct(target, args, newTarget);
      partners.set(channel.port1, channel.port2);
      partners.set(channel.port2, channel.port1);
      return channel;
    },
  });
})();`;
