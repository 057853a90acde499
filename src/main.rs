fn main() -> std::process::ExitCode {
    tabpilot::cli::run()
}
