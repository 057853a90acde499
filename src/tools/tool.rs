//! A tool as one value: its spec (schemas derived from its input and output types, hints, CLI
//! forms) and its function.

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::args::{AfterAction, SNAPSHOT_TOKENS, output_schema, parse, schema, schema_after};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out, ToolOutput, ToolSpec};
use super::{console, footer, network};
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
    /// after it, and `include: "snapshot"`, `"diff"`, `"console"` or `"network"`, answered here for every such
    /// tool), and its reply ends with what went wrong in the page meanwhile (footer.rs).
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
                cx.take_probes();
                let mut out = f(cx, a, &after).await?;
                let probes = cx.take_probes();
                out.notices.extend(footer::notices(&probes));
                if after.wants_console() {
                    let section = console::since_action(probes.get("console"));
                    out.sections
                        .push(("console", section.clone(), json!(section)));
                }
                if after.wants_network() {
                    let (section, requests) = network::since_action(probes.get("network"));
                    out.sections.push(("network", section, requests));
                }
                if after.wants_snapshot() && out.snapshot.is_none() {
                    cx.attach_snapshot(&mut out, SNAPSHOT_TOKENS).await;
                }
                if after.wants_diff() && out.diff.is_none() {
                    cx.attach_diff(&mut out).await;
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
        group: "",
        description: about.description,
        input_schema,
        output_schema: output_schema::<O>(),
        hints: about.hints,
        cli: about.cli,
    }
}
