//! Sandboxed processes are started from one thread that lives as long as the runner: bubblewrap's
//! `--die-with-parent` sets a parent-death signal, which the kernel sends when the *thread* that
//! started the process ends, and engines are started on threads that end (a parallel start).
//! Started here, a sandbox dies with the runner and not before.

use std::io;
use std::process::{Child, Command};
use std::sync::mpsc::{Sender, SyncSender, channel, sync_channel};
use std::sync::{Mutex, OnceLock};

type Order = (Command, SyncSender<io::Result<Child>>);

/// Spawns `cmd` on the lasting thread and returns its child.
pub fn spawn(cmd: Command) -> io::Result<Child> {
    static ORDERS: OnceLock<Mutex<Sender<Order>>> = OnceLock::new();
    let orders = ORDERS.get_or_init(|| {
        let (tx, rx) = channel::<Order>();
        std::thread::Builder::new()
            .name("gdmarshal-spawner".into())
            .spawn(move || {
                for (mut cmd, reply) in rx {
                    let _ = reply.send(cmd.spawn());
                }
            })
            .expect("cannot start the spawner thread");
        Mutex::new(tx)
    });
    let (reply, answer) = sync_channel(1);
    orders
        .lock()
        .map_err(|_| io::Error::other("the spawner is poisoned"))?
        .send((cmd, reply))
        .map_err(|_| io::Error::other("the spawner thread has ended"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the spawner thread has ended"))?
}
