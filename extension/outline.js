// The snapshot of a whole tab: each frame's document walked once, in parallel, and stitched
// together where its <iframe> stands, as a `- frame <url>` block with `fN:` refs.
import { runInPage } from './page.js';
import { sameUrl } from './navigation.js';

const MAX_FRAMES = 10; // frames walked besides the top one
const MARKER = /^(\s*)\u0000frame:(.*)$/;

export async function snapshotTab(tabId, args) {
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) || []).filter((f) => f.frameId !== 0);
  const walked = frames.slice(0, MAX_FRAMES);
  const results = new Map();
  const top = runInPage(tabId, 'snapshot', { verbose: !!args.verbose, prefix: '' }, 0);
  await Promise.all(
    walked.map(async (f) => {
      try {
        results.set(
          f.frameId,
          await runInPage(tabId, 'snapshot', { verbose: !!args.verbose, prefix: `f${f.frameId}:` }, f.frameId),
        );
      } catch (_) {
        // A frame the browser does not let us into (or one that just went away) is left out.
      }
    }),
  );
  results.set(0, await top);
  const placed = new Set([0]);
  let refs = 0;
  let capped = false;
  const block = (frame, indent) => {
    placed.add(frame.frameId);
    if (!results.has(frame.frameId)) {
      const cut = !walked.includes(frame);
      return cut ? [`${indent}- frame ${frame.url} [not walked: ${MAX_FRAMES}-frame limit]`] : [];
    }
    const inner = expand(frame.frameId, indent + '  ');
    // A frame with nothing to act on is dropped from a lean snapshot.
    return results.get(frame.frameId).refs > 0 || args.verbose ? [`${indent}- frame ${frame.url}`, ...inner] : [];
  };
  const expand = (frameId, pad) => {
    const r = results.get(frameId);
    refs += r.refs;
    capped ||= r.capped;
    const children = frames.filter((f) => f.parentFrameId === frameId);
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
    // Frames whose <iframe> the walk did not meet (navigated since, or in a closed shadow root).
    for (const f of children) if (!placed.has(f.frameId)) out.push(...block(f, pad));
    return out;
  };
  const lines = expand(0, '');
  return { text: lines.join('\n'), refs, capped, frames: frames.length, framesCapped: frames.length > MAX_FRAMES };
}

// Runs `find` in every frame (the top one first), refs carrying their frame's prefix.
export async function findInTab(tabId, args) {
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) || [])
    .filter((f) => f.frameId !== 0)
    .slice(0, MAX_FRAMES);
  const ids = [0, ...frames.map((f) => f.frameId)];
  const results = await Promise.all(
    ids.map((id) =>
      runInPage(tabId, 'find', { ...args, prefix: id ? `f${id}:` : '' }, id).catch((e) => {
        if (id === 0) throw e;
        return { lines: [], total: 0 }; // a frame we may not enter
      }),
    ),
  );
  const lines = results.flatMap((r) => r.lines).slice(0, args.max);
  return { lines, total: results.reduce((n, r) => n + r.total, 0) };
}
