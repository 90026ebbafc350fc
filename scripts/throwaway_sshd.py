"""A throwaway OpenSSH server on 127.0.0.1, for the e2e tests and scripts/bench to sync through:
its host key, a user key, an sshd_config and an ssh_config live in one temporary folder, and
`sshd -D -f CONFIG` runs on a free port as the current user. Nothing of the machine's own sshd,
keys or ~/.ssh is read or changed. `ssh_command` is a MEMO_SSH for it; `host` its ssh config
host (also 127.0.0.1 through that config)."""
import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import time

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
HOST = "memo-test"


def free_port():
    with contextlib.closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ThrowawaySSHD:
    def __init__(self, folder):
        # Absolute: sshd re-executes itself for each connection and reads its files again.
        self.folder = os.path.abspath(str(folder))
        self.user = pwd.getpwuid(os.getuid()).pw_name
        self.port = free_port()
        self.process = None

    def path(self, name):
        return os.path.join(self.folder, name)

    @property
    def ssh_config(self):
        return self.path("ssh_config")

    @property
    def ssh_command(self):
        """MEMO_SSH for this server (ssh with its own config file)."""
        return f"ssh -F {self.ssh_config}"

    def start(self):
        os.makedirs(self.folder, exist_ok=True)
        for key in ("host_key", "user_key", "stranger_key"):
            # New keys each start: an earlier run's (a bench folder is kept) would make ssh-keygen ask.
            for old in (self.path(key), self.path(key + ".pub")):
                if os.path.exists(old):
                    os.remove(old)
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", self.path(key)], check=True)
        shutil.copyfile(self.path("user_key.pub"), self.path("authorized_keys"))
        with open(self.path("known_hosts"), "w") as known:
            host_key = open(self.path("host_key.pub")).read().split()
            known.write(f"[127.0.0.1]:{self.port} {host_key[0]} {host_key[1]}\n")
        with open(self.path("sshd_config"), "w") as config:
            config.write(f"""Port {self.port}
ListenAddress 127.0.0.1
HostKey {self.path("host_key")}
PidFile {self.path("sshd.pid")}
AuthorizedKeysFile {self.path("authorized_keys")}
AllowUsers {self.user}
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
MaxStartups 100
MaxSessions 100
""")
        with open(self.ssh_config, "w") as config:
            config.write(f"""Host {HOST} 127.0.0.1
    HostName 127.0.0.1
    Port {self.port}
    User {self.user}
    IdentityFile {self.path("user_key")}
    IdentitiesOnly yes
    UserKnownHostsFile {self.path("known_hosts")}
    StrictHostKeyChecking yes
    BatchMode yes
    LogLevel ERROR
""")
        # sshd's privilege separation needs this folder; as root it may be made.
        if os.getuid() == 0:
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        self.process = subprocess.Popen([SSHD, "-D", "-e", "-f", self.path("sshd_config")],
                                        stdout=subprocess.DEVNULL, stderr=open(self.path("sshd.log"), "w"))
        for _ in range(100):
            with contextlib.closing(socket.socket()) as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"sshd did not start: {open(self.path('sshd.log')).read()}")

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
