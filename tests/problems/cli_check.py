"""What the end-to-end tests of this folder share: running the command, and checks that
record a failure and go on, so that one run shows every failure."""
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

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


def interrupted_leaves_nothing(name, args, ready_glob):
    """Runs args with a TMPDIR of its own, sends SIGTERM once a file matching ready_glob is
    there (the run in flight), and checks that the command ends by that signal and leaves no
    working file in TMPDIR: neither its own nor those of the runs and suites it started."""
    tmp = os.path.join(work, name + "_tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    env = dict(os.environ, TMPDIR=tmp)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=work)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None and not glob.glob(os.path.join(tmp, ready_glob)):
        time.sleep(0.05)
    running = proc.poll() is None
    check(running, "%s ended before a file %s appeared" % (name, ready_glob))
    if running:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    check(proc.returncode == -signal.SIGTERM, "%s exited %s, not by SIGTERM: %s" % (name, proc.returncode, err[-1500:]))
    left = sorted(os.listdir(tmp))
    check(not left, "%s interrupted left %s in its TMPDIR" % (name, left))
    print("%s interrupted: ended by SIGTERM, %d files left" % (name, len(left)), flush=True)
    return err


def finish(name):
    if failures:
        print("%s: %d failure(s)" % (name, len(failures)))
        sys.exit(1)
    print("%s: ok" % name)
