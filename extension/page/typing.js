// Page script (kit): keys and text into an editable element (contenteditable) as a person's
// keys make them. Rich-text editors (Draft.js, ProseMirror, Lexical, Slate, Quill, CKEditor,
// TinyMCE, CodeMirror) keep their own model and render the DOM from it: they take a key from
// its keydown (Enter, Ctrl+A, Ctrl+Z), its keypress, its `textInput` (React's onBeforeInput in
// Chromium, which Draft.js types from) or its `beforeinput`, and cancel it; only what none of
// them cancelled is done here with the browser's editing command (execCommand), whose `input`
// event and DOM change the editors that watch the DOM read back. Writing the DOM behind an
// editor's back (the whole content replaced at once) crashes the ones that render with React.
(() => {
  const T = globalThis.__tabpilot;
  if (T.typeInto) return;

  const KEY_CODES = {
    Enter: 13, Tab: 9, Escape: 27, Backspace: 8, Delete: 46, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39,
    ArrowDown: 40, Home: 36, End: 35, PageUp: 33, PageDown: 34, Insert: 45, ' ': 32,
  };
  const PUNCT_CODES = {
    ' ': 'Space', '-': 'Minus', '=': 'Equal', '[': 'BracketLeft', ']': 'BracketRight', ';': 'Semicolon',
    "'": 'Quote', ',': 'Comma', '.': 'Period', '/': 'Slash', '\\': 'Backslash', '`': 'Backquote',
  };

  function codeOf(key) {
    if (key.length > 1) return key; // named keys: the code is the name (Enter, ArrowDown, F2)
    if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
    if (/^[0-9]$/.test(key)) return `Digit${key}`;
    return PUNCT_CODES[key] || '';
  }

  function keyCodeOf(key) {
    if (KEY_CODES[key]) return KEY_CODES[key];
    if (/^[a-z0-9]$/i.test(key)) return key.toUpperCase().charCodeAt(0);
    if (/^F\d+$/.test(key)) return 111 + Number(key.slice(1));
    return 0;
  }

  const NO_MODIFIERS = { altKey: false, ctrlKey: false, metaKey: false, shiftKey: false };

  // A keyboard event's init as Chromium makes it for `key` under modifiers `m`.
  function keyInit(key, m = NO_MODIFIERS) {
    const keyCode = keyCodeOf(key);
    const init = { key, code: codeOf(key), keyCode, which: keyCode };
    return { ...init, bubbles: true, cancelable: true, composed: true, view: window, ...m };
  }

  const keyEvent = (el, type, init) => el.dispatchEvent(new KeyboardEvent(type, init));

  // keypress, sent for the keys that make a character and for Enter; false when cancelled.
  function keypress(el, key, init) {
    const charCode = key === 'Enter' ? 13 : key.charCodeAt(0);
    return keyEvent(el, 'keypress', { ...init, charCode, keyCode: charCode, which: charCode });
  }

  // Whether `el` takes text as an editable element: contenteditable, or an EditContext's.
  const editable = (el) => el.isContentEditable || !!el.editContext;

  // The editing host of an editable element: the outermost editable ancestor.
  function hostOf(el) {
    if (el.editContext) return el;
    let host = el;
    while (host.parentElement?.isContentEditable) host = host.parentElement;
    return host;
  }

  function targetRanges() {
    const sel = getSelection();
    return sel.rangeCount ? [new StaticRange(sel.getRangeAt(0))] : [];
  }

  // An edit as the browser starts one: `beforeinput`, which the page may cancel (having made the
  // edit in its own model), else the editing command. What happened: 'page', 'browser' or null.
  function edit(el, inputType, data, command, value) {
    if (el.editContext) return contextEdit(el, inputType, data);
    const init = { inputType, data, bubbles: true, cancelable: true, composed: true, targetRanges: targetRanges() };
    if (!el.dispatchEvent(new InputEvent('beforeinput', init))) return 'page';
    return document.execCommand(command, false, value) ? 'browser' : null;
  }

  // The text a key makes, through `textInput` (TextEvent) and then `beforeinput`.
  function insert(el, text) {
    if (el.editContext) return contextEdit(el, 'insertText', text);
    const ev = document.createEvent('TextEvent');
    ev.initTextEvent('textInput', true, true, window, text);
    if (!el.dispatchEvent(ev)) return 'page';
    return edit(el, 'insertText', text, 'insertText', text);
  }

  // An edit in an element whose input an EditContext takes (Monaco): no DOM to edit; after an
  // uncancelled `beforeinput`, the browser changes the context's text and tells the page with a
  // `textupdate`, from which the page edits its model. A line break is the page's to make from
  // the `beforeinput`. 'browser' when the context's text changed.
  function contextEdit(el, inputType, data) {
    const ctx = el.editContext;
    const before = ctx.text;
    const init = { inputType, data, bubbles: true, cancelable: true, composed: true };
    if (!el.dispatchEvent(new InputEvent('beforeinput', init))) return 'page';
    let start = Math.min(ctx.selectionStart, ctx.selectionEnd);
    let end = Math.max(ctx.selectionStart, ctx.selectionEnd);
    if (inputType === 'deleteContentBackward' && start === end) start = Math.max(0, start - 1);
    else if (inputType === 'deleteContentForward' && start === end) end = Math.min(ctx.text.length, end + 1);
    if (inputType === 'insertText' || (inputType.startsWith('delete') && start < end)) {
      const text = data || '';
      const caret = start + text.length;
      ctx.updateText(start, end, text);
      ctx.updateSelection(caret, caret);
      const range = { updateRangeStart: start, updateRangeEnd: end, selectionStart: caret, selectionEnd: caret };
      ctx.dispatchEvent(new TextUpdateEvent('textupdate', { text, ...range }));
    }
    return ctx.text !== before ? 'browser' : null;
  }

  const EDITS = {
    Enter: ['insertParagraph', 'insertParagraph'],
    Backspace: ['deleteContentBackward', 'delete'],
    Delete: ['deleteContentForward', 'forwardDelete'],
  };

  // The caret's moves by the arrow keys, Home and End (Shift extends the selection instead).
  const MOVES = {
    ArrowLeft: ['backward', 'character'],
    ArrowRight: ['forward', 'character'],
    ArrowUp: ['backward', 'line'],
    ArrowDown: ['forward', 'line'],
    Home: ['backward', 'lineboundary'],
    End: ['forward', 'lineboundary'],
  };

  // What a key does in an editable element once its keydown and keypress went uncancelled: the
  // edit it makes, or the selection it moves; what that was, or null for nothing.
  function editableDefault(el, key, m, typed) {
    const chord = m.ctrlKey || m.metaKey;
    const said = (done, what) => (done === 'page' ? 'the editor took it' : done ? what : null);
    if (chord && key.toLowerCase() === 'a') {
      if (el.editContext) return null; // the page selects in its own model, or nothing does
      // The browser's own Select All: in an editing host, its content only.
      return document.execCommand('selectAll') ? 'selected all text' : null;
    }
    if (chord && key.toLowerCase() === 'z') {
      const [type, command] = m.shiftKey ? ['historyRedo', 'redo'] : ['historyUndo', 'undo'];
      return said(edit(el, type, null, command), m.shiftKey ? 'redid the last edit' : 'undid the last edit');
    }
    if (chord && key.toLowerCase() === 'y') return said(edit(el, 'historyRedo', null, 'redo'), 'redid the last edit');
    if (typed) return said(insert(el, key), `typed ${JSON.stringify(key)}`);
    if (MOVES[key] && !el.editContext && !chord) {
      getSelection().modify(m.shiftKey ? 'extend' : 'move', ...MOVES[key]);
      return m.shiftKey ? 'extended the selection' : 'moved the caret';
    }
    const e = EDITS[key];
    if (!e) return null;
    return said(edit(el, e[0], null, e[1]), key === 'Enter' ? 'inserted a line' : 'deleted text');
  }

  // One key pressed and released on the focused element `el` (in an editable): keydown,
  // keypress, the default action unless cancelled, keyup. What it did.
  function pressInEditable(el, key, m = NO_MODIFIERS) {
    const init = keyInit(key, m);
    const typed = [...key].length === 1 && !m.ctrlKey && !m.metaKey && !m.altKey;
    let effect = 'the page cancelled the keydown';
    if (keyEvent(el, 'keydown', init)) {
      const pressed = !(typed || key === 'Enter') || keypress(el, key, init);
      effect = pressed ? editableDefault(el, key, m, typed) : 'the editor took it';
    }
    keyEvent(T.focused(), 'keyup', init);
    return effect;
  }

  // A key's wait for the one before it to be rendered: a posted message's task (React's scheduler
  // renders in one, and those run in order), then a timer's turn.
  async function between() {
    await new Promise((r) => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => r(port1.close());
      port2.postMessage(0);
    });
    await T.turn();
  }

  const CHORD = { ...NO_MODIFIERS, ctrlKey: true };
  const SHOW_WITHIN_MS = 500;
  const shown = (s) => s.replace(/[\u00a0]/g, ' ').replace(/[\u200b\ufeff]/g, '').replace(/\s+/g, ' ').trim();

  // Replaces an editable element's text with `text` as a person would: Ctrl+A, then a key per
  // character (Enter for a line break), each once the editor rendered the one before, as a
  // person's keys come. Refused when the element does not show the
  // text afterwards: the editor did not take it.
  async function typeInto(el, text) {
    const host = hostOf(el);
    T.focusOn(host);
    const at = () => T.focused();
    pressInEditable(at(), 'a', CHORD);
    await between();
    if (!text && (host.editContext ? host.editContext.text : host.innerText).trim()) {
      pressInEditable(at(), 'Backspace');
      await between();
    }
    for (const ch of text.replace(/\r\n?/g, '\n')) {
      pressInEditable(at(), ch === '\n' ? 'Enter' : ch);
      await between();
    }
    // An editor may render what it took a moment later (React's scheduler, Slate's deferred
    // edits): the text is looked for until it shows, half a second at most.
    const want = shown(text);
    const seen = () => shown(host.editContext ? host.editContext.text : host.innerText);
    let now = seen();
    for (let i = 0; i < SHOW_WITHIN_MS / 25 && !now.includes(want); i++) {
      await (i < 4 ? T.turn() : T.sleep(25));
      now = seen();
    }
    if (!now.includes(want)) {
      const what = now ? `shows ${JSON.stringify(T.cut(now, 80))}` : 'is empty';
      throw new T.Refusal('NOT_ACTIONABLE', `the editor did not take the text: after typing it ${what}`);
    }
  }

  Object.assign(T, { codeOf, keyCodeOf, keyInit, editable, hostOf, pressInEditable, typeInto });
})();
