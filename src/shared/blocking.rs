//! Work that would hold one of the async runtime's two workers for a while (image decoding and
//! shrinking, large files written or read) runs on the blocking pool instead.

use crate::shared::error::{Code, ToolError};

/// Runs `work` on the blocking pool; `what` names it should the pool drop it.
pub async fn run<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ToolError::failed(Code::Internal, format!("{what} stopped unfinished: {e}")))?
}
