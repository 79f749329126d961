"""A UCI engine process for the measuring scripts under tools/ (one copy of the pipe
handling): start it, send lines, read up to a line with a given prefix.

    sys.path.insert(0, <the tools folder>); from uci_engine import Engine
"""

import subprocess


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.pid = self.p.pid

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def readline(self):
        """The next line, stripped."""
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("the engine closed its output")
        return line.strip()

    def until(self, prefix):
        """The lines read up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine closed its output")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def quit(self, timeout=10):
        try:
            self.send("quit")
            self.p.wait(timeout=timeout)
        finally:
            if self.p.poll() is None:
                self.p.kill()
