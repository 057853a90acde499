//! The MCP client's roots (`roots/list`): the folders the client says the person works in,
//! added to the path sandbox for that client's session. The server asks when the client offers
//! them and again when it says they changed; a call made while a list is on its way waits for
//! it, briefly, so that it is judged by the roots the client gives.

use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::watch;

use super::paths::Sandbox;

/// How long a call waits for a list of roots on its way before going on without it.
const LIST_WAIT: Duration = Duration::from_secs(2);

#[derive(Clone, Debug, Default)]
struct Roots {
    asking: bool,
    paths: Vec<PathBuf>,
}

/// One session's client roots.
#[derive(Debug)]
pub struct ClientRoots(watch::Sender<Roots>);

impl Default for ClientRoots {
    fn default() -> Self {
        ClientRoots(watch::Sender::new(Roots::default()))
    }
}

impl ClientRoots {
    /// A list was asked for: calls wait for it.
    pub fn asking(&self) {
        self.0.send_modify(|r| r.asking = true);
    }

    /// The list came (`Some`), or the asking failed (`None`: the roots in force stay).
    pub fn answered(&self, paths: Option<Vec<PathBuf>>) {
        self.0.send_modify(|r| {
            r.asking = false;
            if let Some(paths) = paths {
                r.paths = paths;
            }
        });
    }

    /// The path sandbox of this process with these roots added.
    pub async fn sandbox(&self) -> Sandbox {
        let mut seen = self.0.subscribe();
        let _ = tokio::time::timeout(LIST_WAIT, seen.wait_for(|r| !r.asking)).await;
        let paths = seen.borrow().paths.clone();
        Sandbox::from_process().with_client_roots(&paths)
    }
}

/// A root's path from its `file://` URI; another scheme is no folder here.
pub fn path_of(uri: &str) -> Option<PathBuf> {
    let url = url::Url::parse(uri).ok()?;
    (url.scheme() == "file").then(|| url.to_file_path().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_file_uri_is_a_folder() {
        let (uri, path) = if cfg!(windows) {
            ("file:///C:/Users/ada/my%20app", "C:\\Users\\ada\\my app")
        } else {
            ("file:///home/ada/my%20app", "/home/ada/my app")
        };
        assert_eq!(path_of(uri), Some(PathBuf::from(path)));
        assert_eq!(path_of("https://example.com/app"), None);
        assert_eq!(path_of("not a uri"), None);
    }

    #[tokio::test]
    async fn a_call_waits_for_a_list_on_its_way() {
        let roots = std::sync::Arc::new(ClientRoots::default());
        roots.asking();
        let dir = std::env::temp_dir().join(format!("tabpilot-roots-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("proj")).unwrap();
        let answer = {
            let (roots, dir) = (roots.clone(), dir.join("proj"));
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                roots.answered(Some(vec![dir]));
            })
        };
        let sandbox = roots.sandbox().await;
        answer.await.unwrap();
        let listed: Vec<&str> = sandbox.roots().iter().map(|p| p.what).collect();
        assert!(listed.contains(&"the client's root"), "{listed:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
