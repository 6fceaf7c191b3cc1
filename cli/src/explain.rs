//! `attnc explain CODE`: the long explanation of a diagnostic code, or the list of codes.

use attnc_compiler::diag::Code;
use clap::Args as ClapArgs;

use crate::Outcome;

#[derive(ClapArgs)]
pub struct Args {
    /// A code such as E0011 or W0002; `all` lists every code.
    code: String,
}

pub fn run(args: Args) -> Outcome {
    let code = args.code;
    if code.eq_ignore_ascii_case("all") {
        for c in Code::ALL {
            println!("{}  {}", c.as_str(), c.title());
        }
        return Outcome::Clean;
    }
    match Code::parse(&code) {
        Some(c) => {
            println!("{}: {}\n\n{}", c.as_str(), c.title(), c.explanation());
            Outcome::Clean
        }
        None => {
            eprintln!("error: `{code}` is not a diagnostic code");
            eprintln!("help: codes look like E0011 or W0002; `attnc explain all` lists them");
            Outcome::Usage
        }
    }
}
