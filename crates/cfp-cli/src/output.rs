//! Writing results to standard output.
//!
//! Every command prints its result through [`print_stdout`], so that a reader that closes
//! the pipe early (`cfp cfa … --dot | head -1`) ends the command quietly with its own exit
//! code instead of a panic (Rust's `print!` panics on a closed pipe).

use crate::error::CliError;
use std::io::Write;

/// Write `text` to standard output and flush it. A closed pipe is not an error: the reader
/// has what it wanted.
pub fn print_stdout(text: &str) -> Result<(), CliError> {
    write_quietly(&mut std::io::stdout().lock(), text)
}

fn write_quietly(out: &mut impl Write, text: &str) -> Result<(), CliError> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Output(e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader has gone away after `room` bytes.
    struct ClosedAfter {
        room: usize,
        kind: std::io::ErrorKind,
    }

    impl Write for ClosedAfter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(std::io::Error::from(self.kind));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_quiet_and_other_errors_are_not() {
        let mut pipe = ClosedAfter {
            room: 3,
            kind: std::io::ErrorKind::BrokenPipe,
        };
        assert!(write_quietly(&mut pipe, "digraph {}\n").is_ok());
        let mut full = ClosedAfter {
            room: 0,
            kind: std::io::ErrorKind::StorageFull,
        };
        assert!(matches!(
            write_quietly(&mut full, "x"),
            Err(CliError::Output(_))
        ));
    }
}
