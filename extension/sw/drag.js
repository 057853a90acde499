// Dragging one element onto another: both refs must be in one frame, where the drag runs.
import { ToolError } from './errors.js';
import { act } from './navigation.js';
import { locate } from './page.js';

export async function drag(tabId, args, timeoutMs) {
  const [a, b] = [await locate(tabId, args.startRef), await locate(tabId, args.endRef)];
  if (a.frameId !== b.frameId) {
    throw new ToolError(
      'BAD_ARGS',
      'startRef and endRef are in different frames; a drag stays in one frame',
      'refused',
    );
  }
  return act(tabId, 'drag', { ref: args.startRef, endRef: b.ref, after: args.after }, timeoutMs);
}
