"""A MEMO_SSH wrapper for the kill tests: `ssh_relay.py CONTROL SSH-COMMAND...` runs the ssh
command with pipes and relays both ways, counting the lines (the sync exchange's messages)
that pass. Once the number in CONTROL/freeze_at have passed, it relays nothing more and writes
CONTROL/frozen, so the test kills a process at exactly that moment of the exchange; with
CONTROL/delay it sleeps that many seconds before each line (a slow connection). It writes its
own and ssh's pids to CONTROL/relay.pid and CONTROL/ssh.pid, and the lines it saw to
CONTROL/lines when the exchange ends unfrozen."""
import os
import select
import signal
import subprocess
import sys
import time

control, command = sys.argv[1], sys.argv[2:]


def read(name, default):
    try:
        return type(default)(open(os.path.join(control, name)).read())
    except FileNotFoundError:
        return default


def note(name, text):
    with open(os.path.join(control, name + ".tmp"), "w") as file:
        file.write(str(text))
    os.rename(os.path.join(control, name + ".tmp"), os.path.join(control, name))


freeze_at, delay = read("freeze_at", 1 << 30), read("delay", 0.0)
ssh = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
note("relay.pid", os.getpid())
note("ssh.pid", ssh.pid)
to_ssh = ssh.stdin.fileno()
routes = {sys.stdin.fileno(): to_ssh, ssh.stdout.fileno(): sys.stdout.fileno()}
lines = 0
while routes:
    ready, _, _ = select.select(list(routes), [], [])
    for source in ready:
        chunk = os.read(source, 1 << 16)
        if not chunk:
            if routes.pop(source) == to_ssh:
                ssh.stdin.close()
            continue
        start = 0
        while start < len(chunk):
            newline = chunk.find(b"\n", start)
            end = len(chunk) if newline < 0 else newline + 1
            if newline >= 0 and delay:
                time.sleep(delay)  # not a wait: paces a slow connection, as CONTROL/delay asks
            os.write(routes[source], chunk[start:end])
            start = end
            if newline >= 0:
                lines += 1
                if lines == freeze_at:
                    note("frozen", lines)
                    while True:
                        signal.pause()
note("lines", lines)
sys.exit(ssh.wait())
