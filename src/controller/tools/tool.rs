//! A tool as one value: its spec (schemas derived from its input and output types, hints, CLI
//! forms) and its function.

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::args::{output_schema, parse, schema};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out, ToolOutput, ToolSpec};
use crate::shared::error::ToolError;

/// What a tool says about itself; its schemas come from its types.
#[derive(Clone, Copy)]
pub struct About {
    pub name: &'static str,
    pub description: &'static str,
    pub hints: Hints,
    pub cli: Cli,
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
    }
}
