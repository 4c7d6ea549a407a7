"""Print N free TCP ports on 127.0.0.1, space-separated (for a test node of its own: scripts/test.sh)."""
import socket
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1
socks = []
for _ in range(n):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(*[s.getsockname()[1] for s in socks])
for s in socks:
    s.close()
