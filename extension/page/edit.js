// Page script (kit): writing to form fields as a person's edit would, so that frameworks
// tracking the field (React) see the change.
(() => {
  const T = globalThis.__tabpilot;
  if (T.fire) return;

  // Sets a field's value through the prototype's setter: frameworks (React) shadow the
  // instance's `value` property to track changes, and would miss a plain assignment.
  function setNativeValue(el, value) {
    const proto =
      el.localName === 'textarea'
        ? HTMLTextAreaElement.prototype
        : el.localName === 'select'
          ? HTMLSelectElement.prototype
          : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  }

  function fire(el, type, init = {}) {
    const Ctor = type === 'input' || type === 'beforeinput' ? InputEvent : Event;
    return el.dispatchEvent(
      new Ctor(type, { bubbles: true, composed: type === 'input', cancelable: type === 'beforeinput', ...init }),
    );
  }

  Object.assign(T, { setNativeValue, fire });
})();
