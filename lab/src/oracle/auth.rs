//! Only the engine this host started gets in: a fresh random secret per engine start, handed to
//! the engine in its environment (readable by its own user only, never on a command line), and
//! presented by the engine in its first frame. Every other connection to the port is closed at
//! once and counted.

use std::io;
use std::net::{TcpListener, TcpStream};
use std::process::Child;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use super::protocol::read_frame_capped;

/// The environment variable that carries the port.
pub(crate) const PORT_VAR: &str = "GDM_PORT";
/// The environment variable that carries the secret.
pub(crate) const SECRET_VAR: &str = "GDM_SECRET";

/// The largest first frame read from a connection that has not proven itself yet.
const AUTH_FRAME: usize = 1024;

/// How long a connection may take to present the secret before it is closed.
const AUTH_WAIT: Duration = Duration::from_secs(5);

/// A fresh 256-bit secret, hex, from the operating system's random source.
pub(crate) fn new_secret() -> io::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(gdmarshal::hex::hex(&bytes))
}

/// The engine's connection, and how many others were refused before it came.
#[derive(Debug)]
pub struct Accepted {
    /// The connection that presented the secret.
    pub stream: TcpStream,
    /// Connections closed because they did not present it.
    pub refused: usize,
}

/// Accepts connections until one presents `secret` in its first frame (`{"auth":"SECRET"}`),
/// closing every other one; gives up when the engine exits or `timeout` passes. Each connection
/// is checked on its own thread, so a silent one cannot hold up the engine's.
pub(crate) fn accept_engine(
    listener: &TcpListener,
    child: &mut Child,
    secret: &str,
    timeout: Duration,
) -> io::Result<Accepted> {
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + timeout;
    let (tx, rx): (Sender<Option<TcpStream>>, Receiver<Option<TcpStream>>) = channel();
    let mut refused = 0;
    loop {
        match listener.accept() {
            Ok((stream, _)) => check(stream, secret.to_string(), tx.clone()),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
        while let Ok(verdict) = rx.try_recv() {
            match verdict {
                Some(stream) => return Ok(Accepted { stream, refused }),
                None => refused += 1,
            }
        }
        if child.try_wait()?.is_some() {
            return Err(io::Error::other("the engine exited"));
        }
        if Instant::now() >= deadline {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "no connection"));
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Reads a connection's first frame on a thread of its own and sends the stream on if it holds
/// the secret, `None` (after closing it) if not.
fn check(stream: TcpStream, secret: String, tx: Sender<Option<TcpStream>>) {
    let spawned = thread::Builder::new()
        .name("gdmarshal-engine-auth".into())
        .spawn(move || {
            let ok = presents(&stream, &secret);
            let _ = tx.send(ok.then_some(stream));
        });
    // No thread, no check: the connection is dropped (closed) with the closure.
    drop(spawned);
}

fn presents(stream: &TcpStream, secret: &str) -> bool {
    if stream.set_nonblocking(false).is_err() || stream.set_read_timeout(Some(AUTH_WAIT)).is_err() {
        return false;
    }
    let mut reader = stream;
    let Ok(body) = read_frame_capped(&mut reader, AUTH_FRAME) else {
        return false;
    };
    let ok = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("auth").and_then(|a| a.as_str()).map(|a| a == secret))
        .unwrap_or(false);
    ok && stream.set_read_timeout(None).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// Stands in for the engine process: alive for the test's length, in a group of its own.
    fn stand_in() -> Child {
        Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap()
    }

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut f = (body.len() as u32).to_le_bytes().to_vec();
        f.extend_from_slice(body);
        f
    }

    #[test]
    fn impostors_are_refused_and_the_engine_gets_in() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut child = stand_in();
        let secret = new_secret().unwrap();
        // Three impostors first: a wrong secret, a frame claiming 4 GiB, and a silent one.
        let mut wrong = TcpStream::connect(addr).unwrap();
        wrong.write_all(&frame(br#"{"auth":"guess"}"#)).unwrap();
        let mut huge = TcpStream::connect(addr).unwrap();
        huge.write_all(&u32::MAX.to_le_bytes()).unwrap();
        let _silent = TcpStream::connect(addr).unwrap();
        let engine_secret = secret.clone();
        let engine = thread::spawn(move || {
            thread::sleep(Duration::from_millis(300));
            let mut s = TcpStream::connect(addr).unwrap();
            let body = format!(r#"{{"auth":"{engine_secret}"}}"#);
            s.write_all(&frame(body.as_bytes())).unwrap();
            s
        });
        let got = accept_engine(&listener, &mut child, &secret, Duration::from_secs(10)).unwrap();
        let mine = engine.join().unwrap();
        assert_eq!(got.refused, 2, "the wrong secret and the oversized frame");
        assert_eq!(got.stream.peer_addr().unwrap(), mine.local_addr().unwrap());
        // The refused ones are closed: reading gives end of file.
        let mut buf = [0u8; 1];
        wrong
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        assert_eq!(wrong.read(&mut buf).unwrap(), 0);
        crate::group::kill_group(&mut child);
        let _ = child.wait();
    }

    #[test]
    fn no_secret_no_engine() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut child = stand_in();
        let mut wrong = TcpStream::connect(addr).unwrap();
        wrong.write_all(&frame(br#"{"auth":"guess"}"#)).unwrap();
        let e = accept_engine(&listener, &mut child, "s", Duration::from_millis(500)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        crate::group::kill_group(&mut child);
        let _ = child.wait();
    }

    #[test]
    fn secrets_are_fresh_and_long() {
        let (a, b) = (new_secret().unwrap(), new_secret().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
    }
}
