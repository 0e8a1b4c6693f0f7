//! `cfp share RECORD`: a playground share link for a run recorded by `cfp check --record`.
//!
//! Prints one line on stdout: `BASE#v1.…` (or `BASE?embed#v1.…` with `--embed`), or with
//! `--markdown` the Markdown link `[title](url)`. The fragment is the `cfp_share` codec's:
//! the program, the spec and the iteration budget of the run, the selected iteration, the
//! embed options and, with `--with-record`, the recorded events and result, so that the page
//! can replay the run without Z3.
//!
//! Exit codes: 0 (also when the link is long: the warning goes to stderr), 3 for a bad or
//! unreadable record (`path:line:col: error: message` on stderr) or bad options.

use crate::error::{CliError, Exit};
use crate::input::SourceFile;
use crate::output::print_stdout;
use cfp_share::{encode_checked, markdown_link, EmbedOptions, RecordFile};
use std::path::{Path, PathBuf};

/// Where `cargo xtask serve` serves the playground.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8000/";

/// Arguments of `cfp share` (its `--help` text).
#[derive(clap::Args, Debug)]
pub struct ShareArgs {
    /// The record file written by `cfp check --record`.
    pub record: PathBuf,
    /// The playground's address (http or https, no `#`).
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    pub base: String,
    /// Select this iteration (1-based) after the run instead of the last one.
    #[arg(long, value_name = "N")]
    pub iteration: Option<u32>,
    /// Make an embed link (`BASE?embed#…`): minimal chrome, for an iframe.
    #[arg(long)]
    pub embed: bool,
    /// Embed with read-only editors.
    #[arg(long, requires = "embed")]
    pub read_only: bool,
    /// Embed starting the animation at this iteration (1-based).
    #[arg(long, value_name = "K", requires = "embed")]
    pub start_at: Option<u32>,
    /// Embed playing the run as soon as the page loads.
    #[arg(long, requires = "embed")]
    pub autoplay: bool,
    /// Put the recorded events and result in the link (replay without Z3).
    #[arg(long)]
    pub with_record: bool,
    /// Print a Markdown link `[TITLE](URL)` instead of the bare URL.
    #[arg(long)]
    pub markdown: bool,
    /// The Markdown link's text (default: `cfplay: <verdict> — <program file name>`).
    #[arg(long, value_name = "TEXT", requires = "markdown")]
    pub title: Option<String>,
}

/// Run `cfp share`: print the link (warnings go to stderr).
pub fn run(args: &ShareArgs) -> Result<Exit, CliError> {
    print_stdout(&(link(args)? + "\n"))?;
    Ok(Exit::Ok)
}

/// The line to print (warnings go to stderr).
fn link(args: &ShareArgs) -> Result<String, CliError> {
    check_base(&args.base)?;
    let file = SourceFile::read(&args.record)?;
    let record = RecordFile::parse(&file.text).map_err(|e| {
        eprintln!(
            "{}:{}:{}: error: {}",
            file.name, e.line, e.column, e.message
        );
        CliError::Invalid {
            files: vec![file.name.clone()],
        }
    })?;
    let count = record.iterations();
    let in_range = |flag: &'static str, value: Option<u32>| match value {
        Some(v) if v == 0 || v > count => Err(CliError::bad_option(
            flag,
            format!(
                "{v} is out of range: the record has {count} iteration(s), so it must be \
                 between 1 and {count}"
            ),
        )),
        _ => Ok(value),
    };
    let mut state = record.share_state();
    state.iteration = in_range("--iteration", args.iteration)?;
    if args.embed {
        state.embed = EmbedOptions {
            read_only: args.read_only,
            start_at: in_range("--start-at", args.start_at)?,
            autoplay: args.autoplay,
        };
    }
    if args.with_record {
        state.record = Some(record.recording());
    }
    let encoded = encode_checked(&state);
    for w in &encoded.warnings {
        eprintln!("cfp share: warning: {w}");
    }
    let url = format!("{}#{}", page_url(&args.base, args.embed), encoded.fragment);
    if !args.markdown {
        return Ok(url);
    }
    let title = args.title.clone().unwrap_or_else(|| {
        let name = Path::new(&record.program.path).file_name().map_or_else(
            || record.program.path.clone(),
            |n| n.to_string_lossy().into_owned(),
        );
        format!("cfplay: {} — {name}", record.verdict().unwrap_or("unknown"))
    });
    Ok(markdown_link(&url, &title))
}

/// `--base` must be an http(s) URL with a host, and no fragment, whitespace or control
/// characters (the link is printed on one line and pasted as is).
fn check_base(base: &str) -> Result<(), CliError> {
    let rest = base
        .strip_prefix("http://")
        .or_else(|| base.strip_prefix("https://"));
    let has_host = rest.is_some_and(|r| !r.is_empty() && !r.starts_with(['/', '?']));
    if has_host && !base.contains('#') && !base.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        Ok(())
    } else {
        Err(CliError::bad_option(
            "--base",
            format!("must be an http:// or https:// URL without `#` or spaces, got `{base}`"),
        ))
    }
}

/// The page address: `base`, plus the `embed` query parameter for an embed link.
fn page_url(base: &str, embed: bool) -> String {
    if !embed {
        base.to_string()
    } else if base.ends_with(['?', '&']) {
        format!("{base}embed")
    } else if base.contains('?') {
        format!("{base}&embed")
    } else {
        format!("{base}?embed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_are_checked() {
        for ok in [
            "http://127.0.0.1:8000/",
            "https://example.org",
            "https://example.org/cfplay/?theme=dark",
        ] {
            assert!(check_base(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "ftp://x.org/",
            "example.org",
            "http://",
            "https:///path",
            "https://x.org/#a",
            "https://x.org/a b",
            "javascript:alert(1)",
        ] {
            assert!(check_base(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn embed_is_a_query_parameter() {
        assert_eq!(page_url("http://a/", false), "http://a/");
        assert_eq!(page_url("http://a/", true), "http://a/?embed");
        assert_eq!(page_url("http://a/?x=1", true), "http://a/?x=1&embed");
        assert_eq!(page_url("http://a/?", true), "http://a/?embed");
    }
}
