// The accessibility audit: axe-core (vendor/axe/, MPL-2.0, unmodified) run in the isolated world
// of each frame of the tab, where the page's CSP and globals cannot reach it; page/a11y.js maps
// each violation's elements to the refs a snapshot gives.
import { framePrefix, inject, runInPage } from './page.js';

const AXE = 'vendor/axe/axe.min.js';
const MAX_FRAMES = 10; // frames audited besides the top one

async function auditFrame(tabId, frameId) {
  const [loaded] = await inject(tabId, frameId, { func: () => typeof globalThis.axe?.run === 'function' });
  if (!loaded?.result) await inject(tabId, frameId, { files: [AXE] });
  const { version, violations } = await runInPage(tabId, 'a11y', { prefix: framePrefix(frameId) }, frameId);
  return { version, violations, frame: frameId };
}

// Each frame's violations (the top frame's first); a frame the browser keeps us out of, or one
// that went away meanwhile, is counted as not audited.
export async function audit(tabId) {
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) || []).filter((f) => f.frameId !== 0);
  const top = await auditFrame(tabId, 0);
  const inner = await Promise.allSettled(frames.slice(0, MAX_FRAMES).map((f) => auditFrame(tabId, f.frameId)));
  const done = inner.filter((r) => r.status === 'fulfilled').map((r) => r.value);
  return {
    version: top.version,
    frames: [top, ...done].map(({ frame, violations }) => ({ frame, violations })),
    notAudited: frames.length - done.length,
  };
}
