// The contract between the controller and this extension: its operations, error codes and
// outcomes. Written by the controller's test (src/protocol/contract.rs) from its own
// declarations: not edited by hand; `cargo test` writes it anew.
export const CONTRACT = {
  "codes": [
    "BAD_ARGS",
    "STALE_REF",
    "NOT_ACTIONABLE",
    "ELEMENT_AMBIGUOUS",
    "TAB_CLAIMED",
    "TAB_GONE",
    "TAB_NOT_SHARED",
    "LEASE_LOST",
    "NO_BROWSER",
    "AMBIGUOUS_BROWSER",
    "NAVIGATION_FAILED",
    "RESTRICTED_PAGE",
    "ADVANCED_MODE_REQUIRED",
    "CAPTURE_STALLED",
    "ORIGIN_BLOCKED",
    "READ_ONLY",
    "EVAL_BLOCKED",
    "SCRIPT_ERROR",
    "CSP_BLOCKED",
    "MIXED_CONTENT",
    "CORS_BLOCKED",
    "REQUEST_FAILED",
    "HTTP_ERROR",
    "DEPRECATED_API",
    "BROWSER_INTERVENTION",
    "REQUEST_NOT_FOUND",
    "PATH_OUTSIDE_SANDBOX",
    "TIMEOUT",
    "DIALOG_OPEN",
    "MANIFEST_INVALID",
    "UNTRUSTED_PATH",
    "WEBMCP_APPROVAL_DENIED",
    "WEBMCP_TOOL_STALE",
    "WEBMCP_UNAVAILABLE",
    "WEBMCP_BUSY",
    "WEBMCP_EXECUTION_UNCERTAIN",
    "NOT_FOUND",
    "CANCELLED",
    "INTERNAL"
  ],
  "ops": [
    {
      "mutates": true,
      "name": "tabOpen",
      "relayOnly": false,
      "scope": "browser"
    },
    {
      "mutates": false,
      "name": "tabInfo",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "tabFocus",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "tabList",
      "relayOnly": false,
      "scope": "browser"
    },
    {
      "mutates": true,
      "name": "tabClose",
      "relayOnly": false,
      "scope": "browser"
    },
    {
      "mutates": true,
      "name": "navigate",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "history",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "snapshot",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "read",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "find",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "html",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "waitFor",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "screenshot",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "dialog",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "dialogs",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "click",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "type",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "hover",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "select",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "clear",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "upload",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "uploadPart",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "drag",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "press",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "scroll",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "fillForm",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "eval",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "pageTools",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "pageToolCall",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "vitals",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "memory",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "trace",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "a11y",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "networkRequests",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "networkRequest",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "networkReload",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "issues",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": false,
      "name": "consoleLogs",
      "relayOnly": false,
      "scope": "tab"
    },
    {
      "mutates": true,
      "name": "release",
      "relayOnly": true,
      "scope": "browser"
    }
  ],
  "outcomes": [
    "refused",
    "done",
    "partial",
    "failed",
    "unknown"
  ]
};
