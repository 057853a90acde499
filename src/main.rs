fn main() -> std::process::ExitCode {
    tabpilot::controller::cli::run()
}
