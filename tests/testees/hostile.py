#!/usr/bin/env python3
"""Hostile testees for the conformance runner's own tests (cli/tests/conform.rs). Each answers the
handshake (but no-hello) and then misbehaves on every request:

    hostile.py long-line        answers with a 1 GiB line, written a mebibyte at a time
    hostile.py wide             answers with lines just under 4 MiB of small JSON objects: a
                                decode with an Array of 279,000 Nils, an encode with a refusal
                                carrying as many in a member the runner ignores
    hostile.py deep             answers with a value nested 200,000 levels of JSON deep
    hostile.py fork-exit DIR    starts two children that keep its pipes open (each writes
                                "PID PGID" to a file in DIR), then exits with status 4
    hostile.py hang             never answers
    hostile.py no-hello         never answers the handshake
    hostile.py deaf             answers the handshake, then reads nothing more (a request larger
                                than a pipe's buffer cannot be written whole)
    hostile.py loud-error       refuses with an error of control bytes and a mebibyte of text
    hostile.py panic            writes a Rust panic and a 100-frame backtrace to stderr, exits 101

Escapes from the sandbox (cli/tests/sandbox.rs; each line of the name says what one attempt got):

    hostile.py escape PORT PID SOCKET FILE ENGINE VAR
                                at the handshake (PID: a process of the host's): enters every
                                network namespace it can open (/proc/PID's and those of every
                                process it sees) and connects to 127.0.0.1:PORT
                                from each, ptraces PID, connects to the Unix socket SOCKET directly
                                and through /proc/PID/root, appends a byte to FILE and opens ENGINE
                                for writing, reads the variable VAR and its no_new_privs flag,
                                and makes a user namespace; its name tells the results
    hostile.py children N MIB   on each request: N children each hold MIB MiB, then it answers
                                with an error naming how many of them still hold it
    hostile.py shm MIB          on each request: writes MIB MiB to a file in /dev/shm, likewise
    hostile.py fork-loop N      on each request: starts up to N sleeping children, and answers with
                                an error naming how many started
    hostile.py setsid SECS      on each request: starts `sleep SECS` in a session of its own, then
                                answers

Requests are not parsed as JSON (they can nest 2,048 levels): the id is read with a pattern.
"""

import ctypes
import errno
import os
import re
import select
import socket
import struct
import sys
import time

mode = sys.argv[1]
out = sys.stdout


def send(text):
    out.write(text + "\n")
    out.flush()


def attempt(what, action):
    """One escape attempt: `what ok`, or `what` and the error it met (EPERM, EROFS, ...)."""
    try:
        action()
        return "%s ok" % what
    except OSError as e:
        return "%s %s" % (what, errno.errorcode.get(e.errno, e.__class__.__name__))


def escapes(port, pid, sock, target, engine, var):
    libc = ctypes.CDLL(None, use_errno=True)
    tried = []

    def connect_tcp():
        socket.create_connection(("127.0.0.1", port), 0.5).close()

    def enter(path):
        fd = os.open(path, os.O_RDONLY)
        try:
            if libc.setns(fd, 0) != 0:
                raise OSError(ctypes.get_errno(), "setns")
        finally:
            os.close(fd)
        connect_tcp()

    # One path per namespace: the given process's first, then every other one it can see.
    namespaces = {}
    for p in ["%d" % pid] + [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            namespaces.setdefault(os.stat("/proc/%s/ns/net" % p).st_ino, "/proc/%s/ns/net" % p)
        except OSError:
            pass
    results = set()
    for path in namespaces.values():
        results.add(attempt("setns", lambda: enter(path)))
        if "setns ok" in results:
            break
    tried.append("setns ok" if "setns ok" in results else " ".join(sorted(results)) or "setns none")

    def trace():
        if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
            raise OSError(ctypes.get_errno(), "ptrace")
        os.waitpid(pid, 0x40000000)  # __WALL: the attach's stop
        libc.ptrace(17, pid, None, None)  # PTRACE_DETACH

    tried.append(attempt("ptrace", trace))

    def unix(path):
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(2)
        s.connect(path)
        s.close()

    tried.append(attempt("unix", lambda: unix(sock)))
    tried.append(attempt("unix-root", lambda: unix("/proc/%d/root%s" % (pid, sock))))

    def append(path):
        with open(path, "ab") as f:
            f.write(b"!")

    tried.append(attempt("write", lambda: append(target)))
    tried.append(attempt("write-root", lambda: append("/proc/%d/root%s" % (pid, target))))
    tried.append(attempt("engine", lambda: os.close(os.open(engine, os.O_WRONLY | os.O_APPEND))))
    tried.append("var %s" % os.environ.get(var, "unset"))
    status = open("/proc/self/status").read()
    tried.append("nnp %s" % re.search(r"NoNewPrivs:\s*(\d)", status).group(1))

    def new_user_namespace():  # last: it succeeds without the sandbox, and changes the process
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            raise OSError(ctypes.get_errno(), "unshare")

    tried.append(attempt("unshare", new_user_namespace))
    return tried


def hold_in_children(n, mib):
    read, write = os.pipe()
    for _ in range(n):
        if os.fork() == 0:
            block = bytearray(mib << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1
            os.write(write, struct.pack("i", os.getpid()))
            time.sleep(600)
            os._exit(0)
    os.close(write)
    said = []
    # A child killed before it said so never will: wait two seconds at most.
    while len(said) < n and select.select([read], [], [], 2)[0]:
        pid = os.read(read, 4)
        if len(pid) < 4:
            break
        said.append(struct.unpack("i", pid)[0])
    os.close(read)
    # A child the kernel killed after it said so held its memory only until the next one took
    # it: count those still alive (a killed child is a zombie a moment later).
    time.sleep(0.2)
    held = sum(1 for pid in said if os.waitpid(pid, os.WNOHANG) == (0, 0))
    return "held %d MiB in %d children" % (held * mib, held)


def hold_in_shm(mib):
    path = "/dev/shm/gdmarshal-hostile-%d" % os.getpid()
    written = 0
    try:
        with open(path, "wb") as f:
            for _ in range(mib):
                f.write(b"x" * (1 << 20))
                f.flush()
                written += 1
        return "held %d MiB of shared memory" % written
    finally:
        os.unlink(path)


def fork_loop(n):
    started = 0
    for _ in range(n):
        try:
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
        except OSError:
            break
        started += 1
    return "started %d children" % started


def setsid_survivor(secs):
    if os.fork() == 0:
        os.setsid()
        os.execvp("sleep", ["sleep", secs])
    return "left sleep %s in a session of its own" % secs


for line in sys.stdin:
    if '"op":"hello"' in line:
        if mode == "no-hello":
            time.sleep(3600)
        name = "hostile %s" % mode
        if mode == "escape":
            a = sys.argv
            name = "; ".join(escapes(int(a[2]), int(a[3]), a[4], a[5], a[6], a[7]))
        send('{"name": "%s", "protocol": 1}' % name)
        if mode == "deaf":
            time.sleep(3600)
        continue
    rid = int(re.search(r'"id":(\d+)', line).group(1))
    if mode == "long-line":
        out.write('{"id": %d, "ok": false, "error": "' % rid)
        chunk = "x" * (1 << 20)
        for _ in range(1024):
            out.write(chunk)
        send('"}')
    elif mode == "wide":
        # 15 bytes a Nil with its comma: 279,000 of them is 4,185,000 bytes, just under 4 MiB.
        nils = ",".join(['{"type":"Nil"}'] * 279000)
        if '"op":"decode"' in line:
            send('{"id": %d, "ok": true, "value": {"type": "Array", "value": [%s]}}' % (rid, nils))
        else:
            send('{"id": %d, "ok": false, "error": "no", "pad": [%s]}' % (rid, nils))
    elif mode == "deep":
        # 100,000 Arrays, each an object and a list: 200,000 levels of JSON.
        n = 100000
        send('{"id": %d, "ok": true, "value": %s%s}' % (rid, '{"type":"Array","value":[' * n, "]}" * n))
    elif mode == "fork-exit":
        for _ in range(2):
            if os.fork() == 0:
                with open(os.path.join(sys.argv[2], str(os.getpid())), "w") as f:
                    f.write("%d %d\n" % (os.getpid(), os.getpgid(0)))
                time.sleep(600)
                os._exit(0)
        time.sleep(0.2)
        os._exit(4)
    elif mode in ("children", "shm", "fork-loop", "setsid"):
        a = sys.argv
        said = {
            "children": lambda: hold_in_children(int(a[2]), int(a[3])),
            "shm": lambda: hold_in_shm(int(a[2])),
            "fork-loop": lambda: fork_loop(int(a[2])),
            "setsid": lambda: setsid_survivor(a[2]),
        }[mode]()
        send('{"id": %d, "ok": false, "error": "%s"}' % (rid, said))
    elif mode == "escape":
        send('{"id": %d, "ok": false, "error": "no codec"}' % rid)
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "loud-error":
        error = "bad \\u001b[31mred\\u001b[0m \\u0007bell \\u0000nul \\r\\u0085\\u009b2J " + "y" * (1 << 20)
        send('{"id": %d, "ok": false, "error": "%s"}' % (rid, error))
    elif mode == "panic":
        err = sys.stderr
        err.write("log: request %d\n" % rid)
        err.write("thread 'main' panicked at src/main.rs:3:5:\nboom: the value is wrong\n")
        err.write("stack backtrace:\n")
        for i in range(100):
            err.write("  %d: testee::frame_%d\n             at ./src/main.rs:%d:5\n" % (i, i, i))
        err.write("note: Some details are omitted, run with `RUST_BACKTRACE=full`.\n")
        err.flush()
        os._exit(101)
    else:
        sys.exit("unknown mode %r" % mode)
