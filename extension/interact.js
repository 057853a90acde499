// The interaction tools as the browser runs them: each takes (tabId, args, timeoutMs) and runs
// its page operation in the frame its ref names, reporting any navigation it caused.
import { act } from './navigation.js';

export const interactions = {
  click: (tabId, args, timeoutMs) => act(tabId, 'click', args, timeoutMs),
  type: (tabId, args, timeoutMs) => act(tabId, 'type', args, timeoutMs),
};
