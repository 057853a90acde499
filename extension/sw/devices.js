// The device an agent's tab plays, through the debugger, in advanced mode only (emulate.js is
// the part without it): viewport and touch, user agent, colour scheme and reduced motion,
// network and CPU throttling. What is in force is kept here, in the worker's memory like the
// attachment itself (debugger.js), and goes when advanced mode ends: the debugger's overrides go
// with its detach, and the record with them, so no later answer claims them.
// While throttling is on, tabpilot's own waits for the tab are stretched by `slowdown(tabId)`.
import { advancedSend, onAdvancedEnd } from './debugger.js';
import { onTabGone } from './tabstate.js';

const devices = new Map(); // tabId -> { viewport?, userAgent?, colorScheme?, reducedMotion?, network?, cpu? }
const SETTINGS = ['viewport', 'userAgent', 'colorScheme', 'reducedMotion', 'network', 'cpu'];

// A throttled network is this many times slower than this reference (a fair broadband line),
// by its speed or its round trip, whichever is worse; every wait is stretched at most MAX_SLOWDOWN.
const REFERENCE_KBPS = 10_000;
const REFERENCE_LATENCY_MS = 100;
const MAX_SLOWDOWN = 10;

const media = (d) => [
  { name: 'prefers-color-scheme', value: d.colorScheme ?? '' },
  { name: 'prefers-reduced-motion', value: d.reducedMotion ?? '' },
];

// Network throughput in the debugger's unit, bytes a second (-1: not throttled).
const bytes = (kbps) => (kbps * 1000) / 8;

// The debugger's calls that put one setting of `d` in force, or (absent there) take it away.
const APPLY = {
  async viewport(send, { viewport: v }) {
    if (!v) {
      await send('Emulation.clearDeviceMetricsOverride');
      return send('Emulation.setTouchEmulationEnabled', { enabled: false });
    }
    const metrics = { width: v.width, height: v.height, deviceScaleFactor: v.deviceScaleFactor ?? 0 };
    await send('Emulation.setDeviceMetricsOverride', { ...metrics, mobile: !!v.mobile });
    const touch = v.touch ? { enabled: true, maxTouchPoints: 5 } : { enabled: false };
    return send('Emulation.setTouchEmulationEnabled', touch);
  },
  userAgent: (send, d) => send('Emulation.setUserAgentOverride', { userAgent: d.userAgent ?? '' }),
  colorScheme: (send, d) => send('Emulation.setEmulatedMedia', { features: media(d) }),
  reducedMotion: (send, d) => send('Emulation.setEmulatedMedia', { features: media(d) }),
  async network(send, { network: n }) {
    await send('Network.enable');
    const off = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
    const on = n && {
      offline: !!n.offline,
      latency: n.latencyMs,
      downloadThroughput: bytes(n.downloadKbps),
      uploadThroughput: bytes(n.uploadKbps),
    };
    return send('Network.emulateNetworkConditions', on || off);
  },
  cpu: (send, d) => send('Emulation.setCPUThrottlingRate', { rate: d.cpu ?? 1 }),
};

// Puts the tab's viewport back as the agent set it (or none) after a call that overrode it for
// itself (a full-page capture), on that call's attachment.
export const restoreViewport = (tabId, send) => APPLY.viewport(send, devices.get(tabId) || {});

// How many times slower the tab's throttling makes it (1: none), capped.
export function slowdown(tabId) {
  const d = devices.get(tabId);
  if (!d) return 1;
  const n = d.network;
  const net = n && !n.offline ? Math.max(REFERENCE_KBPS / n.downloadKbps, n.latencyMs / REFERENCE_LATENCY_MS) : 1;
  return Math.min(MAX_SLOWDOWN, Math.max(1, net) * (d.cpu ?? 1));
}

// Clears the named settings (`true`: all), then puts `set`'s in force. Setting anything needs
// advanced mode (ADVANCED_MODE_REQUIRED before anything changes); clearing what is not in force
// needs nothing, so a clear with the mode off sends nothing.
export async function setDevice(tabId, set = {}, clear = []) {
  const named = SETTINGS.filter((k) => set[k] !== undefined);
  const was = devices.get(tabId) || {};
  const dropped = SETTINGS.filter((k) => clear.includes(k) && was[k] !== undefined && !named.includes(k));
  if (!named.length && !dropped.length) return deviceView(tabId);
  const send = advancedSend(tabId, `emulating ${[...named, ...dropped].join(', ')}`);
  const next = { ...was };
  for (const k of [...dropped, ...named]) {
    if (set[k] === undefined) delete next[k];
    else next[k] = set[k];
  }
  for (const k of new Set([...dropped, ...named])) await APPLY[k](send, next);
  if (Object.keys(next).length) devices.set(tabId, next);
  else devices.delete(tabId);
  return deviceView(tabId);
}

// What is in force: the device's settings, and the slowdown they make.
export function deviceView(tabId) {
  return { device: { ...devices.get(tabId) }, slowdown: slowdown(tabId) };
}

// The mode ended (off, release, another owner, the tab closed, the person's cancel): the
// overrides go with the debugger's detach, and the record with them.
onAdvancedEnd((tabId) => devices.delete(tabId));

onTabGone((tabId) => devices.delete(tabId));
