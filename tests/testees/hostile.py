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

Requests are not parsed as JSON (they can nest 2,048 levels): the id is read with a pattern.
"""

import os
import re
import sys
import time

mode = sys.argv[1]
out = sys.stdout


def send(text):
    out.write(text + "\n")
    out.flush()


for line in sys.stdin:
    if '"op":"hello"' in line:
        if mode == "no-hello":
            time.sleep(3600)
        send('{"name": "hostile %s", "protocol": 1}' % mode)
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
