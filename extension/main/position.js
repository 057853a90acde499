// The position an agent's tab is told (sw/emulate.js), in the page's main world: an override of
// navigator.geolocation's getCurrentPosition, watchPosition and clearWatch. Installed from the
// document's start on the sites of tabs with a position in force (a registered content script,
// before the page's first script), and into a document of such a tab as it commits. Until the
// worker's word comes (`set`: a position, or null for the browser's own), calls wait for it and
// then go where it says; with null the browser's own methods are put back.
(() => {
  const KEY = Symbol.for('tabpilot.geolocation');
  const proto = globalThis.Geolocation?.prototype;
  if (!proto || Object.hasOwn(window, KEY)) return;
  const native = { get: proto.getCurrentPosition, watch: proto.watchPosition, clear: proto.clearWatch };
  // position: undefined until the word comes; null: the browser's own.
  const state = { position: undefined, waiting: new Map(), watches: new Map(), natives: new Map(), next: 1 };
  const answer = (success) => {
    const p = state.position;
    const coords = { latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy ?? 10 };
    Object.assign(coords, { altitude: null, altitudeAccuracy: null, heading: null, speed: null });
    setTimeout(() => success({ coords, timestamp: Date.now() }), 0);
  };
  const methods = {
    getCurrentPosition(success, error, options) {
      if (state.position === undefined) {
        state.waiting.set(-state.next++, () => methods.getCurrentPosition.call(this, success, error, options));
      } else if (!state.position) native.get.call(this, success, error, options);
      else answer(success);
    },
    watchPosition(success, error, options) {
      const id = -state.next++;
      const start = () => {
        if (state.position) {
          state.watches.set(id, success);
          answer(success);
        } else state.natives.set(id, native.watch.call(this, success, error, options));
      };
      if (state.position === undefined) state.waiting.set(id, start);
      else start();
      return id;
    },
    clearWatch(id) {
      if (state.waiting.delete(id) || state.watches.delete(id)) return;
      if (state.natives.has(id)) {
        native.clear.call(this, state.natives.get(id));
        state.natives.delete(id);
      } else native.clear.call(this, id);
    },
  };
  const define = (name, value) => Object.defineProperty(proto, name, { value, writable: true, configurable: true });
  const override = (on) => {
    for (const name of Object.keys(methods)) define(name, on ? methods[name] : native[nameOf[name]]);
  };
  const nameOf = { getCurrentPosition: 'get', watchPosition: 'watch', clearWatch: 'clear' };
  // The worker's word: the position to answer with, or null for the browser's own.
  state.set = (position) => {
    state.position = position;
    // The browser's own again, where nothing of ours is left waiting or watching.
    override(!!position || state.watches.size > 0 || state.natives.size > 0);
    if (position) for (const success of state.watches.values()) answer(success);
    const waiting = [...state.waiting.values()];
    state.waiting.clear();
    for (const go of waiting) go();
  };
  override(true);
  Object.defineProperty(window, KEY, { value: state });
  // The word from this document's isolated world (content/position.js), once.
  const told = (e) => {
    removeEventListener('tabpilot-position', told);
    try {
      if (state.position === undefined) state.set(JSON.parse(e.detail));
    } catch (_) {
      if (state.position === undefined) state.set(null);
    }
  };
  addEventListener('tabpilot-position', told);
})();
