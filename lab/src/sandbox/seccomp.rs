//! The system-call filter a sandboxed process runs under (passed to bubblewrap, which installs it
//! right before `exec`, after its own namespace set-up): no new namespaces, no mounts, no
//! tracing or reading of another process's memory, no kernel keyrings, BPF or module loading.
//! The calls fail with `EPERM`; `clone3`, whose flags a filter cannot read, fails with `ENOSYS`,
//! on which the C libraries fall back to `clone`, whose namespace flags are filtered.

use std::collections::BTreeMap;
use std::io::{Seek, Write};
use std::os::fd::OwnedFd;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The calls refused outright.
const REFUSED: &[libc::c_long] = &[
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kcmp,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_open_by_handle_at,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
];

/// The `clone` flags that make namespaces.
const NAMESPACE_FLAGS: &[libc::c_int] = &[
    libc::CLONE_NEWNS,
    libc::CLONE_NEWCGROUP,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
];

/// Why no filter could be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SeccompError {
    /// The filter could not be compiled for this machine's architecture.
    #[error("the system-call filter cannot be built for {arch}: {source}")]
    Build {
        /// The architecture.
        arch: &'static str,
        /// What the compiler said.
        source: seccompiler::BackendError,
    },
    /// The compiled filter could not be handed over.
    #[error("the system-call filter cannot be handed over: {0}")]
    Io(#[from] std::io::Error),
}

/// The two filters, compiled: the refusals (`EPERM`) and `clone3` (`ENOSYS`).
fn programs() -> Result<[BpfProgram; 2], SeccompError> {
    let arch = std::env::consts::ARCH;
    let build = |source| SeccompError::Build { arch, source };
    let target = TargetArch::try_from(arch).map_err(build)?;
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> =
        REFUSED.iter().map(|&call| (call, Vec::new())).collect();
    let namespaces = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| {
            let flag = u64::from(flag.unsigned_abs());
            let condition = SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )?;
            SeccompRule::new(vec![condition])
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(build)?;
    refused.insert(libc::SYS_clone, namespaces);
    let errno = |e: i32| SeccompAction::Errno(e.unsigned_abs());
    let compile = |rules, action| {
        SeccompFilter::new(rules, SeccompAction::Allow, action, target)
            .and_then(BpfProgram::try_from)
            .map_err(build)
    };
    let clone3 = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
    Ok([
        compile(refused, errno(libc::EPERM))?,
        compile(clone3, errno(libc::ENOSYS))?,
    ])
}

/// The filters as bubblewrap reads them (`--add-seccomp-fd`): each in a memory file of its own,
/// read from its start (one pair per process: a shared file offset would move under another).
pub fn files() -> Result<Vec<OwnedFd>, SeccompError> {
    programs()?
        .iter()
        .map(|program| {
            let fd = rustix::fs::memfd_create("gdmarshal-seccomp", rustix::fs::MemfdFlags::CLOEXEC)
                .map_err(std::io::Error::from)?;
            let mut file = std::fs::File::from(fd);
            for insn in program {
                file.write_all(&insn.code.to_ne_bytes())?;
                file.write_all(&[insn.jt, insn.jf])?;
                file.write_all(&insn.k.to_ne_bytes())?;
            }
            file.rewind()?;
            Ok(OwnedFd::from(file))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_filters_compile_for_this_machine() {
        let [refused, clone3] = programs().unwrap();
        // One comparison per refused call and per namespace flag, at least.
        assert!(refused.len() > REFUSED.len() + NAMESPACE_FLAGS.len());
        assert!(!clone3.is_empty());
        assert_eq!(files().unwrap().len(), 2);
    }
}
