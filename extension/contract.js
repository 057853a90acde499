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
      "args": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "active": {
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
      "args": true,
      "mutates": true,
      "name": "navigate",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": true,
      "name": "history",
      "relayOnly": false,
      "reply": true,
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
      "args": true,
      "mutates": false,
      "name": "read",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "find",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "html",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "waitFor",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "screenshot",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": true,
      "name": "dialog",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "dialogs",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": {
        "$defs": {
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
          "after": {},
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "default": null
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
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
            "default": null
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
          "ref": {
            "type": "string"
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "chars": {
            "format": "uint64",
            "minimum": 0,
            "type": "integer"
          },
          "console": {
            "default": null
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
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
            "default": null
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "default": null
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
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
            "default": null
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "changed": {
            "type": "boolean"
          },
          "console": {
            "default": null
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
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
            "default": null
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "changed": {
            "type": "boolean"
          },
          "console": {
            "default": null
          },
          "element": {
            "type": [
              "string",
              "null"
            ]
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
            "default": null
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
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
          "files": {
            "items": {
              "$ref": "#/$defs/UploadFile"
            },
            "type": "array"
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
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "default": null
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
            "default": null
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "default": null
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
            "default": null
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
          "Modifier": {
            "enum": [
              "Alt",
              "Control",
              "Meta",
              "Shift"
            ],
            "type": "string"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
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
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "default": null
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
            "default": null
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
              "value": {
                "$ref": "#/$defs/FieldValue"
              }
            },
            "required": [
              "ref",
              "value"
            ],
            "type": "object"
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "after": true,
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
          }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
          "console": {
            "default": null
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
            "default": null
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
      "args": true,
      "mutates": true,
      "name": "eval",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "pageTools",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": true,
      "name": "pageToolCall",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "vitals",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "memory",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "trace",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "a11y",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "networkRequests",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "networkRequest",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": true,
      "name": "networkReload",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "issues",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": false,
      "name": "consoleLogs",
      "relayOnly": false,
      "reply": true,
      "scope": "tab"
    },
    {
      "args": true,
      "mutates": true,
      "name": "release",
      "relayOnly": true,
      "reply": true,
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
