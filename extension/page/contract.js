// The part of the contract between the controller and this extension that the page scripts
// and the content scripts read: they are classic scripts, and cannot import sw/contract.js.
// Written by the controller's test (src/shared/protocol/contract.rs) from its own declarations:
// not edited by hand; `cargo test` writes it anew. The same values as sw/contract.js's.
globalThis.__tabpilotContract = Object.freeze({
  "HANDSHAKE": {
    "browser": "browser",
    "browserPath": "/browser",
    "claimPath": "/pair/claim",
    "controller": "controller",
    "controllerPath": "/controller",
    "pairKeys": "tabpilot/3 pair",
    "pairPath": "/pair",
    "pairingMark": "tabpilot-pairing",
    "proof": "tabpilot/2",
    "relay": "relay",
    "remotePairPath": "/pair/remote",
    "seal": "tabpilot/3",
    "sealSalt": "tabpilot/3 seal"
  },
  "REF": {
    "frame": "f(?<frame>[0-9]+):",
    "local": "e[0-9a-z]{4}(?:\\.(?<twin>[0-9]+))?",
    "pattern": "(?:f(?<frame>[0-9]+):)?(?<local>e[0-9a-z]{4}(?:\\.(?<twin>[0-9]+))?)"
  }
});
