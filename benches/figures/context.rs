//! The project-context figure: agent_context on a tree of 10,000 files with 50 skills.

use std::time::{Duration, Instant};

use tabpilot::controller::context::{ContextEnv, discovered};

use crate::{ms, quantile};

pub(crate) fn context_figures() {
    // tabpilot trusts a project only when group and others cannot write to it.
    // SAFETY: umask(2) only sets the process's file mode mask; narrowing it is harmless.
    unsafe {
        let old = libc::umask(0o022);
        libc::umask(old | 0o022);
    }
    let root = std::env::temp_dir().join(format!("tabpilot-figures-ctx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let project = root.join("project");
    let home = root.join("home");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        project.join("AGENTS.md"),
        "Run the tests before every commit.\n",
    )
    .unwrap();
    let mut files = 2;
    for s in 0..50 {
        let dir = project.join(".agents/skills").join(format!("skill-{s}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: skill-{s}\ndescription: Does task number {s} for the project\n---\nSteps.\n")).unwrap();
        files += 1;
    }
    'outer: for d in 0..100 {
        let dir = project.join("src").join(format!("module{d}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..100 {
            if files >= 10_000 {
                break 'outer;
            }
            std::fs::write(dir.join(format!("file{f}.rs")), "fn main() {}\n").unwrap();
            files += 1;
        }
    }
    let env = ContextEnv {
        home,
        codex_home: None,
        workspaces: Vec::new(),
        cwd: project.clone(),
    };
    // As agent_context runs it: through the blocking pool, from async code.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let discover = |env: &ContextEnv| runtime.block_on(discovered(env, None));
    let cold = Instant::now();
    let ctx = discover(&env).expect("the tree is valid");
    let cold = cold.elapsed();
    let mut warm: Vec<Duration> = (0..30)
        .map(|_| {
            let t = Instant::now();
            discover(&env).unwrap();
            t.elapsed()
        })
        .collect();
    warm.sort();
    println!(
        "agent_context discovery on a tree of {files} files with {} skills",
        ctx.skills.len()
    );
    println!(
        "  first call {}, warm median {}, p95 {}",
        ms(cold),
        ms(quantile(&warm, 0.5)),
        ms(quantile(&warm, 0.95))
    );
    let _ = std::fs::remove_dir_all(&root);
}
