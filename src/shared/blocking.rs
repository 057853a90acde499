//! The one way async code runs blocking work: file-system scans (a project's context, the
//! desktop entries, throwaway profiles), files read or written, image decoding and shrinking,
//! the OS keyring, a managed browser closed. None of it may hold one of the async runtime's
//! workers (there are as many as cores, two on a small machine), and nothing else in the crate
//! calls tokio's `spawn_blocking`: a scan reached from async code goes through `run` (or
//! `call`), and a module whose work blocks offers it to async callers only through them.
//!
//! Bounded: at most `MAX_AT_ONCE` pieces of work run at once, the rest wait their turn in the
//! order they came, so a burst of calls (each scanning a project, say) cannot fill the blocking
//! pool with scans of one disk. A piece of work keeps its place until it ends, even when the
//! caller stopped waiting for it.
//!
//! Never start a child process tied to us here: it dies with the thread that forked it
//! (`PR_SET_PDEATHSIG`), and a blocking-pool thread exits once it has idled 10 s. Prepare the
//! command here and spawn it from the async caller (`launch::start` does).

use tokio::sync::Semaphore;

use crate::shared::error::{Code, ToolError};

/// How many pieces of blocking work run at once.
pub const MAX_AT_ONCE: usize = 4;

static SLOTS: Semaphore = Semaphore::const_new(MAX_AT_ONCE);

/// Runs `work` on the blocking pool, once one of the `MAX_AT_ONCE` places is free; `what` names
/// it should the pool drop it.
pub async fn run<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    within(&SLOTS, what, work).await
}

async fn within<T: Send + 'static>(
    places: &'static Semaphore,
    what: &'static str,
    work: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    let stopped = |e: &dyn std::fmt::Display| {
        ToolError::failed(Code::Internal, format!("{what} stopped unfinished: {e}"))
    };
    let place = places.acquire().await.map_err(|e| stopped(&e))?;
    tokio::task::spawn_blocking(move || {
        let _place = place;
        work()
    })
    .await
    .map_err(|e| stopped(&e))?
}

/// `run` for work that cannot fail.
pub async fn call<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ToolError> {
    run(what, move || Ok(work())).await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// Many pieces asked for at once run at most as many at a time as there are places, and all
    /// of them run. (Places of the test's own, so the crate's other tests do not share them.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_bound_run_at_once() {
        static PLACES: Semaphore = Semaphore::const_new(MAX_AT_ONCE);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let pieces = (0..4 * MAX_AT_ONCE).map(|i| {
            let (running, most) = (running.clone(), most.clone());
            tokio::spawn(within(&PLACES, "a test's piece", move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(20));
                running.fetch_sub(1, Ordering::SeqCst);
                Ok(i)
            }))
        });
        let done: Vec<usize> = futures::future::join_all(pieces)
            .await
            .into_iter()
            .map(|r| r.unwrap().unwrap())
            .collect();
        assert_eq!(done, (0..4 * MAX_AT_ONCE).collect::<Vec<_>>());
        let most = most.load(Ordering::SeqCst);
        assert!(most <= MAX_AT_ONCE, "{most} ran at once");
        assert!(most > 1, "the pieces ran one by one");
    }

    /// A piece whose caller stopped waiting keeps its place until it ends: the next waits.
    #[tokio::test]
    async fn a_piece_left_behind_keeps_its_place_until_it_ends() {
        static PLACES: Semaphore = Semaphore::const_new(1);
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let left = tokio::spawn(within(&PLACES, "a piece left behind", move || {
            Ok(rx.recv().ok())
        }));
        tokio::time::sleep(Duration::from_millis(50)).await;
        left.abort();
        let ran = Arc::new(AtomicBool::new(false));
        let next = tokio::spawn(within(&PLACES, "the next piece", {
            let ran = ran.clone();
            move || {
                ran.store(true, Ordering::SeqCst);
                Ok(())
            }
        }));
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(
            !ran.load(Ordering::SeqCst),
            "ran beside the piece left behind"
        );
        tx.send(()).unwrap();
        next.await.unwrap().unwrap();
        assert!(ran.load(Ordering::SeqCst));
    }
}
