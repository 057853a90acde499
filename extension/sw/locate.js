// Locators for a recording, and back to refs for a replay: each frame's part runs in that frame
// (page/locate.js); the service worker walks the frame tree between them, naming each frame by
// its element in its parent. An action describes its own elements in the page as it acts
// (page/kit.js); here they get their frames.
import { ToolError } from './errors.js';
import { framePrefix, locate as splitRef, runInPage } from './page.js';

const framesOf = async (tabId) => (await chrome.webNavigation.getAllFrames({ tabId })) || [];

// Of a frame's element candidates in its parent, the one that is this frame: by its name when it
// has one, else by its address; none when that leaves several.
function pick(hosts, self, url) {
  const one = (list) => (list.length === 1 ? list[0] : null);
  return (self.name && one(hosts.filter((h) => h.name === self.name))) || one(hosts.filter((h) => h.src === url))
    || one(hosts);
}

// The locators of each frame's element from the top down to `frameId`.
async function chainOf(tabId, frameId) {
  const frames = await framesOf(tabId);
  const chain = [];
  for (let f = frames.find((x) => x.frameId === frameId); f && f.frameId !== 0;) {
    const [hosts, self] = await Promise.all([
      runInPage(tabId, 'frameHosts', {}, f.parentFrameId),
      runInPage(tabId, 'frameSelf', {}, f.frameId),
    ]);
    const host = pick(hosts, self, f.url);
    if (!host) throw new ToolError('NOT_FOUND', `frame f${f.frameId} cannot be told apart from its siblings`);
    chain.unshift(host.locators);
    const parent = f.parentFrameId;
    f = frames.find((x) => x.frameId === parent);
  }
  return chain;
}

// The refs an action names, in the order a recording keeps its elements: `ref`, then each
// field's (as page/kit.js describes them).
const refsOf = (args) => {
  const fields = Array.isArray(args.fields) ? args.fields.map((f) => f?.ref) : [];
  return [args.ref, ...fields].filter((r) => typeof r === 'string');
};

// The frames leading to each ref's element, found before the action acts (after it, a frame may
// be gone); null for a ref whose frames cannot be told.
export async function framesOfRefs(tabId, args) {
  const chains = [];
  for (const given of refsOf(args)) {
    const frameId = await splitRef(tabId, given).then((r) => r.frameId, () => null);
    if (frameId === null) chains.push(null);
    else chains.push(frameId === 0 ? [] : await chainOf(tabId, frameId).catch(() => null));
  }
  return chains;
}

// Each ref's element as a recording keeps it (its locators best first, its frames, its kind,
// whether it is secret), from what the action described in the page and the frames found
// before it; none when any element could not be described.
export function targetsOf(described, chains) {
  if (!Array.isArray(described) || described.length !== chains.length) return undefined;
  const targets = described.map((d, i) => (d && chains[i] ? { ...d, frames: chains[i] } : null));
  return targets.every(Boolean) ? targets : undefined;
}

// The ref of the one element the locators find, through the frames the chain names.
export async function resolveLocator(tabId, { frames = [], locators, timeout }) {
  let frameId = 0;
  for (const hostLocators of frames) {
    const host = await runInPage(tabId, 'frameAt', { locators: hostLocators, timeout }, frameId);
    const kids = (await framesOf(tabId)).filter((f) => f.parentFrameId === frameId);
    const selves = await Promise.all(kids.map((k) => runInPage(tabId, 'frameSelf', {}, k.frameId).catch(() => ({}))));
    const hosts = kids.map((k, i) => ({ frameId: k.frameId, name: selves[i].name || '', src: k.url }));
    const kid = pick(hosts.filter((h) => h.name === host.name || h.src === host.src), host, host.src);
    if (!kid) throw new ToolError('NOT_FOUND', `the frame ${JSON.stringify(hostLocators[0])} names is not loaded`);
    frameId = kid.frameId;
  }
  const { ref } = await runInPage(tabId, 'resolveLocator', { locators, timeout }, frameId);
  return { ref: framePrefix(frameId) + ref };
}
