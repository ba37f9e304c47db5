fn main() -> std::process::ExitCode {
    liftdesk::cli::main()
}
