//! `jiang-web`: a local web board for every game jiang plays. Starts an HTTP server
//! (loopback only unless told otherwise), prints its address on stdout and serves the
//! page and its JSON API until killed. See `web/README.md`.

use jiang_web::server;
use std::net::{IpAddr, Ipv4Addr};
use std::process::ExitCode;

const USAGE: &str = "usage: jiang-web [--port N] [--host ADDR] [--egtb PATHS]
  --port N      port to listen on (default 8080; 0 picks any free port)
  --host ADDR   address to listen on (default 127.0.0.1, this machine only)
  --egtb PATHS  Xiangqi endgame tables (directories or files, as the engine's EgtbPath):
                the searches use them and the page shows their verdict";

/// The command line, parsed.
struct Args {
    host: IpAddr,
    port: u16,
    egtb: Option<String>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        host: IpAddr::V4(Ipv4Addr::LOCALHOST),
        port: 8080,
        egtb: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--port" => {
                let v = value("--port")?;
                parsed.port = v.parse().map_err(|_| format!("bad port '{v}'"))?;
            }
            "--host" => {
                let v = value("--host")?;
                parsed.host = v.parse().map_err(|_| format!("bad address '{v}'"))?;
            }
            "--egtb" => parsed.egtb = Some(value("--egtb")?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(parsed)
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("jiang-web: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(paths) = &args.egtb {
        let report = jiang::xiangqi::egtb::load_paths(paths);
        for (path, why) in &report.refused {
            eprintln!("jiang-web: tablebase {path} refused: {why}");
        }
        eprintln!("jiang-web: {} tablebases loaded", report.loaded.len());
    }
    let server = match server::WebServer::bind(args.host, args.port) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "jiang-web: cannot listen on {}:{}: {e}",
                args.host, args.port
            );
            return ExitCode::FAILURE;
        }
    };
    let addr = server.local_addr();
    println!("jiang-web listening on http://{addr}/");
    if !args.host.is_loopback() {
        println!(
            "warning: listening on {} — other machines can reach this board (no authentication)",
            args.host
        );
    }
    server.run();
    ExitCode::SUCCESS
}
