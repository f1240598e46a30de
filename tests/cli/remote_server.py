#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""HTTP servers on 127.0.0.1 for test_cli_remote (issue 34): Debian's nginx
(nginx-light), configured here, plus one tiny raw-socket server for what
nginx will not do (a body shorter than its Content-Length).

    remote_server.py start STATE ROOT   → prints one JSON line of ports, returns when serving
    remote_server.py stop STATE

ROOT holds:
    files/…                 plain static files (Range supported)
    repos/ORG/REPO/…        Hub repositories: /api/models/ORG/REPO/revision/REV
                            (the listing, made here from the folder, ?blobs=true
                            form with sizes) and /ORG/REPO/resolve/REV/PATH
The locations (http port):
    /files/…                static, with ranges
    /norange/…              the same files, Range ignored (max_ranges 0: 200 + whole body)
    /slow/…                 answers after 30 s (echo module) — a timeout
    /loop                   redirects to itself
    /api/models/org/missing/…   401 X-Error-Code: RepoNotFound
    org/gated (API and resolve): 401 GatedRepo without a token, 403 with
                            another token than "hf_good"
    org/cdn (resolve):      302 to the cdn port, /blobs/PATH?sig=abc, which answers
                            400 when it sees an Authorization header and 403
                            without the signature
    missing files under resolve/: 404 X-Error-Code: EntryNotFound
tls port: the files over TLS with a self-signed certificate (openssl).
short port: raw server answering any GET with 206, Content-Length 1088 and
100 bytes, then closing.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

ECHO_MODULE = "/usr/lib/nginx/modules/ngx_http_echo_module.so"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def listing(repo_dir):
    siblings = []
    for base, dirs, files in os.walk(repo_dir, followlinks=True):
        dirs.sort()
        for f in sorted(files):
            full = os.path.join(base, f)
            rel = os.path.relpath(full, repo_dir)
            siblings.append({"rfilename": rel, "size": os.path.getsize(full)})
    return {"id": os.path.relpath(repo_dir, os.path.dirname(os.path.dirname(repo_dir))), "sha": "0" * 40,
            "siblings": siblings}


def write_api(root):
    repos = os.path.join(root, "repos")
    api = os.path.join(root, "api", "models")
    if os.path.isdir(repos):
        for org in sorted(os.listdir(repos)):
            for repo in sorted(os.listdir(os.path.join(repos, org))):
                d = os.path.join(api, org, repo, "revision")
                os.makedirs(d, exist_ok=True)
                data = json.dumps(listing(os.path.join(repos, org, repo)))
                for rev in ("main", "v1.0"):
                    with open(os.path.join(d, rev), "w") as f:
                        f.write(data)


def make_cert(state):
    key, crt = os.path.join(state, "key.pem"), os.path.join(state, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", crt,
                    "-days", "2", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    return key, crt


def nginx_conf(state, root, ports, key, crt):
    echo = os.path.isfile(ECHO_MODULE)
    gate = """
            if ($http_authorization = "") { add_header X-Error-Code GatedRepo always; return 401; }
            if ($http_authorization != "Bearer hf_good") { add_header X-Error-Code GatedRepo always; return 403; }"""
    slow = 'echo_sleep 30; echo "late";' if echo else "limit_rate 1; alias %s/files/;" % root
    return f"""
{"load_module " + ECHO_MODULE + ";" if echo else ""}
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {state}/nginx.pid;
error_log {state}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log {state}/access.log;
    client_body_temp_path {state}/tmp;
    proxy_temp_path {state}/tmp;
    fastcgi_temp_path {state}/tmp;
    uwsgi_temp_path {state}/tmp;
    scgi_temp_path {state}/tmp;
    default_type application/octet-stream;
    sendfile on;
    server {{
        listen 127.0.0.1:{ports['http']};
        location /files/ {{ alias {root}/files/; }}
        location /norange/ {{ alias {root}/files/; max_ranges 0; }}
        location /slow/ {{ {slow} }}
        location = /loop {{ return 302 /loop; }}
        location ^~ /api/models/org/missing/ {{ add_header X-Error-Code RepoNotFound always; return 401; }}
        location ^~ /api/models/org/gated/ {{ {gate}
            default_type application/json; alias {root}/api/models/org/gated/; }}
        location ^~ /api/models/ {{ default_type application/json; alias {root}/api/models/;
            error_page 404 = @revision_not_found; }}
        location @revision_not_found {{ add_header X-Error-Code RevisionNotFound always; return 404; }}
        location ~ ^/org/gated/resolve/[^/]+/(.+)$ {{ {gate}
            alias {root}/repos/org/gated/$1; error_page 404 = @entry_not_found; }}
        location ~ ^/org/cdn/resolve/[^/]+/(.+)$ {{
            return 302 http://127.0.0.1:{ports['cdn']}/blobs/$1?sig=abc; }}
        location ~ ^/([^/]+)/([^/]+)/resolve/[^/]+/(.+)$ {{
            alias {root}/repos/$1/$2/$3; error_page 404 = @entry_not_found; }}
        location @entry_not_found {{ add_header X-Error-Code EntryNotFound always; return 404; }}
    }}
    server {{
        listen 127.0.0.1:{ports['cdn']};
        location /blobs/ {{
            if ($http_authorization) {{ return 400; }}
            if ($arg_sig != "abc") {{ return 403; }}
            alias {root}/repos/org/cdn/;
        }}
    }}
    server {{
        listen 127.0.0.1:{ports['tls']} ssl;
        ssl_certificate {crt};
        ssl_certificate_key {key};
        location /files/ {{ alias {root}/files/; }}
    }}
}}
"""


def short_server(port):
    """Answers every request with 206, Content-Length 1088 and 100 bytes, then closes."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(8)
    while True:
        c, _ = s.accept()
        try:
            c.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = c.recv(4096)
                if not chunk:
                    break
                data += chunk
            c.sendall(b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-1087/5000\r\n"
                      b"Content-Length: 1088\r\nConnection: close\r\n\r\n" + b"x" * 100)
        except OSError:
            pass
        finally:
            c.close()


def wait_port(port, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def start(state, root):
    root, state = os.path.abspath(root), os.path.abspath(state)
    os.makedirs(os.path.join(state, "tmp"), exist_ok=True)
    write_api(root)
    ports = {k: free_port() for k in ("http", "cdn", "tls", "short")}
    key, crt = make_cert(state)
    conf = os.path.join(state, "nginx.conf")
    with open(conf, "w") as f:
        f.write(nginx_conf(state, root, ports, key, crt))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    # -e: the error log before the configuration is read (not /var/log/nginx: no root needed)
    r = subprocess.run([nginx, "-p", state, "-e", os.path.join(state, "error.log"), "-c", conf], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("nginx did not start: " + r.stderr)
    pid = os.fork()
    if pid == 0:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        short_server(ports["short"])
        os._exit(0)
    with open(os.path.join(state, "short.pid"), "w") as f:
        f.write(str(pid))
    for p in ports.values():
        if not wait_port(p):
            sys.exit("port %d does not answer" % p)
    print(json.dumps(ports), flush=True)


def stop(state):
    for name in ("nginx.pid", "short.pid"):
        p = os.path.join(state, name)
        if os.path.isfile(p):
            try:
                os.kill(int(open(p).read().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "start":
        start(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "stop":
        stop(sys.argv[2])
    else:
        sys.exit(__doc__)
