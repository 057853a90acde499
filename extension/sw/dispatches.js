// Actions the page said it dispatched (page/kit.js `dispatched`), by their call's nonce: the
// frame the action ran in and the element it went to, once the page has said so. The page says so
// on the port its call came on (sw/documents.js); sw/navigation.js marks each action's call here.
export const dispatches = new Map(); // nonce -> { tabId, frameId: null until dispatched, element, described }

// The page's word that the action of call `msg.call` is dispatched, from the document in frame
// `frameId` of tab `tabId` (the nonce is the call's, known to no page).
export function noteDispatch(msg, tabId, frameId) {
  const mark = dispatches.get(msg?.call);
  if (!mark || tabId !== mark.tabId || !Number.isInteger(frameId)) return;
  mark.frameId = frameId;
  if (typeof msg.element === 'string') mark.element = msg.element.slice(0, 200);
  if (Array.isArray(msg.described)) mark.described = msg.described;
}
