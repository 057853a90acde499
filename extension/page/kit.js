// Packaged page scripts, injected into the isolated world of each frame the service worker acts
// on. They read and act on the DOM; they never evaluate code they are sent. This file makes the
// bag they share, `globalThis.__tabpilot`, with the runner and the basics; the other kit files
// (names.js, refs.js, actionable.js, edit.js) add their helpers to it, and each operation file
// adds operations to `ops`. Installed once per document.

/**
 * An operation's answer as it leaves the page: its value, or its error.
 * @typedef {{ value?: *, error?: { code: string, message: string, outcome?: string } }} PageAnswer
 */

/**
 * The bag the page scripts share, `globalThis.__tabpilot`: one per document, made by kit.js.
 * Its fields, in the order the kit files add them: kit.js (`ops` to `activity`), names.js (roles
 * and accessible names: `INTERACTIVE` to `describeEl`), secrets.js (`isSecret` to `htmlOf`),
 * refs.js (`tagAll` to `refFor`),
 * actionable.js (`visible` to `hitAt`), edit.js (`setNativeValue`, `fire`), held.js (`refuseEdit`
 * to `veil`); the optional ones
 * come from operation files, for each other.
 * @typedef {object} Tabpilot
 * @property {Object<string, function(object): *>} ops Page operations by name, added by the
 *   operation files; `run` calls them.
 * @property {function(string, object=): Promise<PageAnswer>} run Runs one operation; a Refusal
 *   becomes a refused error, anything else an INTERNAL failure. With `args.settle`, an action
 *   then settles (wait.js) in the same call, its answer's `settle`.
 * @property {number} MAX_NODES Elements described in one snapshot (a walk visits at most 4x).
 * @property {number} NAME_MAX Longest accessible name kept, in characters.
 * @property {function(new: Error, string, string)} Refusal An error with a `code` from the
 *   contract's set (`e.code`): the operation refused, nothing was done.
 * @property {function(?string): string} squash Runs of whitespace as one space, ends trimmed.
 * @property {function(string, number): string} cut At most n characters, '…' marking a cut; the
 *   document's secret values taken out first.
 * @property {function(Node, function(Element): void): void} walkElements Visits elements in
 *   document order, into open shadow roots, up to 4 x MAX_NODES.
 * @property {function(number): Promise<*>} sleep A wait timed by the service worker (a
 *   background tab's own timers run at most once a second).
 * @property {function(): Promise<void>} turn One turn of the page's event loop.
 * @property {function(number, boolean=): ?{pending: number, from: number, quiet?: object}} activity
 *   The main-world observer's answer (activity.js), or null where the document has none.
 * @property {function(?string, Element=, boolean=): void} dispatched Tells the service worker,
 *   once, that the action of the call with this nonce (`args.dispatch`) reaches the page now (on
 *   the element); a CANCELLED refusal instead when that call was cancelled (unless told false).
 * @property {function(string[]): boolean} cancel Marks calls cancelled (sw/cancel.js): their
 *   actions are never dispatched, their waits end; whether one had been dispatched.
 * @property {function(?string): boolean} halted Whether the call with this nonce was cancelled.
 * @property {function(?string, string): void} halt A CANCELLED refusal, saying why, when it was.
 * @property {function(function(): void): function(): void} whenCancelled Runs the function when a
 *   call is cancelled; returns what stops that.
 * @property {Set<string>} INTERACTIVE Roles that get a ref.
 * @property {Set<string>} LANDMARKS Roles a snapshot shows as a block.
 * @property {function(Element): ?string} role The element's ARIA role, explicit or implicit.
 * @property {function(Element): string} name Its accessible name, cut to NAME_MAX.
 * @property {function(Element): string} labelledBy The text of its aria-labelledby elements.
 * @property {function(Element): string} describeEl A short description for messages:
 *   `<tag#id> "text"`.
 * @property {function(Element): boolean} isSecret A password field, or one whose autocomplete
 *   says it holds a password, card number or card security code.
 * @property {function(Element): ?object} heldBy The secret ({name, origins, value}) a field holds
 *   because it was filled by name; null when it holds none (or is empty now).
 * @property {function(Element, ?object, string=): void} hold Marks a field as holding a secret
 *   filled with a value, or (no secret) lets it go.
 * @property {function(): Element[]} heldFields The fields of this document holding a secret.
 * @property {function(): {name: string, values: string[]}[]} heldValues What they hold, as filled
 *   and as they are now.
 * @property {function(Element): boolean} masked A secret field or a held one: its value is shown
 *   by its length only.
 * @property {function(string): string} hidden How a secret value is shown: its length only.
 * @property {function(): function(string): string} scrubber A function taking this document's
 *   secret values out of a text (the values read once, when it is made).
 * @property {function(string): string} scrubText The text with this document's secret values
 *   taken out, by a scrubber made once per synchronous run.
 * @property {function(Element): string} htmlOf The element's HTML, its secret values hidden.
 * @property {function(Element): Map<Element, string>} tagAll Tags every element that gets a
 *   ref (the refs `resolve` knows from then on); element -> ref, in document order.
 * @property {function(string, boolean=): {el: Element, retagged: boolean}} resolve The element of
 *   a ref; STALE_REF or BAD_ARGS refusals. A look (true: a recording's, before the action) leaves
 *   the action to say the ref was re-resolved.
 * @property {function(Element, Map<Element, string>=, Map=): string} refFor A ref for any
 *   element, tagged or not; a memo Map makes naming many elements of one document cheap.
 * @property {function(Element): boolean} visible Rendered and not hidden by CSS.
 * @property {function(Element, string, ?string=, number=): Promise<{x: number, y: number}>} actionable
 *   Waits until the element is visible and enabled, and what the action needs besides
 *   ('pointer': stable and uncovered; 'point': stable; 'input': nothing more); the point to act
 *   at, or a NOT_ACTIONABLE refusal (CANCELLED when the call with that nonce was cancelled).
 * @property {function(Element, Node): boolean} within Whether the node is the element or inside
 *   it, through shadow roots.
 * @property {function(number, number): ?Element} hitAt The element at a viewport point, through
 *   open shadow roots.
 * @property {function(Element, string): void} setNativeValue Sets `value` through the
 *   prototype's setter, so frameworks that track the field see it.
 * @property {function(Element, string, object=): boolean} fire Dispatches an input, change or
 *   other event as an edit makes it.
 * @property {function(Element, string): void} refuseEdit Refuses a key that would edit a held
 *   field in place (held.js).
 * @property {function(Element, boolean=): ?{form: HTMLFormElement, submitter: ?Element}} submissionBy
 *   The form a click (or, implicit, an Enter) on the element submits, and its submitter.
 * @property {function(HTMLFormElement): ?Element} defaultButton The form's first submit button.
 * @property {function(?object, ?{el: Element, secret: ?object}=): void} judgeSubmit Refuses a
 *   submission sending a held secret to none of its origins (SECRET_ORIGIN_MISMATCH).
 * @property {function(function(): *): *} unvalued Runs a match of the agent's selector with the
 *   value attribute of each secret or held input taken off, put back after.
 * @property {function(boolean): Promise<number>} veil Draws the held fields as discs for a capture (true),
 *   or puts their style back (false); how many it veiled.
 * @property {function(object, object): {text: string, tokens: number, collapsed: number, hidden: string[]}} [fit]
 *   Holds a snapshot's outline to a token budget and writes it out (fit.js; snapshot.js uses it).
 * @property {function(string): number} [tokens] The o200k tokens of a text, estimated (fit.js).
 * @property {function(Element, ?string, Map): ?{cells: Element[], header: boolean}} [rowOf] The
 *   table row an element is, to write as one line (rows.js; snapshot.js uses it).
 * @property {function(string[], boolean=): string} [joinCells] A row's cells as its line says them.
 * @property {function(string, string): boolean} [echoes] Whether a name says every word of a text.
 * @property {function(string, string): ?{text: string, after: boolean}} [besides] What a text
 *   starting or ending with a name says besides it.
 * @property {function(Element, string, string, ?string, string=, boolean=): string} [describeLine]
 *   One element as a snapshot line (snapshot.js; find.js uses it).
 * @property {function(?string, Element=): function(): Promise<?{url: string, sameDocument: boolean}>} [watchNavigate]
 *   Notes the navigation an action starts, telling the service worker the action of that call
 *   is dispatched (actions.js; keys.js uses it).
 * @property {function(string, object): Promise<object>} [real] Asks the service worker for real
 *   input (advanced mode, sw/input.js) under the call's nonce; its refusal thrown (actions.js).
 * @property {function(string, string[]=): object} [keySpec] A key as real input sends it: key,
 *   code, key code, text (keys.js; actions.js types with it).
 * @property {function(Element): ?string} [kindOf] The kind of form field (form.js).
 */

(() => {
  if (globalThis.__tabpilot) return;

  const MAX_NODES = 5000; // elements described in one snapshot
  const NAME_MAX = 80;

  class Refusal extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }

  const squash = (s) => (s || '').replace(/\s+/g, ' ').trim();
  // A cut is made after the document's secret values are taken out (secrets.js's scrubText): a
  // cut through one would leave a piece no mask of the whole value finds.
  const cut = (text, n) => {
    const s = T.scrubText ? T.scrubText(text) : text;
    return s.length > n ? s.slice(0, n - 1) + '…' : s;
  };

  // Visits elements in document order, into open shadow roots; bounded by MAX_NODES.
  function walkElements(root, visit) {
    const stack = [root];
    let count = 0;
    while (stack.length && count < MAX_NODES * 4) {
      const node = stack.pop();
      if (node.nodeType === 1) {
        visit(node);
        count++;
        if (node.shadowRoot) stack.push(...Array.from(node.shadowRoot.children).reverse());
      }
      const kids = node.children || [];
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }

  // In a background tab (the agent's) Chrome runs a page's timers at most once a second, so a
  // 16 ms wait would take up to a second. The service worker's timers are not held back: a sleep
  // is a message it answers when the time is up.
  const sleep = (ms) => chrome.runtime.sendMessage({ type: 'sleep', ms });
  // A zero-delay timer, not deeply nested, is not held back in a background tab (Chrome
  // throttles timers with a delay), and costs no message.
  const turn = () => new Promise((r) => setTimeout(r, 0));

  // The main-world observer's answer (activity.js): { pending, from, quiet? } for the work begun
  // since `since` (ms since the epoch), or null when the document has no observer. `watch` turns
  // its change reports (the event 'tabpilot-activity-change') on or off.
  function activity(since, watch) {
    let answer = null;
    const take = (e) => {
      try {
        const a = JSON.parse(e.detail);
        if (Number.isFinite(a?.pending) && Number.isFinite(a?.from)) answer = a;
      } catch (_) {
        // not an answer we can read
      }
    };
    window.addEventListener('tabpilot-activity', take);
    window.dispatchEvent(new CustomEvent('tabpilot-activity-ask', { detail: JSON.stringify({ since, watch }) }));
    window.removeEventListener('tabpilot-activity', take);
    return answer;
  }

  const ops = {};

  // Tells the service worker that the action of call `call` (sw/navigation.js) reaches the page
  // now, on element `el`, once per call: an answer then lost to a navigation was an action done,
  // not a stale one. Sent before the events go, so it leaves ahead of any navigation they start.
  // The message carries the elements the call described (`describe`), which a navigation would
  // otherwise take with the answer. It goes on the port the call came on (sw/documents.js).
  const told = new Set();
  const describedFor = new Map(); // call nonce -> the call's described elements
  const portOf = new Map(); // call nonce -> the port the call came on
  function dispatched(call, el, cancellable = true) {
    if (typeof call !== 'string' || told.has(call)) return;
    if (cancellable) halt(call, 'its action was never dispatched');
    told.add(call);
    const element = el && T.describeEl ? T.describeEl(el) : undefined;
    const described = describedFor.get(call);
    try {
      portOf.get(call)?.postMessage({ dispatched: { call, element, described } });
    } catch (_) {
      // the worker let go of the port: the answer cannot reach it either
    }
  }

  // Calls the service worker cancelled (sw/cancel.js), by nonce: kept where its cancel put them,
  // in this world, even before this file ran. A cancelled call's action is never dispatched, and
  // its waits end; `cancel` says whether one of them had been dispatched already.
  const stopped = (globalThis.__tabpilotStopped ??= new Set());
  const onCancel = new Set();
  const halted = (call) => typeof call === 'string' && stopped.has(call);
  function halt(call, why) {
    if (halted(call)) throw new Refusal('CANCELLED', `the call was cancelled: ${why}`);
  }
  function cancel(nonces) {
    for (const n of nonces) stopped.add(n);
    for (const wake of onCancel) wake();
    return nonces.some((n) => told.has(n));
  }
  // Runs `wake` when a call is cancelled; returns what stops that.
  function whenCancelled(wake) {
    onCancel.add(wake);
    return () => onCancel.delete(wake);
  }

  // A recorded action's elements, described before it acts (after it, an element may be gone):
  // each ref's locators (locate.js), in the order of the arguments (`ref`, then each field's);
  // null for one that cannot be described. The recording takes them from the answer, so
  // recording adds no call.
  function describe(args) {
    const refs = [args.ref, ...(Array.isArray(args.fields) ? args.fields.map((f) => f?.ref) : [])];
    return refs.filter((r) => typeof r === 'string').map((ref) => {
      try {
        return ops.locate({ ref });
      } catch (_) {
        return null;
      }
    });
  }

  // What the console capture (main/console-capture.js, in the page's main world) logged since
  // `since`, asked across the worlds by a DOM event, as its JSON text; null when it did not
  // answer. Only where this document is the tab's whole page (the top frame, no frames in it):
  // the action's answer then carries the console probe, and no second call into the tab reads it.
  function consoleSince(since) {
    if (window !== top || frames.length > 0) return null;
    let log = null;
    const take = (e) => {
      if (log === null && typeof e.detail === 'string') log = e.detail;
    };
    addEventListener('tabpilot-console-read', take);
    dispatchEvent(new CustomEvent('tabpilot-console-since', { detail: since }));
    removeEventListener('tabpilot-console-read', take);
    return log;
  }

  // Downloads the document asked for (a link with `download`, clicked by the page or the agent):
  // an action that asked for one says so, and the service worker waits for it to begin.
  let downloadsAsked = 0;
  globalThis.navigation?.addEventListener('navigate', (e) => {
    if (e.downloadRequest !== null && e.downloadRequest !== undefined) downloadsAsked++;
  });

  // The bag; the other kit files add the rest of its fields (see Tabpilot above).
  const T = {
    ops,
    MAX_NODES,
    NAME_MAX,
    Refusal,
    squash,
    cut,
    walkElements,
    sleep,
    turn,
    activity,
    dispatched,
    cancel,
    halted,
    halt,
    whenCancelled,
    async run(op, args) {
      const fn = ops[op];
      if (!fn) return { error: { code: 'BAD_ARGS', message: `no page operation ${op}` } };
      const since = Date.now();
      const asked = downloadsAsked;
      const described = args?.describe && ops.locate ? describe(args) : undefined;
      if (described && typeof args.dispatch === 'string') describedFor.set(args.dispatch, described);
      try {
        const value = await fn(args || {});
        dispatched(args?.dispatch, undefined, false);
        // An action asked to settle after itself does so in this same call (each call to the page
        // costs a round trip), unless it is leaving the document.
        const leaving = value?.navigation && !value.navigation.sameDocument;
        if (args?.settle && !leaving) {
          value.settle = await ops.settle({ ...args.settle, until: 'auto', since, call: args.dispatch });
        }
        if (args?.consoleSince !== undefined && !leaving && value && typeof value === 'object') {
          const log = consoleSince(args.consoleSince);
          if (log !== null) value.consoleLog = log;
        }
        if (downloadsAsked > asked && value && typeof value === 'object') value.download = true;
        return { value, described };
      } catch (e) {
        if (e instanceof Refusal) return { error: { code: e.code, message: e.message } };
        return { error: { code: 'INTERNAL', message: `page script: ${e?.message || e}`, outcome: 'failed' } };
      } finally {
        describedFor.delete(args?.dispatch);
      }
    },
  };
  globalThis.__tabpilot = T;
  // The service worker's calls come on a port it opens to this document (sw/documents.js): one
  // message each way, with nothing injected or compiled. Only the extension's own pages and worker
  // can reach its isolated world, and only the worker's ports come from no tab. An answer in the
  // top frame carries the document's address, which the worker then need not ask the browser for.
  // (Outside an extension, as in node's tests of these files, there is no chrome.)
  globalThis.chrome?.runtime?.onConnect?.addListener((port) => {
    if (port.name !== 'tabpilot-page' || port.sender?.id !== chrome.runtime.id || port.sender.tab) return;
    port.onMessage.addListener((msg) => {
      if (typeof msg?.pageOp !== 'string') return;
      const call = msg.args?.dispatch;
      if (typeof call === 'string') portOf.set(call, port);
      T.run(msg.pageOp, msg.args).then((result) => {
        portOf.delete(call);
        if (window === top) result.href = location.href;
        try {
          port.postMessage({ id: msg.id, result });
        } catch (_) {
          // the worker let go of the port meanwhile
        }
      });
    });
  });
})();
