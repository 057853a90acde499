// The contract between the controller and this extension. Written by the controller's test
// (src/shared/protocol/contract.rs) from its own declarations: not edited by hand; `cargo test`
// writes it anew.

// Its operations, error codes and outcomes.
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
    "TAB_IN_BACKGROUND",
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
    "SECRET_ORIGIN_MISMATCH",
    "SECRET_NOT_FOUND",
    "PERSON_REQUIRED",
    "INCOGNITO_BLOCKED",
    "NOT_FOUND",
    "APP_BUS_UNAVAILABLE",
    "APP_NOT_ALLOWED",
    "APP_NO_TREE",
    "APP_GONE",
    "CANCELLED",
    "INTERNAL"
  ],
  "ops": [
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "active": {
            "type": "boolean"
          },
          "incognito": {
            "type": "boolean"
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "url",
          "active"
        ],
        "title": "TabOpen",
        "type": "object"
      },
      "mutates": true,
      "name": "tabOpen",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "active": {
            "type": "boolean"
          },
          "advanced": {
            "type": "boolean"
          },
          "private": {
            "type": "boolean"
          },
          "tabId": {
            "format": "int64",
            "type": "integer"
          },
          "title": {
            "type": "string"
          },
          "unshared": {
            "type": "boolean"
          },
          "url": {
            "type": "string"
          },
          "windowId": {
            "format": "int64",
            "type": "integer"
          }
        },
        "required": [
          "tabId",
          "windowId",
          "active",
          "url",
          "title"
        ],
        "title": "Tab",
        "type": "object"
      },
      "scope": "browser"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "TabInfo",
        "type": "object"
      },
      "mutates": false,
      "name": "tabInfo",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "active": {
            "type": "boolean"
          },
          "advanced": {
            "type": "boolean"
          },
          "private": {
            "type": "boolean"
          },
          "tabId": {
            "format": "int64",
            "type": "integer"
          },
          "title": {
            "type": "string"
          },
          "unshared": {
            "type": "boolean"
          },
          "url": {
            "type": "string"
          },
          "windowId": {
            "format": "int64",
            "type": "integer"
          }
        },
        "required": [
          "tabId",
          "windowId",
          "active",
          "url",
          "title"
        ],
        "title": "Tab",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "TabFocus",
        "type": "object"
      },
      "mutates": true,
      "name": "tabFocus",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "active": {
            "type": "boolean"
          },
          "advanced": {
            "type": "boolean"
          },
          "private": {
            "type": "boolean"
          },
          "tabId": {
            "format": "int64",
            "type": "integer"
          },
          "title": {
            "type": "string"
          },
          "unshared": {
            "type": "boolean"
          },
          "url": {
            "type": "string"
          },
          "windowId": {
            "format": "int64",
            "type": "integer"
          }
        },
        "required": [
          "tabId",
          "windowId",
          "active",
          "url",
          "title"
        ],
        "title": "Tab",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "TabList",
        "type": "object"
      },
      "mutates": false,
      "name": "tabList",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Tab": {
            "properties": {
              "active": {
                "type": "boolean"
              },
              "advanced": {
                "type": "boolean"
              },
              "private": {
                "type": "boolean"
              },
              "tabId": {
                "format": "int64",
                "type": "integer"
              },
              "title": {
                "type": "string"
              },
              "unshared": {
                "type": "boolean"
              },
              "url": {
                "type": "string"
              },
              "windowId": {
                "format": "int64",
                "type": "integer"
              }
            },
            "required": [
              "tabId",
              "windowId",
              "active",
              "url",
              "title"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "tabs": {
            "items": {
              "$ref": "#/$defs/Tab"
            },
            "type": "array"
          }
        },
        "required": [
          "tabs"
        ],
        "title": "Tabs",
        "type": "object"
      },
      "scope": "browser"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "TabClose",
        "type": "object"
      },
      "mutates": true,
      "name": "tabClose",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "closed": {
            "format": "int64",
            "type": "integer"
          }
        },
        "required": [
          "closed"
        ],
        "title": "Closed",
        "type": "object"
      },
      "scope": "browser"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "BeforeUnload": {
            "enum": [
              "accept",
              "dismiss"
            ],
            "type": "string"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "anyOf": [
          {
            "properties": {
              "after": {
                "$ref": "#/$defs/After"
              },
              "handleBeforeUnload": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/BeforeUnload"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "initScript": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "url",
              "after"
            ],
            "type": "object"
          },
          {
            "properties": {
              "after": {
                "$ref": "#/$defs/After"
              },
              "ignoreCache": {
                "type": "boolean"
              },
              "reload": {
                "type": "boolean"
              }
            },
            "required": [
              "reload",
              "ignoreCache",
              "after"
            ],
            "type": "object"
          }
        ],
        "title": "Navigate"
      },
      "mutates": true,
      "name": "navigate",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "beforeUnload": {
            "default": null,
            "type": [
              "string",
              "null"
            ]
          },
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "drawing": {
            "default": null,
            "type": [
              "string",
              "null"
            ]
          },
          "elapsedMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "settled": {
            "type": "boolean"
          },
          "title": {
            "type": "string"
          },
          "url": {
            "type": "string"
          },
          "urlBefore": {
            "default": "",
            "type": "string"
          },
          "what": {
            "type": "string"
          }
        },
        "required": [
          "settled",
          "elapsedMs",
          "url",
          "title",
          "what"
        ],
        "title": "NavReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "HistoryDirection": {
            "enum": [
              "back",
              "forward"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "direction": {
            "$ref": "#/$defs/HistoryDirection"
          }
        },
        "required": [
          "direction",
          "after"
        ],
        "title": "History",
        "type": "object"
      },
      "mutates": true,
      "name": "history",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "beforeUnload": {
            "default": null,
            "type": [
              "string",
              "null"
            ]
          },
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "drawing": {
            "default": null,
            "type": [
              "string",
              "null"
            ]
          },
          "elapsedMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "settled": {
            "type": "boolean"
          },
          "title": {
            "type": "string"
          },
          "url": {
            "type": "string"
          },
          "urlBefore": {
            "default": "",
            "type": "string"
          },
          "what": {
            "type": "string"
          }
        },
        "required": [
          "settled",
          "elapsedMs",
          "url",
          "title",
          "what"
        ],
        "title": "NavReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "maxTokens": {
            "format": "uint64",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "offset": {
            "format": "uint64",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "ref": {
            "type": [
              "string",
              "null"
            ]
          },
          "verbose": {
            "type": "boolean"
          }
        },
        "required": [
          "verbose",
          "maxTokens"
        ],
        "title": "Snapshot",
        "type": "object"
      },
      "mutates": false,
      "name": "snapshot",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "capped": {
            "type": "boolean"
          },
          "collapsed": {
            "default": 0,
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "frames": {
            "default": 0,
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "framesCapped": {
            "default": false,
            "type": "boolean"
          },
          "refs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "text": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "text",
          "refs",
          "capped",
          "url",
          "title"
        ],
        "title": "SnapshotReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "ReadFormat": {
            "enum": [
              "markdown",
              "text"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "format": {
            "$ref": "#/$defs/ReadFormat"
          },
          "maxChars": {
            "format": "uint",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "format",
          "maxChars"
        ],
        "title": "Read",
        "type": "object"
      },
      "mutates": false,
      "name": "read",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "content": {
            "type": "string"
          },
          "totalChars": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "truncated": {
            "type": "boolean"
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "content",
          "truncated",
          "totalChars",
          "url"
        ],
        "title": "ReadReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "max": {
            "format": "uint",
            "minimum": 0,
            "type": "integer"
          },
          "role": {
            "type": [
              "string",
              "null"
            ]
          },
          "selector": {
            "type": [
              "string",
              "null"
            ]
          },
          "text": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "text",
          "role",
          "selector",
          "max"
        ],
        "title": "Find",
        "type": "object"
      },
      "mutates": false,
      "name": "find",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "lines": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "total": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "lines",
          "total"
        ],
        "title": "FindReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "maxChars": {
            "format": "uint",
            "minimum": 0,
            "type": "integer"
          },
          "ref": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "ref",
          "maxChars"
        ],
        "title": "Html",
        "type": "object"
      },
      "mutates": false,
      "name": "html",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "html": {
            "type": "string"
          },
          "totalChars": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "truncated": {
            "type": "boolean"
          }
        },
        "required": [
          "html",
          "truncated",
          "totalChars"
        ],
        "title": "HtmlOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "Visibility": {
            "enum": [
              "visible",
              "hidden",
              "attached",
              "detached"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "ref": {
            "type": [
              "string",
              "null"
            ]
          },
          "selector": {
            "type": [
              "string",
              "null"
            ]
          },
          "state": {
            "$ref": "#/$defs/Visibility"
          },
          "text": {
            "type": [
              "string",
              "null"
            ]
          },
          "timeoutMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "text",
          "selector",
          "ref",
          "url",
          "state",
          "timeoutMs"
        ],
        "title": "WaitFor",
        "type": "object"
      },
      "mutates": false,
      "name": "waitFor",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "met": {
            "type": "boolean"
          },
          "url": {
            "default": null,
            "type": [
              "string",
              "null"
            ]
          },
          "waitedMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "met",
          "waitedMs"
        ],
        "title": "WaitReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "Locator": {
            "properties": {
              "css": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "label": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "name": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "placeholder": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "role": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "testId": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "frames": {
            "items": {
              "items": {
                "$ref": "#/$defs/Locator"
              },
              "type": "array"
            },
            "type": "array"
          },
          "locators": {
            "items": {
              "$ref": "#/$defs/Locator"
            },
            "type": "array"
          },
          "timeout": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "frames",
          "locators",
          "timeout"
        ],
        "title": "ResolveLocator",
        "type": "object"
      },
      "mutates": false,
      "name": "resolveLocator",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "ref": {
            "type": "string"
          }
        },
        "required": [
          "ref"
        ],
        "title": "Resolved",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "format": {
            "type": "string"
          },
          "fullPage": {
            "type": "boolean"
          },
          "quality": {
            "format": "uint8",
            "maximum": 255,
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "ref": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "format",
          "quality",
          "ref",
          "fullPage"
        ],
        "title": "Screenshot",
        "type": "object"
      },
      "mutates": false,
      "name": "screenshot",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "CssRect": {
            "properties": {
              "height": {
                "format": "double",
                "type": "number"
              },
              "width": {
                "format": "double",
                "type": "number"
              },
              "x": {
                "format": "double",
                "type": "number"
              },
              "y": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "x",
              "y",
              "width",
              "height"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "cut": {
            "default": false,
            "type": "boolean"
          },
          "data": {
            "type": "string"
          },
          "debugger": {
            "default": false,
            "type": "boolean"
          },
          "rect": {
            "anyOf": [
              {
                "$ref": "#/$defs/CssRect"
              },
              {
                "type": "null"
              }
            ]
          },
          "viewport": {
            "default": null
          }
        },
        "required": [
          "data"
        ],
        "title": "CaptureReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "Action": {
            "enum": [
              "accept",
              "dismiss",
              "leave"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "action": {
            "anyOf": [
              {
                "$ref": "#/$defs/Action"
              },
              {
                "type": "null"
              }
            ]
          },
          "answer": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "once": {
            "type": "boolean"
          },
          "promptText": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "promptText",
          "once"
        ],
        "title": "SetDialogs",
        "type": "object"
      },
      "mutates": true,
      "name": "dialog",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Action": {
            "enum": [
              "accept",
              "dismiss",
              "leave"
            ],
            "type": "string"
          },
          "Dialog": {
            "properties": {
              "action": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "answer": {},
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "kind": {
                "type": "string"
              },
              "message": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "message"
            ],
            "type": "object"
          },
          "Policy": {
            "properties": {
              "action": {
                "$ref": "#/$defs/Action"
              },
              "once": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "promptText": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "action"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "answered": {
            "anyOf": [
              {
                "$ref": "#/$defs/Dialog"
              },
              {
                "type": "null"
              }
            ]
          },
          "open": {
            "anyOf": [
              {
                "$ref": "#/$defs/Dialog"
              },
              {
                "type": "null"
              }
            ]
          },
          "policy": {
            "$ref": "#/$defs/Policy"
          },
          "recent": {
            "items": {
              "$ref": "#/$defs/Dialog"
            },
            "type": "array"
          }
        },
        "required": [
          "policy",
          "recent"
        ],
        "title": "DialogsOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ReadDialogs",
        "type": "object"
      },
      "mutates": false,
      "name": "dialogs",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Action": {
            "enum": [
              "accept",
              "dismiss",
              "leave"
            ],
            "type": "string"
          },
          "Dialog": {
            "properties": {
              "action": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "answer": {},
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "kind": {
                "type": "string"
              },
              "message": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "message"
            ],
            "type": "object"
          },
          "Policy": {
            "properties": {
              "action": {
                "$ref": "#/$defs/Action"
              },
              "once": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "promptText": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "action"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "answered": {
            "anyOf": [
              {
                "$ref": "#/$defs/Dialog"
              },
              {
                "type": "null"
              }
            ]
          },
          "open": {
            "anyOf": [
              {
                "$ref": "#/$defs/Dialog"
              },
              {
                "type": "null"
              }
            ]
          },
          "policy": {
            "$ref": "#/$defs/Policy"
          },
          "recent": {
            "items": {
              "$ref": "#/$defs/Dialog"
            },
            "type": "array"
          }
        },
        "required": [
          "policy",
          "recent"
        ],
        "title": "DialogsOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "Modifier": {
            "enum": [
              "Alt",
              "Control",
              "Meta",
              "Shift"
            ],
            "type": "string"
          },
          "MouseButton": {
            "enum": [
              "left",
              "right",
              "middle"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "anyOf": [
          {
            "properties": {
              "ref": {
                "type": "string"
              }
            },
            "required": [
              "ref"
            ],
            "type": "object"
          },
          {
            "properties": {
              "x": {
                "format": "double",
                "type": "number"
              },
              "y": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "x",
              "y"
            ],
            "type": "object"
          }
        ],
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "button": {
            "$ref": "#/$defs/MouseButton"
          },
          "doubleClick": {
            "type": "boolean"
          },
          "modifiers": {
            "items": {
              "$ref": "#/$defs/Modifier"
            },
            "type": "array"
          }
        },
        "required": [
          "modifiers",
          "button",
          "doubleClick",
          "after"
        ],
        "title": "Click",
        "type": "object"
      },
      "mutates": true,
      "name": "click",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "hit": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "GuardRule": {
            "properties": {
              "pattern": {
                "type": "string"
              },
              "regex": {
                "type": "string"
              }
            },
            "required": [
              "pattern",
              "regex"
            ],
            "type": "object"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "SecretFill": {
            "properties": {
              "name": {
                "type": "string"
              },
              "origins": {
                "items": {
                  "$ref": "#/$defs/GuardRule"
                },
                "type": "array"
              }
            },
            "required": [
              "name",
              "origins"
            ],
            "type": "object"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "ref": {
            "type": "string"
          },
          "secret": {
            "anyOf": [
              {
                "$ref": "#/$defs/SecretFill"
              },
              {
                "type": "null"
              }
            ]
          },
          "submit": {
            "type": "boolean"
          },
          "text": {
            "type": "string"
          }
        },
        "required": [
          "ref",
          "text",
          "submit",
          "after"
        ],
        "title": "Type",
        "type": "object"
      },
      "mutates": true,
      "name": "type",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "chars": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "chars"
        ],
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "ref": {
            "type": "string"
          }
        },
        "required": [
          "ref",
          "after"
        ],
        "title": "Hover",
        "type": "object"
      },
      "mutates": true,
      "name": "hover",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "ref": {
            "type": "string"
          }
        },
        "required": [
          "ref",
          "after"
        ],
        "title": "Focus",
        "type": "object"
      },
      "mutates": true,
      "name": "focus",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "ref": {
            "type": "string"
          },
          "values": {
            "items": {
              "type": "string"
            },
            "type": "array"
          }
        },
        "required": [
          "ref",
          "values",
          "after"
        ],
        "title": "Select",
        "type": "object"
      },
      "mutates": true,
      "name": "select",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "changed": {
            "type": "boolean"
          },
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "selected": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "selected",
          "changed"
        ],
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "ref": {
            "type": "string"
          }
        },
        "required": [
          "ref",
          "after"
        ],
        "title": "Clear",
        "type": "object"
      },
      "mutates": true,
      "name": "clear",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "changed": {
            "type": "boolean"
          },
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "changed"
        ],
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "GuardRule": {
            "properties": {
              "pattern": {
                "type": "string"
              },
              "regex": {
                "type": "string"
              }
            },
            "required": [
              "pattern",
              "regex"
            ],
            "type": "object"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "SecretFill": {
            "properties": {
              "name": {
                "type": "string"
              },
              "origins": {
                "items": {
                  "$ref": "#/$defs/GuardRule"
                },
                "type": "array"
              }
            },
            "required": [
              "name",
              "origins"
            ],
            "type": "object"
          },
          "UploadFile": {
            "properties": {
              "data": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "mime": {
                "type": "string"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "mime"
            ],
            "type": "object"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "files": {
            "items": {
              "$ref": "#/$defs/UploadFile"
            },
            "type": "array"
          },
          "ref": {
            "type": "string"
          },
          "secrets": {
            "items": {
              "$ref": "#/$defs/SecretFill"
            },
            "type": "array"
          },
          "upload": {
            "type": "string"
          }
        },
        "required": [
          "ref",
          "upload",
          "files",
          "after"
        ],
        "title": "Upload",
        "type": "object"
      },
      "mutates": true,
      "name": "upload",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "FileOnInput": {
            "properties": {
              "name": {
                "type": "string"
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "name",
              "size"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "files": {
            "items": {
              "$ref": "#/$defs/FileOnInput"
            },
            "type": "array"
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "files"
        ],
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "data": {
            "type": "string"
          },
          "file": {
            "format": "uint",
            "minimum": 0,
            "type": "integer"
          },
          "ref": {
            "type": "string"
          },
          "upload": {
            "type": "string"
          }
        },
        "required": [
          "ref",
          "upload",
          "file",
          "data"
        ],
        "title": "UploadPart",
        "type": "object"
      },
      "mutates": true,
      "name": "uploadPart",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "staged": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "staged"
        ],
        "title": "Staged",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "endRef": {
            "type": "string"
          },
          "startRef": {
            "type": "string"
          }
        },
        "required": [
          "startRef",
          "endRef",
          "after"
        ],
        "title": "Drag",
        "type": "object"
      },
      "mutates": true,
      "name": "drag",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "dropped": {
            "type": "boolean"
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "mode": {
            "type": "string"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "target": {
            "type": "string"
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "target",
          "mode",
          "dropped"
        ],
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "Modifier": {
            "enum": [
              "Alt",
              "Control",
              "Meta",
              "Shift"
            ],
            "type": "string"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "key": {
            "type": "string"
          },
          "modifiers": {
            "items": {
              "$ref": "#/$defs/Modifier"
            },
            "type": "array"
          }
        },
        "required": [
          "key",
          "modifiers",
          "after"
        ],
        "title": "Press",
        "type": "object"
      },
      "mutates": true,
      "name": "press",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "effect": {
            "type": [
              "string",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "focused": {
            "type": [
              "string",
              "null"
            ]
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "Direction": {
            "enum": [
              "up",
              "down",
              "left",
              "right"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "amount": {
            "format": "uint32",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "direction": {
            "anyOf": [
              {
                "$ref": "#/$defs/Direction"
              },
              {
                "type": "null"
              }
            ]
          },
          "ref": {
            "type": [
              "string",
              "null"
            ]
          },
          "selector": {
            "type": [
              "string",
              "null"
            ]
          },
          "x": {
            "format": "uint32",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "y": {
            "format": "uint32",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          }
        },
        "required": [
          "direction",
          "amount"
        ],
        "title": "Scroll",
        "type": "object"
      },
      "mutates": false,
      "name": "scroll",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "from": {
            "format": "int64",
            "type": [
              "integer",
              "null"
            ]
          },
          "max": {
            "format": "int64",
            "type": [
              "integer",
              "null"
            ]
          },
          "scrolled": {
            "type": "boolean"
          },
          "summary": {
            "type": "string"
          },
          "target": {
            "type": [
              "string",
              "null"
            ]
          },
          "to": {
            "format": "int64",
            "type": [
              "integer",
              "null"
            ]
          }
        },
        "required": [
          "summary",
          "scrolled"
        ],
        "title": "ScrollReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "After": {
            "properties": {
              "console": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ConsoleProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/NetworkProbe"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "settleMs": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "waitUntil": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/WaitUntil"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "ConsoleProbe": {
            "enum": [
              "errors",
              "entries"
            ],
            "type": "string"
          },
          "FieldValue": {
            "anyOf": [
              {
                "type": "boolean"
              },
              {
                "type": "string"
              }
            ]
          },
          "FillField": {
            "properties": {
              "ref": {
                "type": "string"
              },
              "secret": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/SecretFill"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "value": {
                "$ref": "#/$defs/FieldValue"
              }
            },
            "required": [
              "ref",
              "value"
            ],
            "type": "object"
          },
          "GuardRule": {
            "properties": {
              "pattern": {
                "type": "string"
              },
              "regex": {
                "type": "string"
              }
            },
            "required": [
              "pattern",
              "regex"
            ],
            "type": "object"
          },
          "NetworkProbe": {
            "enum": [
              "issues",
              "requests"
            ],
            "type": "string"
          },
          "SecretFill": {
            "properties": {
              "name": {
                "type": "string"
              },
              "origins": {
                "items": {
                  "$ref": "#/$defs/GuardRule"
                },
                "type": "array"
              }
            },
            "required": [
              "name",
              "origins"
            ],
            "type": "object"
          },
          "WaitUntil": {
            "enum": [
              "none",
              "auto",
              "load",
              "networkidle"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": {
            "$ref": "#/$defs/After"
          },
          "fields": {
            "items": {
              "$ref": "#/$defs/FillField"
            },
            "type": "array"
          }
        },
        "required": [
          "fields",
          "after"
        ],
        "title": "FillForm",
        "type": "object"
      },
      "mutates": true,
      "name": "fillForm",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ConsoleSince": {
            "properties": {
              "entries": {
                "items": {
                  "$ref": "#/$defs/LogEntry"
                },
                "type": [
                  "array",
                  "null"
                ]
              },
              "errors": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "errors"
            ],
            "type": "object"
          },
          "FieldError": {
            "properties": {
              "code": {
                "type": "string"
              },
              "message": {
                "type": "string"
              }
            },
            "required": [
              "code",
              "message"
            ],
            "type": "object"
          },
          "FieldResult": {
            "properties": {
              "element": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "error": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/FieldError"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "outcome": {
                "type": "string"
              },
              "ref": {
                "type": "string"
              }
            },
            "required": [
              "ref",
              "outcome"
            ],
            "type": "object"
          },
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          },
          "NetworkSince": {
            "properties": {
              "failed": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "noted": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "requests": {
                "default": null,
                "items": {
                  "$ref": "#/$defs/Request"
                },
                "type": [
                  "array",
                  "null"
                ]
              }
            },
            "required": [
              "failed",
              "noted"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          },
          "Started": {
            "properties": {
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "anyOf": [
              {
                "$ref": "#/$defs/ConsoleSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "downloads": {
            "default": null,
            "items": {
              "$ref": "#/$defs/Started"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "fields": {
            "items": {
              "$ref": "#/$defs/FieldResult"
            },
            "type": "array"
          },
          "inFrame": {
            "default": false,
            "type": "boolean"
          },
          "navigated": {
            "default": false,
            "type": "boolean"
          },
          "navigationError": {
            "type": [
              "string",
              "null"
            ]
          },
          "network": {
            "anyOf": [
              {
                "$ref": "#/$defs/NetworkSince"
              },
              {
                "type": "null"
              }
            ]
          },
          "retagged": {
            "default": false,
            "type": "boolean"
          },
          "settled": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "fields"
        ],
        "title": "ActReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [
          {
            "properties": {
              "expression": {
                "type": "string"
              }
            },
            "required": [
              "expression"
            ],
            "type": "object"
          },
          {
            "properties": {
              "function": {
                "type": "string"
              }
            },
            "required": [
              "function"
            ],
            "type": "object"
          }
        ],
        "properties": {
          "maxChars": {
            "format": "uint",
            "minimum": 0,
            "type": "integer"
          },
          "ref": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "maxChars"
        ],
        "title": "Eval",
        "type": "object"
      },
      "mutates": true,
      "name": "eval",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "cut": {
            "type": [
              "string",
              "null"
            ]
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
          },
          "filePath": {
            "type": [
              "string",
              "null"
            ]
          },
          "url": {
            "type": "string"
          },
          "value": {},
          "world": {
            "type": "string"
          }
        },
        "required": [
          "value",
          "url",
          "world"
        ],
        "title": "EvalOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [
          {
            "properties": {
              "action": {
                "const": "list",
                "type": "string"
              },
              "limit": {
                "format": "uint",
                "minimum": 0,
                "type": "integer"
              },
              "offset": {
                "format": "uint",
                "minimum": 0,
                "type": "integer"
              },
              "query": {
                "type": "string"
              }
            },
            "required": [
              "action",
              "query",
              "offset",
              "limit"
            ],
            "type": "object"
          },
          {
            "properties": {
              "action": {
                "const": "describe",
                "type": "string"
              },
              "toolRef": {
                "type": "string"
              }
            },
            "required": [
              "action",
              "toolRef"
            ],
            "type": "object"
          }
        ],
        "title": "PageTools"
      },
      "mutates": false,
      "name": "pageTools",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Detail": {
            "properties": {
              "annotations": true,
              "description": {
                "type": "string"
              },
              "inputSchema": true,
              "name": {
                "type": "string"
              },
              "title": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "toolRef": {
                "type": "string"
              }
            },
            "required": [
              "toolRef",
              "name",
              "description",
              "inputSchema"
            ],
            "type": "object"
          },
          "Summary": {
            "properties": {
              "args": {
                "items": {
                  "type": "string"
                },
                "type": "array"
              },
              "description": {
                "type": "string"
              },
              "name": {
                "type": "string"
              },
              "title": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "toolRef": {
                "type": "string"
              }
            },
            "required": [
              "toolRef",
              "name",
              "description",
              "args"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "approvedBy": {
            "type": [
              "string",
              "null"
            ]
          },
          "cut": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "origin": {
            "type": "string"
          },
          "result": {},
          "supported": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "tool": {
            "anyOf": [
              {
                "$ref": "#/$defs/Detail"
              },
              {
                "type": "null"
              }
            ]
          },
          "tools": {
            "items": {
              "$ref": "#/$defs/Summary"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "total": {
            "format": "uint",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          }
        },
        "required": [
          "origin"
        ],
        "title": "PageToolsOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "GuardRule": {
            "properties": {
              "pattern": {
                "type": "string"
              },
              "regex": {
                "type": "string"
              }
            },
            "required": [
              "pattern",
              "regex"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "arguments": true,
          "phaseMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "toolRef": {
            "type": "string"
          },
          "trusted": {
            "items": {
              "$ref": "#/$defs/GuardRule"
            },
            "type": "array"
          }
        },
        "required": [
          "toolRef",
          "arguments",
          "trusted",
          "phaseMs"
        ],
        "title": "PageToolCall",
        "type": "object"
      },
      "mutates": true,
      "name": "pageToolCall",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Detail": {
            "properties": {
              "annotations": true,
              "description": {
                "type": "string"
              },
              "inputSchema": true,
              "name": {
                "type": "string"
              },
              "title": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "toolRef": {
                "type": "string"
              }
            },
            "required": [
              "toolRef",
              "name",
              "description",
              "inputSchema"
            ],
            "type": "object"
          },
          "Summary": {
            "properties": {
              "args": {
                "items": {
                  "type": "string"
                },
                "type": "array"
              },
              "description": {
                "type": "string"
              },
              "name": {
                "type": "string"
              },
              "title": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "toolRef": {
                "type": "string"
              }
            },
            "required": [
              "toolRef",
              "name",
              "description",
              "args"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "approvedBy": {
            "type": [
              "string",
              "null"
            ]
          },
          "cut": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "origin": {
            "type": "string"
          },
          "result": {},
          "supported": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "tool": {
            "anyOf": [
              {
                "$ref": "#/$defs/Detail"
              },
              {
                "type": "null"
              }
            ]
          },
          "tools": {
            "items": {
              "$ref": "#/$defs/Summary"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "total": {
            "format": "uint",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          }
        },
        "required": [
          "origin"
        ],
        "title": "PageToolsOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "settleMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "settleMs"
        ],
        "title": "Vitals",
        "type": "object"
      },
      "mutates": false,
      "name": "vitals",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Blocking": {
            "properties": {
              "endMs": {
                "format": "double",
                "type": "number"
              },
              "kind": {
                "type": "string"
              },
              "startMs": {
                "format": "double",
                "type": "number"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "url",
              "kind",
              "startMs",
              "endMs"
            ],
            "type": "object"
          },
          "Breakdown": {
            "properties": {
              "loadDelayMs": {
                "format": "double",
                "type": "number"
              },
              "loadTimeMs": {
                "format": "double",
                "type": "number"
              },
              "renderDelayMs": {
                "format": "double",
                "type": "number"
              },
              "ttfbMs": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "ttfbMs",
              "loadDelayMs",
              "loadTimeMs",
              "renderDelayMs"
            ],
            "type": "object"
          },
          "Cls": {
            "properties": {
              "shifted": {
                "items": {
                  "$ref": "#/$defs/Named"
                },
                "type": "array"
              },
              "shifts": {
                "format": "uint",
                "minimum": 0,
                "type": "integer"
              },
              "value": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "value",
              "shifts",
              "shifted"
            ],
            "type": "object"
          },
          "Inp": {
            "properties": {
              "element": {
                "type": "string"
              },
              "event": {
                "type": "string"
              },
              "interactions": {
                "format": "uint",
                "minimum": 0,
                "type": "integer"
              },
              "ms": {
                "format": "double",
                "type": "number"
              },
              "ref": {
                "type": "string"
              }
            },
            "required": [
              "ms",
              "event",
              "interactions"
            ],
            "type": "object"
          },
          "Lcp": {
            "properties": {
              "breakdown": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/Breakdown"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "element": {
                "type": "string"
              },
              "fetchPriority": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "loading": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "ms": {
                "format": "double",
                "type": "number",
                "writeOnly": true
              },
              "ref": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "ms"
            ],
            "type": "object"
          },
          "LongFrame": {
            "properties": {
              "blockingMs": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "durationMs": {
                "format": "double",
                "type": "number"
              },
              "scripts": {
                "items": {
                  "$ref": "#/$defs/Script"
                },
                "type": "array"
              },
              "startMs": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "startMs",
              "durationMs",
              "scripts"
            ],
            "type": "object"
          },
          "Named": {
            "properties": {
              "element": {
                "type": "string"
              },
              "ref": {
                "type": "string"
              }
            },
            "required": [
              "ref",
              "element"
            ],
            "type": "object"
          },
          "RenderBlocking": {
            "properties": {
              "count": {
                "format": "uint",
                "minimum": 0,
                "type": "integer"
              },
              "resources": {
                "items": {
                  "$ref": "#/$defs/Blocking"
                },
                "type": "array"
              }
            },
            "required": [
              "count",
              "resources"
            ],
            "type": "object"
          },
          "Script": {
            "properties": {
              "durationMs": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "function": {
                "type": "string"
              },
              "invoker": {
                "type": "string"
              },
              "source": {
                "type": "string"
              }
            },
            "required": [
              "invoker",
              "source"
            ],
            "type": "object"
          },
          "Supported": {
            "properties": {
              "cls": {
                "type": "boolean"
              },
              "inp": {
                "type": "boolean"
              },
              "lcp": {
                "type": "boolean"
              }
            },
            "required": [
              "lcp",
              "cls",
              "inp"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "cls": {
            "anyOf": [
              {
                "$ref": "#/$defs/Cls"
              },
              {
                "type": "null"
              }
            ]
          },
          "fcp": {
            "format": "double",
            "type": [
              "number",
              "null"
            ]
          },
          "hiddenAt": {
            "format": "double",
            "type": [
              "number",
              "null"
            ]
          },
          "inp": {
            "anyOf": [
              {
                "$ref": "#/$defs/Inp"
              },
              {
                "type": "null"
              }
            ]
          },
          "lcp": {
            "anyOf": [
              {
                "$ref": "#/$defs/Lcp"
              },
              {
                "type": "null"
              }
            ]
          },
          "longFrames": {
            "items": {
              "$ref": "#/$defs/LongFrame"
            },
            "type": "array"
          },
          "longFramesKind": {
            "type": [
              "string",
              "null"
            ]
          },
          "renderBlocking": {
            "anyOf": [
              {
                "$ref": "#/$defs/RenderBlocking"
              },
              {
                "type": "null"
              }
            ],
            "default": null
          },
          "supported": {
            "$ref": "#/$defs/Supported"
          },
          "ttfb": {
            "format": "double",
            "type": [
              "number",
              "null"
            ]
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "url",
          "supported",
          "longFrames"
        ],
        "title": "VitalsReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "durationMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "everyMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "durationMs",
          "everyMs"
        ],
        "title": "Memory",
        "type": "object"
      },
      "mutates": false,
      "name": "memory",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "samples": {
            "default": [],
            "items": {
              "maxItems": 2,
              "minItems": 2,
              "prefixItems": [
                {
                  "format": "double",
                  "type": "number"
                },
                {
                  "format": "double",
                  "type": "number"
                }
              ],
              "type": "array"
            },
            "type": "array"
          },
          "supported": {
            "type": "boolean"
          }
        },
        "required": [
          "supported"
        ],
        "title": "MemoryReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "durationMs": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "durationMs"
        ],
        "title": "Trace",
        "type": "object"
      },
      "mutates": false,
      "name": "trace",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "trace": {
            "type": "string"
          }
        },
        "required": [
          "trace"
        ],
        "title": "TraceReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A11y",
        "type": "object"
      },
      "mutates": false,
      "name": "a11y",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "AuditFrame": {
            "properties": {
              "violations": {
                "items": {
                  "$ref": "#/$defs/Violation"
                },
                "type": "array"
              }
            },
            "required": [
              "violations"
            ],
            "type": "object"
          },
          "Example": {
            "properties": {
              "html": {
                "type": "string"
              },
              "ref": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "why": {
                "type": "string"
              }
            },
            "required": [
              "html",
              "why"
            ],
            "type": "object"
          },
          "Impact": {
            "enum": [
              "critical",
              "serious",
              "moderate",
              "minor"
            ],
            "type": "string"
          },
          "Violation": {
            "properties": {
              "count": {
                "format": "uint",
                "minimum": 0,
                "type": "integer"
              },
              "examples": {
                "items": {
                  "$ref": "#/$defs/Example"
                },
                "type": "array"
              },
              "help": {
                "type": "string"
              },
              "helpUrl": {
                "type": "string"
              },
              "id": {
                "type": "string"
              },
              "impact": {
                "$ref": "#/$defs/Impact"
              }
            },
            "required": [
              "id",
              "impact",
              "help",
              "helpUrl",
              "count",
              "examples"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "frames": {
            "items": {
              "$ref": "#/$defs/AuditFrame"
            },
            "type": "array"
          },
          "notAudited": {
            "format": "uint",
            "minimum": 0,
            "type": "integer"
          },
          "version": {
            "type": "string"
          }
        },
        "required": [
          "version",
          "frames",
          "notAudited"
        ],
        "title": "AuditReply",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "page": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "pageSize": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "preserved": {
            "type": "boolean"
          },
          "status": {
            "type": [
              "string",
              "null"
            ]
          },
          "type": {
            "type": [
              "string",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "url",
          "type",
          "status",
          "preserved",
          "page",
          "pageSize"
        ],
        "title": "NetworkRequests",
        "type": "object"
      },
      "mutates": false,
      "name": "networkRequests",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "dropped": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "requests": {
            "items": {
              "$ref": "#/$defs/Request"
            },
            "type": "array"
          },
          "total": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "total",
          "requests"
        ],
        "title": "ListOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "nth": {
            "format": "uint32",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "url"
        ],
        "title": "NetworkRequest",
        "type": "object"
      },
      "mutates": false,
      "name": "networkRequest",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Binary": {
            "properties": {
              "bytes": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "mimeType": {
                "type": "string"
              }
            },
            "required": [
              "mimeType",
              "bytes"
            ],
            "type": "object"
          },
          "Header": {
            "properties": {
              "name": {
                "type": "string"
              },
              "value": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "value"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "binary": {
            "anyOf": [
              {
                "$ref": "#/$defs/Binary"
              },
              {
                "type": "null"
              }
            ]
          },
          "body": {
            "type": [
              "string",
              "null"
            ]
          },
          "bodyChars": {
            "format": "uint64",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "bodyCut": {
            "type": "boolean"
          },
          "credentials": {
            "type": [
              "string",
              "null"
            ]
          },
          "debugger": {
            "type": "boolean"
          },
          "request": {
            "$ref": "#/$defs/Request"
          },
          "requestHeaders": {
            "default": [],
            "items": {
              "$ref": "#/$defs/Header"
            },
            "type": "array"
          },
          "responseHeaders": {
            "default": [],
            "items": {
              "$ref": "#/$defs/Header"
            },
            "type": "array"
          }
        },
        "required": [
          "request",
          "debugger"
        ],
        "title": "OneOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "url": {
            "type": "string"
          }
        },
        "required": [
          "url"
        ],
        "title": "NetworkReload",
        "type": "object"
      },
      "mutates": true,
      "name": "networkReload",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Binary": {
            "properties": {
              "bytes": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "mimeType": {
                "type": "string"
              }
            },
            "required": [
              "mimeType",
              "bytes"
            ],
            "type": "object"
          },
          "Header": {
            "properties": {
              "name": {
                "type": "string"
              },
              "value": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "value"
            ],
            "type": "object"
          },
          "Request": {
            "properties": {
              "cached": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "duplicate": {
                "type": "boolean"
              },
              "earlier": {
                "format": "uint32",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": "integer"
              },
              "initiator": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": "string"
              },
              "ms": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "redirect": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "size": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": "string"
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "method",
              "url",
              "type"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "binary": {
            "anyOf": [
              {
                "$ref": "#/$defs/Binary"
              },
              {
                "type": "null"
              }
            ]
          },
          "body": {
            "type": [
              "string",
              "null"
            ]
          },
          "bodyChars": {
            "format": "uint64",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          },
          "bodyCut": {
            "type": "boolean"
          },
          "credentials": {
            "type": [
              "string",
              "null"
            ]
          },
          "debugger": {
            "type": "boolean"
          },
          "request": {
            "$ref": "#/$defs/Request"
          },
          "requestHeaders": {
            "default": [],
            "items": {
              "$ref": "#/$defs/Header"
            },
            "type": "array"
          },
          "responseHeaders": {
            "default": [],
            "items": {
              "$ref": "#/$defs/Header"
            },
            "type": "array"
          }
        },
        "required": [
          "request",
          "debugger"
        ],
        "title": "OneOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "page": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "pageSize": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "page",
          "pageSize"
        ],
        "title": "Issues",
        "type": "object"
      },
      "mutates": false,
      "name": "issues",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Issue": {
            "properties": {
              "blocked": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "code": {
                "type": "string"
              },
              "directive": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "element": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "message": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "method": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "ref": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "reportOnly": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "source": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "status": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "type": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "code"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "issues": {
            "items": {
              "$ref": "#/$defs/Issue"
            },
            "type": "array"
          },
          "total": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "total",
          "issues"
        ],
        "title": "IssuesOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "preserved": {
            "type": "boolean"
          }
        },
        "required": [
          "preserved"
        ],
        "title": "ConsoleLogs",
        "type": "object"
      },
      "mutates": false,
      "name": "consoleLogs",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Kind": {
            "oneOf": [
              {
                "enum": [
                  "console",
                  "exception",
                  "rejection"
                ],
                "type": "string"
              },
              {
                "const": "worker",
                "type": "string"
              }
            ]
          },
          "Level": {
            "enum": [
              "debug",
              "log",
              "info",
              "warn",
              "error"
            ],
            "type": "string"
          },
          "LogEntry": {
            "properties": {
              "at": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "current": {
                "type": "boolean"
              },
              "earlier": {
                "type": "boolean"
              },
              "frame": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "frameId": {
                "format": "int64",
                "type": [
                  "integer",
                  "null"
                ]
              },
              "kind": {
                "$ref": "#/$defs/Kind"
              },
              "level": {
                "$ref": "#/$defs/Level"
              },
              "stack": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "text": {
                "type": "string"
              },
              "url": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "kind",
              "level",
              "text",
              "current"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "captured": {
            "type": "boolean"
          },
          "dropped": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "entries": {
            "items": {
              "$ref": "#/$defs/LogEntry"
            },
            "type": "array"
          }
        },
        "required": [
          "entries",
          "dropped",
          "captured"
        ],
        "title": "Log",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          },
          "values": {
            "type": "boolean"
          }
        },
        "required": [
          "url",
          "name",
          "values"
        ],
        "title": "Cookies",
        "type": "object"
      },
      "mutates": false,
      "name": "cookies",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Cookie": {
            "properties": {
              "domain": {
                "type": "string"
              },
              "expires": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "httpOnly": {
                "type": "boolean"
              },
              "len": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              },
              "partition": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "path": {
                "type": "string"
              },
              "sameSite": {
                "$ref": "#/$defs/SameSite"
              },
              "secure": {
                "type": "boolean"
              },
              "value": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "name",
              "len",
              "domain",
              "path",
              "secure",
              "httpOnly",
              "sameSite"
            ],
            "type": "object"
          },
          "SameSite": {
            "enum": [
              "strict",
              "lax",
              "no_restriction",
              "unspecified"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "cookies": {
            "items": {
              "$ref": "#/$defs/Cookie"
            },
            "type": "array"
          },
          "private": {
            "type": "boolean"
          },
          "store": {
            "type": "string"
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "url",
          "store",
          "cookies"
        ],
        "title": "CookiesOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "SameSite": {
            "enum": [
              "strict",
              "lax",
              "no_restriction",
              "unspecified"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "delete": {
            "type": "boolean"
          },
          "domain": {
            "type": [
              "string",
              "null"
            ]
          },
          "expires": {
            "format": "double",
            "type": [
              "number",
              "null"
            ]
          },
          "httpOnly": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "name": {
            "type": "string"
          },
          "path": {
            "type": [
              "string",
              "null"
            ]
          },
          "sameSite": {
            "anyOf": [
              {
                "$ref": "#/$defs/SameSite"
              },
              {
                "type": "null"
              }
            ]
          },
          "secure": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          },
          "value": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "url",
          "name",
          "value",
          "domain",
          "path",
          "secure",
          "httpOnly",
          "sameSite",
          "expires",
          "delete"
        ],
        "title": "SetCookie",
        "type": "object"
      },
      "mutates": true,
      "name": "setCookie",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Cookie": {
            "properties": {
              "domain": {
                "type": "string"
              },
              "expires": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "httpOnly": {
                "type": "boolean"
              },
              "len": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "name": {
                "type": "string"
              },
              "partition": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "path": {
                "type": "string"
              },
              "sameSite": {
                "$ref": "#/$defs/SameSite"
              },
              "secure": {
                "type": "boolean"
              },
              "value": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "name",
              "len",
              "domain",
              "path",
              "secure",
              "httpOnly",
              "sameSite"
            ],
            "type": "object"
          },
          "SameSite": {
            "enum": [
              "strict",
              "lax",
              "no_restriction",
              "unspecified"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "cookie": {
            "anyOf": [
              {
                "$ref": "#/$defs/Cookie"
              },
              {
                "type": "null"
              }
            ]
          },
          "deleted": {
            "type": "boolean"
          },
          "private": {
            "type": "boolean"
          },
          "store": {
            "type": "string"
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "url",
          "store"
        ],
        "title": "CookieSet",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "Area": {
            "enum": [
              "local",
              "session"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "area": {
            "$ref": "#/$defs/Area"
          },
          "key": {
            "type": [
              "string",
              "null"
            ]
          },
          "ref": {
            "type": [
              "string",
              "null"
            ]
          },
          "values": {
            "type": "boolean"
          }
        },
        "required": [
          "area",
          "ref",
          "key",
          "values"
        ],
        "title": "StorageRead",
        "type": "object"
      },
      "mutates": false,
      "name": "storageRead",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Item": {
            "properties": {
              "cut": {
                "type": "boolean"
              },
              "key": {
                "type": "string"
              },
              "len": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "value": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "key",
              "len"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "items": {
            "items": {
              "$ref": "#/$defs/Item"
            },
            "type": "array"
          },
          "leftOut": {
            "type": [
              "string",
              "null"
            ]
          },
          "origin": {
            "type": "string"
          },
          "private": {
            "type": "boolean"
          },
          "total": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "origin",
          "url",
          "items",
          "total"
        ],
        "title": "StorageOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "Area": {
            "enum": [
              "local",
              "session"
            ],
            "type": "string"
          },
          "Change": {
            "enum": [
              "set",
              "remove",
              "clear"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "action": {
            "$ref": "#/$defs/Change"
          },
          "area": {
            "$ref": "#/$defs/Area"
          },
          "key": {
            "type": [
              "string",
              "null"
            ]
          },
          "ref": {
            "type": [
              "string",
              "null"
            ]
          },
          "value": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "area",
          "ref",
          "action",
          "key",
          "value"
        ],
        "title": "StorageWrite",
        "type": "object"
      },
      "mutates": true,
      "name": "storageWrite",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Item": {
            "properties": {
              "cut": {
                "type": "boolean"
              },
              "key": {
                "type": "string"
              },
              "len": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "value": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "key",
              "len"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "items": {
            "items": {
              "$ref": "#/$defs/Item"
            },
            "type": "array"
          },
          "leftOut": {
            "type": [
              "string",
              "null"
            ]
          },
          "origin": {
            "type": "string"
          },
          "private": {
            "type": "boolean"
          },
          "total": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "url": {
            "type": "string"
          }
        },
        "required": [
          "origin",
          "url",
          "items",
          "total"
        ],
        "title": "StorageOut",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "closeOpened": {
            "type": "boolean"
          }
        },
        "required": [
          "closeOpened"
        ],
        "title": "Release",
        "type": "object"
      },
      "mutates": true,
      "name": "release",
      "relayOnly": true,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "closed": {
            "items": {
              "format": "int64",
              "type": "integer"
            },
            "type": "array"
          }
        },
        "required": [
          "closed"
        ],
        "title": "Released",
        "type": "object"
      },
      "scope": "browser"
    },
    {
      "args": {
        "$defs": {
          "WaitFor": {
            "anyOf": [
              {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              {
                "type": "boolean"
              }
            ]
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "wait": {
            "anyOf": [
              {
                "$ref": "#/$defs/WaitFor"
              },
              {
                "type": "null"
              }
            ]
          }
        },
        "title": "Downloads",
        "type": "object"
      },
      "mutates": false,
      "name": "downloads",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "Download": {
            "properties": {
              "bytes": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "danger": {
                "type": "string"
              },
              "error": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "file": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "id": {
                "format": "uint64",
                "minimum": 0,
                "type": "integer"
              },
              "mime": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "mine": {
                "type": "boolean"
              },
              "state": {
                "$ref": "#/$defs/State"
              },
              "totalBytes": {
                "format": "uint64",
                "minimum": 0,
                "type": [
                  "integer",
                  "null"
                ]
              },
              "url": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "mine",
              "url",
              "bytes",
              "state",
              "danger"
            ],
            "type": "object"
          },
          "State": {
            "enum": [
              "in_progress",
              "interrupted",
              "complete"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "downloads": {
            "items": {
              "$ref": "#/$defs/Download"
            },
            "type": "array"
          },
          "waited": {
            "format": "uint64",
            "minimum": 0,
            "type": [
              "integer",
              "null"
            ]
          }
        },
        "required": [
          "downloads"
        ],
        "title": "DownloadsOut",
        "type": "object"
      },
      "scope": "browser"
    },
    {
      "args": {
        "$defs": {
          "Clear": {
            "anyOf": [
              {
                "type": "boolean"
              },
              {
                "items": {
                  "type": "string"
                },
                "type": "array"
              }
            ]
          },
          "ColorScheme": {
            "enum": [
              "light",
              "dark"
            ],
            "type": "string"
          },
          "Device": {
            "properties": {
              "colorScheme": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ColorScheme"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "cpu": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/Network"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "reducedMotion": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ReducedMotion"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "userAgent": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "viewport": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/Viewport"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "DeviceSetting": {
            "enum": [
              "viewport",
              "userAgent",
              "colorScheme",
              "reducedMotion",
              "network",
              "cpu"
            ],
            "type": "string"
          },
          "Network": {
            "additionalProperties": false,
            "properties": {
              "downloadKbps": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "latencyMs": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "offline": {
                "type": "boolean"
              },
              "uploadKbps": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "latencyMs",
              "downloadKbps",
              "uploadKbps"
            ],
            "type": "object"
          },
          "Position": {
            "properties": {
              "accuracy": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "latitude": {
                "format": "double",
                "type": "number"
              },
              "longitude": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "latitude",
              "longitude"
            ],
            "type": "object"
          },
          "ReducedMotion": {
            "enum": [
              "reduce",
              "no-preference"
            ],
            "type": "string"
          },
          "Viewport": {
            "additionalProperties": false,
            "properties": {
              "deviceScaleFactor": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "height": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "mobile": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "touch": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "width": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "width",
              "height"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "clear": {
            "anyOf": [
              {
                "$ref": "#/$defs/Clear"
              },
              {
                "type": "null"
              }
            ]
          },
          "clearDevice": {
            "items": {
              "$ref": "#/$defs/DeviceSetting"
            },
            "type": "array"
          },
          "clearGeolocation": {
            "type": "boolean"
          },
          "device": {
            "$ref": "#/$defs/Device"
          },
          "geolocation": {
            "anyOf": [
              {
                "$ref": "#/$defs/Position"
              },
              {
                "type": "null"
              }
            ]
          },
          "headers": {
            "additionalProperties": {
              "type": "string"
            },
            "type": "object"
          }
        },
        "required": [
          "headers",
          "clearGeolocation",
          "device",
          "clearDevice"
        ],
        "title": "Emulate",
        "type": "object"
      },
      "mutates": true,
      "name": "emulate",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ColorScheme": {
            "enum": [
              "light",
              "dark"
            ],
            "type": "string"
          },
          "Device": {
            "properties": {
              "colorScheme": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ColorScheme"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "cpu": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/Network"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "reducedMotion": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ReducedMotion"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "userAgent": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "viewport": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/Viewport"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "Network": {
            "additionalProperties": false,
            "properties": {
              "downloadKbps": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "latencyMs": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "offline": {
                "type": "boolean"
              },
              "uploadKbps": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "latencyMs",
              "downloadKbps",
              "uploadKbps"
            ],
            "type": "object"
          },
          "Position": {
            "properties": {
              "accuracy": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "latitude": {
                "format": "double",
                "type": "number"
              },
              "longitude": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "latitude",
              "longitude"
            ],
            "type": "object"
          },
          "ReducedMotion": {
            "enum": [
              "reduce",
              "no-preference"
            ],
            "type": "string"
          },
          "Viewport": {
            "additionalProperties": false,
            "properties": {
              "deviceScaleFactor": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "height": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "mobile": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "touch": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "width": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "width",
              "height"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "device": {
            "$ref": "#/$defs/Device",
            "default": {}
          },
          "geolocation": {
            "anyOf": [
              {
                "$ref": "#/$defs/Position"
              },
              {
                "type": "null"
              }
            ]
          },
          "headers": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "slowdown": {
            "default": 1.0,
            "format": "double",
            "type": "number"
          }
        },
        "required": [
          "headers"
        ],
        "title": "Emulation",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ReadEmulation",
        "type": "object"
      },
      "mutates": false,
      "name": "emulation",
      "relayOnly": false,
      "reply": {
        "$defs": {
          "ColorScheme": {
            "enum": [
              "light",
              "dark"
            ],
            "type": "string"
          },
          "Device": {
            "properties": {
              "colorScheme": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ColorScheme"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "cpu": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "network": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/Network"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "reducedMotion": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ReducedMotion"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "userAgent": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "viewport": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/Viewport"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "type": "object"
          },
          "Network": {
            "additionalProperties": false,
            "properties": {
              "downloadKbps": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "latencyMs": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "offline": {
                "type": "boolean"
              },
              "uploadKbps": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "latencyMs",
              "downloadKbps",
              "uploadKbps"
            ],
            "type": "object"
          },
          "Position": {
            "properties": {
              "accuracy": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "latitude": {
                "format": "double",
                "type": "number"
              },
              "longitude": {
                "format": "double",
                "type": "number"
              }
            },
            "required": [
              "latitude",
              "longitude"
            ],
            "type": "object"
          },
          "ReducedMotion": {
            "enum": [
              "reduce",
              "no-preference"
            ],
            "type": "string"
          },
          "Viewport": {
            "additionalProperties": false,
            "properties": {
              "deviceScaleFactor": {
                "format": "double",
                "type": [
                  "number",
                  "null"
                ]
              },
              "height": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              },
              "mobile": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "touch": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "width": {
                "format": "uint32",
                "minimum": 0,
                "type": "integer"
              }
            },
            "required": [
              "width",
              "height"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "device": {
            "$ref": "#/$defs/Device",
            "default": {}
          },
          "geolocation": {
            "anyOf": [
              {
                "$ref": "#/$defs/Position"
              },
              {
                "type": "null"
              }
            ]
          },
          "headers": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "slowdown": {
            "default": 1.0,
            "format": "double",
            "type": "number"
          }
        },
        "required": [
          "headers"
        ],
        "title": "Emulation",
        "type": "object"
      },
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
          "ProxyMode": {
            "enum": [
              "direct",
              "fixed",
              "pac",
              "system"
            ],
            "type": "string"
          },
          "Server": {
            "properties": {
              "host": {
                "type": "string"
              },
              "port": {
                "format": "uint16",
                "maximum": 65535,
                "minimum": 0,
                "type": "integer"
              },
              "scheme": {
                "type": "string"
              }
            },
            "required": [
              "scheme",
              "host",
              "port"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "bypass": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "clear": {
            "type": "boolean"
          },
          "mode": {
            "anyOf": [
              {
                "$ref": "#/$defs/ProxyMode"
              },
              {
                "type": "null"
              }
            ]
          },
          "pacUrl": {
            "type": [
              "string",
              "null"
            ]
          },
          "server": {
            "anyOf": [
              {
                "$ref": "#/$defs/Server"
              },
              {
                "type": "null"
              }
            ]
          }
        },
        "required": [
          "bypass",
          "clear"
        ],
        "title": "SetProxy",
        "type": "object"
      },
      "mutates": true,
      "name": "proxy",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "bypass": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "control": {
            "type": "string"
          },
          "mode": {
            "type": "string"
          },
          "pacUrl": {
            "type": [
              "string",
              "null"
            ]
          },
          "server": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "mode",
          "control"
        ],
        "title": "ProxyState",
        "type": "object"
      },
      "scope": "browser"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ReadProxy",
        "type": "object"
      },
      "mutates": false,
      "name": "proxyState",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "bypass": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "control": {
            "type": "string"
          },
          "mode": {
            "type": "string"
          },
          "pacUrl": {
            "type": [
              "string",
              "null"
            ]
          },
          "server": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "mode",
          "control"
        ],
        "title": "ProxyState",
        "type": "object"
      },
      "scope": "browser"
    },
    {
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "on": {
            "type": "boolean"
          }
        },
        "required": [
          "on"
        ],
        "title": "Advanced",
        "type": "object"
      },
      "mutates": true,
      "name": "advanced",
      "relayOnly": false,
      "reply": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "on": {
            "type": "boolean"
          },
          "since": {
            "type": [
              "string",
              "null"
            ]
          },
          "unchanged": {
            "type": "boolean"
          }
        },
        "required": [
          "on",
          "unchanged"
        ],
        "title": "AdvancedState",
        "type": "object"
      },
      "scope": "tab"
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

// Element refs (src/shared/protocol/refs.rs): regular-expression sources, unanchored; the groups
// `frame` (a frame's id), `local` (the ref inside its document) and `twin` (a twin's number).
export const REF = Object.freeze({
  "frame": "f(?<frame>[0-9]+):",
  "local": "e[0-9a-z]{4}(?:\\.(?<twin>[0-9]+))?",
  "pattern": "(?:f(?<frame>[0-9]+):)?(?<local>e[0-9a-z]{4}(?:\\.(?<twin>[0-9]+))?)"
});

// Each frame's `t` on the link to the relay, and a `tab` frame's `kind` (protocol/kinds.rs).
export const FRAME = Object.freeze({
  "about": "about",
  "ask": "ask",
  "call": "call",
  "cancel": "cancel",
  "challenge": "challenge",
  "hello": "hello",
  "part": "part",
  "ping": "ping",
  "pong": "pong",
  "result": "result",
  "roster": "roster",
  "tab": "tab",
  "welcome": "welcome"
});
export const TAB_EVENT = Object.freeze({
  "closed": "closed",
  "opened": "opened",
  "replaced": "replaced"
});

// The words of the handshake and of pairing (protocol/handshake.rs).
export const HANDSHAKE = Object.freeze({
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
});

// The codes the relay closes a link with, each saying why (protocol::close).
export const CLOSE = Object.freeze({
  "authFailed": 4001,
  "flood": 4008,
  "malformed": 4000,
  "replaced": 4009,
  "shutdown": 1001,
  "tooBig": 1009,
  "unsealed": 4010,
  "wrongEnvelope": 4002
});
