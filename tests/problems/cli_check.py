"""What the end-to-end tests of this folder share: running the command, and checks that
record a failure and go on, so that one run shows every failure."""
import os
import subprocess
import sys

failures = []
work = "."  # the test's work directory: commands run there unless told otherwise


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, flush=True)


def run(args, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(args, capture_output=True, text=True, env=full_env, cwd=cwd or work)


def expect_refusals(command, refusals):
    """Each (args, said): the command with args exits 2 and its stderr holds said."""
    for args, said in refusals:
        done = run(command + args)
        check(done.returncode == 2, "%s exited %d, not 2" % (args, done.returncode))
        check(said in done.stderr, "%s: stderr lacks %r: %s" % (args, said, done.stderr.strip()))


def finish(name):
    if failures:
        print("%s: %d failure(s)" % (name, len(failures)))
        sys.exit(1)
    print("%s: ok" % name)
