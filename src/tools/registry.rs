//! The one list of tools: each tool is one value, its spec and its function, collected once and
//! read by the MCP server, the CLI and `tabpilot tools`.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::args::{AfterAction, output_schema, parse, schema, schema_after};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out, ToolOutput, ToolSpec};
use super::{act, capture, context, dialog, find, navigate, read, tabs};
use crate::error::ToolError;

/// What a tool says about itself; its schemas come from its types.
#[derive(Clone, Copy)]
pub struct About {
    pub name: &'static str,
    pub description: &'static str,
    pub hints: Hints,
    pub cli: Cli,
}

/// A tool's function, its typed input parsed from the call's JSON.
type Run = Box<
    dyn for<'a> Fn(&'a Ctx, Value) -> BoxFuture<'a, Result<ToolOutput, ToolError>> + Send + Sync,
>;

/// What a tool's function answers, borrowing the context for the call.
type Answer<'a, O> = BoxFuture<'a, Result<Out<O>, ToolError>>;

pub struct Tool {
    pub spec: ToolSpec,
    run: Run,
}

/// Forces a closure into the higher-ranked shape `Run` needs.
fn run<F>(f: F) -> Run
where
    F: for<'a> Fn(&'a Ctx, Value) -> BoxFuture<'a, Result<ToolOutput, ToolError>>
        + Send
        + Sync
        + 'static,
{
    Box::new(f)
}

impl Tool {
    /// A tool taking arguments of type `A` and answering data of type `O`.
    pub fn new<A, O>(about: About, f: for<'a> fn(&'a Ctx, A) -> Answer<'a, O>) -> Tool
    where
        A: DeserializeOwned + JsonSchema + Send + 'static,
        O: Serialize + JsonSchema + Send + 'static,
    {
        let name = about.name;
        let spec = spec::<O>(about, schema::<A>());
        let run = run(move |cx, args| {
            Box::pin(async move {
                let a: A = parse(name, args)?;
                f(cx, a).await?.finish()
            })
        });
        Tool { spec, run }
    }

    /// A page-changing tool: it also takes the shared after-action arguments (how long to wait
    /// after it, and `include: "snapshot"`, answered here for every such tool).
    pub fn acting<A, O>(
        about: About,
        f: for<'a> fn(&'a Ctx, A, &'a AfterAction) -> Answer<'a, O>,
    ) -> Tool
    where
        A: DeserializeOwned + JsonSchema + Send + 'static,
        O: Serialize + JsonSchema + Send + 'static,
    {
        let name = about.name;
        let spec = spec::<O>(about, schema_after::<A>());
        let run = run(move |cx, args| {
            Box::pin(async move {
                let (args, after) = AfterAction::split(name, args)?;
                let a: A = parse(name, args)?;
                let mut out = f(cx, a, &after).await?;
                if after.wants_snapshot() && out.snapshot.is_none() {
                    cx.attach_snapshot(&mut out).await;
                }
                out.finish()
            })
        });
        Tool { spec, run }
    }

    /// Runs the tool. Arguments are checked before anything is sent.
    pub async fn call(&self, cx: &Ctx, args: Value) -> Result<ToolOutput, ToolError> {
        (self.run)(cx, args).await
    }
}

/// The spec: the schemas derived from the input and output types. Every result also carries its
/// `outcome` (and a page-changing tool's the `snapshot` asked for); those are said once, in the
/// server's instructions, rather than in every tool's schema.
fn spec<O: JsonSchema>(about: About, input_schema: Value) -> ToolSpec {
    ToolSpec {
        name: about.name,
        description: about.description,
        input_schema,
        output_schema: output_schema::<O>(),
        hints: about.hints,
        cli: about.cli,
    }
}

/// Every tool, in the order clients list them.
pub fn all() -> &'static [Tool] {
    static ALL: OnceLock<Vec<Tool>> = OnceLock::new();
    ALL.get_or_init(|| {
        [
            tabs::tools(),
            navigate::tools(),
            read::tools(),
            act::tools(),
            capture::tools(),
            find::tools(),
            dialog::tools(),
            context::tools(),
        ]
        .into_iter()
        .flatten()
        .collect()
    })
}

/// A tool by its full name.
pub fn get(name: &str) -> Option<&'static Tool> {
    all().iter().find(|t| t.spec.name == name)
}

/// A tool as the terminal names it: its full name, one of its aliases, or its name without the
/// `browser_` prefix.
pub fn from_word(word: &str) -> Option<&'static Tool> {
    get(word).or_else(|| {
        all().iter().find(|t| {
            t.spec.cli.aliases.contains(&word) || t.spec.name.strip_prefix("browser_") == Some(word)
        })
    })
}

pub fn unknown_tool(name: &str) -> ToolError {
    ToolError::bad_args(format!(
        "there is no tool {name:?}; list them with tools/list or `tabpilot tools`"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_one_name_and_every_word_one_tool() {
        let mut words: Vec<&str> = all()
            .iter()
            .flat_map(|t| {
                let short = t.spec.name.strip_prefix("browser_");
                std::iter::once(t.spec.name)
                    .chain(short)
                    .chain(t.spec.cli.aliases.iter().copied())
            })
            .collect();
        let n = words.len();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), n, "a name, short form or alias is used twice");
        assert!(get("browser_nope").is_none());
        assert_eq!(from_word("tabs").unwrap().spec.name, "browser_list_tabs");
        assert_eq!(from_word("click").unwrap().spec.name, "browser_click");
    }

    #[test]
    fn every_tool_has_object_schemas() {
        for t in all() {
            let s = &t.spec;
            assert_eq!(s.input_schema["type"], "object", "{}", s.name);
            assert_eq!(s.output_schema["type"], "object", "{}", s.name);
            assert_ne!(
                s.output_schema["additionalProperties"], false,
                "{}: every result also carries its outcome",
                s.name
            );
        }
    }
}
