"""The plaintext servers that microbench/wrk-compare and microbench/cpu-at-rate put under load, and how to start them.

A server is named framework:transport (weir:epoll, netty:io_uring) or nginx. The Java ones are microbench's
like-for-like plaintext servers (WeirPlaintextServer, NettyPlaintextServer) with one event loop; nginx, when it is
installed, runs as one process serving on one worker's event loop (master_process off), answering every request
with the same 13-byte body (its headers add Date and Connection, about 60 bytes more per response than the Java
servers send). The scripts pin each server to one CPU with taskset and read its CPU time from /proc/<pid>/stat, so
every server here is exactly one process.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAR = os.path.join(ROOT, "microbench", "target", "microbenchmarks.jar")
JAVA_SERVERS = {
    "weir": "io.weir.microbench.http.load.WeirPlaintextServer",
    "netty": "io.weir.microbench.http.load.NettyPlaintextServer",
}
TRANSPORTS = ("nio", "epoll", "io_uring")
NGINX = "nginx"
IO_URING_DISABLED = "/proc/sys/kernel/io_uring_disabled"
LISTEN_TIMEOUT_S = 30
STOP_TIMEOUT_S = 15

# One process (master_process off) so that taskset pins all of it and /proc/<pid>/stat holds all its CPU time.
# Keep-alive without a request cap, as the Java servers: nginx's default closes a connection every 1000 requests.
NGINX_CONF = """\
worker_processes 1;
master_process off;
daemon off;
pid {dir}/nginx.pid;
error_log stderr error;
events {{
    worker_connections 4096;
}}
http {{
    access_log off;
    server_tokens off;
    keepalive_requests 100000000;
    keepalive_timeout 600s;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    server {{
        listen 127.0.0.1:{port} backlog=1024;
        location / {{
            default_type text/plain;
            return 200 "Hello, World!";
        }}
    }}
}}
"""


class Server:
    """One server to measure: framework weir, netty or nginx, and for the Java ones a transport."""

    def __init__(self, framework, transport=None):
        self.framework = framework
        self.transport = transport

    @property
    def label(self):
        return self.framework if self.transport is None else f"{self.framework}:{self.transport}"

    def __repr__(self):
        return self.label


def parse_servers(text):
    """Servers from a comma-separated list such as weir:epoll,weir:io_uring,netty:io_uring,nginx; exits with a
    message on a malformed or unavailable entry."""
    servers = []
    for item in (s.strip() for s in text.split(",")):
        framework, _, transport = item.partition(":")
        if framework == NGINX and not transport:
            if shutil.which("nginx") is None:
                sys.exit("nginx is not installed (`which nginx` found nothing): install it (apt-get install "
                         "nginx-light) or leave nginx out of --servers")
            servers.append(Server(NGINX))
        elif framework in JAVA_SERVERS and transport in TRANSPORTS:
            servers.append(Server(framework, transport))
        else:
            sys.exit(f"--servers: {item!r} (expected: weir:T or netty:T with T one of {', '.join(TRANSPORTS)}, "
                     f"or nginx)")
    if len(servers) < 2 or len({s.label for s in servers}) != len(servers):
        sys.exit(f"--servers: {text!r} (expected: two or more different servers)")
    for s in servers:
        check_transport(s.transport)
    return servers


def check_transport(transport):
    """Exits with the reason when the kernel refuses io_uring outright (the servers would fail to start)."""
    if transport != "io_uring":
        return
    try:
        with open(IO_URING_DISABLED) as f:
            disabled = f.read().strip()
    except OSError:
        return  # a kernel without the sysctl; the server says why if it cannot set up a ring
    if disabled == "2":
        sys.exit(f"io_uring is disabled on this machine ({IO_URING_DISABLED} = 2): sysctl kernel.io_uring_disabled=0")


def rotated(servers, round_index):
    """The order of one round: each round starts one server later, so every server runs in every position
    (with two servers, the order flips each round)."""
    k = round_index % len(servers)
    return servers[k:] + servers[:k]


def warmup_pieces(total, runs):
    """The warm-up split into runs of the load generator, each a new process with new connections: a warm-up of one
    long run leaves the connections' setup and teardown cold, and the measured run's new connections then set off
    recompilations of the hot per-request code (results/2026-12-07-warmup-runs.txt). Returns up to runs amounts
    (seconds or requests) adding up to total, none of them zero; none for a total of 0 (no warm-up)."""
    if total <= 0:
        return []
    runs = max(1, min(runs, total))
    return [total // runs + (1 if i < total % runs else 0) for i in range(runs)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(server, port, cpu, jvm_args=()):
    """Starts server pinned to cpu, listening on 127.0.0.1:port; returns the process once it accepts connections.
    Raises RuntimeError with the server's own error output if it exits or does not listen in time."""
    workdir = None
    if server.framework == NGINX:
        workdir = tempfile.mkdtemp(prefix="weir-nginx-")
        conf = os.path.join(workdir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(dir=workdir, port=port))
        cmd = ["taskset", "-c", str(cpu), "nginx", "-p", workdir, "-c", conf]
    else:
        cmd = ["taskset", "-c", str(cpu), "java", *jvm_args, "--enable-native-access=ALL-UNNAMED", "-cp", JAR,
               JAVA_SERVERS[server.framework], "--port", str(port), "--transport", server.transport,
               "--threads", "1"]
    return launch(cmd, port, server.label, workdir=workdir)


def launch(cmd, port, label, cwd=None, workdir=None):
    """Starts cmd (a server) and returns the process once 127.0.0.1:port accepts connections; stops it and raises
    RuntimeError with its error output if it exits or does not listen in time. Its error output goes to a temporary
    file, never to a pipe that nobody reads: a server that logs much (grpc-java logs a stack trace for every stream a
    load generator resets) would block on a full pipe. workdir, if given, is removed by stop(). Also used by
    grpc-load-compare and grpc-client-compare."""
    err = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, text=True)
    proc.weir_stderr = err
    proc.weir_workdir = workdir
    try:
        wait_listening(port, proc, label)
    except BaseException:
        stop(proc)
        raise
    return proc


def wait_listening(port, proc, label="server", timeout_s=LISTEN_TIMEOUT_S):
    """Returns once 127.0.0.1:port accepts a connection; raises RuntimeError (with the error output of a process that
    start() launched) if proc exits first or timeout_s passes. Also used by h2load-compare, h2load-tls-compare and
    ws-compare, through wrk-compare."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{label} exited with {proc.returncode} before listening" + error_output(proc))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{label} did not listen on {port} within {timeout_s}s" + error_output(proc))


def error_output(proc, max_chars=4000):
    err = getattr(proc, "weir_stderr", None)
    if err is None:
        return ""
    err.seek(0)
    return ":\n" + err.read()[:max_chars]


def stop(proc, sig=signal.SIGTERM):
    """Stops a process that start() or launch() made with sig (SIGTERM by default), killing it if it has not exited
    within STOP_TIMEOUT_S, and drops its error output and work directory."""
    proc.send_signal(sig)
    try:
        proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.weir_stderr.close()
    if proc.weir_workdir:
        shutil.rmtree(proc.weir_workdir, ignore_errors=True)


def build_jar_if_missing():
    if not os.path.exists(JAR):
        subprocess.run(["mvn", "-B", "-q", "-pl", "microbench", "-am", "package", "-DskipTests"], cwd=ROOT,
                       check=True)


def pairs(servers):
    """Every (first, second) pair in the order given: the earlier server is the numerator of each ratio."""
    return [(a, b) for i, a in enumerate(servers) for b in servers[i + 1:]]
