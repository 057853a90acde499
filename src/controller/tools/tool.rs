//! A tool as one value: its spec (schemas derived from its input and output types, hints, CLI
//! forms) and its function.

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::args::{output_schema, parse, schema};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out, Tier, ToolOutput, ToolSpec};
use crate::controller::audit::Keeps;
use crate::controller::record::Replayed;
use crate::shared::error::ToolError;

/// What a tool says about itself, all in one place: adding a tool is this declaration in its own
/// file and its module in the registry's list. Its schemas come from its types; its group is its
/// module's entry in the registry.
#[derive(Clone, Copy, Default)]
pub struct About {
    pub name: &'static str,
    pub description: &'static str,
    pub hints: Hints,
    pub cli: Cli,
    /// What the audit trail keeps of its arguments as sent, beyond the names every tool shares
    /// (what it looks for or names, never what it enters); the rest are lengths.
    pub keeps: Keeps,
    /// What a recording keeps of it (`browser_export`, `tabpilot replay`): its kind of step.
    pub recorded: Option<Replayed>,
    /// The smallest profile that lists it (`TABPILOT_TOOLS=slim`, `core`); `Full` by default.
    pub tier: Tier,
}

/// A tool's function, its typed input parsed from the call's JSON.
pub(super) type Run = Box<
    dyn for<'a> Fn(&'a Ctx, Value) -> BoxFuture<'a, Result<ToolOutput, ToolError>> + Send + Sync,
>;

/// What a tool's function answers, borrowing the context for the call.
pub(super) type Answer<'a, O> = BoxFuture<'a, Result<Out<O>, ToolError>>;

pub struct Tool {
    pub spec: ToolSpec,
    run: Run,
}

/// Forces a closure into the higher-ranked shape `Run` needs.
pub(super) fn run<F>(f: F) -> Run
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

    /// A tool whose function takes the call's JSON itself (after.rs builds page-changing tools
    /// this way).
    pub(super) fn from_parts(spec: ToolSpec, run: Run) -> Tool {
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
pub(super) fn spec<O: JsonSchema>(about: About, input_schema: Value) -> ToolSpec {
    ToolSpec {
        name: about.name,
        group: "",
        description: about.description,
        input_schema,
        output_schema: output_schema::<O>(),
        hints: about.hints,
        cli: about.cli,
        keeps: about.keeps,
        recorded: about.recorded,
        tier: about.tier,
    }
}
