// The snapshot of a whole tab: each frame's document walked once, in parallel, and stitched
// together where its <iframe> stands, as a `- frame <url>` block with `fN:` refs.
import { framePrefix, locate, runInPage } from './page.js';
import { sameUrl } from './navigation.js';

const MAX_FRAMES = 10; // frames walked besides the top one
const MIN_FRAME_TOKENS = 300; // the least budget a frame's snapshot gets
const MARKER = /^(\s*)\u0000frame:(.*)$/;

// The snapshot of a tab's frames, or of the region a ref names (and the frames inside it), held
// to `maxTokens` when given: the frames inside share half of it (each at least a little), and
// the frame the snapshot starts in is walked again with what they left when they took more.
export async function snapshotTab(tabId, args) {
  const all = ((await chrome.webNavigation.getAllFrames({ tabId })) || []).filter((f) => f.frameId !== 0);
  const region = args.ref ? await locate(tabId, args.ref) : null;
  const start = region?.frameId || 0;
  const below = (f) => {
    for (let p = f; p; p = all.find((o) => o.frameId === p.parentFrameId)) if (p.parentFrameId === start) return true;
    return false;
  };
  const frames = all.filter(below);
  const walked = frames.slice(0, MAX_FRAMES);
  const results = await walk(tabId, args, region, start, walked);
  const stitched = stitch({ results, frames, walked, start, region, verbose: args.verbose });
  return { ...stitched, frames: frames.length, framesCapped: frames.length > MAX_FRAMES };
}

// Each frame's snapshot, by frame id: the walked frames in parallel within their share of the
// budget, and the frame the snapshot starts in walked again with what they left when they took
// more.
async function walk(tabId, args, region, start, walked) {
  const budget = args.maxTokens || null;
  const share = budget && Math.max(MIN_FRAME_TOKENS, Math.floor(budget / 2 / Math.max(1, walked.length)));
  const base = { verbose: !!args.verbose };
  const own = (maxTokens) => {
    const where = region ? { ref: region.ref, offset: args.offset || 0 } : {};
    return runInPage(tabId, 'snapshot', { ...base, ...where, maxTokens, prefix: framePrefix(start) }, start);
  };
  const results = new Map();
  const top = own(budget);
  await Promise.all(
    walked.map(async (f) => {
      try {
        const mine = { ...base, maxTokens: share, prefix: framePrefix(f.frameId) };
        results.set(f.frameId, await runInPage(tabId, 'snapshot', mine, f.frameId));
      } catch (_) {
        // A frame the browser does not let us into (or one that just went away) is left out.
      }
    }),
  );
  let first = await top;
  if (budget) {
    const inner = [...results.values()].filter((r) => r.refs > 0 || args.verbose).reduce((n, r) => n + r.tokens, 0);
    if (inner && first.tokens + inner > budget) first = await own(Math.max(budget - inner, Math.floor(budget / 2)));
  }
  results.set(start, first);
  return results;
}

// The frames' snapshots stitched into one text, each frame's block where its <iframe> stands.
function stitch({ results, frames, walked, start, region, verbose }) {
  const placed = new Set([start]);
  let refs = 0;
  let capped = false;
  let collapsed = 0;
  const block = (frame, indent) => {
    placed.add(frame.frameId);
    if (!results.has(frame.frameId)) {
      const cut = !walked.includes(frame);
      return cut ? [`${indent}- frame ${frame.url} [not walked: ${MAX_FRAMES}-frame limit]`] : [];
    }
    const inner = expand(frame.frameId, indent + '  ');
    // A frame with nothing to act on is dropped from a lean snapshot.
    return results.get(frame.frameId).refs > 0 || verbose ? [`${indent}- frame ${frame.url}`, ...inner] : [];
  };
  const expand = (frameId, pad) => {
    const r = results.get(frameId);
    refs += r.refs;
    capped ||= r.capped;
    collapsed += r.collapsed;
    const children = frames.filter((f) => f.parentFrameId === frameId);
    // Frames inside a collapsed region stay there, behind its summary.
    for (const url of r.hidden || []) {
      const f = children.find((c) => !placed.has(c.frameId) && sameUrl(c.url, url));
      if (f) placed.add(f.frameId);
    }
    const out = [];
    for (const line of r.text ? r.text.split('\n') : []) {
      const m = MARKER.exec(line);
      if (!m) {
        out.push(pad + line);
        continue;
      }
      const child = children.find((f) => !placed.has(f.frameId) && sameUrl(f.url, m[2]));
      if (child) out.push(...block(child, pad + m[1]));
    }
    // Frames whose <iframe> the walk did not meet (navigated since, or in a closed shadow root);
    // a region shows only what is inside it.
    if (!region) for (const f of children) if (!placed.has(f.frameId)) out.push(...block(f, pad));
    return out;
  };
  const text = expand(start, '').join('\n');
  return { text, refs, capped, collapsed };
}

// Runs `find` in every frame (the top one first), refs carrying their frame's prefix.
export async function findInTab(tabId, args) {
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) || [])
    .filter((f) => f.frameId !== 0)
    .slice(0, MAX_FRAMES);
  const ids = [0, ...frames.map((f) => f.frameId)];
  const results = await Promise.all(
    ids.map((id) =>
      runInPage(tabId, 'find', { ...args, prefix: framePrefix(id) }, id).catch((e) => {
        if (id === 0) throw e;
        return { lines: [], total: 0 }; // a frame we may not enter
      }),
    ),
  );
  const lines = results.flatMap((r) => r.lines).slice(0, args.max);
  return { lines, total: results.reduce((n, r) => n + r.total, 0) };
}
