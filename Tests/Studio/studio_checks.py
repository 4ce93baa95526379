"""What the studio's test scripts share: one line per check with the failures counted, a free port."""
import socket

FAILED = []


def check(name, condition, detail=""):
    """Prints one line for a check and remembers a failure."""
    detail = " ".join(str(detail).split())[:200]
    print(f"{'ok  ' if condition else 'FAIL'} {name}" + (f": {detail}" if detail else ""), flush=True)
    if not condition:
        FAILED.append(name)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def summary():
    """Prints the count and returns the exit status: 1 when a check failed."""
    print(f"{len(FAILED)} failed" if FAILED else "all passed")
    return 1 if FAILED else 0
